"""What grading loads (the adapters start on every tool call): a program's rules and the bash grammar are
imported only when a command needs them, and every entry of the table does load; plus the input class that crashes
the bash parser (tree-sitter/tree-sitter-bash#337), refused before parsing at any depth."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.table import PROGRAMS, table_rows
from bot.risk.walker import PARSER_CRASH, UnsafeToParse, parse

ROOT = Path(__file__).resolve().parents[2]


def loaded_after(command: str) -> set[str]:
    """The ``bot.risk.programs.*`` modules and tree-sitter modules loaded after grading ``command`` in a fresh
    interpreter."""
    code = (
        "import json, sys\n"
        "from bot.risk import classify\n"
        f"classify({command!r}, contained=False)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('bot.risk.programs.', 'tree_sitter')))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout))


def test_grading_a_plain_read_only_command_loads_no_program_module_and_no_parser() -> None:
    assert loaded_after("ls -la | wc -l") == {"bot.risk.programs.kit"}


def test_grading_loads_the_module_of_each_program_the_command_names() -> None:
    loaded = loaded_after("git status && docker ps")
    assert {"bot.risk.programs.git", "bot.risk.programs.control"} <= loaded
    assert "bot.risk.programs.databases" not in loaded and "bot.risk.programs.cloud" not in loaded
    assert "tree_sitter_bash" not in loaded  # plain words: not parsed
    assert "tree_sitter_bash" in loaded_after("echo $(git status)")


def test_every_entry_of_the_table_loads_a_handler_with_its_source() -> None:
    rows = table_rows()
    assert len(rows) == len(PROGRAMS) > 300
    for name, handler, source in rows:
        assert handler and source, name
        assert callable(PROGRAMS[name].handler) and name in PROGRAMS
    assert "not-a-program" not in PROGRAMS and PROGRAMS.get("not-a-program") is None
    with pytest.raises(KeyError):
        PROGRAMS["not-a-program"]


# -- the parser crash (tree-sitter/tree-sitter-bash#337) -------------------------------------------------------------
@pytest.mark.parametrize("text", ["{\U0010ffff", "a{\U0001f389", "{12\u4e2d", "{1..\U000e0001}", "{ls;}\n{\U00100000"])
def test_text_that_would_crash_the_parser_is_refused_before_parsing(text: str) -> None:
    assert PARSER_CRASH.search(text.encode())
    with pytest.raises(UnsafeToParse):
        parse(text.encode())


@pytest.mark.parametrize("text", ["{é}", "echo { 🎉 }", 'echo \'{"emoji": "🎉"}\'', "{1.🎉", "🎉{}"])
def test_text_near_the_crash_class_is_parsed_as_usual(text: str) -> None:
    assert not PARSER_CRASH.search(text.encode())
    parse(text.encode())


@pytest.mark.parametrize(
    "command",
    [
        "echo a{\U0010ffff}",  # at the top
        "bash -c 'echo {\U0001f389,x}'",  # in a nested script
        "bash -c $'echo {\\U0010ffff}'",  # a nested script that is ASCII until bash decodes it
    ],
)
@pytest.mark.parametrize("contained", [False, True])
def test_a_command_that_would_crash_the_parser_grades_destructive_and_says_why(command: str, contained: bool) -> None:
    graded = classify(command, contained=contained)
    assert graded.risk == RiskLevel.DESTRUCTIVE
    assert any(r.rule == "unparseable-text" and "crashes the bash parser" in r.detail for r in graded.reasons)


def test_an_ordinary_command_with_emoji_still_grades_by_its_program() -> None:
    assert classify("git commit -m '🎉 release'", contained=False).risk == RiskLevel.WORKSPACE_WRITE
