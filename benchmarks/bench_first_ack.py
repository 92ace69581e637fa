"""How long the first slash command after start-up waits for its acknowledgement, under CPU load.

A fresh ``python -m bot serve`` (local mode, its own state directory) is started while ``--load`` busy processes
keep the cores busy; as soon as it prints its login URL (it accepts connections from then on) the page logs in and
types ``/flybot pending`` (a store read). The figure is the emulation's own ``elapsed_s``: from the delivery of the
command to FlyBot's acknowledgement, what Slack holds to its 3-second limit. ``--root`` runs another checkout (an
A/B comparison). Not a test; nothing is patched.

    .venv/bin/python benchmarks/bench_first_ack.py --runs 8 --load 2 [--root /work/main]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
OWNER = "U0OWNER01"
ROOM = "C0APPROVE"
BUSY = "while True: pass"


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def one_run(root: Path, command: str) -> tuple[float, float, float]:
    """(the first command's ack as the emulation timed it, seconds from the printed URL to that ack, the second
    command's ack: the same work once the process is warm)."""
    with tempfile.TemporaryDirectory(prefix="flybot-first-ack-") as tmp:
        port = _free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("FLYBOT_", "SLACK_"))}
        env.update({"HOME": tmp, "XDG_STATE_HOME": tmp, "PYTHONPATH": str(root)})
        out = Path(tmp) / "serve.out"
        with out.open("w") as sink:
            server = subprocess.Popen(
                [sys.executable, "-m", "bot", "serve", "--port", str(port)],
                cwd=tmp,
                env=env,
                stdout=sink,
                stderr=subprocess.DEVNULL,
                stdin=subprocess.DEVNULL,
            )
        try:
            deadline = time.monotonic() + 60
            key = ""
            while not key:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(f"no login URL: {out.read_text()}")
                printed_out = out.read_text()
                written = Path(tmp) / "flybot" / "login-url"  # its output is a file: the URL is in its state
                if "login-url" in printed_out and written.exists():
                    key = written.read_text().strip().rsplit("=", 1)[1]
                await asyncio.sleep(0.005)
            printed = time.monotonic()
            base = f"http://127.0.0.1:{port}"
            async with aiohttp.ClientSession(headers={"Origin": base}) as http:
                async with http.post(f"{base}/local/slack/login", json={"key": key}) as r:
                    session = (await r.json())["session"]
                acks = []
                for _ in range(2):
                    async with http.post(
                        f"{base}/local/slack/page/command",
                        json={"user": OWNER, "channel": ROOM, "text": command, "command": "/flybot"},
                        headers={"X-FlyBot-Session": session},
                    ) as r:
                        answer = await r.json()
                    assert answer["status"] == 200, answer
                    acks.append((float(answer["elapsed_s"]), time.monotonic() - printed))
            return acks[0][0], acks[0][1], acks[1][0]
        finally:
            server.terminate()
            server.wait(timeout=20)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--load", type=int, default=2, help="busy processes during each run")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose bot package runs")
    parser.add_argument("--command", default="pending")
    args = parser.parse_args()
    acks, totals, warm = [], [], []
    for _ in range(args.runs):
        busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(args.load)]
        try:
            ack, total, second = await one_run(args.root.resolve(), args.command)
        finally:
            for proc in busy:
                proc.kill()
                proc.wait()
        acks.append(ack)
        totals.append(total)
        warm.append(second)
        print(f"ack {ack * 1000:5.0f} ms  printed->ack {total * 1000:5.0f} ms  second ack {second * 1000:5.0f} ms")
    print(
        f"{args.root}: first ack median {statistics.median(acks) * 1000:.0f} ms, max {max(acks) * 1000:.0f} ms; "
        f"printed->ack median {statistics.median(totals) * 1000:.0f} ms; second ack median "
        f"{statistics.median(warm) * 1000:.0f} ms ({args.runs} runs, load {args.load})"
    )


if __name__ == "__main__":
    asyncio.run(main())
