"""Restarting or stopping a unit that guards the machine (bot/risk/programs/hostchanges.py ``SECURITY_UNITS``): the
restart stops the firewall, audit, logs, logins or the network first, so it is destructive on the host (no standing
approval covers it), as is a restart of the Docker daemon (it shuts down every running container); other units keep
the system grade, and service(8) is graded as the systemctl use it makes."""

from __future__ import annotations

import pytest

from bot.risk import RiskLevel, classify

RO = RiskLevel.READ_ONLY
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE


@pytest.mark.parametrize(
    "command",
    [
        "systemctl restart auditd",
        "sudo systemctl restart ufw",
        "systemctl restart firewalld.service",
        "systemctl try-restart apparmor",
        "systemctl reload-or-restart dbus",
        "systemctl restart systemd-logind",
        "systemctl restart sshd",
        "systemctl restart ssh.socket",
        "systemctl condrestart nftables",
        "systemctl force-reload fail2ban",
        "systemctl restart systemd-journald",
        "systemctl restart NetworkManager",
        "systemctl restart -q --no-block networking",
        "systemctl restart nginx sshd",
        "systemctl restart -- gdm3",
        "systemctl restart user@1000",
        "sudo systemctl restart user@1000.service",
        "systemctl try-restart user-runtime-dir@1000.service",
        "systemctl restart getty@tty1",
        "systemctl restart serial-getty@ttyS0.service",
        "systemctl restart systemd-user-sessions",
        "systemctl restart network",  # Red Hat initscripts: ifdown of every interface
        "systemctl restart tailscaled",  # the tunnels the owner may come in through
        "systemctl restart wg-quick@wg0",
        "systemctl restart openvpn-client@office.service",
        "systemctl restart cloudflared",
        "systemctl restart sssd",  # directory logins
        "systemctl restart flybot",
        # Docker docs "Live restore": the daemon shuts down running containers when it terminates
        "systemctl restart docker",
        "systemctl try-restart docker",
        "sudo systemctl restart docker.service",
        "systemctl restart docker.socket",
        "systemctl reload-or-restart docker",
        "systemctl --user restart docker",  # rootless Docker
        "service docker restart",
        "sudo service docker force-reload",
        "service user@1000 restart",
        "service auditd restart",
        "sudo service ufw --full-restart",
        "service ufw stop",
        "service nginx stop",
        "service reboot start",
        'service "$S" restart',
        "service nginx $VERB",
    ],
)
def test_restarting_or_stopping_what_guards_the_machine_is_destructive_on_the_host(command: str) -> None:
    result = classify(command, contained=False, workspace="/home/u/proj")
    assert result.risk == DES, (command, result.reasons)
    assert any(r.rule == "host-change" for r in result.reasons), result.reasons
    assert classify(command, contained=True, workspace="/home/u/proj").risk < DES


@pytest.mark.parametrize(
    ("command", "risk"),
    [
        ("systemctl restart nginx", SYS),
        ("systemctl restart postgresql.service", SYS),
        ("systemctl reload docker", SYS),  # SIGHUP: daemon.json reread, containers keep running
        ("systemctl restart containerd", SYS),  # containers outlive it under their shims
        ("service containerd restart", SYS),
        ("systemctl restart crio", SYS),
        ("systemctl --user restart podman.socket", SYS),
        ("systemctl restart docker-cleanup.timer", SYS),
        ("systemctl start docker", SYS),
        ("systemctl reload sshd", SYS),
        ("systemctl start auditd", SYS),
        ("systemctl --user restart pipewire", SYS),
        ("systemctl restart sshd-keygen.target.wants", SYS),
        ("systemctl restart auditd.timer", SYS),
        ("systemctl restart user-backup@1000", SYS),
        ("systemctl start user@1000", SYS),
        ("systemctl restart myapp@user", SYS),
        ("systemctl restart network-online.target", SYS),
        ("systemctl restart networkd-dispatcher", SYS),
        ("systemctl restart tailscaled.timer", SYS),
        ("systemctl status auditd", RO),
        ("systemctl is-active ufw", RO),
        ("service nginx restart", SYS),
        ("service postgresql reload", SYS),
        ("service ufw status", RO),
        ("service --status-all", RO),
    ],
)
def test_other_units_and_queries_keep_their_grade(command: str, risk: RiskLevel) -> None:
    assert classify(command, contained=False, workspace="/home/u/proj").risk == risk, command
