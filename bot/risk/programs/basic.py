"""Shell builtins and small programs whose grade hardly depends on their arguments."""

from __future__ import annotations

import re

from bot.risk.grader import Call
from bot.risk.walker import has_code, hijacks_environment
from bot.risk.words import Word

from .kit import destructive, read_only, system

__all__ = ["cd", "date", "evaluating_builtin", "hostname", "popd", "printf", "pushd"]


def _operands(words: list[Word]) -> list[Word]:
    return [w for w in words if w.value is None or w.value == "-" or not w.value.startswith("-")]


def cd(call: Call) -> None:
    """``cd [-L|-P|-e|-@] [dir]`` (bash(1) SHELL BUILTIN COMMANDS): moves the tracked cwd.

    ``cd`` alone (and ``cd --``) goes home, to ``$HOME`` (bash(1) ``cd``: "The default DIR is the value of the
    HOME shell variable"), as ``cd ~`` does, and so do ``cd "$HOME"`` and ``cd ${HOME}/DIR``; ``cd -`` goes back:
    the cwd becomes unknown, as it does for a cd inside a loop or function body (it may run many times).
    """
    g = call.g
    operands = _operands(call.args)
    target = operands[0] if operands else Word("~", "~")
    if target.value is None:
        target = _home_spelt(target)
    if call.scope.repeat:
        g.state = g.state.unknown()
    else:
        g.last_cd = g.state.after_cd(target.value, certain=True)
        g.state = g.state.after_cd(target.value, certain=False)
    read_only(call, f"{call.name} changes the shell's directory.")


_HOME_SPELT = re.compile(r'^"?\$(?:HOME|\{HOME\})"?(/[^$`*?\[\]{}"\'\\]*)?"?$')


def _home_spelt(word: Word) -> Word:
    """``word`` as a ``~`` path when it spells the home directory by ``$HOME``/``${HOME}`` followed by literal
    components (``"$HOME"``, ``${HOME}/x``), else ``word``."""
    match = _HOME_SPELT.match(word.src)
    if match is None:
        return word
    value = "~" + (match.group(1) or "")
    return Word(value, word.src)


def pushd(call: Call) -> None:
    """``pushd dir`` moves like cd; ``pushd``/``pushd +N`` rotate the stack: cwd unknown."""
    operands = [w for w in _operands(call.args) if not (w.value or "").startswith("+")]
    if len(operands) == 1 and len(call.args) == 1:
        cd(call)
        return
    call.g.state = call.g.state.unknown()
    read_only(call, "pushd changes the shell's directory.")


def popd(call: Call) -> None:
    """``popd``: returns to a directory the classifier does not track: cwd unknown."""
    call.g.state = call.g.state.unknown()
    read_only(call, "popd changes the shell's directory.")


def evaluating_builtin(call: Call) -> None:
    """``test``/``[``/``read``/``let``/``getopts``/``mapfile``/``wait``: read-only, unless an operand
    holds code that bash evaluates as an array subscript (``test -v 'a[$(cmd)]'``; bash(1) ARITHMETIC EVALUATION).
    """
    if any(w.value is not None and has_code(w.value) for w in call.args):
        destructive(call, "deferred-code", f"An operand of {call.name} holds shell code that bash can evaluate.")
        return
    if call.name not in ("test", "["):
        for word in call.args:
            name = (word.value or "").split("=", 1)[0].split("[", 1)[0]
            call.g.assigned.add(name)
            if hijacks_environment(name):
                destructive(call, "env-hijack", f"{call.name} assigns {name}, which changes which program runs.")
                return
    read_only(call)


# Options taking a value, per builtin (bash(1) SHELL BUILTIN COMMANDS); the -a of read names an array.
_NAME_BUILTIN_VALUES = {"read": "adinNptu", "mapfile": "dnOsuCc", "readarray": "dnOsuCc", "getopts": ""}


