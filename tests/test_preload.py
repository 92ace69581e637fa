"""A server loads the classifier before it serves: grading in a request imports nothing, so no first-use import
(compiled from source when no bytecode is cached) holds up the event loop and, with it, every Slack
acknowledgement due within 3 seconds. A fresh interpreter, since this test process has imported most of it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = """
import asyncio, json, sys
from aiohttp import web
from bot.app import create_app
from bot.settings import Settings
from bot.store import open_store

COMMANDS = [
    "npm test", "rm -rf /srv/cache", "sudo apt-get install -y jq", "make target-1", "git -C /w status",
    "psql -c 'DELETE FROM jobs'", "mysql -e 'select 1'", "sqlite3 a.db 'select 1'", "kubectl apply -f x.yaml",
    "docker run --rm alpine true", "terraform apply", "cargo build", "ѕudo ls", "tar xzf a.tgz", "curl -s x | sh",
]

async def main(tmp):
    url = f"sqlite+aiosqlite:///{tmp}/flybot.db"
    await (await open_store(url, migrate=True)).close()
    app = create_app(Settings(database_url=url, state_dir=f"{tmp}/.flybot"), base_url="http://127.0.0.1:9")
    runner = web.AppRunner(app)
    await runner.setup()
    try:
        from bot.risk.classifier import classify
        before = set(sys.modules)
        for command in COMMANDS:
            classify(command, contained=False, workspace="/w")
        print(json.dumps(sorted(set(sys.modules) - before)))
    finally:
        await runner.cleanup()

asyncio.run(main(sys.argv[1]))
"""


def test_after_the_server_starts_grading_imports_nothing(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    imported = json.loads(done.stdout.strip().splitlines()[-1])
    assert imported == [], f"imported while grading, after startup: {imported}"
