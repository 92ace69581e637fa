"""ip runs a command with ``ip netns exec NAME CMD`` and ``ip vrf exec NAME CMD`` (ip-netns(8), ip-vrf(8)), also
spelled with a prefix of ``exec`` (iproute2 matches command words by prefix): CMD is graded as run there. The same
prefixes spell the commands that cut the machine off (``ip r d default`` is route delete, ``ip l s eth0 down`` link
set)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel


@pytest.mark.parametrize(
    "command",
    [
        "ip netns exec x rm -rf /srv/data",
        "ip netns e x rm -rf /srv/data",
        "ip netns ex x rm -rf /srv/data",
        "ip vrf exec blue rm -rf /srv/data",
        "ip vrf e blue rm -rf /srv/data",
    ],
)
def test_the_command_ip_runs_is_graded(tmp_path: Path, command: str) -> None:
    risk, details = graded(command, project(tmp_path, {}))
    assert risk == R.DESTRUCTIVE, details
    assert any("rm" in d for d in details), details


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("ip netns exec x ls", R.SYSTEM),
        ("ip vrf exec blue ls", R.SYSTEM),
        ("ip netns list", R.READ_ONLY),
        ("ip vrf show", R.READ_ONLY),
        ("ip netns add x", R.SYSTEM),
    ],
)
def test_other_ip_netns_and_vrf_commands_keep_their_grade(tmp_path: Path, command: str, level: RiskLevel) -> None:
    risk, details = graded(command, project(tmp_path, {}))
    assert risk == level, details


@pytest.mark.parametrize(
    "command",
    [
        "ip r d default",
        "ip ro de default",
        "ip l s eth0 down",
        "ip l d eth0",
        "ip a d 10.0.0.2/24 dev eth0",
        "ip r a default via 203.0.113.1",
        "ip ru d pref 100",
    ],
)
def test_abbreviated_commands_that_cut_the_machine_off_are_destructive(tmp_path: Path, command: str) -> None:
    risk, details = graded(command, project(tmp_path, {}))
    assert risk == R.DESTRUCTIVE, details


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("ip l s eth0 up", R.SYSTEM),
        ("ip r a 10.1.0.0/16 via 10.0.0.1", R.SYSTEM),
        ("ip a", R.READ_ONLY),
        ("ip r sh", R.READ_ONLY),
        ("ip l sh", R.READ_ONLY),
    ],
)
def test_abbreviated_everyday_ip_commands_keep_their_grade(tmp_path: Path, command: str, level: RiskLevel) -> None:
    risk, details = graded(command, project(tmp_path, {}))
    assert risk == level, details
