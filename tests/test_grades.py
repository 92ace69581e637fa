"""The server's memory of verdicts (``bot.escalations.Grades``): a remembered verdict is the classifier's."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.escalations import Grades, grade
from bot.risk import RiskLevel, assessment_to_dict, classify
from bot.risk.recipes import GivenRecipes, Recipe, RecipeLine
from tests.risk.test_risk_properties import bashish, scripts

CWDS = [
    "/home/dev/project",
    "/home/dev/project/",
    "/home/dev/project/../other",
    "//srv/app",
    "/",
    "relative/dir",
    "/tmp/work",
    "/home/dev/./project",
]
RECIPES = [
    (),
    (Recipe("make", "deploy", (RecipeLine("Makefile:3 (deploy)", "rm -rf /srv/app"),)),),
    (Recipe("npm", "test", (RecipeLine("package.json scripts.test", "jest"),), "web"),),
]
SHARED = Grades(size=64)  # shared by every example: one request's verdict must never answer another's


def _uncached(command: str, contained: bool, cwd: str, recipes: tuple[Recipe, ...]) -> object:
    workspace = Path(cwd) if cwd.startswith("/") else None  # what grade() did before it remembered
    return classify(
        command, contained=contained, workspace=workspace, recipes=GivenRecipes(recipes) if recipes else None
    )


EXTRA = [
    "make deploy",
    "npm test",
    "cd web && npm test",
    "make",
    "touch /home/dev/project/x",
    "cp a /tmp/work/b",
    "touch ../other/y",
    "mkdir /srv/app/z",
]


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(scripts, bashish, st.sampled_from(EXTRA)), st.booleans(), st.sampled_from(CWDS), st.sampled_from(RECIPES)
)
def test_a_remembered_verdict_is_the_classifiers_verdict(
    command: str, contained: bool, cwd: str, recipes: tuple[Recipe, ...]
) -> None:
    expected = _uncached(command, contained, cwd, recipes)
    for _ in range(2):  # the second time from memory
        graded = SHARED.grade(command, contained=contained, cwd=cwd, recipes=recipes)
        assert graded.assessment == expected
        assert list(graded.reasons) == assessment_to_dict(graded.assessment)["reasons"]


def test_the_workspace_and_containment_are_part_of_what_is_remembered() -> None:
    grades = Grades()
    command = "touch /home/dev/project/x"
    assert grades.grade(command, contained=False, cwd="/home/dev/project").assessment.risk == RiskLevel.WORKSPACE_WRITE
    assert grades.grade(command, contained=False, cwd="/tmp").assessment.risk == RiskLevel.SYSTEM
    assert grades.grade(command, contained=False, cwd="relative").assessment.risk == RiskLevel.SYSTEM
    assert grades.grade(command, contained=False, cwd="/home/dev/project").assessment.risk == RiskLevel.WORKSPACE_WRITE
    host = grades.grade("apt-get install -y jq", contained=False, cwd="/w")
    sandbox = grades.grade("apt-get install -y jq", contained=True, cwd="/w")
    assert host.assessment.risk > sandbox.assessment.risk
    assert grades.grade("apt-get install -y jq", contained=False, cwd="/w") is host


def test_memory_is_bounded_by_count_and_by_size() -> None:
    grades = Grades(size=4, max_chars=100)
    for n in range(10):
        grades.grade(f"echo {n}", contained=True, cwd="/w")
    assert len(grades._verdicts) <= 4
    long = "echo " + "a" * 200
    assert grades.grade(long, contained=True, cwd="/w").assessment == _uncached(long, True, "/w", ())
    assert all(key[0] != long for key in grades._verdicts)


def test_grade_answers_the_assessment() -> None:
    assert grade("ls", contained=True, cwd="/w") == classify("ls", contained=True, workspace=Path("/w"))
