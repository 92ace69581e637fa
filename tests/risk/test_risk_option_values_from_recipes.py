"""An unknown value in the position of a flag that takes one (go build ``-tags``, docker build ``-t``) is that flag's
value, not another flag, when bash keeps it one word; an unquoted expansion may split, and stays graded high."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

WW, SYS, DES = RiskLevel.WORKSPACE_WRITE, RiskLevel.SYSTEM, RiskLevel.DESTRUCTIVE

_FILES = {
    "go.mod": "module x\n\ngo 1.22\n",
    "main.go": "package main\n\nfunc main() {}\n",
    "Dockerfile": "FROM alpine\n",
}
_MAKEFILE = (
    'tags:\n\tgo build -tags "$(TAGS)" ./...\n\n'
    "split:\n\tgo build -tags $(TAGS) ./...\n\n"
    'image:\n\tdocker build -t "app:$(TAG)" .\n\n'
    "loose:\n\tdocker build -t app:$(TAG) .\n"
)


@pytest.mark.parametrize(
    "command, level",
    [
        ('go build -tags "$X" ./...', WW),
        ('go build -tags="$X" ./...', WW),
        ('go build "-tags=$X" ./...', WW),
        ('go test -count "$N" -timeout "$T" ./...', WW),
        ("go build -tags netgo ./...", WW),
        ('docker build -t "app:$TAG" .', SYS),
        ('docker build --tag="app:$TAG" --build-arg "V=$V" --label "x=$Y" .', SYS),
        ('docker image build -t "app:$TAG" .', SYS),
        ("make tags", WW),
        ("make image", SYS),
    ],
)
def test_a_one_word_unknown_value_of_a_naming_option_keeps_the_grade(
    tmp_path: Path, command: str, level: RiskLevel
) -> None:
    assert graded(command, project(tmp_path, {**_FILES, "Makefile": _MAKEFILE}))[0] is level


@pytest.mark.parametrize(
    "command",
    [
        "go build -tags $X ./...",  # may split: -tags a -toolexec=...
        "go build -tags=$X ./...",
        'go build -ldflags "-X main.version=$V" ./...',  # go splits -ldflags' value: -extld=... may follow
        'go build "$X" ./...',
        'go build -tags -tags "$X" ./...',  # the second -tags is the first one's value
        'go run . -tags "$X"',  # the program's own arguments
        'go build -o "$OUT" ./...',
        "docker build -t $TAG .",
        "docker build -t app:$TAG .",
        "docker build --tag=$TAG .",
        'docker build "$X" .',
        'docker build --build-arg -t "$X" .',  # -t is --build-arg's value
        'docker buildx build -t "app:$TAG" --allow "$A" .',
        "make split",
        "make loose",
    ],
)
def test_an_unknown_value_that_may_be_an_option_is_destructive(tmp_path: Path, command: str) -> None:
    assert graded(command, project(tmp_path, {**_FILES, "Makefile": _MAKEFILE}))[0] is DES
