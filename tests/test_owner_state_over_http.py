"""Over real HTTP (the server, the bolt app, the Slack emulation, SQLite): a Bot-wide ``*`` standing approval up to
``system`` on the host does not cover writing FlyBot's own state, git directories other than ``.git``, unpacking
into the home directory, or the host takeovers that grade ``destructive``; reading FlyBot's state or a browser
profile is a secret read that asks."""

from __future__ import annotations

import os

from tests.harness import Harness
from tests.test_standing import auto
from tests.test_standing_coverage import _approve, asks_then_withdraw

WORKSPACE = "/home/dev/project"

STATE_WRITES = [
    "sqlite3 ~/.local/state/flybot/flybot.db \"update escalations set status='approved' where id='esc_1'\"",
    'cd ~/.local/state/flybot && sqlite3 flybot.db "insert into standing_approvals values (1)"',
    "rsync x ~/.local/state/flybot/program-rules.json",
    "cp x.json ~/.local/state/flybot/local.json",
    "ln -sf /tmp/evil ~/.local/state/flybot/localchat.json",
    "tar -C ~/.local/state/flybot -xf x.tar",
    "echo '{}' > $HOME/.local/state/flybot/local.json",
]
GIT_DIRECTORIES = [
    "git --git-dir=gd status",
    "echo '[core] fsmonitor=touch /tmp/pwn' >> gd/config",
    "echo '[core] fsmonitor=touch /tmp/pwn' >> /tmp/g/config",
    "cp evil gd/hooks/pre-commit",
]
HOME_UNPACKING = [
    "tar -C ~ -xf x.tar",
    "unzip -o x.zip -d ~",
    "rsync -a evil/ ~/",
    "cd ~ && tar xf x.tar",
    "git clone https://github.com/x/y ~/.config/x",
]
HOST_TAKEOVERS = [
    "install -m 4755 sh /tmp/x",
    "rsync --chmod=u+s x /tmp/x",
    "sudo tar -xpf x.tar -C /opt",
    "systemctl enable --now /tmp/x.service",
    "systemctl --user link ./x.service",
    "docker compose up -d",
    "docker run -v ~:/h alpine",
    "docker run -v ~/.ssh:/k alpine",
]
SECRET_READS = [
    "cat ~/.local/state/flybot/local.json",
    "sqlite3 ~/.local/state/flybot/flybot.db 'select * from escalations'",
    "cat ~/.config/chromium/Default/History",
    "gpg --export-secret-keys -a me",
    "gpg --decrypt secrets.gpg",
]


async def test_a_star_approval_up_to_system_never_covers_writing_or_reading_flybots_state(harness: Harness) -> None:
    token = await harness.add_bot()
    await _approve(harness, pattern="*", max_risk="system", host_ok=True)
    own = os.environ["XDG_STATE_HOME"] + "/flybot"  # the state directory this process resolves
    await auto(harness, token, command="echo done >> ~/notes.txt", cwd=WORKSPACE, contained=False)
    for command in [
        *STATE_WRITES,
        *GIT_DIRECTORIES,
        *HOME_UNPACKING,
        *HOST_TAKEOVERS,
        f"sqlite3 {own}/flybot.db 'delete from standing_approvals where 1'",
    ]:
        esc = await asks_then_withdraw(harness, token, command=command, cwd=WORKSPACE, contained=False)
        assert esc["risk"] == "destructive", esc
    for command in SECRET_READS:
        esc = await asks_then_withdraw(harness, token, command=command, cwd=WORKSPACE, contained=False)
        assert any(r["rule"] == "secret-read" for r in esc["reasons"]), esc
