"""Reads through names computed earlier in the same script: a variable given a literal value in straight-line code
(``NAME=literal``, ``export NAME=literal``, a ``for NAME in WORDS`` body) is read as that literal, so ``f=.env; cat
"$f"`` is a secret read. Where bash's order leaves the value uncertain (a branch, a loop body, a subshell, ``read``,
a function call) the expansion stays unknown. Everyday neighbours keep their grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

RO = RiskLevel.READ_ONLY
NET = RiskLevel.NETWORK
WORKSPACE = Path("/home/dev/project")


def rules(command: str) -> set[str]:
    return {r.rule for r in classify(command, contained=False, workspace=WORKSPACE).reasons}


def grade(command: str) -> RiskLevel:
    return classify(command, contained=False, workspace=WORKSPACE).risk


KNOWN_SECRET_READS = [
    'f=.env; cat "$f"',
    "f=.env && cat $f",
    'F=~/.ssh/id_rsa; cat "$F"',
    'export K=.env; less "$K"',
    'for f in .env .env.local; do cat "$f"; done',
    'x=.e; cat "${x}nv"',
    'd=~/.ssh; head "$d/id_ed25519"',
    'f=.env; { cat "$f"; }',
    'f=.env; if true; then cat "$f"; fi',
    'f=.env; echo hi | cat "$f"',
    "f=.env; cat < $f",
    'for f in .env*; do cat "$f"; done',
    'f=README.md; f=.env; cat "$f"',
    'f=.env; if true; then f=.env; fi; cat "$f"',
    'f=.env; x=$f; cat "$x"',
    'f=.env; x="${f}"; f=README.md; cat "$x"',
]


@pytest.mark.parametrize("command", KNOWN_SECRET_READS)
def test_literal_variable_read_is_secret_read(command: str) -> None:
    assert "secret-read" in rules(command)
    assert grade(command) >= NET


EVERYDAY_NEIGHBOURS = [
    'f=README.md; cat "$f"',
    'for f in *.py; do wc -l "$f"; done',
    "find . -name '*.py' | xargs cat",
    "cat $(git ls-files '*.md')",
    'f=src; ls "$f"',
    "f='$HOME'; cat \"$f\"",
    'f=.env; cat "\\$f"',
    "f=.env; cat '$f'",
    'for f in README.md setup.py; do cat "$f"; done',
]


@pytest.mark.parametrize("command", EVERYDAY_NEIGHBOURS)
def test_everyday_reads_through_variables_stay_reads(command: str) -> None:
    assert "secret-read" not in rules(command)
    assert grade(command) == RO


UNCERTAIN = [
    # assigned in a branch, a subshell, a pipeline element, a loop or function body: not known after it
    'f=README.md; if test -e x; then f=other; fi; cat "$f"',
    '(f=.env); cat "$f"',
    'echo | f=.env; cat "$f"',
    'while true; do cat "$f"; f=.env; break; done',
    'g() { f=.env; }; cat "$f"',
    # assigned from something read when it runs: unknown, as before
    'f=.env; read f; cat "$f"',
    'f=.env; f=$(pwd); cat "$f"',
    'f=.env; g() { :; }; g; cat "$f"',
    'f=.env; eval "f=README"; cat "$f"',
    'f=.env; declare -l f; cat "$f"',
    'f=.env; unset f; cat "$f"',
    'f=.env; false || f=README; cat "$f"',
    'f=".env README"; cat "$f"',
    'x=$f; cat "$x"',
    'f=.env; x="$f.bak"; cat "$x"',
]


@pytest.mark.parametrize("command", UNCERTAIN)
def test_uncertain_values_are_not_taken_as_known(command: str) -> None:
    assert "secret-read" not in rules(command)


def test_loop_variable_is_not_known_after_a_body_that_reassigns_it() -> None:
    assert "secret-read" not in rules('for f in README.md; do f=x; done; cat "$f"')
    assert "secret-read" in rules('for f in README.md; do cat "$f"; f=.env; cat "$f"; done')


LISTED_SECRET_READS = [
    "ls .env | xargs cat",
    "ls -a | grep env | xargs cat",
    "ls -a | grep -i RSA | xargs -n1 head",
    "cat $(ls -a | grep env)",
    "cat $(find . -name '.env*')",
    'cat "$(echo .env)"',
    "find . -name '*.key' | xargs -n1 head",
    "cat $(grep -l TOKEN .env .env.local)",
    "git ls-files '.env*' | xargs cat",
    "ls -a | sort | grep env | xargs cat",
    "fd id_rsa | xargs less",
    "ls -a | grep -v env | xargs cat",  # .npmrc, .netrc, .git-credentials pass
]


@pytest.mark.parametrize("command", LISTED_SECRET_READS)
def test_reader_of_a_listing_naming_a_secret_is_secret_read(command: str) -> None:
    assert "secret-read" in rules(command)
    assert grade(command) >= NET


LISTED_EVERYDAY = [
    "find . -name '*.py' | xargs cat",
    "cat $(git ls-files '*.md')",
    "ls -a | grep py | xargs cat",
    "ls -a | grep -v '^\\.' | xargs cat",
    "git ls-files | xargs wc -l",
    "ls | xargs cat",
    "ls src | xargs cat",
    "cat $(find . -name '*.toml')",
    "grep -l TODO -r src | xargs head",
]


@pytest.mark.parametrize("command", LISTED_EVERYDAY)
def test_reader_of_an_everyday_listing_keeps_its_grade(command: str) -> None:
    assert "secret-read" not in rules(command)
    assert grade(command) == RO
