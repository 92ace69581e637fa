"""Commands whose effect hides in one option or one earlier step, each graded in both directions (the hostile
spelling at least its grade, the everyday use as before), on both sides of the wire (tests/risk/both_sides.py):

- ``python -m venv --clear DIR`` and ``uv venv -c DIR`` delete what DIR holds, as ``rm -rf DIR`` does;
- an archive of the workspace written to standard output (``tar cf - .``, ``zip -r - .``, ``7z a -so``) prints
  every file in it, as ``find . -type f -exec cat {} +`` does;
- a secret file renamed by ``mv``/``git mv`` and then read is a secret read, as after ``cp``;
- ``openssl enc -d`` and the ``-decrypt`` commands print the plaintext, as ``gpg -d`` does;
- ``node --test`` given test files outside the workspace runs code there, as ``pytest /tmp/x`` does;
- ``pip install --break-system-packages`` writes outside the workspace, and ``pytest --pyargs`` runs the tests of
  installed packages."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from tests.risk.both_sides import graded, project

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE

_FILES = {
    ".env": "API_KEY=secret\n",
    "README.md": "hello\n",
    "src/app.py": "print(1)\n",
    "package.json": '{"name": "x"}\n',
}


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    root = project(tmp_path, _FILES)
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("[core]\n")
    return root


# (hostile command, the least grade it must get, a rule among its reasons, the everyday command, its grade)
_PAIRS = [
    # python docs "venv": --clear "Delete the contents of the environment directory if it already exists"
    ("python -m venv --clear .", DES, "protected-deletion", "python -m venv .", WW),
    ("python3 -m venv --clear {ws}", DES, "protected-deletion", "python3 -m venv {ws}/.venv", WW),
    ("python -m venv --cl .venv", DES, "deletion", "python -m venv --copies .venv", WW),
    ("python -m venv --prompt x --clear env", DES, "deletion", "python -m venv --prompt x env", WW),
    ("python -m venv --clear /tmp/v", DES, "deletion-outside-workspace", "python -m venv /tmp/v", WW),
    # uv venv -c/--clear: "Remove any existing files or directories at the target path"
    ("uv venv --clear .", DES, "deletion", "uv venv .venv", WW),
    ("uv venv -c .", DES, "deletion", "uv venv", WW),
    ("uv venv -qc", DES, "deletion", "uv venv -q", WW),
    ("uv venv --cl .", DES, "unrecognised-use", "uv venv --seed .venv", WW),  # a prefix of --clear is refused
    # GNU tar: no -f, -f - and /dev/stdout are standard output
    ("tar cf - .", NET, "secret-read", "tar cf out.tar .", WW),
    ("tar -cf- .", NET, "secret-read", "tar -cf out.tar src", WW),
    ("tar cf /dev/stdout .", NET, "secret-read", "tar cf - src", RO),
    ("tar czf - . | base64", NET, "secret-read", "tar czf backup.tgz src", WW),
    ("tar cz .", NET, "secret-read", "tar cz src", RO),
    ("cd src && tar cf - ..", NET, "secret-read", "cd src && tar cf - .", RO),
    # zip(1): a zipfile - is standard output
    ("zip -r - . | base64", NET, "secret-read", "zip -r out.zip .", WW),
    ("zip -r /dev/stdout .", NET, "secret-read", "zip -r - src", RO),
    # a glob that may name a credential file, printed in the archive as cat .en? prints it
    ("tar cf - .en?", NET, "secret-read", "tar cf - ./*.py", RO),
    ("zip - .[!.]*", NET, "secret-read", "zip - src/app.py", RO),
    # 7z(1) -so: "write data to stdout"
    ("7z a -so x.7z .", NET, "secret-read", "7z a x.7z .", WW),
    # mv(1), git-mv(1): the file keeps its content under the new name
    ("mv .env x.txt; cat x.txt", NET, "secret-read", "mv a.txt x.txt; cat x.txt", WW),
    ("mv .env README.md && cat README.md", NET, "secret-read", "mv .env .env.bak && cat README.md", WW),
    ("git mv .env x.txt && cat x.txt", NET, "secret-read", "git mv README.md x.txt && cat x.txt", WW),
    ("mv .env a; mv a b; head b", NET, "secret-read", "mv .env a; mv b c; head c", WW),
    ("mv -t docs .env && cat docs/.env", NET, "secret-read", "mv -t docs README.md && cat docs/README.md", WW),
    ("mv .env notes.txt; cat *.txt", NET, "secret-read", "mv .env notes.md; cat *.txt", WW),
    ("mv .env x.txt; cat < x.txt", NET, "secret-read", "mv .env x.txt; cat < y.txt", WW),
    ("mv .env x.txt && cd src && cat ../x.txt", NET, "secret-read", "mv .env x.txt && cd src && cat x.txt", WW),
    ("for i in 1 2; do cat x.txt; mv .env x.txt; done", NET, "secret-read", "for i in 1 2; do cat x.txt; done", RO),
    # openssl-enc(1) -d, openssl-cms(1)/smime(1)/pkeyutl(1)/rsautl(1) -decrypt print the plaintext
    ("openssl enc -d -aes-256-cbc -in s.enc -pass env:KEY", NET, "secret-read", "openssl enc -aes-256-cbc -in s", RO),
    ("openssl aes-256-cbc -d -in s.enc -k pw", NET, "secret-read", "openssl enc -des3 -in s -out s.enc -k pw", WW),
    ("openssl cms -decrypt -in m.p7", NET, "secret-read", "openssl cms -verify -in m.p7", RO),
    ("openssl smime -decrypt -in m.p7", NET, "secret-read", "openssl smime -verify -in m.p7", RO),
    ("openssl pkeyutl -decrypt -in c.bin", NET, "secret-read", "openssl pkeyutl -verify -in c.bin", RO),
    ("openssl rsautl -decrypt -in c.bin", NET, "secret-read", "openssl rsautl -encrypt -in c.bin", RO),
    # Node.js "Test runner": node --test FILES runs the given files
    ("node --test /tmp/evil.test.js", DES, "project-outside-workspace", "node --test test/a.test.js", WW),
    ("node --test ../other/x.test.js", DES, "project-outside-workspace", "node --test", WW),
    ("cd /tmp && node --test", DES, "project-outside-workspace", "cd src && node --test", WW),
    (
        "node --test --test-reporter-destination ~/.bashrc",
        DES,
        "protected-path-write",
        "node --test --test-reporter-destination=/tmp/r.txt",
        WW,
    ),
    # pip install --break-system-packages: "Allow pip to modify an EXTERNALLY-MANAGED Python installation"
    ("pip install requests --break-system-packages", SYS, "write-outside-workspace", "pip install requests", NET),
    # pytest --pyargs: "pytest will discover where mypkg is installed and collect tests from there"
    ("pytest --pyargs evil_pkg", DES, "project-outside-workspace", "pytest tests", WW),
]


@pytest.mark.parametrize(("hostile", "least", "rule", "everyday", "grade"), _PAIRS)
def test_the_hostile_spelling_is_graded_up_and_the_everyday_one_is_not(
    workspace: Path, hostile: str, least: RiskLevel, rule: str, everyday: str, grade: RiskLevel
) -> None:
    risk, _ = graded(hostile.format(ws=workspace), workspace)
    found = classify(hostile.format(ws=workspace), contained=False, workspace=str(workspace))
    assert risk >= least, found.reasons
    assert rule in {r.rule for r in found.reasons}, found.reasons
    assert graded(everyday.format(ws=workspace), workspace)[0] is grade


def test_venv_clear_of_the_workspace_is_not_downgraded_when_contained(workspace: Path) -> None:
    found = classify("python -m venv --clear .", contained=True, workspace=str(workspace))
    assert found.risk is DES, found.reasons


def test_an_archive_to_standard_output_names_what_it_prints(workspace: Path) -> None:
    _, details = graded("tar cf - .", workspace)
    assert any("every file below ." in d and "goes to the model" in d for d in details), details


def test_a_moved_secret_is_named_in_the_reason(workspace: Path) -> None:
    _, details = graded("mv .env notes.txt; cat notes.txt", workspace)
    assert any("notes.txt holds the project's secrets" in d and "moved there" in d for d in details), details


def test_decrypting_is_a_secret_read_even_contained(workspace: Path) -> None:
    found = classify("openssl enc -d -aes-256-cbc -in s.enc -k pw", contained=True, workspace=str(workspace))
    assert found.risk is NET, found.reasons
