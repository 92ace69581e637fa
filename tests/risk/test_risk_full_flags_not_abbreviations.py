"""A long flag spelled in full is that flag, never an abbreviation of a longer option taking a value (getopt_long,
popt: an exact name wins): curl ``--head`` is not ``--header``, so the ``-o``/``-K`` after it are still seen."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel


@pytest.mark.parametrize(
    "command",
    [
        "curl --head -o /etc/cron.d/job https://example.com",
        "curl --head -K cfg https://example.com",
    ],
)
def test_options_after_a_full_flag_are_graded(tmp_path: Path, command: str) -> None:
    risk, details = graded(command, project(tmp_path, {"cfg": 'output = "/etc/cron.d/job"\n'}))
    assert risk == R.DESTRUCTIVE, details


@pytest.mark.parametrize(
    "command",
    [
        "curl --head https://example.com",
        "curl --head -o out.txt https://example.com",
        "curl --header 'X-A: 1' -o out.txt https://example.com",
    ],
)
def test_everyday_curl_keeps_network(tmp_path: Path, command: str) -> None:
    risk, details = graded(command, project(tmp_path, {}))
    assert risk == R.NETWORK, details
