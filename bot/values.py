"""Small value classes that cost nothing to define: bases for the classifier's and the adapters' records.

Why not ``dataclasses``: importing it loads ``inspect`` (with ``ast``, ``dis``, ``tokenize``: about 5 ms) and each
``@dataclass`` builds its methods with ``exec`` at import (about 0.5 ms a class). The agent adapters (``flybot hook
claude-code``, ``flybot exec``) start on every tool call of a session and load some twenty of these records; their
start-up goal is at most 3x ``python -c pass`` (``benchmarks/bench_hook.py``). The rest of FlyBot keeps dataclasses.

A subclass lists its fields in ``__slots__`` (that order is the field order used by ``==``, ``hash`` and ``repr``)
and annotates them for the type checker; its ``__init__`` sets them (:class:`Frozen`: through :meth:`Frozen._init`).
What it gets matches the dataclass it replaces:

* :class:`Frozen` (``@dataclass(frozen=True, slots=True)``): equality by class and fields, hashing by fields, a
  dataclass-style ``repr``, ``replace(**changes)`` (as ``dataclasses.replace``), and assignment refused with
  :class:`AttributeError` (``dataclasses.FrozenInstanceError`` is one); copy and pickle work.
* :class:`Record` (``@dataclass(slots=True)``): mutable, equality by class and fields, unhashable, the same ``repr``.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported at run time (1.5 ms); type checkers take this branch
if TYPE_CHECKING:
    from typing import Self

__all__ = ["Frozen", "Record"]

_set = object.__setattr__


def _fields(obj: object) -> tuple[str, ...]:
    """The field names of a :class:`Frozen` or :class:`Record`: its class's ``__slots__``."""
    names: tuple[str, ...] = type(obj).__slots__  # type: ignore[attr-defined]
    return names


def _fields_repr(obj: object) -> str:
    inner = ", ".join(f"{name}={getattr(obj, name)!r}" for name in _fields(obj))
    return f"{type(obj).__qualname__}({inner})"


class Frozen:
    """Base of an immutable value with slots (see the module docstring)."""

    __slots__ = ()

    def _init(self, **values: object) -> None:
        """Set the fields in ``__init__`` (assignment is refused everywhere else)."""
        for name, value in values.items():
            _set(self, name, value)

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _fields(self))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return _fields_repr(self)

    def __getstate__(self) -> tuple[object, ...]:
        return self._values()

    def __setstate__(self, state: tuple[object, ...]) -> None:
        for name, value in zip(_fields(self), state, strict=True):
            _set(self, name, value)

    def replace(self, **changes: object) -> Self:
        """A copy with ``changes`` applied (as ``dataclasses.replace``); an unknown field raises TypeError."""
        names = _fields(self)
        unknown = set(changes) - set(names)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        copy = object.__new__(type(self))
        for name in names:
            _set(copy, name, changes[name] if name in changes else getattr(self, name))
        return copy


class Record:
    """Base of a mutable record with slots (see the module docstring)."""

    __slots__ = ()
    __hash__ = None  # type: ignore[assignment]  # mutable and compared by value: unhashable, as a dataclass

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _fields(self))

    def __repr__(self) -> str:
        return _fields_repr(self)
