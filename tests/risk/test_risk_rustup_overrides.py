"""rustup's toolchain choices (The rustup book, "Overrides"; rustup_mode.rs): ``rustup default`` and ``rustup override
set`` (alias ``add``) / ``unset`` (aliases ``remove``, ``rm``, ``delete``, ``del``) write ``~/.rustup/settings.toml``,
a change under the home directory (system on the host); ``rustup toolchain link NAME PATH`` makes a toolchain of
an arbitrary directory whose programs ``cargo +NAME`` then runs (destructive). Listing and showing stay reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("rustup override set nightly", R.SYSTEM),
        ("rustup override add nightly", R.SYSTEM),
        ("rustup override set stable --path ../other", R.SYSTEM),
        ("rustup override unset", R.SYSTEM),
        ("rustup override rm --nonexistent", R.SYSTEM),
        ("rustup default stable", R.SYSTEM),
        ("rustup default nightly-2024-01-01", R.SYSTEM),
        ("rustup toolchain link mine /opt/tc", R.DESTRUCTIVE),
        ("rustup toolchain link mine ./target/stage1", R.DESTRUCTIVE),
    ],
)
def test_rustup_toolchain_choices_are_graded_high_enough(tmp_path: Path, command: str, level: RiskLevel) -> None:
    assert graded(command, project(tmp_path, {"Cargo.toml": "[package]\nname = 'x'\n"}))[0] >= level


@pytest.mark.parametrize(
    "command", ["rustup show", "rustup override list", "rustup toolchain list", "rustup which cargo"]
)
def test_rustup_queries_stay_reads(tmp_path: Path, command: str) -> None:
    assert graded(command, project(tmp_path, {"Cargo.toml": "[package]\nname = 'x'\n"}))[0] is R.READ_ONLY
