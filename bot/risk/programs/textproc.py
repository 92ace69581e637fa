"""sed and awk: read-only filters, unless their programs write files or run commands.

sed (GNU sed manual, "sed scripts" and "Commands"): ``-i`` rewrites its file operands;
the ``w``/``W`` commands and the ``s///w`` flag write files; ``e`` and ``s///e`` run
commands. The script is parsed; anything not understood grades destructive.

awk (POSIX awk, gawk manual "Redirection"/"I/O functions"): ``system()`` and pipes
(``|``) run commands; ``print > file`` writes. A heuristic scan of the program text
(string literals removed) decides: ``system``/``|`` -> destructive; ``print``/``printf``
with ``>`` -> a write to an unknown place. gawk's ``@load``/``@include`` and indirect calls
(``@f()``, which reach ``system``) are destructive (any ``@``); ``/inet/...`` special files
(gawk manual "TCP/IP Networking") are network egress; ``-W`` other than ``version``/``posix``
(mawk ``-W exec FILE``, gawk's ``-W`` long-option spelling) is refused; gawk's
``-d``/``--dump-variables``, ``-o``/``--pretty-print`` and ``-p``/``--profile`` write a file
(``awkvars.out``/``awkprof.out`` by default); ``-D``/``--debug`` reads debugger commands from
standard input: destructive. ``ENVIRON`` (POSIX awk "Variables and Special Variables": "An array representing the
value of the environment") prints any environment variable, secrets too: a secret read (network).

sed's ``r FILE`` and ``R FILE`` (GNU sed manual "Commands") print a file's content: a credential file there
(``1r ~/.netrc``, ``1r /proc/self/environ``, ``r .env``) is a secret read (network), as ``cat`` of it.
"""

from __future__ import annotations

import re

from bot.risk.grader import Call, Handler
from bot.risk.options import long_is, scan
from bot.risk.sensitive import credential_path, env_file, named_secret
from bot.risk.words import Word, literal_word

from .kit import R, build_or_test, destructive, network, read_only, refuse, show

__all__ = ["awk", "mlr_verbs", "sed", "sed_script_effects"]

_SED_LONG_VALUES = frozenset({"--expression", "--file", "--line-length"})
_SED_LONG_FLAGS = frozenset({
    "--quiet", "--silent", "--in-place", "--regexp-extended", "--separate", "--unbuffered",
    "--null-data", "--posix", "--debug", "--sandbox", "--follow-symlinks", "--binary", "--zero-terminated",
})  # fmt: skip


#: sed scripts that delete every line (``d``, ``1,$d``, ``/^/d``, ``/.*/d``, ``/$/d``): ``sed -i`` with one leaves
#: its files empty (grader.empties).
_DELETES_EVERY_LINE = re.compile(r"(?:1\s*,\s*\$\s*|/(?:\^|\.\*|\$|)/\s*)?d\s*;?")


def sed(call: Call) -> None:
    """Grade ``sed``: ``-i`` writes the file operands, and empties them when the script deletes every line
    (:data:`_DELETES_EVERY_LINE`); the script's own writes and ``e`` commands count."""
    words = call.args
    in_place = any(w.value is not None and (long_is(w.value, "--in-place") or _short_has(w.value, "i")) for w in words)
    # -i takes an optional attached suffix, so scan without treating i as value-taking.
    found = scan(words, "efl", _SED_LONG_VALUES, long_flags=_SED_LONG_FLAGS)
    if found.dynamic:
        destructive(
            call,
            "dynamic-script",
            "A sed argument with expansions may be a script that runs commands (e) or writes files (w).",
        )
        return
    if found.values("-f", "--file"):
        destructive(call, "script-file", "sed -f runs a script file the classifier cannot see.")
        return
    scripts = found.values("-e", "--expression")
    operands = found.operands
    if not scripts:
        if not operands:
            destructive(call, "unrecognised-use", "sed without a script is not recognised.")
            return
        scripts, operands = [operands[0]], operands[1:]
    if not found.has("--sandbox"):
        text = "\n".join(s.value or "" for s in scripts)
        effects = sed_script_effects(text)
        if effects is None:
            destructive(
                call, "sed-script", "The sed script is not understood (e/w commands run programs or write files)."
            )
            return
        runs, writes = effects
        for source in sed_script_reads(text):
            what = credential_path(source) or env_file(source) or named_secret(source)
            if what is not None:
                call.flag(
                    R.NETWORK,
                    "secret-read",
                    f"The sed script prints {source[:60]} (r/R), which holds {what}: its output goes to the model.",
                )
                break
        if runs:
            destructive(call, "runs-program", "The sed script runs shell commands (the e command or s///e).")
            return
        for target in writes:
            call.write(Word(target, target), "The sed script writes")
    if in_place:
        if not operands:
            read_only(call, "sed -i without files changes nothing.")
        # GNU sed -i writes a new file and renames it over the operand: a link there is replaced, not followed,
        # unless --follow-symlinks (GNU sed manual, "Command-Line Options").
        follows = found.has("--follow-symlinks")
        empties = _DELETES_EVERY_LINE.fullmatch("\n".join(s.value or "" for s in scripts).strip()) is not None
        for word in operands:
            call.write(word, "sed -i rewrites", replaces=True, follows_links=follows)
            if empties:
                call.g.empties(call.rec, call.scope, word, "sed -i deleting every line empties")
    else:
        read_only(call, "sed only prints.")


