"""What a Bot reaches on the owner's machine besides the workspace: the browser's profile (history, sessions and
page storage hold the local page's login URL and credential) is a secret read."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

RO = RiskLevel.READ_ONLY
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE
WORKSPACE = Path("/home/dev/project")


def _secret_read(command: str) -> None:
    for contained in (False, True):
        verdict = classify(command, contained=contained, workspace=WORKSPACE)
        assert verdict.risk >= NET, (command, contained, verdict.reasons)
        found = [r for r in verdict.reasons if r.rule == "secret-read"]
        assert found and all("goes to the model" in r.detail and not r.downgraded for r in found), verdict.reasons


BROWSER_READS = [
    "cat ~/.config/chromium/Default/History",
    "sqlite3 ~/.config/chromium/Default/History 'select url from urls'",
    "strings '/home/dev/.config/chromium/Default/Session Storage/000003.log'",
    "cat ~/.config/google-chrome/Profile\\ 1/Local\\ Storage/leveldb/000005.ldb",
    "cp ~/.config/chromium/Default/Sessions/Session_1 /tmp/s",
    "sqlite3 ~/.mozilla/firefox/abc.default-release/places.sqlite .dump",
    "cat ~/.mozilla/firefox/abc.default/sessionstore-backups/recovery.jsonlz4",
    "cat ~/snap/chromium/common/chromium/Default/History",
    "grep -r key ~/.config/chromium",
    "tar czf /tmp/b.tgz ~/.config/google-chrome",
]


@pytest.mark.parametrize("command", BROWSER_READS)
def test_reading_a_browser_profiles_history_sessions_or_page_storage_is_a_secret_read(command: str) -> None:
    _secret_read(command)


@pytest.mark.parametrize("command", ["ls ~/.config/chromium/Default", "cat ~/.config/chromium/Default/Preferences"])
def test_listing_a_browser_profile_or_reading_its_preferences_stays_read_only(command: str) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == RO


STATE_WRITES = [
    "sqlite3 ~/.local/state/flybot/flybot.db \"update escalations set status='approved' where id='e'\"",
    'cd ~/.local/state/flybot && sqlite3 flybot.db "insert into standing_approvals values (1)"',
    "sqlite3 /home/dev/.local/state/flybot/flybot.db-wal 'create table t (x)'",
    "cp /tmp/x ~/.local/state/flybot/localchat.json",
    "rsync x ~/.local/state/flybot/program-rules.json",
    "ln -s /tmp/e ~/.local/state/flybot/local.json",
    "tar -C ~/.local/state/flybot -xf x.tar",
    "touch /srv/flybot.db",
]


@pytest.mark.parametrize("command", STATE_WRITES)
def test_writing_flybots_state_directory_or_store_is_destructive_on_the_host(command: str) -> None:
    verdict = classify(command, contained=False, workspace=WORKSPACE)
    assert verdict.risk == DES, verdict.reasons
    assert any("FlyBot's own state" in r.detail for r in verdict.reasons if r.level == DES), verdict.reasons


def test_the_state_directory_this_process_resolves_is_protected(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", "/srv/state")
    assert classify("cp x /srv/state/flybot/local.json", contained=False, workspace=WORKSPACE).risk == DES
    _secret_read("cat /srv/state/flybot/local.json")
    assert classify("mkdir -p /srv/state/other", contained=False, workspace=WORKSPACE).risk == SYS


@pytest.mark.parametrize(
    "command",
    [
        "cat ~/.local/state/flybot/local.json",
        "sqlite3 ~/.local/state/flybot/flybot.db 'select * from escalations'",
        "cat ~/.local/state/*/local.json",
        "grep -r token ~/.local/state",
    ],
)
def test_reading_flybots_state_is_a_secret_read(command: str) -> None:
    _secret_read(command)


def test_a_flybot_db_in_the_workspace_is_the_agents_own() -> None:
    assert (
        classify("sqlite3 flybot.db 'insert into t values (1)'", contained=False, workspace=WORKSPACE).risk
        == RiskLevel.WORKSPACE_WRITE
    )


GIT_DIRECTORY_ATTACKS = [
    "git --git-dir=gd status",
    "git --git-dir=/tmp/g log",
    "git --git-dir gd --work-tree sub status",
    "echo '[core] fsmonitor=touch /tmp/pwn' >> gd/config",
    "cp evil gd/config.worktree",
    "echo '[core] fsmonitor=touch /tmp/pwn' >> /tmp/g/config",
    "git init --separate-git-dir=gd sub && echo '[core] fsmonitor=x' >> gd/config && git -C sub status",
    "git init --bare b && cp evil b/hooks/post-update",
    "printf 'ref: refs/heads/main' > bare/HEAD",
    "cp evil gd/hooks/pre-commit",
    "ln -s /tmp/evil gd/hooks/post-checkout",
]


@pytest.mark.parametrize("command", GIT_DIRECTORY_ATTACKS)
def test_making_using_or_writing_a_git_directory_other_than_dot_git_is_destructive(command: str) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == DES


@pytest.mark.parametrize(
    "command",
    [
        "git init sub",
        "git init --separate-git-dir=gd sub",
        "git init --bare b",
        "git --git-dir=.git status",
        "git -C sub --git-dir=sub/.git log",
        "mkdir -p config",
        "echo x > src/hooks/useThing.ts",
        "echo x > config.yaml",
        "cp a src/config/app.py",
    ],
)
def test_ordinary_repositories_and_files_named_like_config_stay_workspace_writes(command: str) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk <= RiskLevel.WORKSPACE_WRITE


HOME_UNPACKING = [
    "tar -C ~ -xf x.tar",
    "tar -xf x.tar -C /home/dev",
    "unzip -o x.zip -d ~",
    "rsync -a evil/ ~/",
    "rsync -a evil/ ~/.local/",
    "cd ~ && tar xf x.tar",
    "cd ~/.ssh && unzip x.zip",
    "git clone https://github.com/x/y ~/.config/x",
    "cd ~ && git clone https://github.com/x/y .config/z",
    "cp evil ~/.local/bin/ls",
    "rsync x ~/.local/state/flybot/program-rules.json",
    "tar -C ~/Downloads/.. -xf x.tar",
    "tar -C /home/dev/x/.. -xf x.tar",
    "echo x >> ~/x/../.bashrc",
]


@pytest.mark.parametrize("command", HOME_UNPACKING)
def test_unpacking_syncing_or_cloning_into_the_home_directory_or_its_config_is_destructive(command: str) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == DES
    assert classify(command, contained=True, workspace=WORKSPACE).risk < DES  # the VM is discarded


@pytest.mark.parametrize(
    "command",
    [
        "tar -C ~/Downloads -xf x.tar",
        "mkdir -p ~/.cache/x",
        "echo done >> ~/notes.txt",
        "unzip x.zip -d ~/proj2",
    ],
)
def test_writes_elsewhere_in_the_home_directory_stay_system(command: str) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == SYS


HOST_TAKEOVERS = [
    "install -m 4755 sh /tmp/x",
    "install -m u+s sh /tmp/x",
    "install --mode=2755 sh /tmp/x",
    "rsync --chmod=u+s x /tmp/x",
    "rsync --chmod=Du+s,F4755 x /tmp/x",
    "sudo rsync -a evil/ /opt/x",
    "sudo cp -p suid /opt/x",
    "sudo tar -xpf x.tar -C /opt",
    "systemctl enable --now /tmp/x.service",
    "systemctl link ./x.service",
    "systemctl --user link ./x.service",
    "docker compose up",
    "docker compose up -d",
    "docker-compose up",
    "docker run -v ~:/h alpine",
    "docker run -v ~/.ssh:/k alpine",
    "docker run --mount type=bind,src=/home/dev,dst=/h alpine",
]


@pytest.mark.parametrize("command", HOST_TAKEOVERS)
def test_setuid_copies_unit_files_compose_and_home_mounts_are_destructive_on_the_host(command: str) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == DES


@pytest.mark.parametrize(
    "command",
    [
        "install -m 755 sh /tmp/x",
        "rsync -a --chmod=F644 x /tmp/x",
        "cp -p a /tmp/b",
        "tar -xf x.tar -C /tmp",
        "systemctl start nginx",
        "docker compose ps",
        "docker run -v /home/dev/project:/app alpine",
        "docker run -v ~/.cache/pip:/c alpine",
    ],
)
def test_the_plain_forms_next_to_the_host_takeovers_stay_below_destructive(command: str) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk < DES


@pytest.mark.parametrize("command", ["gpg --decrypt x.gpg", "gpg -d x.gpg", "gpg --export-secret-keys -a me"])
def test_gpg_decryption_and_secret_key_export_are_secret_reads(command: str) -> None:
    _secret_read(command)
