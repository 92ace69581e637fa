"""Places where tree-sitter-bash reads a script differently from bash: found in the tree, graded destructive.

The walk grades what the tree says. Where bash runs text that the tree holds as a literal, the grade would be of
a different script, so each such place is refused (rule ``misread``) and a person reads the script. Each check is
bash's rule (bash(1), the sections named) against the shape tree-sitter-bash 0.25 gives the same text:

* Here-documents ("Here Documents"): bash ends the body at the first line equal to the delimiter after quote
  removal (``<<-``: after leading tabs), so ``<<E"O"F`` ends at ``EOF``; the tree waits for ``E"O"F``. Only the
  spellings ``WORD``, ``'WORD'``, ``"WORD"`` and ``\\WORD`` of a delimiter of ``[A-Za-z0-9_.-]`` are read, and a
  body holding a line that ends it early is refused. In a body whose delimiter is unquoted, bash expands ``$(``,
  ``$((``, ``$[``, ``${`` and backquotes anywhere (tabs before them included) and single quotes do not quote;
  every such expansion must be a node of the tree, and a single-quoted string in it must hold no ``$`` or
  backquote.
* Arithmetic ("ARITHMETIC EVALUATION", "Arrays"): ``$(( ))``, ``$[ ]``, ``(( ))``, ``for (( ))``, an array
  subscript and the ``[KEY]=`` of an array's ``( ... )`` are read as if double-quoted: single quotes do not quote, so ``$(( '$(cmd)' ))`` runs ``cmd``.
* Double-quoted ``${...}`` ("Parameter Expansion" in "Double Quotes"): a single-quoted word inside
  ``"${x:-'...'}"`` is not quoted: a ``$`` or backquote in it expands.
* Backquotes ("Command Substitution"): an escaped backquote inside a backquoted command is a nested command
  substitution; the tree reads it as a word.
* ``${x@P}`` ("Parameter transformation"): expands the value as a prompt, which runs the command substitutions
  in it.
* Text read when it runs (``read``, ``mapfile``, ``NAME=$(...)``, ``for NAME in $(...)``) used where bash
  evaluates arithmetic ("ARITHMETIC EVALUATION": a variable's value is evaluated as an expression, and a
  subscript in it, ``a[$(cmd)]``, runs ``cmd``): the classifier cannot see that text.
"""

from __future__ import annotations

import re

from bot.risk.regex import Regex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["misreadings", "shell_dialect"]

_DELIMITER = Regex(r"[A-Za-z0-9_.-]+")
_EXPANSION_START = Regex(r"\$[({\[]|`")
_EXPANSION_NODES = frozenset({"command_substitution", "expansion", "arithmetic_expansion", "simple_expansion"})
_QUOTED_NODES = frozenset({"raw_string", "ansi_c_string"})
_ARITHMETIC_CONTEXTS = frozenset({"arithmetic_expansion", "subscript", "c_style_for_statement"})
_LIMIT = 40


