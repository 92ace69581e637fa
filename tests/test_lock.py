"""The lock files (requirements/runtime.lock, requirements/dev.lock, written by ``python tools/lock.py``) against
``pyproject.toml``, and the installs that use them: CI's (``.ci/run``) and the container image's
(``deploy/Dockerfile``)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = ROOT / "requirements" / "runtime.lock"
DEV = ROOT / "requirements" / "dev.lock"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def pins(lock: Path) -> dict[str, str]:
    """Each pinned release's canonical name and version; fails on a pin without a hash."""
    found: dict[str, str] = {}
    blocks = re.split(r"\n(?=[A-Za-z0-9])", lock.read_text())
    for block in blocks:
        match = PIN.match(block)
        if match:
            assert "--hash=sha256:" in block, f"{lock.name}: {match.group(0)} has no hash"
            found[canonicalize_name(match.group(1))] = match.group(2)
    assert found, f"{lock.name} pins nothing"
    return found


def project() -> dict[str, list[Requirement]]:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    groups = {"": [Requirement(r) for r in meta["dependencies"]]}
    groups.update({extra: [Requirement(r) for r in reqs] for extra, reqs in meta["optional-dependencies"].items()})
    return groups


@pytest.mark.parametrize(
    ("lock", "groups"), [(RUNTIME, [""]), (DEV, ["", "test", "lint", "docs", "sdk"])], ids=["runtime", "dev"]
)
def test_the_lock_pins_every_requirement_of_pyproject_within_its_bounds(lock: Path, groups: list[str]) -> None:
    pinned = pins(lock)
    declared = project()
    assert set(declared) == {"", "test", "lint", "docs", "sdk"}, "a new extra: add it to tools/lock.py and this test"
    for group in groups:
        for req in declared[group]:
            if req.marker is not None and not req.marker.evaluate({"sys_platform": "linux"}):
                continue
            name = canonicalize_name(req.name)
            assert name in pinned, f"{lock.name} lacks {req}: run python tools/lock.py"
            assert req.specifier.contains(pinned[name], prereleases=True), (
                f"{lock.name} pins {name}=={pinned[name]} outside {req}: run python tools/lock.py"
            )


def test_the_dev_lock_pins_the_runtime_lock_s_releases() -> None:
    runtime, dev = pins(RUNTIME), pins(DEV)
    differ = {name: (version, dev.get(name)) for name, version in runtime.items() if dev.get(name) != version}
    assert not differ, f"runtime.lock and dev.lock disagree (runtime, dev): {differ}; run python tools/lock.py"


def test_ci_and_the_image_install_from_the_locks_with_hashes() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert "pip install -q --require-hashes -r requirements/dev.lock" in ci
    assert "pip install -q --no-deps -e ." in ci
    readme_test = "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m pytest -q"
    assert readme_test in (ROOT / "README.md").read_text() and readme_test in ci
    assert ci.index("requirements/dev.lock") < ci.index(readme_test), "the lock is installed before the README's"
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert "pip install --require-hashes -r requirements/runtime.lock" in dockerfile
    assert "pip install --no-deps ." in dockerfile
