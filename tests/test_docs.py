"""The documentation stays true to the tree: every relative link in README.md, ARCHITECTURE.md and docs/ reaches
an existing file (and heading, for ``#anchor``), the committed OpenAPI document is the one the code builds, and
every module ARCHITECTURE.md names exists."""

from __future__ import annotations

import os
import re
import struct
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~)")


def slug(heading: str) -> str:
    """The anchor Python-Markdown's ``toc`` (MkDocs) gives a heading; GitHub's is the same for these headings."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def _prose(text: str) -> list[str]:
    """The lines outside fenced code blocks, with inline code spans blanked."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(re.sub(r"`[^`]*`", "``", line))
    return lines


def anchors(page: Path) -> set[str]:
    """The anchors of the page's headings (outside fenced code)."""
    found, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
        elif not fenced and (heading := re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)):
            found.add(slug(heading.group(1)))
    return found


def links(page: Path) -> list[str]:
    return [target for line in _prose(page.read_text(encoding="utf-8")) for target in LINK.findall(line)]


def broken_links(pages: list[Path], root: Path = ROOT) -> list[str]:
    """``page: target (why)`` for each relative link that does not resolve (``page`` relative to ``root``)."""
    broken = []
    for page in pages:
        for target in links(page):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            path_part, _, anchor = target.partition("#")
            resolved = (page.parent / path_part).resolve() if path_part else page
            if not resolved.exists():
                broken.append(f"{page.relative_to(root)}: {target} (no such file)")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                broken.append(f"{page.relative_to(root)}: {target} (no heading #{anchor})")
    return broken


def test_every_relative_link_resolves() -> None:
    assert all(page.exists() for page in PAGES), [str(p) for p in PAGES if not p.exists()]
    assert sum(len(links(page)) for page in PAGES) > 20
    assert broken_links(PAGES) == []


def test_a_broken_link_or_anchor_is_found(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other page\n\n## A `flybot exec` section\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#a-flybot-exec-section) [gone](missing.md) [bad](other.md#nowhere)\n"
        "```sh\n[in code](ignored.md)\n```\n"
    )
    assert broken_links([page], tmp_path) == [
        "page.md: missing.md (no such file)",
        "page.md: other.md#nowhere (no heading #nowhere)",
    ]


def test_the_readme_stays_short() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 250


def test_the_committed_openapi_document_is_the_codes() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "openapi_doc.py"), "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def test_the_openapi_check_fails_on_a_stale_copy(tmp_path: Path) -> None:
    def check(document: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(ROOT / "tools" / "openapi_doc.py"), "--check", "--document", str(document)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )

    current = (ROOT / "docs" / "api" / "openapi.json").read_text(encoding="utf-8")
    stale = tmp_path / "openapi.json"
    stale.write_text(current.replace('"title": "FlyBot API"', '"title": "FlyBot API (old)"', 1), encoding="utf-8")
    done = check(stale)
    assert done.returncode == 1 and "out of date" in done.stderr, done.stderr
    stale.write_text(current, encoding="utf-8")
    assert check(stale).returncode == 0


def test_every_module_architecture_names_exists() -> None:
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    paths = re.findall(r"(?<![\w/])((?:bot|cards|tests|benchmarks|tools|deploy|docs)/[\w./-]*)", text)
    named = {name.rstrip(".,:;") for name in paths}
    assert len(named) > 30
    missing = sorted(name for name in named if not (ROOT / name.rstrip("/")).exists())
    assert missing == []


@pytest.mark.timeout(180)
def test_the_screenshot_script_draws_the_card(tmp_path: Path) -> None:
    """tools/screenshots.py still makes docs/img/card.png's picture: a PNG of the pending card, from a real
    ``flybot serve`` in local mode and Debian's chromium."""
    if not Path("/usr/bin/chromium").exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI must install Debian's chromium (.ci/run): no Chromium at /usr/bin/chromium")
        pytest.skip("no Chromium at /usr/bin/chromium (Debian package `chromium`)")
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "screenshots.py"), "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=150,
    )
    assert done.returncode == 0, done.stderr
    picture = (tmp_path / "card.png").read_bytes()
    assert picture.startswith(b"\x89PNG\r\n\x1a\n") and len(picture) > 10_000
    width, height = struct.unpack(">II", picture[16:24])
    assert width > 400 and height > 300, (width, height)
