"""The ansible.cfg of the directory an Ansible command runs in (Ansible Configuration Settings: the current
directory's ansible.cfg is read when ANSIBLE_CONFIG is not set): a vault password file, plugin, module, role or
inventory path outside the workspace, or ssh options that run a program here, make every Ansible command there run or
load code from outside (destructive), the read-only ones included; settings inside the workspace or at Ansible's
default places keep the grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel as R
from tests.risk.both_sides import graded, project

_EVERYDAY_CFG = (
    "[defaults]\ninventory = inventory/hosts.ini\nroles_path = roles:~/.ansible/roles:/usr/share/ansible/roles\n"
    "collections_path = ./collections\nvault_password_file = .vault-pass.txt\n; a comment\n"
    "[ssh_connection]\npipelining = True\nssh_args = -o ControlMaster=auto -o ControlPersist=60s\n"
)
_HOSTILE_CFGS = {
    "vault": "[defaults]\nvault_password_file = /tmp/elsewhere/vault-pass.sh\n",
    "vault_home": "[defaults]\nvault_password_file = ~/bin/pass.sh\n",
    "vault_id": "[defaults]\nvault_identity_list = prod@/opt/x/pass.sh, dev@prompt\n",
    "callbacks": "[defaults]\ncallback_plugins = ./plugins:/tmp/elsewhere/callbacks\ncallbacks_enabled = notify\n",
    "inventory": "[defaults]\ninventory = /tmp/elsewhere/inventory.sh\n",
    "library": "[defaults]\nlibrary = ../../elsewhere/modules\n",
    "variable": "[defaults]\nlookup_plugins = $HOME/plugins\n",
    "ssh": "[ssh_connection]\nssh_args = -o ProxyCommand=/tmp/elsewhere/x\n",
    "ssh_exe": "[ssh_connection]\nssh_executable = /tmp/elsewhere/ssh\n",
}
_COMMANDS = (
    "ansible-inventory --list",
    "ansible-playbook --syntax-check site.yml",
    "ansible-lint",
    "ansible-doc -l",
    "ansible-vault view vault.yml",
    "ansible all -m ping",
)


@pytest.mark.parametrize("name", sorted(_HOSTILE_CFGS))
@pytest.mark.parametrize("command", _COMMANDS)
def test_an_ansible_cfg_naming_code_outside_is_destructive(tmp_path: Path, name: str, command: str) -> None:
    root = project(tmp_path, {"legacy/ansible.cfg": _HOSTILE_CFGS[name], "legacy/site.yml": "---\n"})
    risk, details = graded(f"cd legacy && {command}", root)
    assert risk is R.DESTRUCTIVE, details
    assert any("ansible.cfg" in d for d in details), details


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("ansible-inventory --list", R.WORKSPACE_WRITE),
        ("ansible-playbook --syntax-check site.yml", R.WORKSPACE_WRITE),
        ("ansible-lint", R.WORKSPACE_WRITE),
        ("ansible-vault view vault.yml", R.NETWORK),
        ("ansible all -m ping", R.NETWORK),
        ("ansible-playbook --version", R.READ_ONLY),
        ("ansible --version", R.READ_ONLY),
        ("ansible all -m shell -a 'rm -rf /srv'", R.DESTRUCTIVE),
    ],
)
def test_an_everyday_ansible_cfg_keeps_the_grade(tmp_path: Path, command: str, expected: R) -> None:
    root = project(tmp_path, {"ansible.cfg": _EVERYDAY_CFG, "site.yml": "---\n", ".vault-pass.txt": "x\n"})
    assert graded(command, root)[0] is expected


def test_only_the_directory_it_runs_in_counts(tmp_path: Path) -> None:
    # Ansible reads ./ansible.cfg, not the directories above: one in a subdirectory does not affect the top
    root = project(tmp_path, {"legacy/ansible.cfg": _HOSTILE_CFGS["vault"], "site.yml": "---\n"})
    assert graded("ansible-playbook --syntax-check site.yml", root)[0] is R.WORKSPACE_WRITE
    assert graded("ansible-playbook --version", root)[0] is R.READ_ONLY


def test_a_version_query_reads_no_configuration(tmp_path: Path) -> None:
    root = project(tmp_path, {"ansible.cfg": _HOSTILE_CFGS["vault"]})
    assert graded("ansible-playbook --version", root)[0] is R.READ_ONLY
    assert graded("ansible-lint", root)[0] is R.DESTRUCTIVE
