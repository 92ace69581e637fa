"""The lock files CI and the container image install from, written from ``pyproject.toml`` by pip-tools.

``requirements/runtime.lock`` pins FlyBot's dependencies; ``requirements/dev.lock`` pins those and the ``test``,
``lint``, ``docs`` and ``sdk`` extras, resolved under runtime.lock's pins (``-c``) so both name the same runtime
versions.
Every release is pinned with its hashes (``pip install --require-hashes``), for Python 3.11 on Linux x86_64 (the
interpreter and platform this script runs on: it refuses others).

``python tools/lock.py`` re-resolves, keeping each pin that still satisfies ``pyproject.toml``;
``--upgrade`` moves every pin to the newest release that fits; ``--upgrade-package NAME`` (repeatable) moves one.
pip-tools (:data:`PIP_TOOLS`) is installed into a throwaway venv, so the result does not depend on what the
calling environment holds. Exit 0 when both files are written, else pip-compile's exit code.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

PIP_TOOLS = "pip-tools==7.7.0"
ROOT = Path(__file__).resolve().parent.parent
RUNTIME = "requirements/runtime.lock"
DEV = "requirements/dev.lock"
COMMON = ["--generate-hashes", "--strip-extras", "--no-emit-index-url", "--no-emit-find-links", "--quiet"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upgrade", action="store_true", help="move every pin to the newest release that fits")
    parser.add_argument(
        "--upgrade-package", action="append", default=[], metavar="NAME", help="move this package's pin (repeatable)"
    )
    args = parser.parse_args(argv)
    if sys.version_info[:2] != (3, 11) or platform.system() != "Linux" or platform.machine() != "x86_64":
        print(
            f"tools/lock.py: the locks are for Python 3.11 on Linux x86_64, this is Python "
            f"{platform.python_version()} on {platform.system()} {platform.machine()}",
            file=sys.stderr,
        )
        return 2
    upgrade = (["--upgrade"] if args.upgrade else []) + [f"--upgrade-package={name}" for name in args.upgrade_package]
    env = {**os.environ, "CUSTOM_COMPILE_COMMAND": "python tools/lock.py"}
    with tempfile.TemporaryDirectory(prefix="flybot-lock-") as tmp:
        venv.create(tmp, with_pip=True)
        compile_ = [str(Path(tmp) / "bin" / "pip-compile")]
        subprocess.run([str(Path(tmp) / "bin" / "pip"), "install", "-q", PIP_TOOLS], check=True)
        (ROOT / "requirements").mkdir(exist_ok=True)
        steps = [
            [*compile_, *COMMON, *upgrade, "-o", RUNTIME, "pyproject.toml"],
            [
                *compile_,
                *COMMON,
                *upgrade,
                "--extra=test",
                "--extra=lint",
                "--extra=docs",
                "--extra=sdk",
                "-c",
                RUNTIME,
                "-o",
                DEV,
                "pyproject.toml",
            ],
        ]
        for step in steps:
            code = subprocess.run(step, cwd=ROOT, env=env).returncode
            if code:
                return code
    return 0


if __name__ == "__main__":
    sys.exit(main())
