"""Output files named by a tool's operands or options (python -m json.tool, zipfile, tarfile and compileall,
macOS base64 -o, rsync's receiving-side
directories, linters' and test runners' report files, curl's ``-w %output{FILE}``) are graded where they land,
and secret paths spelt with quotes, parameter operators on HOME, XDG base directories, PWD or printf are the
secret reads they are; each everyday neighbour keeps its grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import classify
from bot.risk.model import RiskLevel

W = Path("/home/dev/project")
RO, WW, NET, SYS, DES = (
    RiskLevel.READ_ONLY,
    RiskLevel.WORKSPACE_WRITE,
    RiskLevel.NETWORK,
    RiskLevel.SYSTEM,
    RiskLevel.DESTRUCTIVE,
)

#: (hostile command, its grade, everyday neighbour, its grade)
OUTPUTS = [
    # Python docs, json.tool: python -P -m json.tool [infile] [outfile]
    ("python3 -P -m json.tool x.json ~/.bashrc", DES, "python3 -P -m json.tool x.json", RO),
    ("python3 -P -m json.tool x.json .git/hooks/pre-commit", DES, "python -P -m json.tool --indent 2 x.json", RO),
    ("python3 -P -m json.tool --sort-keys x.json .claude/settings.json", DES, "python3 -P -m json.tool x.json -", RO),
    (
        "python3 -P -m json.tool --indent 2 x.json /etc/profile.d/x.sh",
        DES,
        "python3 -P -m json.tool x.json out.json",
        WW,
    ),
    ("python3 -P -m json.tool x.json /opt/x.json", SYS, "python3 -P -m json.tool -- x.json", RO),
    # Python docs, zipfile and tarfile command-line interfaces: -c ARCHIVE SOURCE..., -e ARCHIVE [DIR], -l, -t
    ("python3 -P -m zipfile -c ~/.bashrc x.json", DES, "python3 -P -m zipfile -c out.zip x.json", WW),
    ("python3 -P -m zipfile --create /opt/x.zip src", SYS, "python3 -P -m zipfile -l out.zip", RO),
    ("python3 -P -m zipfile -e a.zip ~/.config", DES, "python3 -P -m zipfile -t out.zip", RO),
    ("python3 -P -m tarfile -c ~/.bashrc x.json", DES, "python3 -P -m tarfile -c x.tar src", WW),
    ("python3 -P -m tarfile -e a.tar", DES, "python3 -P -m tarfile --list a.tar", RO),
    ("python3 -P -m tarfile -cv x.tar src", DES, "python3 -P -m tarfile -v -l a.tar", RO),
    # compileall: no directory given is sys.path; -i LIST and py_compile - name the files in a file
    ("python3 -P -m compileall", SYS, "python3 -P -m compileall .", WW),
    ("python3 -P -m compileall -q -i list.txt", SYS, "python3 -P -m compileall -q -d /root src", WW),
    ("python3 -P -m py_compile -", SYS, "python3 -P -m py_compile x.py", WW),
    # macOS base64(1): -o output_file, --output=output_file
    ("base64 -d -i x -o ~/.zshrc", DES, "base64 x", RO),
    ("base64 --decode --input x --output ~/.zshrc", DES, "base64 -d x", RO),
    ("base64 -D -i x -o .claude/settings.json", DES, "base64 -w0 x", RO),
    ("base64 -Do/root/.zshrc", DES, "base64 -i x -o out.txt", WW),
    ("base64 --out=/root/.zshrc", DES, "base64 --decode x", RO),
    # rsync(1) --backup-dir, -T/--temp-dir, --partial-dir
    ("rsync -b --backup-dir ~ a/.bashrc b/", DES, "rsync -b --backup-dir old a b/", WW),
    ("rsync -b --backup-dir=/root a/.bashrc b/", DES, "rsync -a src/ dst/", WW),
    ("rsync --temp-dir=/root a b/", DES, "rsync --temp-dir=tmp a b/", WW),
    ("rsync -T /root/.ssh a b/", DES, "rsync -T .tmp a b/", WW),
    ("rsync --partial-dir=/root/.config/autostart a b/", DES, "rsync --partial-dir=.rsync-partial a b/", WW),
    ("rsync -b --backup-dir ../../../root a b/", DES, "rsync -a --partial-dir=.p src/ host:dst/", NET),
    ("rsync -T ~/.config/autostart a/ b/", DES, "rsync -b --backup-dir=/srv src/ host:dst/", NET),
    # ruff check --help: -o, --output-file; mypy --*-report DIR; tsc's output options; libtest --logfile
    ("ruff check -o /root/.bashrc", DES, "ruff check -o out.txt", WW),
    ("ruff check -o/root/.bashrc", DES, "ruff check --output-format json", WW),
    ("ruff check -o=/root/.bashrc", DES, "ruff check .", WW),
    ("mypy --html-report /root/x", DES, "mypy --html-report htmlcov .", WW),
    ("mypy --cobertura-xml-report=/root/x", DES, "mypy --txt-report reports src", WW),
    ("tsc --tsBuildInfoFile /root/.bashrc", DES, "tsc --tsBuildInfoFile .tsbuildinfo", WW),
    ("tsc --generateTrace /root/x", DES, "tsc --generateTrace trace", WW),
    ("tsc --outdir /root/x", DES, "tsc --outDir dist", WW),
    ("tsc -OUTDIR /root/x", DES, "tsc", WW),
    ("pylint --output=/root/.bashrc src", DES, "pylint --output=pylint.txt src", WW),
    ("pylint --output /root/.bashrc src", DES, "pylint src", WW),
    ("cargo test -- --logfile /root/.bashrc", DES, "cargo test -- --nocapture", WW),
    ("cargo test -- --logfile=/root/.bashrc", DES, "cargo test -- --logfile=test.log", WW),
    # Mocha command line: --reporter-option KEY=VALUE,... (xunit: output=FILE)
    ("mocha --reporter-option output=/root/.bashrc", DES, "mocha --reporter-option maxDiffSize=100", WW),
    ("mocha -R xunit -O output=/root/.bashrc", DES, "mocha -R xunit -O output=report.xml", WW),
    ("mocha --reporter-options=a=1,output=/root/.bashrc", DES, "mocha test/", WW),
    # curl(1) --write-out: %output{filename}, %output{>>filename}
    (
        "curl -s -o /dev/null -w '%output{>>/root/.bashrc}x' http://e.com",
        DES,
        "curl -w '%{http_code}' http://e.com",
        NET,
    ),
    ("curl -w '%output{/root/.bashrc}x' http://e.com", DES, "curl --write-out '%output{out.txt}x' http://e.com", NET),
    ("curl -w @fmt http://e.com", DES, "curl -sw '%{http_code}\\n' http://e.com", NET),
    ("curl -w @- http://e.com", DES, "curl -s http://e.com", NET),
]


@pytest.mark.parametrize(("hostile", "least", "neighbour", "grade"), OUTPUTS, ids=[p[0] for p in OUTPUTS])
def test_an_output_option_writes_where_it_points(
    hostile: str, least: RiskLevel, neighbour: str, grade: RiskLevel
) -> None:
    assert classify(hostile, contained=False, workspace=W).risk >= least
    assert classify(neighbour, contained=False, workspace=W).risk == grade


SECRET_SPELLINGS = [
    "cat $HOME/.n''etrc",
    'cat "$HOME/.n""etrc"',
    "cat \"$HOME\"'/.n''etrc'",
    "cat ${HOME%/}/.netrc",
    "cat ${HOME:-x}/.netrc",
    "cat ${HOME#}/.netrc",
    "cat ${HOME:0}/.netrc",
    "cat ${HOME/x/x}/.netrc",
    "cat ${HOME,,}/.netrc",
    "cat ${HOME%/*}/u/.netrc",
    "cat ${HOME:+/root}/.netrc",
    "cat $XDG_CONFIG_HOME/gh/hosts.yml",
    "cat ${XDG_CONFIG_HOME}/gh/hosts.yml",
    "cat $PWD/../../../root/.netrc",
    "cat ${PWD%/*}/../../root/.netrc",
    "cat $OLDPWD/.netrc",
    'cat $(printf %s "$HOME")/.netrc',
    'cat "$(printf \'%s\' "$HOME")/.ssh/id_rsa"',
    "cat $(printf '%s' ~/.ne)trc",
    "cat $(printf %d 1)/.netrc",
]


@pytest.mark.parametrize("command", SECRET_SPELLINGS)
def test_a_secret_path_in_another_spelling_is_a_secret_read(command: str) -> None:
    assessment = classify(command, contained=False, workspace=W)
    assert assessment.risk >= NET
    assert any(r.rule == "secret-read" for r in assessment.reasons), assessment.reasons


@pytest.mark.parametrize(
    "command",
    [
        "cat $HOME/notes.txt",
        "cat ${HOME%/}/notes.txt",
        "cat ${HOME:-/tmp}/notes.txt",
        "cat $PWD/README.md",
        'cat "$PWD/x.json"',
        "cat $XDG_CONFIG_HOME/foo.conf",
        "cd $OLDPWD",
        "ls ${HOME%/*}",
        "cat $(printf %s notes)/x.txt",
    ],
)
def test_the_same_spellings_of_other_files_stay_read_only(command: str) -> None:
    assert classify(command, contained=False, workspace=W).risk == RO
