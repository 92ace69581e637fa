"""Emptying files, the workspace's .env files, persistence, and virtual machines' power and deletion are graded as
high as what they do; Python builds, coverage, gpg listings and sudo's credential options no higher. Each case
checks one side; its neighbours check the other."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE
WORKSPACE = Path("/home/dev/project")


def grade(command: str, contained: bool = False) -> RiskLevel:
    return classify(command, contained=contained, workspace=WORKSPACE).risk


def rules(command: str, contained: bool = False) -> dict[str, str]:
    return {r.rule: r.detail for r in classify(command, contained=contained, workspace=WORKSPACE).reasons}


# -- emptying a file deletes its content, as rm deletes the file -----------------------------------------------------
EMPTYING = [
    (": > app.db", "app.db"),
    ("> app.db", "app.db"),
    ("truncate -s 0 data/app.db", "data/app.db"),
    ("truncate --size=0 app.log", "app.log"),
    ("truncate -s0 app.log", "app.log"),
    ("cp /dev/null app.db", "app.db"),
    ("cat /dev/null > app.db", "app.db"),
    ("echo -n > app.db", "app.db"),
    ("printf '' > app.db", "app.db"),
    ("true > app.db", "app.db"),
    ("sudo true > app.db", "app.db"),
    (": >| app.db", "app.db"),
    ("cd src && : > app.db", "app.db"),
    ("> /tmp/build.log", "/tmp/build.log"),
]


@pytest.mark.parametrize(("command", "file"), EMPTYING)
@pytest.mark.parametrize("contained", [False, True])
def test_emptying_a_file_is_destructive_and_names_the_file(command: str, file: str, contained: bool) -> None:
    assert grade(command, contained) == DES
    assert file in rules(command, contained)["empties-file"]


def test_emptying_a_file_outside_the_workspace_is_downgraded_contained_as_a_write_there_is() -> None:
    assert grade("truncate -s 0 /var/log/auth.log") == DES
    assert grade("cp /dev/null /opt/app/app.log", contained=True) == WW


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("echo hi > out.txt", WW),
        ("ls > listing.txt", WW),
        ("echo > out.txt", WW),  # a newline is written: a write, not an emptying
        (": >> app.log", WW),
        ("truncate -s 10M disk.img", WW),
        ("cp /dev/null", RO),
        (": > /dev/null", RO),
        ("cat /dev/null", RO),
        ("{ echo a; } > out.txt", WW),
        ("echo hi > /tmp/x", WW),  # the temp area: Codex's workspace-write makes /tmp a writable root
    ],
)
def test_ordinary_writes_next_to_the_emptying_forms_keep_their_grade(command: str, level: RiskLevel) -> None:
    assert grade(command) == level
    assert "empties-file" not in rules(command)


# -- the workspace's environment files are secrets -------------------------------------------------------------------
ENV_READS = [
    "cat .env",
    "cat .env.local",
    "cat .env.production",
    "cat config/prod.env",
    "cat .envrc",
    "grep KEY .env",
    "head -n 3 backend/.env",
    "cat .env*",
    "cat *.env",
    "while read -r line; do echo $line; done < .env",
    "cp .env leaked.txt",
]


@pytest.mark.parametrize("command", ENV_READS)
@pytest.mark.parametrize("contained", [False, True])
def test_reading_the_workspaces_env_files_is_a_secret_read(command: str, contained: bool) -> None:
    assert grade(command, contained) >= NET
    assert "output goes to the model" in rules(command, contained)["secret-read"]


def test_sourcing_env_to_print_a_value_is_at_least_a_secret_read() -> None:
    assert grade("source .env && echo $X") >= NET
    assert "secret-read" in rules("source .env && echo $X")


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("cat .env.example", RO),
        ("cat .env.sample", RO),
        ("cat .env.template", RO),
        ("cat .env.dist", RO),
        ("cat example.env", RO),
        ("cat environment.yml", RO),
        ("ls -la .env", RO),
        ("cp .env.example .env", WW),
        ("echo DEBUG=1 >> .env", WW),
        ("echo DEBUG=1 | tee -a .env", WW),
        ("touch .env.local", WW),
    ],
)
def test_templates_and_writes_of_env_files_keep_their_grade(command: str, level: RiskLevel) -> None:
    assert grade(command) == level


# -- persistence: code that runs at every boot or login --------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "systemctl enable nginx",
        "systemctl --user enable syncer",
        "systemctl --user enable --now syncer",
        "systemctl --user link /home/dev/project/syncer.service",
        "systemctl --user reenable syncer",
        "systemctl --global preset syncer",
        "loginctl enable-linger",
        "loginctl enable-linger dev",
    ],
)
def test_persistence_is_destructive_on_the_host_and_downgraded_contained(command: str) -> None:
    assert grade(command) == DES
    assert grade(command, contained=True) < DES
    reasons = classify(command, contained=False, workspace=WORKSPACE).reasons
    assert any("runs at every boot/login" in r.detail or "hands systemd a unit file" in r.detail for r in reasons)


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("systemctl --user start syncer", SYS),
        ("systemctl restart nginx", SYS),
        ("systemctl is-enabled nginx", RO),
        ("systemctl --user status syncer", RO),
        ("loginctl disable-linger", SYS),
        ("loginctl list-sessions", RO),
    ],
)
def test_neighbours_of_persistence_keep_their_grade(command: str, level: RiskLevel) -> None:
    assert grade(command) == level


# -- virtual machines: power-off, reset and deletion lose state or disks ---------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "VBoxManage controlvm devbox poweroff",
        "VBoxManage controlvm devbox reset",
        "VBoxManage unregistervm devbox --delete",
        "virsh destroy devbox",
        "virsh undefine devbox",
        "vagrant destroy",
        "vagrant destroy -f",
        "multipass delete --purge devbox",
        "limactl delete devbox",
    ],
)
@pytest.mark.parametrize("contained", [False, True])
def test_losing_a_vms_state_or_disks_is_destructive(command: str, contained: bool) -> None:
    assert grade(command, contained) == DES


def test_a_vm_powered_off_is_said_to_lose_its_state() -> None:
    assert "loses state" in rules("VBoxManage controlvm devbox poweroff")["deletion"]


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("VBoxManage list vms", RO),
        ("virsh list", RO),
        ("limactl list", RO),
        ("limactl stop devbox", SYS),
        ("limactl stop --force devbox", DES),
        ("VBoxManage controlvm devbox pause", SYS),
        ("VBoxManage controlvm devbox savestate", SYS),
    ],
)
def test_listing_and_pausing_vms_keep_their_grade(command: str, level: RiskLevel) -> None:
    assert grade(command) == level


# -- Python builds and coverage --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command", ["python -m build", "python3 -m build --wheel", "pyproject-build", "pyproject-build -s -o dist"]
)
def test_python_builds_write_the_workspace(command: str) -> None:
    assert grade(command) == WW


@pytest.mark.parametrize(
    "command",
    [
        "pyproject-build /opt/other",  # another project's build backend runs
        "pyproject-build --bogus",
        "python -m build --outdir /etc/x",
    ],
)
def test_python_builds_pointed_elsewhere_stay_high(command: str) -> None:
    assert grade(command) >= SYS


@pytest.mark.parametrize(
    ("command", "as_if"),
    [
        ("coverage run -m pytest", "pytest"),
        ("coverage run -m pytest -x tests", "pytest -x tests"),
        ("coverage run --branch -p -m pytest", "pytest"),
        ("python -m coverage run -m pytest", "pytest"),
        ("coverage run script.py", "python script.py"),
        ("coverage run -m http.server", "python -m http.server"),
        ("coverage run -m cat x", "python -m cat x"),  # a module named cat, not the program
    ],
)
def test_coverage_run_is_graded_as_the_python_command_it_replaces(command: str, as_if: str) -> None:
    assert grade(command) == max(grade(as_if), WW)


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("coverage report", WW),  # the configuration's [run] plugins import the project's code
        ("coverage report -m", WW),
        ("coverage html", WW),
        ("coverage xml", WW),
        ("coverage combine", WW),
        ("coverage erase", DES),
        ("coverage run", DES),
        ("coverage run --rcfile=/opt/x/.coveragerc -m pytest", DES),
    ],
)
def test_coverage_reports_and_misuse(command: str, level: RiskLevel) -> None:
    assert grade(command) == level


# -- gpg -------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    ["gpg --list-keys", "gpg --list-secret-keys", "gpg -k", "gpg -K", "gpg --fingerprint", "gpg --verify sig.asc file"],
)
def test_gpg_listings_and_verification_only_read(command: str) -> None:
    assert grade(command) == RO
    assert grade(command, contained=True) == RO


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("gpg --export-secret-keys", NET),
        ("gpg --list-keys --export-secret-keys", NET),
        ("gpg --delete-key ABCD", DES),
        ("gpg --delete-secret-keys ABCD", DES),
        ("gpg --recv-keys ABCD", NET),
        ("gpg --auto-key-retrieve --verify sig.asc file", NET),
        ("gpg --import key.asc", SYS),
        ("gpg --list-keys -o /etc/keys", DES),
    ],
)
def test_gpg_uses_that_print_secrets_delete_or_change_the_keyring_stay_high(command: str, level: RiskLevel) -> None:
    assert grade(command) >= level


# -- sudo's options that run nothing ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    ["sudo -l", "sudo -v", "sudo -k", "sudo -K", "sudo --list", "sudo -ll", "sudo -U dev -l", "sudo -l rm -rf /"],
)
@pytest.mark.parametrize("contained", [False, True])
def test_sudo_listing_or_refreshing_credentials_only_reads(command: str, contained: bool) -> None:
    assert grade(command, contained) == RO


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("sudo ls", SYS),
        ("sudo -k ls", SYS),  # -k with a command runs it
        ("sudo -v -u root", SYS),
        ("sudo -n true", SYS),
        ("sudo -k rm -rf /srv", DES),
        ("sudo -s", DES),
    ],
)
def test_sudo_running_a_command_keeps_its_grade(command: str, level: RiskLevel) -> None:
    assert grade(command) == level
