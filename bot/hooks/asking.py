"""Asking FlyBot for the gate: escalate, long-poll, withdraw -- and withdraw on every way out.

Imported by :func:`bot.hooks.gate.decide` only when a command is above the ceiling, so the fast path (a command
allowed locally) never loads the HTTP client. The client is the standard library's (:mod:`bot.client`), used
synchronously: no event loop is started for one POST and a long-poll.

Ways out and what each leaves behind:

* a decision: the escalation is final, nothing to clean up;
* the wait budget runs out: the escalation is withdrawn (a reserve of the budget is kept for it), so the gate answers
  before its own deadline (the hook's ``--wait``, below Claude Code's hook ``timeout``);
* SIGINT, SIGTERM or SIGHUP while asking (Ctrl-C, the harness's hook timeout, a closed terminal): the signal stops
  the request in flight (:class:`Interrupted`), the escalation is withdrawn, then the verdict is ``interrupted``.
  A signal that arrives while the escalation is being created re-sends the same ``Idempotency-Key`` (the API returns
  the escalation it already made, never a second card) to learn its id and withdraw it; further signals during the
  withdraw are ignored (it is bounded by :data:`WITHDRAW_AFTER_SIGNAL_S`);
* the calling task is cancelled (:func:`ask_async`, ``flybot codex``): the same withdraw, then the cancellation
  goes on;
* SIGKILL cannot be caught: that is why the gate withdraws on its own before its deadline.
"""

from __future__ import annotations

import _signal
import time

from bot.client import FINAL, ClientError, FlyBotClient, Refused, Unreachable, random_key
from bot.hooks.gate import MAX_KEY, Grade, Request, Server, Verdict

TYPE_CHECKING = False  # typing stays unloaded (bot/values.py)
if TYPE_CHECKING:
    from collections.abc import Iterable
    from types import FrameType
    from typing import Any

    from bot.client import Stop

#: Signals that withdraw the escalation before the process exits. Signal numbers and handlers go through the
#: ``_signal`` extension module: the :mod:`signal` module builds enums of every signal at import, a few per cent of
#: the hook's start-up.
WITHDRAW_ON = (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP)
#: Their names, as ``signal.Signals(number).name`` gives them.
SIGNAL_NAMES = {_signal.SIGINT: "SIGINT", _signal.SIGTERM: "SIGTERM", _signal.SIGHUP: "SIGHUP"}
#: Seconds allowed for the withdraw after a signal (the harness may follow up with SIGKILL).
WITHDRAW_AFTER_SIGNAL_S = 5.0


class Interrupted(BaseException):
    """Raised by :class:`Interruptible`'s handler at the first signal: ``name`` is the signal's (``SIGTERM``).

    A ``BaseException``, so that no ``except Exception`` between the handler and the caller swallows it."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class Interruptible:
    """``with Interruptible(signals) as guard:`` catches ``signals`` (the main thread only); after ``guard.arm()``
    the first one raises :class:`Interrupted` (a blocking socket call or sleep stops at once). A signal is otherwise
    only recorded (:attr:`name`): before ``arm()`` (which then raises at once), after ``disarm()``, and after the
    first, so the clean-up that follows (the withdraw) is not cut short. The previous handlers are restored on exit;
    an inherited "ignore" is overridden while inside, so a process started with SIGINT ignored can still be
    interrupted.

    Arm inside the ``try`` that catches :class:`Interrupted`: nothing can then raise it where nobody catches it."""

    def __init__(self, signals: Iterable[int] = WITHDRAW_ON) -> None:
        self.signals = tuple(signals)
        self.name = ""
        self.armed = False
        self._previous: dict[int, Any] = {}

    def _handle(self, signum: int, _frame: FrameType | None) -> None:
        if self.name:
            return
        self.name = SIGNAL_NAMES.get(signum) or _signal_name(signum)
        if self.armed:
            self.armed = False
            raise Interrupted(self.name)

    def arm(self) -> None:
        """From now on the first signal raises :class:`Interrupted`; raises it at once if one came already."""
        if self.name:
            raise Interrupted(self.name)
        self.armed = True

    def disarm(self) -> None:
        """From now on a signal is recorded (:attr:`name`) but raises nothing."""
        self.armed = False

    def __enter__(self) -> Interruptible:
        self._previous = {sig: _signal.signal(sig, self._handle) for sig in self.signals}
        return self

    def __exit__(self, *_exc: object) -> None:
        for sig, handler in self._previous.items():
            _signal.signal(sig, handler)


def _signal_name(signum: int) -> str:
    """The name of signal ``signum`` (``SIGUSR1``), from the :mod:`signal` module."""
    import signal

    return signal.Signals(signum).name


def ask(graded: Grade, server: Server, request: Request, *, wait_s: float) -> Verdict:
    """Escalate ``graded.command`` and wait at most ``wait_s`` seconds in all; see the module docstring.

    Runs in the main thread (it installs signal handlers). Never raises for FlyBot's failures or for the signals in
    :data:`WITHDRAW_ON` (they become verdicts).
    """
    assert server.token is not None
    state = _State((request.idempotency_key or f"flybot-gate-{random_key()}")[:MAX_KEY])
    client = FlyBotClient(server.url, server.token, retry_pause_s=0.5)
    with Interruptible(WITHDRAW_ON) as guard:
        try:
            guard.arm()
            verdict = _ask(graded, server, request, wait_s, client, state)
            guard.disarm()
            return verdict
        except Interrupted as sig:
            guard.disarm()
            current = _withdraw_after_signal(client, request, graded, state)
            return Verdict("interrupted", graded, current, signal=sig.name)


class _State:
    """What the signal path needs to clean up: the escalation seen last, the key it was created with."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.current: dict[str, Any] | None = None


