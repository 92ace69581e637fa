"""Schedulers: ``at``, ``batch``, ``atq``, ``atrm`` and ``crontab`` hand code to a shell that runs later.

The scheduled code is graded like ``… | sh``: when the script shows it literally
(a quoted here-document, a literal here-string, ``echo 'CMD' |`` right before), it is parsed
and graded as a script (and the scheduling itself is at least the scheduler's own grade);
when it is not visible (standard input from elsewhere, ``at -f FILE``, ``crontab FILE``,
``crontab -e``), destructive: the classifier cannot see what will run (fail closed). Contained, the
jobs run later in the sandbox, which the containment allowlist covers (``crontab``, ``at``):
those findings are downgraded like the schedulers' other findings.

Sources: at(1) (at 3.2: ``-f``, ``-l``, ``-r``/``-d``, ``-c``, ``-q``, ``-t``, ``-u``; "the working
directory, the environment ... are retained from the time of invocation"; jobs run with
``/bin/sh``); crontab(1) and crontab(5) (cronie 1.7: ``-l``, ``-r``, ``-e``, ``-i``, ``-T``,
``-u``; installing a file replaces the user's whole crontab; jobs run with ``SHELL`` from
the crontab, default ``/bin/sh``, in ``HOME``; an unescaped ``%`` starts the job's standard input).
"""

from __future__ import annotations

from bot.risk.grader import Call
from bot.risk.options import scan
from bot.risk.walker import hijacks_environment

from .kit import R, destructive, read_only, show

__all__ = ["at", "atq", "atrm", "crontab"]

_CRON_NICKNAMES = frozenset(
    {"@reboot", "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"}
)
_CRON_SHELLS = frozenset({"/bin/sh", "/bin/bash", "/usr/bin/bash", "/usr/bin/sh", "/bin/dash"})


def _schedule(call: Call, what: str) -> None:
    call.flag(R.SYSTEM, "scheduled-job", f"{what} schedules a job that runs later on this machine.", downgradable=True)


def at(call: Call) -> None:
    """at(1)/batch: ``-l`` lists and ``-c`` prints jobs (read-only); ``-r``/``-d`` removes jobs;
    otherwise the job (``-f FILE`` or standard input) is graded as a script run later in this directory."""
    found = scan(call.args, "qftu", frozenset())
    if found.dynamic:
        destructive(
            call, "dynamic-argument", f"An argument of {call.name} is only known when it runs (it may be -f FILE)."
        )
        return
    if found.has("-l", "-c") or (found.has("-V") and not found.operands):
        read_only(call, f"{call.name} -l/-c only lists or prints scheduled jobs.")
        return
    if found.has("-r", "-d"):
        call.flag(R.DESTRUCTIVE, "deletion", f"{call.name} -r removes scheduled jobs.", downgradable=True)
        return
    _schedule(call, call.name)
    files = found.values("-f")
    if files:
        call.flag(
            R.DESTRUCTIVE,
            "script-file",
            f"{call.name} -f runs the script file {show(files[-1])} later; the classifier cannot see it.",
            downgradable=True,
        )
        return
    _scheduled_script(call, call.rec.stdin, call.name)


def atq(call: Call) -> None:
    """atq(1): lists the queue."""
    read_only(call, "atq only lists scheduled jobs.")


def atrm(call: Call) -> None:
    """atrm(1): removes jobs (work the user scheduled is lost; only the sandbox's jobs when contained)."""
    call.flag(R.DESTRUCTIVE, "deletion", "atrm removes scheduled jobs.", downgradable=True)


def _scheduled_script(call: Call, text: str | None, wrapper: str) -> None:
    if text is None:
        call.flag(
            R.DESTRUCTIVE,
            "shell-stdin",
            f"{wrapper} runs its standard input as a shell script later; the classifier cannot see it.",
            downgradable=True,
        )
        return
    if not text.strip():
        return
    call.script(text, wrapper)


def crontab(call: Call) -> None:
    """crontab(1): ``-l`` lists (read-only), ``-T`` checks a file; ``-r`` removes and ``-e`` edits the crontab;
    ``crontab FILE``/``crontab -`` replaces the whole crontab with FILE or standard input."""
    found = scan(call.args, "uscn", frozenset())
    if found.dynamic:
        destructive(call, "dynamic-argument", "An argument of crontab is only known when it runs.")
        return
    if found.has("-l", "-T", "-V"):
        read_only(call, "crontab -l only lists the crontab.")
        return
    if found.has("-r"):
        call.flag(R.DESTRUCTIVE, "deletion", "crontab -r removes every scheduled job of the user.", downgradable=True)
        return
    if found.has("-e"):
        call.flag(
            R.DESTRUCTIVE,
            "runs-program",
            "crontab -e opens an editor; the jobs it installs are not known.",
            downgradable=True,
        )
        return
    call.flag(
        R.DESTRUCTIVE,
        "crontab-replaced",
        "crontab FILE replaces the user's whole crontab (jobs already there are lost).",
        downgradable=True,
    )
    source = found.operands[0].value if found.operands else "-"
    if source != "-":
        call.flag(
            R.DESTRUCTIVE,
            "script-file",
            f"crontab installs jobs from {show(found.operands[0])}, which the classifier cannot see.",
            downgradable=True,
        )
        return
    text = call.rec.stdin
    if text is None:
        call.flag(
            R.DESTRUCTIVE,
            "shell-stdin",
            "crontab installs jobs from standard input, which the classifier cannot see.",
            downgradable=True,
        )
        return
    _cron_jobs(call, text)


def _cron_jobs(call: Call, text: str) -> None:
    """Grade each job line of a crontab(5) as a script run later in ``HOME`` (outside the workspace)."""
    for raw in text.split("\n"):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head = line.split(None, 1)[0]
        if "=" in head.split("#", 1)[0] and not head.startswith("@") and not head[0].isdigit() and head[0] != "*":
            name, _, value = line.partition("=")
            name = name.strip()
            if name == "SHELL" and value.strip().strip("'\"") in _CRON_SHELLS:
                continue
            if name == "SHELL" or hijacks_environment(name):
                destructive(call, "env-hijack", f"The crontab sets {name}, which changes what its jobs run.")
            continue
        fields = line.split(None, 1 if head in _CRON_NICKNAMES else 5)
        if (head in _CRON_NICKNAMES and len(fields) < 2) or (head not in _CRON_NICKNAMES and len(fields) < 6):
            destructive(
                call, "unrecognised-use", f"The crontab line {line[:60]!r} is not a job the classifier can read."
            )
            continue
        command = fields[-1]
        if _unescaped_percent(command):
            destructive(call, "shell-stdin", "A crontab job with an unescaped % feeds standard input to its command.")
            continue
        saved = call.g.state
        call.g.state = saved.unknown()  # cron runs jobs in HOME: nothing relative is in the workspace
        try:
            call.script(command.replace("\\%", "%"), "crontab")
        finally:
            call.g.state = saved


def _unescaped_percent(command: str) -> bool:
    index = command.find("%")
    while index != -1:
        if index == 0 or command[index - 1] != "\\":
            return True
        index = command.find("%", index + 1)
    return False
