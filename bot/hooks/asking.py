"""Asking FlyBot for the gate: escalate, long-poll, withdraw -- and withdraw on every way out.

Imported by :func:`bot.hooks.gate.decide` only when a command is above the ceiling, so the fast path (a command
allowed locally) never loads asyncio or the HTTP client.

Ways out and what each leaves behind (issue 12):

* a decision: the escalation is final, nothing to clean up;
* the wait budget runs out: the escalation is withdrawn (a reserve of the budget is kept for it), so the gate answers
  before its own deadline (the hook's ``--wait``, below Claude Code's hook ``timeout``);
* SIGINT, SIGTERM or SIGHUP while asking (Ctrl-C, the harness's hook timeout, a closed terminal): the escalation is
  withdrawn, then the verdict is ``interrupted``. A signal that arrives while the escalation is being created re-sends
  the same ``Idempotency-Key`` (the API returns the escalation it already made, never a second card) to learn its id
  and withdraw it;
* SIGKILL cannot be caught: that is why the gate withdraws on its own before its deadline.
"""

from __future__ import annotations

import asyncio
import signal
import time
import uuid
from typing import Any

from bot.client import FINAL, ClientError, FlyBotClient, Refused, Unreachable
from bot.hooks.gate import MAX_KEY, Grade, Request, Server, Verdict

#: Signals that withdraw the escalation before the process exits.
WITHDRAW_ON = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
#: Seconds allowed for the withdraw after a signal (the harness may follow up with SIGKILL).
WITHDRAW_AFTER_SIGNAL_S = 5.0


def ask(graded: Grade, server: Server, request: Request, *, wait_s: float) -> Verdict:
    """Escalate ``graded.command`` and wait at most ``wait_s`` seconds in all; see the module docstring.

    Never raises for FlyBot's failures or for the signals in :data:`WITHDRAW_ON` (they become verdicts).
    """
    return asyncio.run(_guarded(graded, server, request, wait_s))


