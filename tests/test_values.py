"""bot/values.py: the records that replaced dataclasses on the adapters' start-up path behave as those dataclasses did
(equality, hashing, immutability, replace, repr, copy and pickle)."""

from __future__ import annotations

import copy
import pickle

import pytest

from bot.hooks.gate import Grade, Request
from bot.risk.model import Assessment, Reason, RiskLevel, SimpleCommand, reason_of
from bot.risk.options import Opt, Scan
from bot.risk.recipes import Recipe, RecipeLine


def test_a_frozen_value_compares_and_hashes_by_its_fields_and_class() -> None:
    a = Reason("rm -rf x", "deletion", RiskLevel.DESTRUCTIVE, "rm deletes.")
    assert a == Reason("rm -rf x", "deletion", RiskLevel.DESTRUCTIVE, "rm deletes.", False)
    assert a == reason_of("rm -rf x", "deletion", RiskLevel.DESTRUCTIVE, "rm deletes.", False)  # the fast builder
    assert a != Reason("rm -rf x", "deletion", RiskLevel.DESTRUCTIVE, "rm deletes.", True)
    assert len({a, reason_of("rm -rf x", "deletion", RiskLevel.DESTRUCTIVE, "rm deletes.", False)}) == 1
    assert RecipeLine("Makefile:1", "ls") != Recipe("Makefile:1", "ls", ())  # another class is never equal
    assert a.__eq__(("rm -rf x", "deletion", RiskLevel.DESTRUCTIVE, "rm deletes.", False)) is NotImplemented


def test_a_frozen_value_refuses_assignment_and_deletion() -> None:
    command = SimpleCommand(("ls",), "ls", RiskLevel.READ_ONLY)
    with pytest.raises(AttributeError, match="frozen SimpleCommand"):
        command.text = "rm"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del command.argv  # type: ignore[misc]
    assert command.text == "ls" and command.wrappers == ()


def test_replace_copies_with_changes_and_refuses_unknown_fields() -> None:
    grade = Grade("ls", RiskLevel.READ_ONLY, RiskLevel.WORKSPACE_WRITE)
    raised = grade.replace(risk=RiskLevel.SYSTEM, why="sudo")
    assert (raised.command, raised.risk, raised.ceiling, raised.why, raised.recipes) == (
        "ls",
        RiskLevel.SYSTEM,
        RiskLevel.WORKSPACE_WRITE,
        "sudo",
        (),
    )
    assert grade.risk == RiskLevel.READ_ONLY and type(raised) is Grade
    with pytest.raises(TypeError, match="no field 'colour'"):
        grade.replace(colour="red")


def test_repr_names_the_class_and_every_field_like_a_dataclass() -> None:
    assert repr(RecipeLine("Makefile:3", "make -C sub")) == "RecipeLine(source='Makefile:3', command='make -C sub')"
    assert repr(Opt("-o", None)) == "Opt(name='-o', value=None)"


def test_frozen_values_survive_copy_and_pickle() -> None:
    assessment = Assessment(
        RiskLevel.NETWORK,
        (Reason("curl x", "network-egress", RiskLevel.NETWORK, "talks."),),
        (SimpleCommand(("curl", "x"), "curl x", RiskLevel.NETWORK),),
        True,
        (Recipe("make", "all", (RecipeLine("Makefile:1", "curl x"),)),),
    )
    for twin in (copy.copy(assessment), copy.deepcopy(assessment), pickle.loads(pickle.dumps(assessment))):
        assert twin == assessment and hash(twin) == hash(assessment)
    request = Request("s", "/w", False, justification="why")
    assert pickle.loads(pickle.dumps(request)) == request


def test_a_mutable_record_compares_by_fields_and_is_unhashable() -> None:
    scan = Scan()
    assert scan == Scan([], [], [], False) and scan.opts == []
    scan.opts.append(Opt("-f"))
    scan.dynamic = True
    assert scan != Scan() and scan == Scan([Opt("-f")], dynamic=True)
    with pytest.raises(TypeError):
        hash(scan)
    assert Scan().opts is not Scan().opts  # a fresh list each time, as default_factory gave
