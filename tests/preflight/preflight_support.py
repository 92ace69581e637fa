"""Helpers for the preflight tests: a fake host the REAL probes look at, and the CLI run as a subprocess.

Outcomes are forced only through what the probes see (PATH, the lsm file, the platform and os-release
overrides) — never by replacing preflight code.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]

DEBIAN_OS_RELEASE = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n'


@dataclass
class FakeHost:
    """A temp dir holding the only ``PATH`` entry, an lsm file and an os-release file.

    ``env()`` is the complete environment for a probe run: nothing from the test process leaks in.
    """

    root: Path
    platform: str = "linux"
    extra: dict[str, str] = field(default_factory=dict)
    lsm_override: bool = True

    def __post_init__(self) -> None:
        self.bin_dir.mkdir(exist_ok=True)
        self.host_root.mkdir(exist_ok=True)
        self.os_release("debian")

    @property
    def host_root(self) -> Path:
        """Stands in for ``/`` when the probes read host settings (``FLYBOT_PREFLIGHT_ROOT``): empty by default."""
        return self.root / "hostroot"

    def setting(self, relative: str, value: str) -> FakeHost:
        """Write a host setting file under :attr:`host_root` (e.g. ``proc/sys/user/max_user_namespaces``)."""
        path = self.host_root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(value)
        return self

    def os_release_text(self, text: str) -> None:
        """Write the os-release file verbatim."""
        (self.root / "os-release").write_text(text)

    @property
    def bin_dir(self) -> Path:
        return self.root / "bin"

    @property
    def lsm_path(self) -> Path:
        return self.root / "lsm"

    def tool(self, name: str, body: str) -> Path:
        """Put an executable ``#!/bin/sh`` script ``name`` on the PATH."""
        path = self.bin_dir / name
        path.write_text(f"#!/bin/sh\n{body}\n")
        path.chmod(0o755)
        return path

    def link(self, name: str, target: str) -> None:
        """Put a symlink ``name`` -> ``target`` (a real binary) on the PATH."""
        (self.bin_dir / name).symlink_to(target)

    def lsm(self, text: str | None) -> FakeHost:
        """Write the lsm list, or remove the file (``None``: unreadable -> Landlock cannot be probed)."""
        if text is None:
            self.lsm_path.unlink(missing_ok=True)
        else:
            self.lsm_path.write_text(text + "\n")
        return self

    def os_release(self, distro: str | None) -> None:
        path = self.root / "os-release"
        if distro == "debian":
            path.write_text(DEBIAN_OS_RELEASE)
        elif distro is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(f"ID={distro}\n")

    def env(self, **extra: str) -> dict[str, str]:
        """The probes' whole environment; without ``lsm_override`` Landlock is asked by the real syscall."""
        env = {
            "PATH": str(self.bin_dir),
            "FLYBOT_PREFLIGHT_PLATFORM": self.platform,
            "FLYBOT_PREFLIGHT_OS_RELEASE_FILE": str(self.root / "os-release"),
            "FLYBOT_PREFLIGHT_ROOT": str(self.host_root),
        }
        if self.lsm_override:
            env["FLYBOT_PREFLIGHT_LSM_FILE"] = str(self.lsm_path)
        return {**env, **self.extra, **extra}


@dataclass(frozen=True)
class CliRun:
    """One ``python -m bot.preflight.cli preflight ...`` run."""

    code: int
    stdout: str
    stderr: str

    @property
    def json(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.stdout)
        return data

    @property
    def lines(self) -> list[str]:
        return self.stdout.splitlines()


def run_cli(env: dict[str, str], *args: str) -> CliRun:
    """Run the preflight CLI in a real subprocess with exactly ``env``."""
    done = subprocess.run(
        [sys.executable, "-m", "bot.preflight.cli", "preflight", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return CliRun(done.returncode, done.stdout, done.stderr)