def _withdraw_after_signal(
    client: FlyBotClient, request: Request, graded: Grade, state: _State
) -> dict[str, Any] | None:
    """Withdraw whatever this gate created, within :data:`WITHDRAW_AFTER_SIGNAL_S`; the escalation seen last, if any."""
    end = time.monotonic() + WITHDRAW_AFTER_SIGNAL_S
    try:
        current = state.current
        if current is None:  # interrupted while creating it: the same key returns it without a second card
            current = client.escalate(
                request.body(graded.command, graded.recipes, graded.tool),
                idempotency_key=state.key,
                connect_timeout_s=2.0,
                timeout_s=WITHDRAW_AFTER_SIGNAL_S / 2,
            )
        if current.get("status") in FINAL:
            return current
        return _withdraw(client, current, timeout=max(0.5, end - time.monotonic()))
    except ClientError:
        return state.current


def _ask(
    graded: Grade, server: Server, request: Request, wait_s: float, client: FlyBotClient, state: _State
) -> Verdict:
    start = time.monotonic()
    deadline = start + max(wait_s, 0.1)
    reserve = min(3.0, max(0.5, wait_s / 4))  # kept back for the withdraw

    def left() -> float:
        return deadline - time.monotonic()

    try:
        current = client.escalate(
            request.body(graded.command, graded.recipes, graded.tool),
            idempotency_key=state.key,
            connect_timeout_s=max(0.1, min(10.0, left() - reserve)),
            timeout_s=max(0.1, left()),
        )
    except Refused as exc:
        return Verdict("refused", graded, detail=f"{exc.detail} ({exc.code}, HTTP {exc.status})")
    except Unreachable as exc:
        return Verdict("unreachable", graded, detail=_unreachable_text(server.url, exc))
    state.current = current

    lost: BaseException | None = None
    if current.get("status") not in FINAL:
        try:
            current = client.wait(current, timeout_s=max(0.0, left() - reserve))
        except ClientError as exc:
            lost = exc
        state.current = current
    ran_out = current.get("status") not in FINAL
    if ran_out:
        current = _withdraw(client, current, timeout=max(0.5, min(reserve, left() + reserve)))
        state.current = current
    status = str(current.get("status"))
    if ran_out and status in ("pending", "withdrawn"):  # our wait ran out (withdrawn by us, or the withdraw failed)
        if lost is not None:
            return Verdict("unreachable", graded, current, detail=_unreachable_text(server.url, lost))
        return Verdict(
            "timeout", graded, current, waited_s=round(time.monotonic() - start, 1), budget_s=round(wait_s, 1)
        )
    if status in ("approved", "denied", "expired", "withdrawn", "undeliverable"):
        return Verdict(status, graded, current)  # type: ignore[arg-type]
    return Verdict("refused", graded, current, detail=f"unknown status {status!r}")


def _withdraw(client: FlyBotClient, current: dict[str, Any], *, timeout: float) -> dict[str, Any]:
    """Withdraw a still-pending escalation (best effort); if a decision landed first, return that decision."""
    end = time.monotonic() + timeout
    try:
        return client.withdraw(current["id"], timeout_s=timeout)
    except Refused as exc:
        if exc.code == "already_decided":
            try:
                return client.get(current["id"], timeout_s=max(0.1, end - time.monotonic()))
            except ClientError:
                return current
        return current
    except ClientError:
        return current


def _unreachable_text(url: str, exc: BaseException) -> str:
    text = str(exc).strip()
    return text if text.startswith("FlyBot") else f"FlyBot at {url} did not answer in time"


async def ask_async(graded: Grade, server: Server, request: Request, *, wait_s: float) -> Verdict:
    """:func:`ask` for an adapter that runs its own event loop (``flybot codex``): the same gate in a worker thread,
    with no signal handlers of its own.

    When the calling task is cancelled (once or more), the asking thread is stopped at its next retry, the escalation
    is withdrawn first (within :data:`WITHDRAW_AFTER_SIGNAL_S`; a long-poll in flight then answers at once) and the
    cancellation goes on. Never raises for FlyBot's failures (they become verdicts).
    """
    import asyncio
    import threading

    assert server.token is not None
    state = _State((request.idempotency_key or f"flybot-gate-{random_key()}")[:MAX_KEY])
    stop: Stop = threading.Event()
    client = FlyBotClient(server.url, server.token, retry_pause_s=0.5, stop=stop)
    try:
        return await asyncio.to_thread(_ask, graded, server, request, wait_s, client, state)
    except asyncio.CancelledError:
        stop.set()  # type: ignore[attr-defined]
        cleaner = FlyBotClient(server.url, server.token, retry_pause_s=0.5)
        # A second cancellation (Ctrl-C, then the turn's end) must not cut the withdraw short: it is bounded by
        # WITHDRAW_AFTER_SIGNAL_S on its own.
        withdraw = asyncio.ensure_future(asyncio.to_thread(_withdraw_after_signal, cleaner, request, graded, state))
        while not withdraw.done():
            try:
                await asyncio.shield(withdraw)
            except asyncio.CancelledError:
                continue
        raise