def _short_has(value: str, letter: str) -> bool:
    """True for a short-option cluster that holds ``letter`` before any value-taking letter."""
    if not value.startswith("-") or value.startswith("--") or value == "-":
        return False
    for ch in value[1:]:
        if ch == letter:
            return True
        if ch in "efl":
            return False
    return False


_NO_ARG = set("=dDgGhHnNpPxzF")
_LABEL = set("btT:")
_TEXT = set("aic")
_FILE_READ = set("rR")
_FILE_WRITE = set("wW")
_NUMBER = set("qQlL")


def sed_script_reads(script: str) -> list[str]:
    """The files a sed script's ``r``/``R`` commands print (empty when the script is not understood)."""
    reads: list[str] = []
    return reads if sed_script_effects(script, reads) is not None else []


def sed_script_effects(script: str, reads: list[str] | None = None) -> tuple[bool, list[str]] | None:
    """Scan a sed script: (runs commands?, files written), or None when not understood; the files its ``r``/``R``
    commands read are appended to ``reads`` when given."""
    i = 0
    n = len(script)
    writes: list[str] = []
    runs = False
    while i < n:
        ch = script[i]
        if ch in " \t\n;}{!":
            i += 1
            continue
        if ch == "#":
            i = _to_eol(script, i)
            continue
        i = _skip_blanks(script, _address(script, i))
        if i >= n:
            return None
        cmd = script[i]
        i += 1
        if cmd in "{}":
            continue
        if cmd in _NO_ARG:
            continue
        if cmd in _NUMBER:
            while i < n and (script[i].isdigit() or script[i] in " \t"):
                i += 1
            continue
        if cmd in _TEXT:
            i = _text_end(script, i)
            continue
        if cmd in _LABEL or cmd in _FILE_READ or cmd == "v":
            end = _to_eol(script, i) if cmd not in _LABEL else _to_end_of_label(script, i)
            if cmd in _FILE_READ and reads is not None:
                reads.append(script[i:end].strip())
            i = end
            continue
        if cmd in _FILE_WRITE:
            end = _to_eol(script, i)
            writes.append(script[i:end].strip())
            i = end
            continue
        if cmd == "e":
            runs = True
            i = _to_eol(script, i)
            continue
        if cmd in "sy":
            parsed = _substitution(script, i, cmd)
            if parsed is None:
                return None
            i, flag_runs, flag_write = parsed
            runs = runs or flag_runs
            if flag_write is not None:
                writes.append(flag_write)
            continue
        return None
    return runs, writes


def _skip_blanks(script: str, i: int) -> int:
    while i < len(script) and script[i] in " \t":
        i += 1
    return i


def _to_eol(script: str, i: int) -> int:
    end = script.find("\n", i)
    return len(script) if end < 0 else end


def _text_end(script: str, i: int) -> int:
    """End of an a/i/c text: lines ending in a backslash continue it."""
    n = len(script)
    while True:
        end = _to_eol(script, i)
        backslashes = 0
        j = end - 1
        while j >= i and script[j] == "\\":
            backslashes += 1
            j -= 1
        if backslashes % 2 == 0 or end >= n:
            return end
        i = end + 1


def _to_end_of_label(script: str, i: int) -> int:
    n = len(script)
    while i < n and script[i] not in "\n;":
        i += 1
    return i


_ADDR = re.compile(r"(\d+(~\d+)?|\$|/(?:[^/\\\n]|\\.)*/[IM]*|\\(.)(?:(?!\3)[^\\\n]|\\.)*\3[IM]*)")


