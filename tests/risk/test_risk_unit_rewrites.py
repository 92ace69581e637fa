"""systemctl commands that rewrite a unit's configuration or what a running service sees (bot/risk/programs/
hostchanges.py ``_SYSTEMCTL_REWRITES``, systemctl(1)): ``edit`` writes a drop-in the unit runs at its next start,
``revert`` removes the owner's overrides, ``set-property`` changes a running unit's limits and access and keeps them,
``bind`` and ``mount-image`` put the caller's files into a running service. Destructive on the host (no standing
approval covers them); so are starting the targets systemd.special(7) names as aliases of poweroff, rescue and reboot
(``runlevel0.target``...), ``umount.target``, ``factory-reset.target``, ``debug-shell.service`` (a root shell on a
console), and restarting a guarding unit by its D-Bus alias (``dbus-org.freedesktop.login1``). Starting, reloading and
reading other units keep their grades, and so do the logging and watchdog commands printing their setting; given
a value (``log-target null``, ``service-log-target auditd null``, ``service-watchdogs no``) they are destructive."""

from __future__ import annotations

import pytest

from bot.risk import RiskLevel, classify

RO = RiskLevel.READ_ONLY
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE


@pytest.mark.parametrize(
    "command",
    [
        "systemctl edit --stdin sshd",
        "systemctl edit --stdin --drop-in=override sshd <<< '[Service]'",
        "sudo systemctl edit --full nginx",
        "systemctl --user edit --stdin agent.service",
        "systemctl -q edit --runtime sshd",
        "systemctl revert sshd",
        "systemctl set-property sshd.service IPAddressDeny=any",
        "systemctl set-property --runtime user.slice MemoryMax=1M",
        "systemctl bind sshd.service /tmp/x /etc/ssh/sshd_config",
        "systemctl bind --read-only sshd.service /tmp/keys",
        "systemctl mount-image sshd.service /tmp/x.img /mnt",
        "systemctl start runlevel0.target",
        "sudo systemctl start runlevel6.target",
        "systemctl start --no-block runlevel1.target",
        "systemctl start umount.target",
        "systemctl start factory-reset.target",
        "systemctl start debug-shell",
        "systemctl restart debug-shell.service",
        "service debug-shell start",
        "systemctl restart dbus-org.freedesktop.login1",
        "systemctl restart dbus-org.freedesktop.network1.service",
        "systemctl try-restart dbus-org.fedoraproject.FirewallD1",
        "systemctl log-target null",
        "systemctl log-level emerg",
        "systemctl service-log-target auditd null",
        "systemctl service-log-level sshd emerg",
        "systemctl service-watchdogs no",
    ],
)
def test_unit_rewrites_are_destructive_on_the_host(command: str) -> None:
    assessment = classify(command, contained=False)
    assert assessment.risk == DES, assessment.reasons
    assert classify(command, contained=True).risk < DES


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("systemctl start myapp", SYS),
        ("systemctl restart nginx", SYS),
        ("systemctl reload nginx", SYS),
        ("systemctl daemon-reload", SYS),
        ("systemctl start runlevel3.target", SYS),
        ("systemctl start multi-user.target", SYS),
        ("systemctl restart dbus-org.freedesktop.hostname1", SYS),
        ("systemctl status debug-shell", RO),
        ("systemctl log-target", SYS),
        ("systemctl service-log-target auditd", SYS),
        ("systemctl service-watchdogs", SYS),
        ("systemctl cat sshd", RO),
        ("systemctl show -p MemoryMax user.slice", RO),
        ("systemctl status sshd", RO),
    ],
)
def test_everyday_units_keep_their_grade(command: str, level: RiskLevel) -> None:
    assert classify(command, contained=False).risk == level
