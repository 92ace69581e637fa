"""go's tool flags and ``go mod edit -replace`` (programs/build.py ``_go_tool_flag``, ``_go_replaced_outside``): a
flag passed through ``-gcflags``/``-ldflags``/``-asmflags`` wins over go's own (``-o``, the profiles, ``-importcfg``,
``-I``, ``-r``, ``-tmpdir``), so it chooses where the compiler or linker writes or what code it links; a replacement
``go mod edit`` points outside the workspace is code every later build runs. Stripping, symbol values and debug
flags keep the build's grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

FILES = {"go.mod": "module example.com/m\n\ngo 1.22\n", "m.go": "package m\n"}


@pytest.mark.parametrize(
    "command",
    [
        "go build -ldflags=-o=/root/.bashrc .",
        "go build -gcflags=-o=/root/.bashrc .",
        "go build -ldflags '-s -o /root/.bashrc' .",
        "go test -gcflags=all=-cpuprofile=/root/.bashrc ./...",
        "go build -ldflags=-memprofile=/etc/cron.d/x .",
        "go build -ldflags=-tmpdir=/root .",
        "go build -gcflags=-importcfg=/tmp/x .",
        "go test -ldflags=-importcfg=/tmp/x ./...",
        "go build -ldflags=-r=/tmp .",
        "go build -ldflags=-L=/tmp .",
        "go build -asmflags=-I=/tmp .",
        "go build --ldflags=--o=/root/.bashrc .",
        "go mod edit -replace example.com/y=/tmp/y",
        "go mod edit -replace=example.com/y=../y",
        "go mod edit -replace example.com/y=~/y && go test ./...",
    ],
)
def test_a_tool_flag_or_replacement_reaching_outside_is_destructive(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, FILES)
    assert graded(command, ws)[0] == RiskLevel.DESTRUCTIVE, graded(command, ws)


@pytest.mark.parametrize(
    "command",
    [
        "go build -ldflags=-s .",
        "go build -ldflags='-s -w -X main.version=1.2.3' .",
        "go build -ldflags '-X example.com/m.commit=abc -buildid=' .",
        "go test -gcflags=all=-N\\ -l ./...",
        "go test -gcflags='all=-N -l' ./...",
        "go build -gcflags=-m=2 .",
        "go test -gcflags=-d=checkptr ./...",
        "go mod edit -replace example.com/y=./third_party/y",
        "go mod edit -replace example.com/y=example.com/z@v1.0.0",
        "go mod edit -go=1.22",
    ],
)
def test_tuning_flags_and_replacements_inside_keep_their_grade(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, FILES)
    assert graded(command, ws)[0] == RiskLevel.WORKSPACE_WRITE, graded(command, ws)
