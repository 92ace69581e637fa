"""Regular expressions compiled on first use.

The classifier runs in ``flybot hook`` and ``flybot exec``, which start on every tool call of an agent session;
compiling every pattern of the classifier at import costs several milliseconds (the case-insensitive ones most),
while a plain command uses two or three of them. A :class:`Regex` is written where ``re.compile`` would be and
compiles its pattern the first time it is used.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing stays unloaded (bot/values.py)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


class Regex:
    """``re.compile(pattern, flags)``, done at the first call of one of its methods (those of :class:`re.Pattern`
    that the classifier uses)."""

    __slots__ = ("_compiled", "_flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled now if it was not yet)."""
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self._flags)
        return self._compiled

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.compiled().search(text, pos)

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.compiled().match(text, pos)

    def fullmatch(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.compiled().fullmatch(text, pos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return self.compiled().sub(repl, text, count)

    def findall(self, text: str) -> list[str]:
        return self.compiled().findall(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.compiled().finditer(text)