def assigning_builtin(call: Call) -> None:
    """``read``/``mapfile``/``readarray``/``getopts``: they assign the variables they name, so a
    name that hijacks (``PATH``) or is only known at run time is destructive; ``mapfile -C`` evaluates code."""
    values = _NAME_BUILTIN_VALUES.get(call.name, "")
    names: list[Word] = []
    words = call.args
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        value = word.value
        if value is not None and value.startswith("-") and len(value) > 1 and not names:
            for position, letter in enumerate(value[1:]):
                if letter in values:
                    attached = value[position + 2 :]
                    taken = (
                        Word(attached, attached)
                        if attached
                        else (words[index] if index < len(words) else Word(None, ""))
                    )
                    index += 0 if attached else 1
                    if letter == "C":
                        destructive(call, "deferred-code", f"{call.name} -C evaluates a callback as shell code.")
                        return
                    if letter == "a":
                        names.append(taken)
                    break
            continue
        names.append(word)
    if call.name == "getopts":
        names = names[1:2]
    for name in names:
        if name.value is None:
            destructive(
                call,
                "env-hijack",
                f"{call.name} assigns a variable whose name is only known when it runs (it may be PATH).",
            )
            return
        call.g.assigned.add(name.value.split("[", 1)[0])
        if hijacks_environment(name.value.split("[", 1)[0]):
            destructive(call, "env-hijack", f"{call.name} assigns {name.value}, which changes which program runs.")
            return
        if has_code(name.value):
            destructive(
                call, "deferred-code", f"A variable name given to {call.name} holds shell code that bash evaluates."
            )
            return
    read_only(call, f"{call.name} only reads input into shell variables.")


def printf(call: Call) -> None:
    """``printf [-v var] format [args]``: read-only; ``-v`` with a code-bearing name is evaluated."""
    words = call.args
    first = words[0].value if words else None
    if first is not None and first.startswith("-v"):
        name = Word(first[2:], first[2:]) if len(first) > 2 else (words[1] if len(words) > 1 else Word(None, ""))
        call.g.assigned.add((name.value or "").split("[", 1)[0])
        if name.value is None or hijacks_environment(name.value.split("[", 1)[0]) or has_code(name.value):
            destructive(
                call, "env-hijack", "printf -v assigns a variable that may change which program runs (or holds code)."
            )
            return
    read_only(call, "printf only prints.")


def date(call: Call) -> None:
    """``date``: read-only, except ``-s``/``--set`` and an operand that is not a ``+FORMAT``, which set the clock
    (date(1), GNU coreutils: ``date [-u|--utc|--universal] [MMDDhhmm[[CC]YY][.ss]]``, as POSIX date(1p) and BSD date
    ``[[[mm]dd]HH]MM[[cc]yy][.ss]``); the values of ``-d``/``--date``, ``-f``/``--file`` and ``-r``/``--reference``
    are not operands."""
    words = call.args
    index = 0
    while index < len(words):
        value = words[index].value
        index += 1
        if value is None:
            system(call, "A date argument only known when it runs may be --set.", downgradable=False)
            return
        if value.startswith("--s") or (value.startswith("-") and not value.startswith("--") and _date_sets(value)):
            system(call, "date --set changes the system clock.", downgradable=False)
            return
        if value == "--":
            continue
        if value.startswith("--"):
            name = value.split("=", 1)[0]
            if "=" not in value and any(len(name) > 3 and full.startswith(name) for full in _DATE_VALUES):
                index += 1  # --date STRING, --file FILE, --reference FILE (getopt takes unique prefixes)
            continue
        if value.startswith("-") and value != "-":
            letters = value[1:]
            taking = next((i for i, letter in enumerate(letters) if letter in "dfrI"), None)
            if taking is not None and taking == len(letters) - 1 and letters[taking] != "I":
                index += 1  # -d STRING, -ud STRING: the value is the next word
            continue
        if not value.startswith("+"):
            system(call, f"date {value} sets the system clock (an operand that is not +FORMAT).", downgradable=False)
            return
    read_only(call, "date only prints the date.")


def _date_sets(word: str) -> bool:
    """True when the short-option word ``word`` holds ``-s`` (set) before a letter whose value is the rest of the
    word (``-d``, ``-f``, ``-r``; ``-I`` takes an optional attached one: ``-Iseconds`` prints)."""
    for letter in word[1:]:
        if letter == "s":
            return True
        if letter in "dfrI":
            return False
    return False


#: date(1)'s long options that take a value in the next word.
_DATE_VALUES = ("--date", "--file", "--reference")


def hostname(call: Call) -> None:
    """``hostname``: read-only when it only prints; a NAME operand or ``-F`` sets it (hostname(1))."""
    for word in call.args:
        value = word.value
        if value is None or not value.startswith("-") or value in ("-F", "--file") or value.startswith("--file="):
            system(call, "hostname with a name sets the machine's host name.", downgradable=False)
            return
    read_only(call, "hostname only prints the host name.")