def _text(node: Node, src: bytes) -> str:
    return src[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _delimiter(start: str) -> str | None:
    """The delimiter bash reads from a ``heredoc_start`` spelling, or None for a spelling not read here."""
    for word in (start, start[1:-1] if len(start) > 2 and start[0] == start[-1] and start[0] in "'\"" else None):
        if word is not None and _DELIMITER.fullmatch(word):
            return word
    if start.startswith("\\") and _DELIMITER.fullmatch(start[1:]):
        return start[1:]
    return None


def _heredoc(node: Node, src: bytes) -> str | None:
    start = next((c for c in node.children if c.type == "heredoc_start"), None)
    body = next((c for c in node.children if c.type == "heredoc_body"), None)
    if start is None:
        return None
    spelled = _text(start, src)
    delimiter = _delimiter(spelled)
    if delimiter is None:
        return f"The here-document delimiter {spelled[:_LIMIT]!r} is spelled in a way the classifier does not read."
    if body is None:
        return None
    text = _text(body, src)
    tabs = any(c.type == "<<-" for c in node.children)
    if any((line.lstrip("\t") if tabs else line) == delimiter for line in text.split("\n")):
        return f"The here-document body holds a line {delimiter!r} that ends it early: bash runs the lines after it."
    if spelled != delimiter:
        return None  # quoted: bash expands nothing in the body
    if any(line.endswith("\\") and (len(line) - len(line.rstrip("\\"))) % 2 == 1 for line in text.split("\n")):
        return (
            "A here-document body line ends with a backslash: bash joins it to the next, which may end the body early."
        )
    covered = [
        (c.start_byte - body.start_byte, c.end_byte - body.start_byte)
        for c in body.named_children
        if c.type in _EXPANSION_NODES
    ]
    raw = text.encode("utf-8", "surrogatepass")
    for found in _EXPANSION_START.finditer(text):
        offset = len(text[: found.start()].encode("utf-8", "surrogatepass"))
        if offset > 0 and raw[offset - 1 : offset] == b"\\":
            continue  # \$ and \` are literal in a body
        if not any(begin <= offset < end for begin, end in covered):
            return "The here-document body has an expansion the classifier cannot read (bash runs it)."
    return None


def _in_double_quote_context(node: Node) -> bool:
    """True when bash reads ``node`` (a quoted string) as if double-quoted, where single quotes do not quote."""
    parent = node.parent
    inside_expansion = False
    while parent is not None:
        kind = parent.type
        if kind in _ARITHMETIC_CONTEXTS:
            return True
        if kind == "compound_statement" and parent.child_count and parent.children[0].type == "((":
            return True
        if (  # ( [KEY]=VALUE ... ): the tree makes a concatenation of "[", KEY, "]=VALUE"
            kind == "concatenation"
            and parent.parent is not None
            and parent.parent.type == "array"
            and parent.child_count
            and parent.children[0].type == "word"
            and parent.children[0].text is not None
            and parent.children[0].text.startswith(b"[")
        ):
            return True
        if kind == "expansion":
            inside_expansion = True
        elif kind in ("string", "heredoc_body") and inside_expansion:
            return True
        elif kind in ("command_substitution", "subshell", "program"):
            return False
        parent = parent.parent
    return False


#: ``\`` + newline (bash removes it before reading words) before ``#`` (no longer a comment: ``status\`` / ``#x;
#: rm``) or after ``$`` (``$\`` / ``(cmd)`` is a command substitution).
_CONTINUED = Regex(r"\\\n#|\$\\\n")
_NAME = Regex(r"[A-Za-z_][A-Za-z0-9_]*")
_READERS = frozenset({"read", "mapfile", "readarray"})
_ARITHMETIC_TESTS = Regex(r"\s-(?:eq|ne|lt|le|gt|ge|v)\s")
_RUNTIME = frozenset({"command_substitution", "process_substitution", "expansion", "simple_expansion"})


def _has(node: Node, kinds: frozenset[str]) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in kinds:
            return True
        stack.extend(current.children)
    return False


def _runtime_names(nodes: list[Node], src: bytes) -> set[str]:
    """Variables the script fills with text known only when it runs: ``read``/``mapfile``/``readarray`` names
    (and REPLY, MAPFILE), ``NAME=$(...)``, and a ``for`` variable over values that expand."""
    names: set[str] = set()
    for node in nodes:
        if node.type == "command":
            words = [_text(c, src) for c in node.named_children]
            if words and words[0] in _READERS:
                names.update(w for w in words[1:] if _NAME.fullmatch(w))
                names.update(("REPLY", "MAPFILE"))
        elif node.type == "variable_assignment" and len(node.children) >= 3:
            if _has(node.children[-1], frozenset({"command_substitution", "process_substitution"})):
                names.add(_text(node.children[0], src).split("[", 1)[0])
        elif node.type == "for_statement":
            variable = node.child_by_field_name("variable")
            values = node.children_by_field_name("value")
            if variable is not None and any(_has(v, _RUNTIME) for v in values):
                names.add(_text(variable, src))
    return names


def _arithmetic_text(nodes: list[Node], src: bytes) -> list[str]:
    """The text of every place bash evaluates as arithmetic (bash(1) ARITHMETIC EVALUATION: ``$(( ))``, ``$[ ]``,
    ``(( ))``, ``for (( ))``, subscripts, ``let``, ``declare -i`` values, ``[[`` integer comparisons and ``-v``)."""
    texts: list[str] = []
    for node in nodes:
        kind = node.type
        text = _text(node, src)
        if kind in ("arithmetic_expansion", "subscript", "c_style_for_statement"):
            texts.append(text)
        elif kind == "compound_statement" and node.child_count and node.children[0].type == "((":
            texts.append(text)
        elif kind == "test_command" and text.startswith("[[") and _ARITHMETIC_TESTS.search(text):
            texts.append(text)
        elif kind == "command" and text.split(None, 1)[0:1] == ["let"]:
            texts.append(text[3:])
        elif kind == "declaration_command" and re.search(r"\s-[A-Za-z]*i", text):
            texts.append(text)
        elif kind == "command" and text.split(None, 1)[0:1] in (["test"], ["["]) and " -v " in f" {text} ":
            texts.append(text)
    return texts


def _read_values_in_arithmetic(nodes: list[Node], src: bytes) -> str | None:
    names = _runtime_names(nodes, src)
    if not names:
        return None
    for text in _arithmetic_text(nodes, src):
        used = names.intersection(_NAME.findall(text))
        if used:
            name = sorted(used)[0]
            return (
                f"{name} holds text known only when it runs, and bash evaluates it as arithmetic, where a "
                "subscript in it runs commands."
            )
    return None


def misreadings(root: Node, src: bytes) -> list[str]:
    """Where tree-sitter-bash reads ``src`` (parsed as ``root``) differently from bash: one sentence each."""
    found: list[str] = []
    every: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind == "heredoc_redirect":
            why = _heredoc(node, src)
            if why is not None:
                found.append(why)
        elif kind in _QUOTED_NODES:
            text = _text(node, src)
            if ("$" in text[1:] or "`" in text) and _in_double_quote_context(node):
                found.append(
                    f"{text[:_LIMIT]} is quoted where bash does not take quotes (arithmetic, an array subscript, "
                    '"${...}"): what it holds runs.'
                )
        elif kind == "command_substitution" and _text(node, src).startswith("`") and "\\`" in _text(node, src):
            found.append("A backquoted command holds escaped backquotes: bash runs them as a nested command.")
        elif kind == "expansion" and any(
            c.type == "@" and (c.next_sibling is not None and _text(c.next_sibling, src) == "P") for c in node.children
        ):
            found.append("${...@P} expands a value as a prompt, which runs the commands in it.")
        every.append(node)
        stack.extend(node.children)
    why = _read_values_in_arithmetic(every, src)
    if why is not None:
        found.append(why)
    rows = [node.start_point[0] for node in every if node.type == "heredoc_start"]
    if len(rows) != len(set(rows)):
        found.append("Two here-documents start on one line: the parser may give each the other's body.")
    text = src.decode("utf-8", "replace")
    if _CONTINUED.search(text):
        found.append("A line continuation joins a # or a $ to the next line: bash reads a different command there.")
    return found


#: Spellings bash reads but a POSIX sh (dash on Debian and Ubuntu) reads otherwise: ``$'...'`` and ``$"..."``
#: (dash: ``$`` then a quoted string), ``[[`` (dash: a command name, so ``>`` in it is a redirect), ``((`` (dash:
#: two subshells running what bash takes for arithmetic).
_DIALECT = Regex(r"\$['\"]|\[\[|(?<!\$)\(\(")


def shell_dialect(text: str) -> str | None:
    """Why ``text``, run by sh rather than bash, may not be the script the classifier reads; None when it reads
    the same in both."""
    found = _DIALECT.search(text)
    if found is None:
        return None
    return (
        f"sh (dash on Debian and Ubuntu) does not read {found.group()!r} as bash does: the script it runs may differ."
    )