class _State:
    """What the signal path needs to clean up: the escalation seen last, the key it was created with."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.current: dict[str, Any] | None = None
        self.signal: str = ""


async def _guarded(graded: Grade, server: Server, request: Request, wait_s: float) -> Verdict:
    """Run :func:`_ask` as its own task and race it against the signals in :data:`WITHDRAW_ON`.

    A signal cancels the asking task and then withdraws. The race is explicit (``asyncio.wait``) rather than a
    cancellation of this task, because a cancellation can be swallowed by ``asyncio.wait_for`` when the awaited call
    finishes in the same instant (Python 3.11), and the gate would then keep waiting.
    """
    assert server.token is not None
    loop = asyncio.get_running_loop()
    state = _State((request.idempotency_key or f"flybot-gate-{uuid.uuid4()}")[:MAX_KEY])
    client = FlyBotClient(server.url, server.token, retry_pause_s=0.5)
    signalled = asyncio.Event()

    def on_signal(signum: int) -> None:
        if not state.signal:
            state.signal = signal.Signals(signum).name
            signalled.set()

    for sig in WITHDRAW_ON:
        loop.add_signal_handler(sig, on_signal, sig)
    asking = asyncio.ensure_future(_ask(graded, server, request, wait_s, client, state))
    interrupt = asyncio.ensure_future(signalled.wait())
    try:
        await asyncio.wait({asking, interrupt}, return_when=asyncio.FIRST_COMPLETED)
        if not state.signal:
            return asking.result()
        asking.cancel()
        await asyncio.gather(asking, return_exceptions=True)
        current = await _withdraw_after_signal(client, request, graded, state)
        return Verdict("interrupted", graded, current, signal=state.signal)
    finally:
        interrupt.cancel()
        for sig in WITHDRAW_ON:
            loop.remove_signal_handler(sig)


async def _withdraw_after_signal(
    client: FlyBotClient, request: Request, graded: Grade, state: _State
) -> dict[str, Any] | None:
    """Withdraw whatever this gate created, within :data:`WITHDRAW_AFTER_SIGNAL_S`; the escalation seen last, if any."""
    try:
        async with asyncio.timeout(WITHDRAW_AFTER_SIGNAL_S):
            current = state.current
            if current is None:  # interrupted while creating it: the same key returns it without a second card
                current = await client.escalate(request.body(graded.command, graded.recipes), idempotency_key=state.key,
                                                connect_timeout_s=2.0)
            if current.get("status") in FINAL:
                return current
            return await _withdraw(client, current, timeout=WITHDRAW_AFTER_SIGNAL_S)
    except (ClientError, TimeoutError):
        return state.current


async def _ask(
    graded: Grade, server: Server, request: Request, wait_s: float, client: FlyBotClient, state: _State
) -> Verdict:
    start = time.monotonic()
    deadline = start + max(wait_s, 0.1)
    reserve = min(3.0, max(0.5, wait_s / 4))  # kept back for the withdraw

    def left() -> float:
        return deadline - time.monotonic()

    try:
        current = await asyncio.wait_for(
            client.escalate(
                request.body(graded.command, graded.recipes), idempotency_key=state.key,
                connect_timeout_s=max(0.1, min(10.0, left() - reserve)),
            ),
            timeout=max(0.1, left()),
        )
    except Refused as exc:
        return Verdict("refused", graded, detail=f"{exc.detail} ({exc.code}, HTTP {exc.status})")
    except (Unreachable, TimeoutError) as exc:
        return Verdict("unreachable", graded, detail=_unreachable_text(server.url, exc))
    state.current = current

    lost: BaseException | None = None
    if current.get("status") not in FINAL:
        try:
            current = await asyncio.wait_for(client.wait(current, timeout_s=max(0.0, left() - reserve)),
                                             timeout=max(0.1, left()))
        except (ClientError, TimeoutError) as exc:
            lost = exc
        state.current = current
    ran_out = current.get("status") not in FINAL
    if ran_out:
        current = await _withdraw(client, current, timeout=max(0.5, min(reserve, left() + reserve)))
        state.current = current
    status = str(current.get("status"))
    if ran_out and status in ("pending", "withdrawn"):  # our wait ran out (withdrawn by us, or the withdraw failed)
        if lost is not None:
            return Verdict("unreachable", graded, current, detail=_unreachable_text(server.url, lost))
        return Verdict("timeout", graded, current, waited_s=round(time.monotonic() - start, 1),
                       budget_s=round(wait_s, 1))
    if status in ("approved", "denied", "expired", "withdrawn", "undeliverable"):
        return Verdict(status, graded, current)  # type: ignore[arg-type]
    return Verdict("refused", graded, current, detail=f"unknown status {status!r}")


async def _withdraw(client: FlyBotClient, current: dict[str, Any], *, timeout: float) -> dict[str, Any]:
    """Withdraw a still-pending escalation (best effort); if a decision landed first, return that decision."""
    try:
        return dict(await asyncio.wait_for(client.withdraw(current["id"]), timeout=timeout))
    except Refused as exc:
        if exc.code == "already_decided":
            try:
                return dict(await asyncio.wait_for(client.get(current["id"]), timeout=timeout))
            except (ClientError, TimeoutError):
                return current
        return current
    except (ClientError, TimeoutError):
        return current


def _unreachable_text(url: str, exc: BaseException) -> str:
    text = str(exc).strip()
    return text if text.startswith("FlyBot") else f"FlyBot at {url} did not answer in time"


async def ask_async(graded: Grade, server: Server, request: Request, *, wait_s: float) -> Verdict:
    """:func:`ask` for an adapter that runs its own event loop (``flybot codex``): no signal handlers of its own.

    When the calling task is cancelled (once or more), the escalation is withdrawn first (within
    :data:`WITHDRAW_AFTER_SIGNAL_S`) and the cancellation then goes on. Never raises for FlyBot's failures (they become verdicts).
    """
    assert server.token is not None
    state = _State((request.idempotency_key or f"flybot-gate-{uuid.uuid4()}")[:MAX_KEY])
    client = FlyBotClient(server.url, server.token, retry_pause_s=0.5)
    try:
        return await _ask(graded, server, request, wait_s, client, state)
    except asyncio.CancelledError:
        # A second cancellation (Ctrl-C, then the turn's end) must not cut the withdraw short: it is bounded by
        # WITHDRAW_AFTER_SIGNAL_S on its own.
        withdraw = asyncio.ensure_future(_withdraw_after_signal(client, request, graded, state))
        while not withdraw.done():
            try:
                await asyncio.shield(withdraw)
            except asyncio.CancelledError:
                continue
        raise
