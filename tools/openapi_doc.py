"""The API's OpenAPI document for the docs: written from the code, and rendered into ``docs/api.md``.

As a script, ``python tools/openapi_doc.py`` writes ``docs/api/openapi.json`` from
:func:`bot.api.openapi.build_openapi` (the document an HTTP-mode server serves at ``GET /v1/openapi.json``, with
``POST /slack/events``); ``--check`` writes nothing and exits 1 when the committed copy differs from the code's.

As an MkDocs hook (``hooks:`` in ``mkdocs.yml``), it replaces the line ``<!-- openapi -->`` in ``api.md`` with the
committed document rendered as Markdown: every operation (method, path, summary, authentication, parameters,
request body, responses) and every schema's properties.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOCUMENT = ROOT / "docs" / "api" / "openapi.json"
MARKER = "<!-- openapi -->"
METHODS = ("get", "put", "post", "delete", "patch")


def current_text() -> str:
    """The document the code builds, as the committed file holds it (2-space JSON, UTF-8, final newline)."""
    sys.path.insert(0, str(ROOT))
    from bot.api.openapi import build_openapi

    return json.dumps(build_openapi(slack_events=True), indent=2, ensure_ascii=False) + "\n"


def _cell(text: object) -> str:
    """``text`` for one Markdown table cell or line: reST literals and roles of docstrings as code, no newlines."""
    plain = re.sub(r":[a-z]+:`~?([^`]+)`", r"`\1`", str(text)).replace("``", "`")
    return plain.replace("|", "\\|").replace("\n", " ")


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _type(schema: dict[str, Any]) -> str:
    """A schema in one short Markdown phrase: a link for a ``$ref``, the type, the item type, the alternatives."""
    if "$ref" in schema:
        name = _ref_name(schema["$ref"])
        return f"[{name}](#{name.lower()})"
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return " or ".join(_type(part) for part in schema[key])
    kind = schema.get("type")
    if kind == "array":
        return f"array of {_type(schema.get('items', {}))}"
    if "enum" in schema:
        return "one of " + ", ".join(f"`{json.dumps(value)}`" for value in schema["enum"])
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    if isinstance(kind, list):
        return " or ".join(str(k) for k in kind)
    return str(kind or "any")


def _limits(schema: dict[str, Any]) -> str:
    parts = []
    for key in ("minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems", "pattern", "format", "default"):
        if key in schema:
            parts.append(f"{key} `{json.dumps(schema[key], ensure_ascii=False)}`")
    return ", ".join(parts)


def _content_types(block: dict[str, Any]) -> str:
    out = []
    for media, body in block.get("content", {}).items():
        schema = body.get("schema")
        out.append(f"`{media}`" + (f": {_type(schema)}" if schema else ""))
    return "; ".join(out)


def render(document: dict[str, Any]) -> str:
    """The document as Markdown: one section per operation, then one per schema."""
    lines: list[str] = []
    schemes = document.get("components", {}).get("securitySchemes", {})
    lines += ["### Authentication", "", "| scheme | how | what it is |", "|---|---|---|"]
    for name, scheme in schemes.items():
        how = scheme.get("scheme") or scheme.get("in") or scheme.get("type")
        lines.append(f"| `{name}` | {_cell(how)} | {_cell(scheme.get('description', ''))} |")
    lines += ["", "### Operations", ""]
    for path, operations in document["paths"].items():
        for method in METHODS:
            op = operations.get(method)
            if op is None:
                continue
            lines += [f"#### `{method.upper()} {path}`", "", _cell(op.get("summary", "")), ""]
            if op.get("description"):
                lines += [op["description"], ""]
            security = op.get("security", document.get("security", []))
            names = sorted({name for requirement in security for name in requirement})
            lines += ["Authentication: " + (", ".join(f"`{n}`" for n in names) if names else "none"), ""]
            params = op.get("parameters", [])
            if params:
                lines += ["| parameter | in | type | required | meaning |", "|---|---|---|---|---|"]
                for p in params:
                    schema = p.get("schema", {})
                    kind = _type(schema) + (f" ({_limits(schema)})" if _limits(schema) else "")
                    needed = "yes" if p.get("required") else "no"
                    lines.append(
                        f"| `{p['name']}` | {p['in']} | {_cell(kind)} | {needed} | {_cell(p.get('description', ''))} |"
                    )
                lines.append("")
            if "requestBody" in op:
                lines += ["Request body: " + _content_types(op["requestBody"]), ""]
            lines += ["| status | meaning | body |", "|---|---|---|"]
            for status, response in op.get("responses", {}).items():
                meaning, body = _cell(response.get("description", "")), _cell(_content_types(response))
                lines.append(f"| {status} | {meaning} | {body} |")
            lines.append("")
    lines += ["### Schemas", ""]
    for name, schema in document.get("components", {}).get("schemas", {}).items():
        lines += [f"#### {name}", ""]
        if schema.get("description"):
            lines += [_cell(schema["description"]), ""]
        properties = schema.get("properties", {})
        if not properties:
            lines += [f"Type: {_cell(_type(schema))}", ""]
            continue
        required = set(schema.get("required", []))
        described = any(prop.get("description") for prop in properties.values())
        lines += [
            "| field | type | required | limits |" + (" meaning |" if described else ""),
            "|---|---|---|---|" + ("---|" if described else ""),
        ]
        for field, prop in properties.items():
            meaning = f" {_cell(prop.get('description', ''))} |" if described else ""
            lines.append(
                f"| `{field}` | {_cell(_type(prop))} | {'yes' if field in required else 'no'} "
                f"| {_cell(_limits(prop))} |" + meaning
            )
        lines.append("")
    return "\n".join(lines)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """MkDocs hook: render the committed document where ``api.md`` has the marker line."""
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, render(json.loads(DOCUMENT.read_text(encoding="utf-8"))))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when the document is not current")
    parser.add_argument("--document", type=Path, default=DOCUMENT, help="the file (default docs/api/openapi.json)")
    args = parser.parse_args(argv)
    document: Path = args.document
    text = current_text()
    if args.check:
        if not document.exists() or document.read_text(encoding="utf-8") != text:
            print(f"{document} is out of date: run python tools/openapi_doc.py", file=sys.stderr)
            return 1
        return 0
    document.parent.mkdir(parents=True, exist_ok=True)
    document.write_text(text, encoding="utf-8")
    print(f"wrote {document}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
