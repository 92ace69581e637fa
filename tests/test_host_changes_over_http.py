"""Over real HTTP: irreversible host changes and secret reads (tests/risk/test_risk_host_changes.py) reach the owner
as a pending approval card even where a broad standing approval exists (bot/risk/programs/hostchanges.py,
bot/risk/sensitive.py). A Bot-wide ``*`` up to ``system`` on the host leaves every irreversible change to a person
(destructive); a Bot-wide ``*`` up to ``workspace_write`` on the host leaves every secret read to a person
(network: the output goes to the model)."""

from __future__ import annotations

from tests.harness import Harness
from tests.risk.test_risk_host_changes import HOST_CHANGES, MORE_SECRETS
from tests.test_standing import auto
from tests.test_standing_coverage import _approve, asks_then_withdraw

HOST_DESTRUCTIVE = [command for command, host, _ in HOST_CHANGES if host.label == "destructive"]


async def test_a_star_up_to_system_on_the_host_leaves_every_irreversible_host_change_to_a_person(
    harness: Harness,
) -> None:
    token = await harness.add_bot()
    await _approve(harness, pattern="*", max_risk="system", host_ok=True)
    for command in ("systemctl restart nginx", "mount", "sysctl -a", "pkill -f my-dev-server", "cp ./a ./b"):
        await auto(harness, token, command=command, contained=False)
    assert len(HOST_DESTRUCTIVE) == len(HOST_CHANGES)
    for command in HOST_DESTRUCTIVE:
        esc = await asks_then_withdraw(harness, token, command=command, contained=False)
        assert esc["risk"] == "destructive", esc


async def test_a_star_up_to_workspace_writes_on_the_host_leaves_every_secret_read_to_a_person(harness: Harness) -> None:
    token = await harness.add_bot()
    await _approve(harness, pattern="*", max_risk="workspace_write", host_ok=True)
    for command in ("cat ./config/credentials.example", "echo $HOME", "cp ./a ./b"):
        await auto(harness, token, command=command, contained=False)
    for command in MORE_SECRETS:
        esc = await asks_then_withdraw(harness, token, command=command, contained=False)
        assert esc["risk"] in ("network", "system", "destructive"), esc
