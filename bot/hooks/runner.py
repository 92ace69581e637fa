"""``flybot exec -- COMMAND...``: run a command only once FlyBot allows it, for any agent or script.

* Several words (``flybot exec -- make deploy ENV=prod``) are graded as their shell-quoted join
  (:func:`shlex.join`) and run exactly as given, without a shell.
* One word (``flybot exec -- 'make build && make deploy'``) is a script: graded as written, run by ``bash -c`` (the shell the classifier parses).
* The command runs with ``PATH`` without its empty and relative entries (:func:`absolute_path`): a program the
  agent wrote in the working directory never runs in place of the one graded.
* The command runs without the variables by which bash runs code before, or in place of, the command
  (``BASH_ENV``, exported functions ``BASH_FUNC_NAME%%``, ``SHELLOPTS`` naming ``xtrace`` and ``PS4``:
  bot/hooks/gate.py ``shell_startup``): ``echo hi`` graded is ``echo hi`` run.

At or below ``--ceiling`` the command runs at once with no network call. Above it FlyBot is asked and nothing runs
before the answer.

Exit codes:
    the command's own status when it ran; ``128 + N`` when it was killed by signal N, or when signal N (SIGINT,
        SIGTERM, SIGHUP) reached ``flybot exec`` while it was asking (the escalation is withdrawn first);
    126 when it did not run: denied, expired, withdrawn, undeliverable, no decision within ``--timeout`` (the
        escalation is withdrawn), FlyBot unreachable or refusing, no token -- or the program cannot be executed;
    127 when the program was not found;
    125 on flybot exec's own usage error (no command, an unknown option, a bad value), as ``env`` and ``timeout``
        do, so that it is never mistaken for the command's own status (a command may exit 2 itself).
One line on stderr says why whenever the command did not run or FlyBot was asked; stdout belongs to the command.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
from types import FrameType

from bot.hooks.gate import Request, Server, decide, grade, shell_startup
from bot.risk.model import RiskLevel, requires_approval

EXIT_USAGE, EXIT_NOT_RUN, EXIT_NOT_FOUND = 125, 126, 127
PREFIX = "flybot exec"
#: Signals passed on to the command while it runs (Ctrl-C's SIGINT/SIGQUIT reach it through the terminal's
#: process group; the gate ignores them meanwhile, as a shell waiting for a child does).
FORWARDED = (signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2)


def absolute_path(value: str) -> str:
    """``value`` (a ``PATH``) without its empty and relative entries. An empty entry (``:/usr/bin``, ``/usr/bin:``)
    and ``.`` name the working directory, and ``bin`` a directory in it (bash(1) "PATH"; execvp(3)): a program
    written there, an ordinary workspace write, would run in place of the one graded (``ls``, ``bash``)."""
    return os.pathsep.join(entry for entry in value.split(os.pathsep) if os.path.isabs(entry))


BASH = shutil.which("bash", path=absolute_path(os.environ.get("PATH", os.defpath))) or "/bin/bash"
"""A one-word script runs with bash: the shell the classifier parses (tree-sitter-bash). ``/bin/sh`` may be dash,
which reads e.g. ``&>`` differently ("background, then redirect"), so grading bash and running dash would let a
hidden command through."""


def _preview(text: str, limit: int = 300) -> str:
    """``text`` for a one-line notice: cut after ``limit`` characters, saying how long it was."""
    return text if len(text) <= limit else f"{text[:limit]}\u2026 ({len(text):,} characters)"


def command_of(argv: list[str]) -> tuple[str, list[str]]:
    """``(text graded and shown on the card, argv to run)`` for the words after ``--``; a single word is a bash script."""
    if len(argv) == 1:
        return argv[0], [BASH, "-c", argv[0]]
    return shlex.join(argv), list(argv)


def _unusable(program: str) -> tuple[int, str] | None:
    """``None`` when ``program`` would start (found on ``PATH`` as :func:`shutil.which` finds it, or a path to an
    executable file), else ``(exit code, why)``: 127 "command not found", or 126 for a path that exists but cannot
    be executed (a directory, no execute permission), as a shell says."""
    if shutil.which(program) is not None:
        return None
    if os.sep in program and os.path.exists(program):
        return EXIT_NOT_RUN, "cannot execute (" + ("a directory" if os.path.isdir(program) else "not executable") + ")"
    return EXIT_NOT_FOUND, "command not found"


def run(
    argv: list[str],
    *,
    contained: bool,
    ceiling: RiskLevel,
    server: Server,
    timeout_s: int,
    session_id: str | None = None,
    justification: str | None = None,
    room: str | None = None,
) -> int:
    """Grade, ask when above the ceiling, then run; returns the exit code described in the module docstring."""
    os.environ["PATH"] = absolute_path(os.environ.get("PATH", os.defpath))  # for the lookup and the command
    for name, _value in shell_startup():  # bash would run their code first: not graded, so not passed on
        del os.environ[name]
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if not argv or not "".join(argv).strip():
        print(f"{PREFIX}: give the command after --, e.g. flybot exec -- sudo apt-get install -y jq", file=sys.stderr)
        return EXIT_USAGE
    text, to_run = command_of(argv)
    unusable = _unusable(to_run[0])
    if unusable is not None:
        # Nothing to approve: a program that does not exist (or cannot run) would only waste an owner's click.
        code, why = unusable
        print(f"{PREFIX}: {to_run[0]}: {why} (nothing was asked or run)", file=sys.stderr)
        return code
    cwd = os.getcwd()
    graded = grade(text, contained=contained, cwd=cwd, ceiling=ceiling, server=server)
    if graded.needs_approval:
        where = "in the sandbox" if contained else "on the host"
        why = (
            f"{graded.risk.label} is above the {graded.ceiling.label} ceiling"
            if requires_approval(graded.risk, graded.ceiling)
            else f"{graded.risk.label}, a secret read or agent forwarding, which no ceiling allows unasked"
            if graded.always_asked
            else f"{graded.risk.label}, but FlyBot's program rules could not be read"
        )
        print(
            f"{PREFIX}: {why}; asking FlyBot at {server.url} (runs {where}): {_preview(text)}",
            file=sys.stderr,
            flush=True,
        )
    request = Request(
        session_id=session_id or f"exec-{os.getpid()}",
        cwd=cwd,
        contained=contained,
        justification=justification,
        room=room,
        expires_s=timeout_s,
    )
    try:
        verdict = decide(graded, server, request, wait_s=timeout_s + 5)
    except KeyboardInterrupt:  # Ctrl-C while grading, before anything was asked
        print(f"{PREFIX}: interrupted before a decision; not run", file=sys.stderr)
        return 130
    if verdict.outcome == "interrupted":  # SIGINT/SIGTERM/SIGHUP while asking: withdrawn, exit as killed by it
        print(f"{PREFIX}: not run: {verdict.describe()}", file=sys.stderr)
        return 128 + signal.Signals[verdict.signal].value
    if not verdict.approved:
        print(f"{PREFIX}: not run: {verdict.describe()}", file=sys.stderr)
        return EXIT_NOT_RUN
    if verdict.outcome == "approved":
        print(f"{PREFIX}: {verdict.describe()}; running", file=sys.stderr, flush=True)
    return execute(to_run)


def execute(argv: list[str]) -> int:
    """Run ``argv`` (no shell) with this process's stdio; its exit status, ``128 + N`` for signal N, 126/127 on failure."""
    try:
        child = subprocess.Popen(argv)  # noqa: S603 - approved (or at/below the ceiling) argv, no shell
    except FileNotFoundError:
        print(f"{PREFIX}: {argv[0]}: command not found", file=sys.stderr)
        return EXIT_NOT_FOUND
    except OSError as exc:
        print(f"{PREFIX}: {argv[0]}: cannot execute ({exc.strerror or exc})", file=sys.stderr)
        return EXIT_NOT_RUN

    def forward(signum: int, _frame: FrameType | None) -> None:
        try:
            child.send_signal(signum)
        except ProcessLookupError:
            pass

    previous = {sig: signal.signal(sig, forward) for sig in FORWARDED}
    previous.update({sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGQUIT)})
    try:
        code = child.wait()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 128 - code if code < 0 else code