def _address(script: str, i: int) -> int:
    for _ in range(2):
        i = _skip_blanks(script, i)
        match = _ADDR.match(script, i)
        if match is None:
            return i
        i = match.end()
        i = _skip_blanks(script, i)
        if i < len(script) and script[i] == ",":
            i += 1
            i = _skip_blanks(script, i)
            if i < len(script) and script[i] in "+~":
                i += 1
                while i < len(script) and script[i].isdigit():
                    i += 1
                return _bang(script, i)
            continue
        return _bang(script, i)
    return _bang(script, i)


def _bang(script: str, i: int) -> int:
    i = _skip_blanks(script, i)
    while i < len(script) and script[i] == "!":
        i = _skip_blanks(script, i + 1)
    return i


def _substitution(script: str, i: int, cmd: str) -> tuple[int, bool, str | None] | None:
    n = len(script)
    if i >= n or script[i] in "\n\\":
        return None
    delim = script[i]
    i += 1
    for _ in range(2):
        while i < n and script[i] != delim:
            i += 2 if script[i] == "\\" else 1
        if i >= n:
            return None
        i += 1
    if cmd == "y":
        return i, False, None
    runs = False
    while i < n and script[i] not in ";\n}":
        flag = script[i]
        if flag == "e":
            runs = True
        elif flag == "w":
            end = _to_eol(script, i + 1)
            return end, runs, script[i + 1 : end].strip()
        elif not (flag.isdigit() or flag in "gpiImM \t"):
            return None
        i += 1
    return i, runs, None


_AWK_LONG_VALUES = frozenset({"--field-separator", "--assign", "--file", "--source", "--include", "--load", "--exec"})
_AWK_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')


_AWK_OUTPUTS = {"-d": "awkvars.out", "--dump-variables": "awkvars.out", "-o": "awkprof.out", "--pretty-print": "awkprof.out",
                "-p": "awkprof.out", "--profile": "awkprof.out"}  # fmt: skip


def awk(call: Call) -> None:
    """Grade ``awk``/``gawk``/``mawk``: see the module docstring."""
    found = scan(
        call.args,
        "FvfeilEW",
        _AWK_LONG_VALUES,
        long_flags=frozenset({"--debug", "--sandbox", "--version", *_AWK_OUTPUTS}),
    )
    if found.values("-f", "--file", "-i", "--include", "-l", "--load", "-E", "--exec"):
        destructive(call, "script-file", f"{call.name} loads program files the classifier cannot see.")
        return
    for option in found.values("-W"):
        if (option.value or "").split("=", 1)[0] not in ("version", "v", "posix", "traditional", "lint", "sandbox"):
            destructive(
                call,
                "script-file",
                f"{call.name} -W {show(option)} is not recognised (mawk -W exec runs a program file).",
            )
            return
        if (option.value or "").startswith("v"):
            read_only(call, f"{call.name} -W version only prints.")
            return
    if found.has("-D", "--debug"):
        destructive(call, "shell-stdin", f"{call.name} --debug reads debugger commands from standard input.")
        return
    for opt in found.opts:
        default = _AWK_OUTPUTS.get(opt.name)
        if default is not None:
            # -d/-o/-p take an optional attached value only (gawk manual "Options").
            attached = opt.value if opt.name.startswith("--") and opt.value is not None else None
            call.write(attached or literal_word(default), f"{call.name} {opt.name} writes")
    programs = found.values("-e", "--source")
    if not programs:
        if not found.operands:
            destructive(call, "unrecognised-use", f"{call.name} without a program is not recognised.")
            return
        programs = [found.operands[0]]
    if any(p.value is None for p in programs):
        destructive(call, "dynamic-script", f"An {call.name} program with expansions may run commands.")
        return
    raw = "\n".join(p.value or "" for p in programs)
    text = _AWK_STRINGS.sub('""', raw)
    bare = text.replace("||", " ")
    if "/inet" in raw:
        network(call, f"The {call.name} program opens a network connection (/inet special file).")
    if "ENVIRON" in text:
        call.flag(
            R.NETWORK,
            "secret-read",
            f"The {call.name} program reads ENVIRON (the environment variables, secrets too): its output goes to the "
            "model.",
        )
    if "system" in text or "|" in bare or "@" in text:
        destructive(call, "runs-program", f"The {call.name} program can run commands (system() or a pipe).")
        return
    for source in _awk_inputs(raw):
        if source is None:
            call.flag(
                R.NETWORK,
                "secret-read",
                f"The {call.name} program reads a file whose name is only known when it runs (getline < EXPR or an "
                "ARGV element): it may be a credential file, and its output goes to the model.",
            )
            break
        what = credential_path(source) or env_file(source) or named_secret(source)
        if what is not None:
            call.flag(
                R.NETWORK,
                "secret-read",
                f"The {call.name} program reads {source[:60]}, which holds {what}: its output goes to the model.",
            )
            break
    outputs = _awk_outputs(raw)
    for path, replaces in outputs:
        if path is None:
            # print > EXPR: the file's name is only known when it runs (as a shell redirect to > $OUT)
            call.flag(
                R.DESTRUCTIVE,
                "unknown-write-target",
                f"The {call.name} program writes to a file whose name is only known when it runs: it may be any "
                "protected path.",
                downgradable=True,
            )
        else:
            call.write(literal_word(path), f"The {call.name} program writes", replaces=replaces)
    if not outputs:
        read_only(call, f"{call.name} only prints.")


