"""A bounded, de-duplicated collection of :class:`~bot.risk.model.Reason`.

Reasons stay concise however long the script (a 100 KiB script must not produce megabytes
of reasons). Identical reasons are kept once;
past :data:`REASON_CAP` distinct reasons, a reason whose (rule, level, downgraded)
group is already shown is counted instead, and the group's first reason ends with
"(and N more like it)". Every group is always shown, so the deciding rule is never lost.
"""

from __future__ import annotations

from bot.risk.model import Reason, RiskLevel, reason_of

__all__ = ["REASON_CAP", "SUBJECT_MAX", "ReasonBook"]

REASON_CAP = 24
SUBJECT_MAX = 160

_Key = tuple[str, str, int, bool]
_Group = tuple[str, int, bool]
_READ_ONLY = RiskLevel.READ_ONLY
_OVERRIDE = "program-rule-override"
"""A program rule that graded a program below its built-in grade (bot/risk/grader.py ``ruled_builtin``): always
shown, whatever the command's grade, so a card never hides that a rule lowered part of it."""


class ReasonBook:
    """Collects reasons; :meth:`result` returns them worst first."""

    __slots__ = ("_groups", "_items", "_overflow")

    def __init__(self) -> None:
        self._items: dict[_Key, Reason] = {}
        self._groups: dict[_Group, _Key] = {}
        self._overflow: dict[_Group, int] = {}

    def add(self, subject: str, rule: str, level: RiskLevel, detail: str, downgraded: bool) -> None:
        """Record one reason (subject is shortened to :data:`SUBJECT_MAX` characters)."""
        if len(subject) > SUBJECT_MAX or "\n" in subject or "\t" in subject:
            subject = shorten(subject)
        value = level._value_  # an int: hashing the enum member itself is a slow Python call
        key = (subject, rule, value, downgraded)
        if key in self._items:
            return
        group = (rule, value, downgraded)
        if group in self._groups and len(self._items) >= REASON_CAP:
            self._overflow[group] = self._overflow.get(group, 0) + 1
            return
        self._items[key] = reason_of(subject, rule, level, detail, downgraded)
        self._groups.setdefault(group, key)

    def mark(self) -> tuple[dict[_Key, Reason], dict[_Group, _Key], dict[_Group, int]]:
        """A copy of what is recorded so far, for :meth:`since` and :meth:`restore`."""
        return dict(self._items), dict(self._groups), dict(self._overflow)

    def since(self, mark: tuple[dict[_Key, Reason], dict[_Group, _Key], dict[_Group, int]]) -> list[Reason]:
        """The reasons recorded after ``mark`` was taken (a reason counted as "more like it" is not listed)."""
        return [reason for key, reason in self._items.items() if key not in mark[0]]

    def restore(self, mark: tuple[dict[_Key, Reason], dict[_Group, _Key], dict[_Group, int]]) -> None:
        """Forget every reason recorded after ``mark`` was taken."""
        self._items, self._groups, self._overflow = dict(mark[0]), dict(mark[1]), dict(mark[2])

    def rules(self) -> frozenset[str]:
        """The rule names recorded so far (a reason counted as "more like it" shares its group's rule)."""
        return frozenset(key[1] for key in self._items)

    def result(self, risk: RiskLevel) -> tuple[Reason, ...]:
        """The reasons, worst level first; read-only ones only when ``risk`` is read-only, but for a program rule's
        override (:data:`_OVERRIDE`), which is always shown."""
        if not self._overflow and len(self._items) == 1:
            only = next(iter(self._items.values()))
            return (only,) if only.level > _READ_ONLY or risk == _READ_ONLY or only.rule == _OVERRIDE else ()
        items = dict(self._items)
        for group, count in self._overflow.items():
            key = self._groups[group]
            reason = items[key]
            items[key] = reason.replace(detail=f"{reason.detail} (and {count} more like it)")
        kept = [r for r in items.values() if r.level > _READ_ONLY or risk == _READ_ONLY or r.rule == _OVERRIDE]
        kept.sort(key=lambda r: r.level, reverse=True)
        return tuple(kept)


def shorten(text: str, limit: int = SUBJECT_MAX) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    head = text[: limit * 4]
    flat = " ".join(head.split()) if ("\n" in head or "\t" in head) else head
    if len(flat) <= limit and len(head) == len(text):
        return flat
    return flat[: limit - 1] + "…"
