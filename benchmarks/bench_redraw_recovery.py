"""Benchmark: how long an approval card keeps its buttons after Slack recovers from failing ``chat.update``. Not a
test: it prints figures.

Run from the repository root::

    python benchmarks/bench_redraw_recovery.py [--outage 5 15 30] [--runs 3]

A real FlyBot (in-process, Slack HTTP mode, SQLite, the default delivery settings: a 1 s room pace, a 120 s
delivery deadline) against the Slack Web API emulation on loopback, with real request signing. For each outage
length: an escalation's card is posted, Slack is set to answer every ``chat.update`` with ``internal_error`` for
that many seconds, the owner clicks Approve, and the time from Slack's recovery to the card's redraw (no buttons
left) is measured. The baseline, measured in the same run: the time from the click to the redraw when Slack does
not fail at all. Printed: per outage, the recovery-to-redraw times of each run and their largest.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cards import APPROVE_ACTION  # noqa: E402
from tests.harness import OWNER, Harness  # noqa: E402
from tests.test_outbox import has_buttons, tagged  # noqa: E402


async def redraw_after(h: Harness, token: str, outage_s: float) -> float:
    """Seconds from Slack's recovery (or, with no outage, from the click) until the card has no buttons."""
    escalation = await h.escalate(token, session_id=f"s-{time.monotonic_ns()}")
    if outage_s > 0:
        async with h.http.post(
            f"{h.emu_url}/control/faults",
            json={"method": "chat.update", "status": 200, "error": "internal_error", "for_s": outage_s},
        ) as response:
            assert response.status == 200
    clicked = time.monotonic()
    await h.click(OWNER, escalation["id"], APPROVE_ACTION)
    while has_buttons(tagged(h, escalation["id"])[0].blocks):
        await asyncio.sleep(0.01)
    return time.monotonic() - (clicked + outage_s)


async def main(outages: list[float], runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        h = Harness(
            tmp=Path(tmp),
            settings_overrides={"delivery_deadline_s": 120.0, "slack_room_interval_s": 1.0, "max_open_escalations": 0},
        )
        await h.start()
        try:
            token = await h.add_bot()
            baseline = [await redraw_after(h, token, 0.0) for _ in range(runs)]
            print(
                f"baseline (no outage), click to redraw: {', '.join(f'{t:.2f}' for t in baseline)} s; "
                f"max {max(baseline):.2f} s"
            )
            for outage in outages:
                times = [await redraw_after(h, token, outage) for _ in range(runs)]
                print(
                    f"outage {outage:g} s, recovery to redraw: {', '.join(f'{t:.2f}' for t in times)} s; "
                    f"max {max(times):.2f} s"
                )
        finally:
            await h.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outage", type=float, nargs="+", default=[5.0, 15.0, 30.0], help="outage lengths, seconds")
    parser.add_argument("--runs", type=int, default=3, help="runs per outage length")
    args = parser.parse_args()
    asyncio.run(main(args.outage, args.runs))
