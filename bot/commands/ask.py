"""``flybot ask``: escalate one command and wait (the session client; no store, no server)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.settings import Settings, load_settings

if TYPE_CHECKING:
    from bot.client import FlyBotClient


def _settings() -> Settings:
    return load_settings()


# -- ask --------------------------------------------------------------------------------------------------
EXIT_APPROVED, EXIT_NO, EXIT_USAGE, EXIT_UNREACHABLE = 0, 1, 2, 3


def _local_credentials(settings: Settings) -> dict[str, str]:
    try:  # where local mode writes the demo Bot's credentials (bot.app.local_state_file; not imported: heavy)
        data = json.loads((Path(settings.state_dir) / "local.json").read_text())
    except (OSError, ValueError):
        return {}
    return {k: str(v) for k, v in data.items() if isinstance(v, str)}


def cmd_ask(args: argparse.Namespace) -> int:
    """Escalate ``COMMAND`` and wait: exit 0 approved; 1 denied/expired/withdrawn/undeliverable; 2 usage; 3 unreachable/refused."""
    from bot.client import FlyBotClient, Refused, Unreachable
    from bot.hooks.asking import Interrupted

    command = " ".join(args.command).strip() if len(args.command) != 1 else args.command[0]
    if not command:
        print("flybot ask: give the command after --, e.g. flybot ask -- sudo apt-get install -y jq", file=sys.stderr)
        return EXIT_USAGE
    settings = _settings()
    local = _local_credentials(settings)
    url = args.server or os.environ.get("FLYBOT_URL") or local.get("url") or f"http://{settings.host}:{settings.port}"
    token = args.token or os.environ.get("FLYBOT_TOKEN") or local.get("token")
    if not token:
        print(
            f"flybot ask: no token: pass --token, set FLYBOT_TOKEN, or start `flybot serve` (local mode writes its demo "
            f"Bot's token to {Path(settings.state_dir) / 'local.json'})",
            file=sys.stderr,
        )
        return EXIT_USAGE
    from bot.request_limits import request_problem

    cwd = str(Path(args.cwd).resolve()) if args.cwd else os.getcwd()
    problem = request_problem(command, timeout_s=args.timeout, cwd=cwd, justification=args.justification)
    if problem is not None:  # checked before sending: nothing reaches FlyBot, nothing is echoed in full
        print(f"flybot ask: {problem} (nothing was sent)", file=sys.stderr)
        return EXIT_USAGE
    body: dict[str, Any] = {
        "session_id": args.session or f"cli-{os.getpid()}",
        "command": command,
        "cwd": cwd,
        "file_policy": "workspace-write",
        "approval_policy": "ask",
        "contained": bool(args.contained),
        "timeout_s": args.timeout,
    }
    if args.justification:
        body["justification"] = args.justification
    if os.path.isdir(cwd):
        # What the adapters send too (bot/hooks/gate.py): the project recipes the command runs and the workspace
        # settings that choose code there, read from cwd; without them the server fails closed.
        from bot.hooks.gate import grade
        from bot.risk.model import RiskLevel

        recipes = grade(command, contained=bool(args.contained), cwd=cwd, ceiling=RiskLevel.READ_ONLY).recipes
        if recipes:
            body["recipes"] = list(recipes)
    client = FlyBotClient(url, token)
    if not args.json:
        where = "in the sandbox" if args.contained else "on the host"
        from bot.risk.hidden import plain_warning, reveal

        shown = command if len(command) <= 300 else f"{command[:300]}\u2026 ({len(command):,} characters)"
        print(f"Asking FlyBot at {url} to approve (runs {where}): {reveal(shown)}", file=sys.stderr, flush=True)
        warning = plain_warning([command], multiline=True)
        if warning:
            print(f"flybot ask: {warning}", file=sys.stderr, flush=True)
    outcome: dict[str, Any] = {}
    try:
        final = _ask_until_answer(client, body, args.timeout + 5, outcome)
    except Refused as exc:
        _say(args, {"status": "refused", "code": exc.code, "detail": exc.detail}, f"refused: {exc.detail} ({exc.code})")
        return EXIT_UNREACHABLE if exc.code != "invalid_request" else EXIT_USAGE
    except Unreachable as exc:
        _say(args, {"status": "unreachable", "detail": str(exc)}, f"unreachable: {exc}")
        return EXIT_UNREACHABLE
    except Interrupted:
        left = outcome.get("left")
        if left is None:
            print("interrupted: the escalation was withdrawn", file=sys.stderr)
        else:
            print(f"interrupted: could not withdraw the escalation ({left}); it expires on its own", file=sys.stderr)
        return EXIT_NO
    status = str(final.get("status"))
    person = final.get("decided_by_name") or final.get("decided_by")  # @Olivia; the id only from an older server
    who = person or final.get("decision_source") or ""
    if final.get("decision_source") == "standing_approval":
        who = f"standing approval {final.get('standing_approval_id')} (set by {person})"
    line = f"{status}" + (f" by {who}" if who and status in ("approved", "denied") else "")
    if final.get("reason") and status != "approved":
        line += f": {final['reason']}"
    line += f" (escalation {final.get('id')}, risk {final.get('risk')})"
    _say(args, final, line)
    return EXIT_APPROVED if status == "approved" else EXIT_NO


def _ask_until_answer(
    client: FlyBotClient, body: dict[str, Any], timeout_s: float, outcome: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Escalate and wait; Ctrl-C or SIGTERM withdraws the escalation (best effort) so no card stays live for nothing,
    then raises :class:`bot.hooks.asking.Interrupted`.

    SIGINT and SIGTERM get handlers of their own (:class:`bot.hooks.asking.Interruptible`, as ``flybot exec`` and the
    hook), so they work even when ``flybot ask`` inherited SIGINT ignored (a background job of a non-interactive
    shell): Python's own Ctrl-C handling keeps an inherited "ignore", and such a ``flybot ask`` could not be
    interrupted at all. A signal that arrives while the escalation is being created (FlyBot may have taken it, its
    card posted, before the answer came back) asks again with the same Idempotency-Key, which returns that
    escalation, and withdraws it. When the withdraw fails, ``outcome["left"]`` says why (the caller's line must not
    claim it was withdrawn).
    """
    import signal
    import threading
    import uuid

    from bot.client import ClientError
    from bot.hooks.asking import Interrupted, Interruptible

    connect_s = min(timeout_s, 10.0)
    key = str(uuid.uuid4())
    said = outcome if outcome is not None else {}

    def progress() -> None:
        print(
            f"flybot ask: FlyBot at {client.base_url} is not answering yet; trying for up to {connect_s:.0f} s "
            "(Ctrl-C to stop)",
            file=sys.stderr,
            flush=True,
        )

    def withdraw(created: dict[str, Any] | None) -> None:
        try:
            if created is None:  # the same key returns the escalation FlyBot took, without a second card
                created = client.escalate(body, connect_timeout_s=2.0, idempotency_key=key, timeout_s=3.0)
            if created.get("status") == "pending":
                client.withdraw(created["id"], timeout_s=2.0)
        except ClientError as exc:
            said["left"] = type(exc).__name__

    created: dict[str, Any] | None = None
    notice = threading.Timer(1.5, progress)
    notice.daemon = True
    with Interruptible((signal.SIGINT, signal.SIGTERM)) as guard:
        try:
            guard.arm()
            notice.start()
            try:
                created = client.escalate(body, connect_timeout_s=connect_s, idempotency_key=key)
            finally:
                notice.cancel()
            _warn_if_capped(created, body.get("timeout_s"))
            if created.get("status") == "pending":
                print(
                    f"flybot ask: escalation {created.get('id')} (risk {created.get('risk')}) is waiting for the "
                    "owner's decision on its approval card; Ctrl-C withdraws it",
                    file=sys.stderr,
                    flush=True,
                )
            final: dict[str, Any] = client.wait(created, timeout_s=timeout_s)
            guard.disarm()
        except Interrupted:
            withdraw(created)
            raise
    if final.get("status") == "pending":
        try:
            final = client.withdraw(final["id"])
        except ClientError:
            pass
    return final


def _warn_if_capped(created: dict[str, Any], asked_s: object) -> None:
    """One line when FlyBot gave the escalation less time than ``--timeout`` asked (its maximum): never silently."""
    from datetime import datetime

    try:
        lifetime = (
            datetime.fromisoformat(str(created["expires_at"])) - datetime.fromisoformat(str(created["created_at"]))
        ).total_seconds()
    except (KeyError, ValueError, TypeError):
        return
    if isinstance(asked_s, int) and lifetime < asked_s - 1:
        print(
            f"flybot ask: --timeout {asked_s} is above this FlyBot's maximum of {lifetime:.0f} s "
            f"(FLYBOT_ESCALATION_TIMEOUT_S); the escalation expires at {created['expires_at']}",
            file=sys.stderr,
            flush=True,
        )


def _say(args: argparse.Namespace, data: dict[str, Any], line: str) -> None:
    """Print the outcome: JSON as is, or the line with hidden characters made visible (a deny reason is user text)."""
    from bot.risk.hidden import plain_warning, reveal

    print(json.dumps(data) if args.json else reveal(line), flush=True)
    warning = None if args.json else plain_warning([line], multiline=True)
    if warning:
        print(f"flybot ask: {warning}", file=sys.stderr, flush=True)
