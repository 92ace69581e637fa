"""Systems and embedded projects. A CMake preset (cmake-presets(7)) may name a toolchain file, compilers, an included
presets file or an environment: ``cmake --preset``, ``cmake --build --preset``, ``ctest --preset`` and ``cmake
--workflow`` run that code, so one outside the workspace is code FlyBot does not read; the presets the chosen one does
not use are not looked at. ``zig run`` and ``zig test`` run the source files given. ``pio run -O`` sets a
platformio.ini option (``extra_scripts`` among them) for the run; ``pio pkg install`` of a URL installs a platform
whose builder scripts run in later builds. lldb runs ``~/.lldbinit`` at every start; ``go install`` puts programs in
``~/go/bin``, on the PATH. Each beside the everyday form."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel


def _presets(configure: list[dict[str, object]], **more: object) -> str:
    return json.dumps({"version": 6, "configurePresets": configure, **more})


_FILES = {
    "CMakeLists.txt": "cmake_minimum_required(VERSION 3.21)\nproject(x C)\n",
    "cmake/arm.cmake": "set(CMAKE_SYSTEM_NAME Generic)\n",
    "CMakePresets.json": _presets(
        [
            {"name": "debug", "binaryDir": "build"},
            {"name": "arm", "binaryDir": "build-arm", "toolchainFile": "${sourceDir}/cmake/arm.cmake"},
            {"name": "base-evil", "hidden": True, "cacheVariables": {"CMAKE_C_COMPILER": "/tmp/x/cc"}},
            {"name": "child", "inherits": "base-evil", "binaryDir": "build-child"},
            {"name": "envpath", "binaryDir": "b", "environment": {"PATH": "/tmp/x/bin:$penv{PATH}"}},
            {"name": "envmacro", "binaryDir": "b", "toolchainFile": "$env{HOME}/t.cmake"},
        ],
        buildPresets=[{"name": "debug", "configurePreset": "debug"}, {"name": "child", "configurePreset": "child"}],
        testPresets=[{"name": "debug", "configurePreset": "debug"}, {"name": "child", "configurePreset": "child"}],
    ),
    "CMakeUserPresets.json": _presets(
        [{"name": "remote", "binaryDir": "build-r", "toolchainFile": "../elsewhere/toolchain.cmake"}]
    ),
    "src/main.zig": "pub fn main() void {}\n",
    "firmware/platformio.ini": "[env:native]\nplatform = native\n",
}


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cmake --preset remote", R.DESTRUCTIVE),
        ("cmake --preset=remote", R.DESTRUCTIVE),
        ("cmake --workflow --preset remote", R.DESTRUCTIVE),
        ("cmake --preset child", R.DESTRUCTIVE),
        ("cmake --build --preset child", R.DESTRUCTIVE),
        ("ctest --preset child", R.DESTRUCTIVE),
        ("cmake --preset envpath", R.DESTRUCTIVE),
        ("cmake --preset envmacro", R.DESTRUCTIVE),
        ("cmake -S sub -B b --preset debug", R.DESTRUCTIVE),
        ("zig run ../elsewhere/evil.zig", R.DESTRUCTIVE),
        ("zig test /tmp/x/evil.zig", R.DESTRUCTIVE),
        ("pio run -d firmware --project-option='extra_scripts=pre:/tmp/x/x.py'", R.DESTRUCTIVE),
        ("pio run -d firmware -O 'platform=https://example.com/p.zip'", R.DESTRUCTIVE),
        ("pio pkg install -g -p https://example.com/platform-x.zip", R.DESTRUCTIVE),
        ("pio platform install https://github.com/example/platform-x.git", R.DESTRUCTIVE),
        ("echo 'settings set target.load-cwd-lldbinit true' >> ~/.lldbinit", R.DESTRUCTIVE),
        ("go build -o ~/go/bin/gopls ./cmd/tool", R.DESTRUCTIVE),
    ],
)
def test_hostile_forms_grade_destructive(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    risk, details = graded(command, project(tmp_path, _FILES))
    assert risk == expected, details


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cmake --preset debug", R.WORKSPACE_WRITE),
        ("cmake --preset arm", R.WORKSPACE_WRITE),
        ("cmake --build --preset debug", R.WORKSPACE_WRITE),
        ("ctest --preset debug", R.WORKSPACE_WRITE),
        ("cmake -S . -B build --preset debug", R.WORKSPACE_WRITE),
        ("cmake -B build", R.WORKSPACE_WRITE),
        ("cmake --list-presets", R.WORKSPACE_WRITE),
        ("zig run src/main.zig", R.WORKSPACE_WRITE),
        ("zig test src/main.zig", R.WORKSPACE_WRITE),
        ("pio run -d firmware -e native", R.WORKSPACE_WRITE),
        ("pio pkg install -l 'bblanchon/ArduinoJson@^7.0.0'", R.NETWORK),
        ("cat ~/.lldbinit", R.READ_ONLY),
        ("go build -o build/tool ./cmd/tool", R.WORKSPACE_WRITE),
    ],
)
def test_everyday_forms_keep_their_grade(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    risk, details = graded(command, project(tmp_path, _FILES))
    assert risk == expected, details


def test_an_included_presets_file_outside_is_code_from_outside(tmp_path: Path) -> None:
    root = project(tmp_path, {"CMakeLists.txt": "project(x)\n"})
    (root / "CMakePresets.json").write_text(json.dumps({"version": 6, "include": ["../elsewhere/more.json"]}))
    assert graded("cmake --preset any", root)[0] == R.DESTRUCTIVE
    (root / "CMakePresets.json").write_text(json.dumps({"version": 6, "include": ["more.json"]}))
    (root / "more.json").write_text(_presets([{"name": "any", "toolchainFile": "/tmp/x/t.cmake"}]))
    assert graded("cmake --preset any", root)[0] == R.DESTRUCTIVE
    (root / "more.json").write_text(_presets([{"name": "any", "binaryDir": "build"}]))
    assert graded("cmake --preset any", root)[0] == R.WORKSPACE_WRITE
