"""Word resolution (quote removal, ANSI-C strings) and write locations."""

from __future__ import annotations

import pytest

from bot.risk.paths import CwdState, Where, locate
from bot.risk.walker import parse
from bot.risk.words import Word, decode_ansi_c, literal_word, resolve_word


def first_argument(script: str) -> Word:
    src = script.encode()
    command = parse(src).children[0]
    argument = [c for c in command.children if c.type != "command_name"][0]
    return resolve_word(argument, src)


@pytest.mark.parametrize(
    ("script", "value"),
    [
        ("echo plain", "plain"),
        ("echo 'single quoted'", "single quoted"),
        ('echo "double \\"quoted\\" \\$x"', 'double "quoted" $x'),
        ("echo a\\ b", "a b"),
        ("echo 'r'm", "rm"),
        ("echo \"l\"'s'", "ls"),
        ("echo $'\\x72m'", "rm"),
        ("echo $'\\162m'", "rm"),
        ("echo $'\\u0072m'", "rm"),
        ("echo $'a\\tb'", "a\tb"),
        ("echo x{}", "x{}"),
        ("echo ~/x", "~/x"),
        ("echo $x", None),
        ('echo "$x"', None),
        ("echo $(ls)", None),
        ("echo {a,b}", None),
        ("echo x{1..3}", None),
        ("echo $'\\cA'", None),
        ("echo $'a\\x00b'", None),
        ('echo $"hi"', None),
    ],
)
def test_words_resolve_to_what_bash_passes_or_none(script: str, value: str | None) -> None:
    assert first_argument(script).value == value


def test_tmpdir_words_keep_their_literal_suffix() -> None:
    word = first_argument('echo "$TMPDIR/x"')
    assert (word.value, word.temp_suffix) == (None, "/x")


def test_decode_ansi_c_keeps_unknown_escapes() -> None:
    assert decode_ansi_c("\\q") == "\\q"
    assert decode_ansi_c("\\x") == "\\x"


STATE = CwdState.start("/ws")


@pytest.mark.parametrize(
    ("path", "where"),
    [
        ("out.txt", Where.WORKSPACE),
        ("./a/../b", Where.WORKSPACE),
        ("/ws/x", Where.WORKSPACE),
        ("..", Where.OUTSIDE),
        ("../x", Where.OUTSIDE),
        ("/wsx/y", Where.OUTSIDE),
        ("~/x", Where.OUTSIDE),
        ("/etc/hosts", Where.OUTSIDE),
        ("/tmp/x", Where.TEMP),
        ("/var/tmp/x", Where.TEMP),
        ("/tmp/../etc/x", Where.OUTSIDE),
        ("/dev/null", Where.NOWHERE),
        ("/dev/stderr", Where.NOWHERE),
        ("/dev/sda", Where.DEVICE),
        (".git/hooks/pre-commit", Where.GIT_CONTROL),
        ("sub/.git/config", Where.GIT_CONTROL),
        (".git", Where.GIT_CONTROL),
        (".github/workflows/ci.yml", Where.WORKSPACE),
        ("*.txt", Where.WORKSPACE),
        (".*/x", Where.OUTSIDE),
        ("", Where.OUTSIDE),
    ],
)
def test_locate(path: str, where: Where) -> None:
    assert locate(literal_word(path), STATE) == where


def test_unknown_words_are_outside_and_temp_words_are_temp() -> None:
    assert locate(Word(None, "$OUT"), STATE) == Where.OUTSIDE
    assert locate(Word(None, "$TMPDIR/x", "/x"), STATE) == Where.TEMP
    assert locate(Word(None, "$TMPDIR/../x", "/../x"), STATE) == Where.OUTSIDE


def test_cd_keeps_the_old_directory_unless_certain() -> None:
    maybe = STATE.after_cd("src", certain=False)
    assert locate(literal_word("../x"), maybe) == Where.OUTSIDE
    sure = STATE.after_cd("src", certain=True)
    assert locate(literal_word("../x"), sure) == Where.WORKSPACE
    assert locate(literal_word("x"), STATE.after_cd(None, certain=True)) == Where.OUTSIDE


def test_remote_scripts_have_no_workspace() -> None:
    remote = CwdState.remote_state()
    assert locate(literal_word("/tmp/x"), remote) == Where.OUTSIDE
    assert locate(literal_word("/dev/null"), remote) == Where.NOWHERE
