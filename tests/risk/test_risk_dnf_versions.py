"""A dnf or yum package spec naming a version (bot/risk/meaning.py ``_DNF_VERSION``; dnf5-install(8): "DNF will
install the desired version, no matter which version of the package is already installed") changes what a plain
``dnf install`` pattern covers: it may downgrade the package. Names holding digits or dashes elsewhere stay plain."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.risk import classify
from bot.risk.meaning import changing_words
from bot.standing import covers_command
from bot.store import StandingApproval

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _covered(pattern: str, command: str) -> bool:
    approval = StandingApproval(
        id="sa_t",
        scope="bot",
        subject="bot_x",
        pattern=pattern,
        max_risk="system",
        contained_only=False,
        created_by="U1",
        created_at=NOW,
    )
    parts = [c for c in classify(command, contained=False).commands if c.argv]
    return all(covers_command(approval, part) for part in parts)


@pytest.mark.parametrize(
    "command",
    [
        "dnf install -y openssl-1.0.2k",
        "dnf install -y openssl-1.0.2k-19.el7",
        "dnf install -y openssl-1.0.2k-19.el7.x86_64",
        "yum install -y jq-1.6",
        "dnf install -y jq openssh-server-8.0p1",
    ],
)
def test_a_version_is_not_covered_by_the_plain_pattern(command: str) -> None:
    assert changing_words(tuple(command.split()))
    assert not _covered(command.split()[0] + " install", command)
    assert _covered(command, command)  # a pattern naming it covers it


@pytest.mark.parametrize(
    "command",
    ["dnf install -y jq", "dnf install -y java-17-openjdk", "dnf install -y python3-pip gcc-c++", "yum install -q x11"],
)
def test_plain_names_stay_covered(command: str) -> None:
    assert not changing_words(tuple(command.split()))
    assert _covered(command.split()[0] + " install", command)
