"""Flutter, Dart and Bun test runners given test files, an entry point or a directory outside the workspace run code
FlyBot does not read (``project-outside-workspace``, destructive); the same commands on workspace paths keep their
build grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

OUTSIDE = [
    "flutter test {elsewhere}",
    "flutter test {elsewhere}/test/a_test.dart",
    "flutter run -t {elsewhere}/main.dart",
    "flutter run --target={elsewhere}/main.dart",
    "flutter build apk --target {elsewhere}/main.dart",
    "dart test {elsewhere}",
    "dart test ../elsewhere/a_test.dart",
    "dart compile exe {elsewhere}/main.dart",
    "dart analyze {elsewhere}",
    "bun test {elsewhere}",
    "bun test ../elsewhere",
    "bun test {elsewhere}/a.test.ts",
]

INSIDE = [
    "flutter test",
    "flutter test test/a_test.dart",
    "flutter run -t lib/main.dart",
    "flutter build apk",
    "flutter build web --release",
    "dart test",
    "dart test test/a_test.dart",
    "dart compile exe bin/main.dart",
    "dart analyze",
    "bun test",
    "bun test src",
    "bun test ./src/a.test.ts",
]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return project(
        tmp_path,
        {
            "pubspec.yaml": "name: app\n",
            "lib/main.dart": "void main() {}\n",
            "test/a_test.dart": "void main() {}\n",
            "bin/main.dart": "void main() {}\n",
            "package.json": '{"name": "app"}\n',
            "src/a.test.ts": "test('x', () => {});\n",
        },
    )


@pytest.mark.parametrize("shape", OUTSIDE)
def test_a_test_runner_given_code_outside_the_workspace_is_destructive(workspace: Path, shape: str) -> None:
    risk, details = graded(shape.format(elsewhere=workspace.parent / "elsewhere"), workspace)
    assert risk is RiskLevel.DESTRUCTIVE, details
    assert any("outside the workspace" in detail for detail in details), details


@pytest.mark.parametrize("command", INSIDE)
def test_the_same_runner_on_workspace_paths_keeps_its_build_grade(workspace: Path, command: str) -> None:
    risk, details = graded(command, workspace)
    assert risk is RiskLevel.WORKSPACE_WRITE, details
