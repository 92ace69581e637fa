"""A C compile or preprocess reads every file its sources include (GCC "The C Preprocessor", Include Operation; C23
``#embed``; GNU as ``.incbin``): ``gcc -E`` prints it and a compile error quotes its lines, so a source naming a
secret file in an include directive is a secret read (network). The directive is found in the command's own text
(a source written earlier in it, or fed on standard input) or, for a workspace source, by the adapter reading it
and the headers it includes (settings.py ``includes``). Sources including ordinary headers keep their grade."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from tests.risk.both_sides import graded, project

R = RiskLevel

WRITTEN_HERE = [
    "printf '#include \"/root/.ssh/id_rsa\"' > x.c && gcc -E x.c",
    "echo '#include <../../.env>' > a.c; cc -E a.c",
    "printf '#include <stdio.h>\\n#include \"../.env.production\"\\n' > a.c && gcc -c a.c",
    'echo "#include \\"config/master.key\\"" > k.c && clang -E k.c',
    "printf '#define F \"../../.env\"\\n#include F\\n' > m.c && cpp m.c",  # a computed include
    "printf '#embed \"/home/u/.ssh/id_ed25519\"' > e.c && gcc -std=c23 -E e.c",
    'echo \'__asm__(".incbin \\"/etc/shadow\\"");\' > s.c && gcc -c s.c',
    "echo '#include \"../../.env\"' | gcc -E -x c -",
    "gcc -E -x c - <<< '#include \"/root/.aws/credentials\"'",
    "cat > a.c <<'EOF'\n#include \"../../.env\"\nEOF\ngcc -E a.c",
]


@pytest.mark.parametrize("command", WRITTEN_HERE)
def test_a_source_written_in_the_command_including_a_secret_is_a_secret_read(tmp_path: Path, command: str) -> None:
    level, details = graded(command, project(tmp_path, {"README.md": "r\n"}))
    assert level >= R.NETWORK, details
    assert any("include" in d or "holds" in d for d in details), details


@pytest.mark.parametrize(
    ("source", "files"),
    [
        ("src/a.c", {"src/a.c": '#include "/root/.ssh/id_rsa"\nint x;\n'}),
        ("src/a.c", {"src/a.c": "#include <stdio.h>\n  #  include <../../.env>\n"}),
        (
            "src/a.c",
            {
                "src/a.c": '#include "util.h"\n',
                "src/util.h": '#include "inc/deep.h"\n',
                "src/inc/deep.h": '#include "../../config/master.key"\n',
            },
        ),  # fmt: skip
        ("src/a.c", {"src/a.c": '#define K "../.env"\n#include K\n'}),
        ("src/a.cpp", {"src/a.cpp": "#include_next </home/dev/.netrc>\n"}),
        ("src/a.S", {"src/a.S": '.incbin "/etc/shadow"\n'}),
    ],
)
def test_a_workspace_source_including_a_secret_is_a_secret_read(
    tmp_path: Path, source: str, files: dict[str, str]
) -> None:
    ws = project(tmp_path, files)
    for command in (f"gcc -E {source}", f"gcc -c {source} -o a.o", f"clang -fsyntax-only {source}", f"cpp {source}"):
        level, details = graded(command, ws)
        assert level is R.NETWORK, (command, details)
        assert any("include" in d for d in details), (command, details)


def test_a_header_that_is_a_link_to_a_secret_outside_is_a_secret_read(tmp_path: Path) -> None:
    secret = tmp_path / "elsewhere" / ".ssh" / "id_rsa"
    ws = project(tmp_path, {"src/a.c": '#include "key.h"\n'})
    secret.parent.mkdir(parents=True)
    secret.write_text("not a key\n")
    (ws / "src" / "key.h").symlink_to(secret)
    assert graded("gcc -E src/a.c", ws)[0] is R.NETWORK


@pytest.mark.parametrize(
    "command",
    [
        "gcc -E src/a.c",
        "gcc -Wall -O2 -c src/a.c -o build/a.o",
        "cc src/a.c src/b.c -o app",
        "cpp src/a.c build/a.i",
        "printf '#include <stdio.h>\\nint main(void){return 0;}\\n' > t.c && gcc t.c -o t",
        "echo '#include \"src/util.h\"' | gcc -E -x c -",
        "gcc -E missing.c",
    ],
)
def test_sources_including_ordinary_headers_keep_their_grade(tmp_path: Path, command: str) -> None:
    ws = project(
        tmp_path,
        {
            "src/a.c": '#include <stdio.h>\n#include "util.h"\n#include "env.h"\nint main(void) { return 0; }\n',
            "src/b.c": '#include "../include/config.h"\n',
            "src/util.h": "#pragma once\n#include <stdint.h>\n",
            "src/env.h": '/* reads getenv("HOME"), not a .env file */\n',
            "include/config.h": "#define X 1\n",
            ".env": "API_KEY=s3cret\n",
        },
    )
    level, details = graded(command, ws)
    assert level is R.WORKSPACE_WRITE, details


def test_without_the_adapter_a_workspace_source_is_not_read(tmp_path: Path) -> None:
    ws = project(tmp_path, {"src/a.c": '#include "/root/.ssh/id_rsa"\n'})
    assert classify("gcc -E src/a.c", contained=False, workspace=str(ws)).risk is R.WORKSPACE_WRITE


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_gcc_e_prints_the_included_file(tmp_path: Path) -> None:
    """The behaviour the rule rests on: ``gcc -E`` prints an included file's lines (a fake secret, in tmp)."""
    (tmp_path / ".env").write_text("API_KEY=not-a-real-secret\n")
    (tmp_path / "a.c").write_text('#include ".env"\n')
    env = {**os.environ, "HOME": str(tmp_path)}
    run = subprocess.run(["gcc", "-E", "a.c"], cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert "not-a-real-secret" in run.stdout
