"""The containment-aware command risk classifier.

Public API::

    classify(command: str, *, contained: bool, workspace: Path | None = None) -> Assessment
    assessment_to_dict(a: Assessment) -> dict
    RiskLevel, Reason, SimpleCommand, Assessment, requires_approval

``requires_approval(risk, ceiling)`` is ``risk > ceiling``; containment enters the
classifier (``contained=``), never the policy. The programs recognised, and the
source of each rule, are listed in :mod:`bot.risk.table`.
"""

from bot.risk.classifier import classify
from bot.risk.model import Assessment, Reason, RiskLevel, SimpleCommand, requires_approval
from bot.risk.serialize import assessment_to_dict

__all__ = [
    "Assessment",
    "Reason",
    "RiskLevel",
    "SimpleCommand",
    "assessment_to_dict",
    "classify",
    "requires_approval",
]