_AWK_GETLINE = re.compile(r"\bgetline\b")
_AWK_ARGV = re.compile(r"\bARGV\s*\[[^\]]*\]\s*=(?!=)")
_AWK_LVALUE = re.compile(r"\s*(?:\$\s*[A-Za-z_0-9]+|[A-Za-z_][A-Za-z_0-9]*(?:\s*\[[^\]]*\])?)?\s*")
_AWK_END = re.compile(r"\s*(?:[;}\n)]|$)")


def _awk_inputs(program: str) -> list[str | None]:
    """The files an awk program opens itself, beside its operands: ``getline < file`` and ``getline var < file``
    (gawk manual "Getline/File", "Getline/Variable/File": "Use getline < file to read the next record from file";
    the file is one primary, so ``getline < "a" "b"`` reads ``a``), and the values it assigns to ``ARGV`` elements
    (gawk manual "Using ARGC and ARGV": awk reads the files named there). Each file's name when it is one string
    literal, else None (``FILENAME``, the operand being read, is left out: the operands are graded as such)."""
    found: list[str | None] = []
    program = program.replace("\\\n", "  ")
    masked = _AWK_STRINGS.sub(lambda m: '"' + " " * (len(m.group()) - 2) + '"', program)
    for match in _AWK_GETLINE.finditer(masked):
        lvalue = _AWK_LVALUE.match(masked, match.end())
        i = lvalue.end() if lvalue else match.end()
        if masked[i : i + 1] != "<":
            continue
        found.append(_awk_primary(program, masked, i + 1))
    for match in _AWK_ARGV.finditer(masked):
        value = _awk_primary(program, masked, match.end())
        end = _AWK_END.match(masked, _awk_after_literal(masked, match.end()))
        found.append(value if value is not None and end is not None else None)
    return [f for f in found if f != "\0FILENAME"]


def _awk_after_literal(masked: str, start: int) -> int:
    """The index after the string literal starting (after blanks) at ``start`` in ``masked``, else ``start``."""
    i = start
    while i < len(masked) and masked[i] in " \t":
        i += 1
    if masked[i : i + 1] != '"':
        return start
    close = masked.find('"', i + 1)
    return close + 1 if close >= 0 else start


def _awk_primary(program: str, masked: str, start: int) -> str | None:
    """The string literal at ``start`` (after blanks) of ``program``, the marker ``"\\0FILENAME"`` for the variable
    FILENAME, else None (an expression only known when it runs)."""
    i = start
    while i < len(masked) and masked[i] in " \t":
        i += 1
    if masked.startswith("FILENAME", i) and not re.match(r"[A-Za-z_0-9]", masked[i + 8 : i + 9]):
        return "\0FILENAME"
    if masked[i : i + 1] != '"':
        return None
    literal = _AWK_STRINGS.match(program, i)
    if literal is None:
        return None
    text = literal.group()[1:-1]
    return None if "\\" in text else text


_AWK_PRINT = re.compile(r"\bprintf?\b")
_AWK_LITERAL = re.compile(r'^"([^"\\]*)"$')


