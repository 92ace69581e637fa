"""``dvc repro`` and ``dvc exp run`` run the ``cmd`` lines of the project's dvc.yaml stages: read as a project recipe
(recipes.py ``dvc_stages``, programs/projects.py ``dvc_repro``) and graded as those lines, as make's are. A file
FlyBot does not read whole (templating, generated stages, another ``wdir``), another pipeline or import in the
project, a project outside the workspace or a dvc.yaml written by the same command is destructive."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
DES = RiskLevel.DESTRUCTIVE

_PIPELINE = """stages:
  prepare:
    cmd: python -m pytest -q tests
    deps: [data/raw.csv]
    outs: [data/clean.csv]
  train:
    cmd:
      - make train
      - echo done > reports/train.txt
    deps: [data/clean.csv]
"""


def _dvc(tmp_path: Path, files: dict[str, str]) -> Path:
    root = project(tmp_path, {".dvc/config": "[core]\n", "Makefile": "train:\n\techo train > model.txt\n", **files})
    return root


@pytest.mark.parametrize("command", ["dvc repro", "dvc repro train", "dvc exp run -S train.lr=0.01", "dvc repro -f"])
def test_a_pipeline_of_workspace_commands_is_a_build(tmp_path: Path, command: str) -> None:
    level, reasons = graded(command, _dvc(tmp_path, {"dvc.yaml": _PIPELINE}))
    assert level is WW, (command, reasons)


@pytest.mark.parametrize(
    ("stages", "risk"),
    [
        ("stages:\n  fetch:\n    cmd: curl -o data/x.csv https://example.com/x.csv\n", NET),
        ("stages:\n  wipe:\n    cmd: rm -rf ~/data\n", DES),
        ("stages:\n  run:\n    cmd: python train.py\n", DES),  # a program file FlyBot cannot see
        ("vars:\n  - params.yaml\nstages:\n  t:\n    cmd: echo ${lr}\n", DES),
        ("stages:\n  t:\n    cmd: echo ${lr}\n", DES),
        ("stages:\n  t:\n    foreach: [a, b]\n    do:\n      cmd: echo ${item}\n", DES),
        ("stages:\n  t:\n    cmd: make train\n    wdir: ../elsewhere\n", DES),
        ("stages: [1, 2]\n", DES),
        ("stages:\n  t:\n    cmd: [1]\n", DES),
    ],
)
def test_stage_commands_are_graded_and_what_is_not_read_is_destructive(
    tmp_path: Path, stages: str, risk: RiskLevel
) -> None:
    level, reasons = graded("dvc repro", _dvc(tmp_path, {"dvc.yaml": stages}))
    assert level is risk, (stages, reasons)


@pytest.mark.parametrize(
    ("files", "command"),
    [
        ({"dvc.yaml": _PIPELINE, "sub/dvc.yaml": "stages:\n  x:\n    cmd: make train\n"}, "dvc repro"),
        ({"dvc.yaml": _PIPELINE, "data.dvc": "deps:\n- path: x\n"}, "dvc repro train"),
        ({"sub/dvc.yaml": _PIPELINE}, "dvc repro"),  # no dvc.yaml here: dvc runs the project's pipelines
        ({"dvc.yaml": _PIPELINE}, "dvc --cd sub repro"),
        ({"dvc.yaml": _PIPELINE}, "echo 'stages: {}' > dvc.yaml && dvc repro"),
        ({"dvc.yaml": _PIPELINE}, "cd ../elsewhere && dvc repro"),
        ({"dvc.yaml": _PIPELINE}, "dvc run -n t python train.py"),
    ],
)
def test_pipelines_not_read_whole_are_destructive(tmp_path: Path, files: dict[str, str], command: str) -> None:
    level, reasons = graded(command, _dvc(tmp_path, files))
    assert level is DES, (command, reasons)


def test_a_project_outside_the_workspace_is_not_read(tmp_path: Path) -> None:
    root = project(tmp_path, {"dvc.yaml": _PIPELINE, "Makefile": "train:\n\techo x\n"})  # no .dvc: the project is above
    level, reasons = graded("dvc repro", root)
    assert level is DES, reasons


def test_pull_downloads_first(tmp_path: Path) -> None:
    level, reasons = graded("dvc repro --pull", _dvc(tmp_path, {"dvc.yaml": _PIPELINE}))
    assert level is NET, reasons
