"""A getopt_long-style scanner over :class:`~bot.risk.words.Word` lists.

It follows GNU getopt (getopt(3)): short flags cluster (``-rf``), a short option
that takes a value takes the rest of its cluster or the next word (``-ofile``,
``-o file``), long options take ``--name=value`` or the next word, any unambiguous
prefix of a known long option names it (``--out`` is ``--output``), ``--`` ends the
options, and (unless ``stop_at_operand``) options may follow operands.
"""

from __future__ import annotations

from bot.risk.words import Word
from bot.values import Record

__all__ = ["Opt", "Scan", "long_is", "option_values", "scan"]


class Opt(Record):
    """One option: ``name`` is ``-o`` or the full known ``--output`` (else as written); ``value`` when it took one."""

    __slots__ = ("name", "value")

    def __init__(self, name: str, value: Word | None = None) -> None:
        self.name = name
        self.value = value


class Scan(Record):
    """The result of :func:`scan`.

    Attributes:
        opts: options in order.
        operands: non-option words in order.
        rest: words after the operand where scanning stopped (``stop_at_operand``), else empty.
        dynamic: True when a word whose value is unknown stood where an option could be.
    """

    __slots__ = ("opts", "operands", "rest", "dynamic")

    def __init__(
        self,
        opts: list[Opt] | None = None,
        operands: list[Word] | None = None,
        rest: list[Word] | None = None,
        dynamic: bool = False,
    ) -> None:
        self.opts: list[Opt] = [] if opts is None else opts
        self.operands: list[Word] = [] if operands is None else operands
        self.rest: list[Word] = [] if rest is None else rest
        self.dynamic = dynamic

    def has(self, *names: str) -> bool:
        """True when any option in ``names`` was given."""
        return any(opt.name in names for opt in self.opts)

    def values(self, *names: str) -> list[Word]:
        """The values given to the options in ``names``, in order."""
        return [opt.value for opt in self.opts if opt.name in names and opt.value is not None]


def long_is(given: str, full: str) -> bool:
    """True when ``given`` (``--out`` or ``--out=x``) is an accepted spelling of long option ``full``."""
    name = given.split("=", 1)[0]
    return len(name) >= 3 and full.startswith(name)


def scan(
    words: list[Word],
    short_values: str = "",
    long_values: frozenset[str] = frozenset(),
    *,
    long_flags: frozenset[str] = frozenset(),
    stop_at_operand: bool = False,
    operands_first: int = 0,
) -> Scan:
    """Split ``words`` into options and operands.

    Args:
        words: the arguments after the program name.
        short_values: short option letters that take a value (``"otf"``).
        long_values: long options that take a value (``{"--output"}``).
        long_flags: long options known to take none (used only to resolve prefixes).
        stop_at_operand: stop at the first operand (POSIX order; for wrappers such as ``env``);
            the operand and everything after land in ``rest``.
        operands_first: number of leading words that are operands regardless of spelling.

    Never raises.
    """
    result = Scan()
    known = long_values | long_flags
    index = 0
    total = len(words)
    for _ in range(min(operands_first, total)):
        result.operands.append(words[index])
        index += 1
    while index < total:
        word = words[index]
        value = word.value
        index += 1
        if value is None:
            if word.operand_only and not stop_at_operand:
                result.operands.append(word)
                continue
            result.dynamic = True
            if stop_at_operand:
                result.rest = words[index - 1 :]
                return result
            result.operands.append(word)
            continue
        if value == "--":
            result.operands.extend(words[index:])
            if stop_at_operand:
                result.rest = result.operands
                result.operands = []
            return result
        if value.startswith("--"):
            index = _long(words, index, value, long_values, known, result)
        elif value.startswith("-") and value != "-":
            index = _short(words, index, value, short_values, result)
        elif stop_at_operand:
            result.rest = words[index - 1 :]
            return result
        else:
            result.operands.append(word)
    return result


def option_values(words: list[Word], name: str) -> list[Word]:
    """The values given to the long option ``name`` in ``words`` as :func:`scan` reads them: ``--name VALUE``,
    ``--name=VALUE`` and an unambiguous prefix of ``name`` (``--na=VALUE``), up to a ``--`` that is not a value.

    For a guard that grades one option of a program whatever else the command holds. A value that is itself an
    option word (``--name --name X``, ``--name -- --name=X``) is also read as that option: a parser that refuses
    an option word as a value (picocli, a hand-written ``strncmp`` loop) sees it there, so both readings count.
    A value only known when it runs is a word whose ``value`` is None. Never raises.
    """
    given = scan(words, long_values=frozenset({name})).values(name)
    out = list(given)
    for value in given:
        word = value.value
        at = next((i for i, w in enumerate(words) if w is value), None)
        if at is not None and word is not None and word.startswith("-") and word != "-":
            out.extend(v for v in option_values(words[at:], name) if all(v is not o for o in out))
    return out


def _long(
    words: list[Word], index: int, value: str, long_values: frozenset[str], known: frozenset[str], result: Scan
) -> int:
    name, eq, attached = value.partition("=")
    full = _resolve_long(name, known)
    if full in long_values:
        if eq:
            result.opts.append(Opt(full, Word(attached, attached)))
        elif index < len(words):
            result.opts.append(Opt(full, words[index]))
            index += 1
        else:
            result.opts.append(Opt(full))
    else:
        result.opts.append(Opt(full, Word(attached, attached) if eq else None))
    return index


def _resolve_long(name: str, known: frozenset[str]) -> str:
    if name in known or len(name) < 3:
        return name
    matches = [full for full in known if full.startswith(name)]
    if len(matches) == 1:
        return matches[0]
    return name


def _short(words: list[Word], index: int, value: str, short_values: str, result: Scan) -> int:
    letters = value[1:]
    for position, letter in enumerate(letters):
        if letter in short_values:
            attached = letters[position + 1 :]
            if attached:
                result.opts.append(Opt("-" + letter, Word(attached, attached)))
            elif index < len(words):
                result.opts.append(Opt("-" + letter, words[index]))
                index += 1
            else:
                result.opts.append(Opt("-" + letter))
            return index
        result.opts.append(Opt("-" + letter))
    return index
