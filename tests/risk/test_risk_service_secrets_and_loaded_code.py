"""Host services' password files and histories read as secrets; tools that load code or settings from places a
workspace write or a ref can plant (a virtualenv's pip.conf, flake8 configurations, go:generate lines, tox's
toxfile.py, justfile assignments, Composer plugins, build tools' JVM options), and the neighbours of each that keep
their grade."""

from __future__ import annotations

import pytest

from tests.risk.test_risk_held_back_grades import DES, NET, RO, WW, grade, rules

# -- host services' password files, tool logins and histories (sensitive._TOOL_CREDENTIALS, _TREES) ------------------
SERVICE_SECRETS = [
    "cat /etc/wpa_supplicant/wpa_supplicant.conf",
    "cat /etc/netplan/50-cloud-init.yaml",
    "cat /etc/netplan/*",
    "cat /root/.smbcredentials",
    "cat /etc/sssd/sssd.conf",
    "cat /etc/ldap.secret",
    "cat /etc/rsyncd.secrets",
    "cat /etc/ppp/chap-secrets",
    "cat /etc/ipsec.secrets",
    "cat /etc/postfix/sasl_passwd",
    "cat /etc/exim4/passwd.client",
    "cat /etc/gitlab/initial_root_password",
    "cat /var/lib/jenkins/secrets/initialAdminPassword",
    "cat /var/lib/cloud/instance/user-data.txt",
    "cat /var/lib/docker/containers/abc/config.v2.json",
    "cat /var/lib/docker/containers/*/config.v2.json",
    "cat ~/.authinfo",
    "cat ~/.mylogin.cnf",
    "cat ~/.config/configstore/firebase-tools.json",
    "cat ~/.config/linode-cli",
    "cat ~/.scw/config.yaml",
    "cat ~/.aliyun/config.json",
    "cat ~/.bluemix/config.json",
    "cat ~/'.config/Bitwarden CLI/data.json'",
    "cat ~/.yarnrc",
    "cat /etc/pip.conf",
    "cat ~/.condarc",
    "cat ~/.viminfo",
    "cat ~/.lesshst",
    "cat ~/.local/state/nvim/shada/main.shada",
    "cat ~/.gdb_history",
    "cat ~/.vi*",
]


@pytest.mark.parametrize("command", SERVICE_SECRETS)
@pytest.mark.parametrize("contained", [False, True])
def test_reading_a_service_password_file_or_history_is_a_secret_read(command: str, contained: bool) -> None:
    assert grade(command, contained) == NET
    assert "goes to the model" in rules(command, contained)["secret-read"]


@pytest.mark.parametrize(
    "command",
    [
        "cat /etc/ppp/options",
        "cat /etc/postfix/main.cf",
        "cat /etc/gitlab/gitlab.rb",
        "cat /etc/sssd/conf.d/x.conf",
        "cat /var/lib/docker/containers/abc/abc-json.log",
        "cat /var/lib/cloud/instance/boot-finished",
        "cat ~/.config/configstore/update-notifier-npm.json",
        "cat .yarnrc",  # the workspace's own
        "cat ~/.vimrc",
        "cat ~/.gitconfig",  # git prints it itself (git config --global -l)
    ],
)
def test_neighbouring_configuration_files_stay_read_only(command: str) -> None:
    assert grade(command) == RO


# -- flake8's configuration options name INI files whose local plugins it imports -----------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "flake8 --config /opt/x/setup.cfg src",
        "flake8 --config=/opt/x/setup.cfg src",
        "flake8 --append-config /opt/x/tox.ini src",
        "flake8 --conf /opt/x src",
        "flake8 --append=/opt/x src",
        "flake8 --config ../other/setup.cfg src",
    ],
)
def test_flake8_given_a_configuration_outside_the_workspace_is_destructive(command: str) -> None:
    assert grade(command, contained=True) == DES
    assert "outside the workspace" in rules(command)["project-outside-workspace"]


@pytest.mark.parametrize("command", ["flake8 src", "flake8 --config setup.cfg src", "flake8 --count src"])
def test_flake8_with_the_workspaces_configuration_stays_a_check(command: str) -> None:
    assert grade(command) == WW
