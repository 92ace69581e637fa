"""Shell builtins and small programs whose grade hardly depends on their arguments."""

from __future__ import annotations

from bot.risk.grader import Call
from bot.risk.walker import has_code, hijacks_environment
from bot.risk.words import Word

from .kit import destructive, read_only, system

__all__ = ["cd", "date", "evaluating_builtin", "hostname", "popd", "printf", "pushd"]


def _operands(words: list[Word]) -> list[Word]:
    return [w for w in words if w.value is None or w.value == "-" or not w.value.startswith("-")]


def cd(call: Call) -> None:
    """``cd [-L|-P|-e|-@] [dir]`` (bash(1) SHELL BUILTIN COMMANDS): moves the tracked cwd.

    ``cd`` alone goes home and ``cd -`` back: the cwd becomes unknown, as it does for a
    cd inside a loop or function body (it may run many times).
    """
    g = call.g
    operands = _operands(call.args)
    target = operands[0] if operands else None
    if target is None or call.scope.repeat:
        g.state = g.state.unknown()
    else:
        g.last_cd = g.state.after_cd(target.value, certain=True)
        g.state = g.state.after_cd(target.value, certain=False)
    read_only(call, f"{call.name} changes the shell's directory.")


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
            if hijacks_environment(name):
                destructive(call, "env-hijack", f"{call.name} assigns {name}, which changes which program runs.")
                return
    read_only(call)


def printf(call: Call) -> None:
    """``printf [-v var] format [args]``: read-only; ``-v`` with a code-bearing name is evaluated."""
    if any((w.value or "").startswith("-v") for w in call.args):
        for word in call.args:
            value = word.value or ""
            name = value[2:] if value.startswith("-v") and len(value) > 2 else value
            if hijacks_environment(name):
                destructive(call, "env-hijack", f"printf -v assigns {name}, which changes which program runs.")
                return
        evaluating_builtin(call)
        return
    read_only(call, "printf only prints.")


def date(call: Call) -> None:
    """``date``: read-only, except ``-s``/``--set`` which sets the clock (date(1), GNU coreutils)."""
    for word in call.args:
        value = word.value
        if value is None:
            continue
        if value.startswith("--s") or (value.startswith("-") and not value.startswith("--") and "s" in value):
            system(call, "date --set changes the system clock.", downgradable=False)
            return
    read_only(call, "date only prints the date.")


def hostname(call: Call) -> None:
    """``hostname``: read-only when it only prints; a NAME operand or ``-F`` sets it (hostname(1))."""
    for word in call.args:
        value = word.value
        if value is None or not value.startswith("-") or value in ("-F", "--file") or value.startswith("--file="):
            system(call, "hostname with a name sets the machine's host name.", downgradable=False)
            return
    read_only(call, "hostname only prints the host name.")