def _awk_outputs(program: str) -> list[tuple[str | None, bool]]:
    """The output redirections of the print and printf statements in an awk program (gawk manual "Redirecting Output
    of print and printf"): each target's file name when it is one string literal (else None), and whether ``>``
    (not ``>>``) truncates it. A ``>`` inside parentheses is a comparison."""
    found: list[tuple[str | None, bool]] = []
    program = program.replace("\\\n", "  ")  # a backslash-newline continues the statement
    masked = _AWK_STRINGS.sub(lambda m: '"' + " " * (len(m.group()) - 2) + '"', program)
    for match in _AWK_PRINT.finditer(masked):
        i, depth, n = match.end(), 0, len(program)
        while i < n and program[i] not in ";}\n":
            char = program[i]
            if char == '"':
                i += 1
                while i < n and program[i] != '"':
                    i += 2 if program[i] == "\\" else 1
            elif char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
            elif char == ">" and depth <= 0:
                append = program[i + 1 : i + 2] == ">"
                start = i + (2 if append else 1)
                end = start
                while end < n and program[end] not in ";}\n":
                    end += 1
                literal = _AWK_LITERAL.match(program[start:end].strip())
                found.append((literal.group(1) if literal else None, not append))
                break
            i += 1
    return found


# -- Miller (mlr) --------------------------------------------------------------------------------------------------

#: mlr main flags taking a value (Miller 6 "Main flags list"; -s FILE reads further arguments from FILE and is
#: refused by the guard).
_MLR_MAIN_VALUES = frozenset({
    "--ifs", "--ofs", "--ips", "--ops", "--irs", "--ors", "--fs", "--ps", "--rs", "--ifs-regex", "--ips-regex",
    "--from", "--ofmt", "--nr-progress-mod", "--records-per-batch", "--tz", "--load", "--mload", "--prepipe",
    "--prepipex", "--files", "--fflatsep", "--jflatsep", "--oflatsep", "--iflatsep", "--io", "-i", "-o",
    "--key-color", "--value-color", "--pass-color", "--fail-color", "--help-color",
})  # fmt: skip

#: Words of the put/filter DSL (Miller 6 "DSL output statements", "DSL builtin functions") that write files or run
#: commands (tee/emit/print/dump with ``>``, ``>>``, ``|``; ``system``, ``exec``) or read the environment (``ENV``,
#: secrets too).
_MLR_DSL_EFFECTS = re.compile(
    r"\b(?:tee|emit1?|emitp|emitf|print|printn|eprint|eprintn|dump|edump|system|exec|os_type|hostname|ENV)\b",
    re.IGNORECASE,
)


def mlr_verbs(base: Handler) -> Handler:
    """Miller 6 (mlr(1), miller.readthedocs.io): ``mlr [MAIN FLAGS] VERB [VERB FLAGS] [then VERB ...] [FILES]``. The
    verbs read and print; ``tee FILE`` and ``split`` write files, and of the commands that stand where a verb does,
    ``repl`` runs DSL statements from its input, ``regtest`` runs test cases' commands and ``termcvt -I`` rewrites
    files (refused); ``put`` and ``filter`` run a DSL whose ``tee``,
    ``emit``, ``print`` and ``dump`` statements may redirect into files or commands, whose ``system`` and ``exec``
    run commands and whose ``ENV`` map holds the environment: those are refused, as are ``put``/``filter -f`` (a DSL
    file) and the main flag ``-s FILE`` (arguments from a file). A ``put``/``filter`` also loads the DSL files the
    ``.mlrrc`` of the directory it runs in names (``load``): code from the workspace, graded as a build."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        index = 0
        while index < len(words):
            value = words[index].value
            if value is None or not value.startswith("-"):
                break
            if value == "-s":
                refuse(call, "mlr -s (arguments read from a file)")
                return
            index += 2 if value in _MLR_MAIN_VALUES else 1
        verb_at = True
        dsl = False
        for word in words[index:]:
            value = word.value
            if verb_at:
                verb_at = False
                if value in ("tee", "split", "repl", "regtest", "termcvt"):
                    refuse(call, f"mlr {value} (it writes files or runs what it is given)")
                    return
                dsl = value in ("put", "filter")
                if dsl:
                    build_or_test(call, f"mlr {value}")
                continue
            if value == "then":
                verb_at, dsl = True, False
                continue
            if dsl and value is None:
                refuse(call, "mlr put/filter with an expression only known when it runs")
                return
            if dsl and value == "-f":
                refuse(call, "mlr put/filter -f (a DSL file the classifier cannot see)")
                return
            if dsl and value is not None and _MLR_DSL_EFFECTS.search(value):
                refuse(call, f"mlr DSL {show(word)} (output redirection, commands or the environment)")
                return

    handler.__name__ = "mlr_verbs"
    return handler
