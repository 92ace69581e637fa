"""More credential files outside the workspace: Chromium-based browsers' profiles below ``~/.config`` (Edge, Vivaldi,
Opera, Chrome's beta and unstable channels) and on macOS (Vivaldi, Arc, Opera), Firefox forks' profiles (LibreWolf,
Waterfox, Zen), Electron programs' session stores (Discord, Element, Teams), Telegram's session, mail and IRC
passwords (mbsync, OfflineIMAP, aerc, himalaya, irssi, HexChat, WeeChat), package and download tools' logins (Nix's
access tokens and netrc files, Poetry's auth.toml, PDM, bunfig, wgetrc, curlrc), cloud and remote-desktop logins
(OpenStack, Scaleway, Exoscale, Vultr, OVH, Argo CD, Travis, Expo, s3fs, MinIO, Borg, Remmina), VM ssh keys (Lima,
Colima) and JetBrains' KeePass store; and ``vault token lookup``/``vault print token``, which print the token. Each is
a secret read (at least ``network``, rule ``secret-read``, which no standing approval covers), beside the everyday
reads around it that stay as they were."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.standing import never_covered
from tests.risk.both_sides import graded, project

R = RiskLevel
_FILES = {"README.md": "notes\n", "src/app.py": "print(1)\n"}

#: Credential files outside the workspace, each named as its tool's documentation names it.
CREDENTIAL_FILES = [
    "~/.config/microsoft-edge/Default/Cookies",
    "'~/.config/microsoft-edge/Default/Login Data'",
    "~/.config/microsoft-edge-beta/Default/Cookies",
    "~/.config/vivaldi/Default/Cookies",
    "'~/.config/vivaldi/Default/Login Data'",
    "~/.config/opera/Cookies",
    "~/.config/opera/Default/Cookies",
    "~/.config/google-chrome-beta/Default/Cookies",
    "'~/.config/google-chrome-unstable/Default/Login Data'",
    "~/.config/vivaldi/Default/History",
    "~/.librewolf/x.default/cookies.sqlite",
    "~/.waterfox/x.default/logins.json",
    "~/.zen/x/cookies.sqlite",
    "~/.floorp/x.default/key4.db",
    "'/Users/me/Library/Application Support/Vivaldi/Default/Cookies'",
    "'/Users/me/Library/Application Support/Arc/User Data/Default/Cookies'",
    "'/Users/me/Library/Application Support/com.operasoftware.Opera/Cookies'",
    "'/Users/me/Library/Application Support/Microsoft Edge Beta/Default/Login Data'",
    "'/Users/me/Library/Application Support/librewolf/Profiles/x/logins.json'",
    "~/.config/discord/Cookies",
    "'~/.config/Element/Local Storage/leveldb/000003.log'",
    "'~/.config/Microsoft/Microsoft Teams/Cookies'",
    "~/.config/teams-for-linux/Cookies",
    "~/.config/Postman/Cookies",
    "'/Users/me/Library/Application Support/discord/Cookies'",
    "'/Users/me/Library/Application Support/Element/Local Storage/leveldb/000003.log'",
    "~/.local/share/TelegramDesktop/tdata/key_datas",
    "~/.mbsyncrc",
    "~/.offlineimaprc",
    "~/.config/aerc/accounts.conf",
    "~/.config/himalaya/config.toml",
    "~/.irssi/config",
    "~/.config/hexchat/servlist.conf",
    "~/.weechat/sec.conf",
    "~/.config/weechat/sec.conf",
    "~/.config/nix/nix.conf",
    "~/.config/nix/netrc",
    "/etc/nix/netrc",
    "~/.config/pypoetry/auth.toml",
    "'/Users/me/Library/Application Support/pypoetry/auth.toml'",
    "~/.config/pdm/config.toml",
    "~/.bunfig.toml",
    "~/.wgetrc",
    "~/.curlrc",
    "$HOME/.curlrc",
    "/home/me/.wgetrc",
    "~/.config/openstack/clouds.yaml",
    "~/.config/openstack/secure.yaml",
    "~/.config/scw/config.yaml",
    "~/.config/exoscale/exoscale.toml",
    "~/.config/vultr-cli.yaml",
    "~/.ovh.conf",
    "~/.config/argocd/config",
    "~/.travis/config.yml",
    "~/.expo/state.json",
    "~/.passwd-s3fs",
    "/etc/passwd-s3fs",
    "/etc/samba/credentials",
    "/var/lib/sss/secrets/secrets.ldb",
    "~/.config/mc/config.json",
    "~/.config/borg/keys/repo_key",
    "~/.config/remmina/work.remmina",
    "~/.local/share/remmina/work.remmina",
    "~/.lima/_config/user",
    "~/.colima/_lima/_config/user",
    "~/proj/.vagrant/machines/default/virtualbox/private_key",
    "~/.config/JetBrains/IntelliJIdea2024.1/c.kdbx",
    "~/.config/JetBrains/IntelliJIdea2024.1/c.pwd",
]


def _secret_read(command: str, root: Path) -> None:
    """``command`` grades at least network on both sides, with a reason no standing approval covers."""
    risk, details = graded(command, root)
    assert risk >= R.NETWORK, (command, details)
    assessment = classify(command, contained=False, workspace=str(root))
    assert never_covered(assessment.reasons) is not None, (command, [r.rule for r in assessment.reasons])
    assert any("goes to the model" in r.detail for r in assessment.reasons), details


@pytest.mark.parametrize("path", CREDENTIAL_FILES)
@pytest.mark.parametrize("reader", ["cat", "jq .", "sqlite3 -readonly", "cp {} src/"])
def test_credential_file_read_is_a_secret_read(path: str, reader: str, tmp_path: Path) -> None:
    root = project(tmp_path, _FILES)
    command = reader.format(path) if "{}" in reader else f"{reader} {path}"
    _secret_read(command, root)


@pytest.mark.parametrize(
    "command",
    [
        "vault token lookup",
        "vault token lookup -format=json",
        "vault print token",
        "head -c 200 ~/.config/nix/nix.conf",
        "grep access-tokens ~/.config/nix/nix.conf",
        "grep -i pass ~/.mbsyncrc",
        "sqlite3 ~/.config/microsoft-edge/Default/Cookies 'select host_key, value from cookies'",
        "tar czf /tmp/o.tgz ~/.local/share/TelegramDesktop/tdata",
        "cat ~/.config/vivaldi/*/Cookies",
        "cat ~/.config/openstack/*.yaml",
        "base64 ~/.lima/_config/user",
    ],
)
def test_token_printers_and_other_readers_are_secret_reads(command: str, tmp_path: Path) -> None:
    _secret_read(command, project(tmp_path, _FILES))


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("ls ~/.config/microsoft-edge", R.READ_ONLY),
        ("ls -la ~/.config/vivaldi/Default", R.READ_ONLY),
        ("cat ~/.config/microsoft-edge/Default/Bookmarks", R.READ_ONLY),
        ("jq . ~/.config/microsoft-edge/Default/Preferences", R.READ_ONLY),
        ("ls ~/.librewolf", R.READ_ONLY),
        ("ls ~/.config/discord", R.READ_ONLY),
        ("cat ~/.config/discord/settings.json", R.READ_ONLY),
        ("cat ~/.config/Element/config.json", R.READ_ONLY),
        ("ls ~/.local/share/TelegramDesktop", R.READ_ONLY),
        ("ls ~/.config/nix", R.READ_ONLY),
        ("cat /etc/nix/nix.conf", R.READ_ONLY),
        ("cat ~/.config/pypoetry/config.toml", R.READ_ONLY),
        ("cat ~/.config/aerc/aerc.conf", R.READ_ONLY),
        ("cat ~/.config/hexchat/hexchat.conf", R.READ_ONLY),
        ("cat ~/.irssi/default.theme", R.READ_ONLY),
        ("cat ~/.config/weechat/weechat.conf", R.READ_ONLY),
        ("ls ~/.config/openstack", R.READ_ONLY),
        ("ls ~/.lima", R.READ_ONLY),
        ("cat ~/.lima/default/lima.yaml", R.READ_ONLY),
        ("cat ~/.colima/default/colima.yaml", R.READ_ONLY),
        ("cat ~/.config/nix/registry.json", R.READ_ONLY),
        ("cat .vagrant/machines/default/virtualbox/id", R.READ_ONLY),
        ("find ~/.config -name Cookies", R.READ_ONLY),
        ("cat docs/.config/app/Cookies", R.READ_ONLY),
        ("cat ~/.config/JetBrains/IntelliJIdea2024.1/options/ide.general.xml", R.READ_ONLY),
        ("cat ~/.config/mc/ini", R.READ_ONLY),
        ("cat ~/.config/Code/User/settings.json", R.READ_ONLY),
        ("cat '/Users/me/Library/Application Support/Code/User/settings.json'", R.READ_ONLY),
        ("ls '/Users/me/Library/Application Support/discord'", R.READ_ONLY),
        ("wget --version", R.READ_ONLY),
        ("curl --version", R.READ_ONLY),
        ("cat ~/.wgetrc.example", R.READ_ONLY),
        ("cat src/app.py", R.READ_ONLY),
        ("vault status", R.NETWORK),
        ("vault token capabilities secret/app", R.NETWORK),
    ],
)
def test_everyday_neighbours_keep_their_grade(command: str, expected: RiskLevel, tmp_path: Path) -> None:
    root = project(tmp_path, _FILES)
    risk, details = graded(command, root)
    assert risk == expected, (command, details)
    assert never_covered(classify(command, contained=False, workspace=str(root)).reasons) is None


def test_vault_status_is_covered_like_any_remote_read(tmp_path: Path) -> None:
    """``vault status`` keeps its remote-read reason; only the token printers are secret reads."""
    root = project(tmp_path, _FILES)
    rules = [r.rule for r in classify("vault status", contained=False, workspace=str(root)).reasons]
    assert "secret-read" not in rules
