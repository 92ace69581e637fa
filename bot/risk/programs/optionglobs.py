"""A bare glob among the words of a program with options that run a program or a file's code: the shell expands
``*`` to the workspace's file names before the program starts, and the program reads a name that starts with ``-``
as its own option, so a file the agent made named ``--checkpoint-action=exec=sh x.sh`` (tar) or
``-oProxyCommand=sh x.sh`` (scp) runs a program when ``tar cf x.tar *`` runs. Such a glob is destructive when its
pattern can match a name starting with ``-`` (it starts with ``*``, ``?`` or ``[``); ``./*``, ``src/*``, a quoted
glob and a glob after ``--`` (the end of the options) cannot become an option and keep the program's grade.

Sources, the options that run programs:
- tar: GNU tar manual, Operations and Options (1.35): ``--checkpoint-action=exec=CMD``, ``--to-command``,
  ``-I``/``--use-compress-program``, ``--rsh-command``, ``-F``/``--info-script``/``--new-volume-script``; options
  are read anywhere on the line (argp).
- rsync: rsync(1) (3.2): ``-e``/``--rsh``, ``--rsync-path``; popt reads options anywhere.
- zip: zip(1) (Info-ZIP 3.0): ``-TT``/``--unzip-command``, ``-T``; "options and file names may be intermixed".
- 7z: 7z(1) (7-Zip 24): switches are read anywhere before ``--``; ``-sdel`` deletes the files after compression.
- scp: scp(1) (OpenSSH 9): ``-o ProxyCommand=``, ``-S program``, ``-F ssh_config``.
- find: GNU findutils manual, find (4.9): the first argument starting with ``-`` ends the starting points and begins
  the expression, so an expanded name ``-exec``, ``-execdir``, ``-ok``, ``-okdir``, ``-delete``, ``-fprint``,
  ``-fprint0``, ``-fprintf`` or ``-fls`` runs a program, deletes or writes; only a pattern that can match one of
  those names exactly is refused (``find . -name *.py`` cannot expand to any of them).
"""

from __future__ import annotations

import fnmatch
import re

from bot.risk.grader import Call, Handler
from bot.risk.reasons import shorten

from .kit import destructive

# find(1) expression words that run a program, delete or write a file (GNU findutils manual, find 4.9).
_FIND_ACTIONS = ("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls")

# A file name each program reads as an option that runs a program (7z's, ``-sdel``, deletes the files it adds).
_EXAMPLES = {
    "tar": "--checkpoint-action=exec=sh x.sh",
    "rsync": "-esh x.sh",
    "zip": "--unzip-command=sh x.sh",
    "scp": "-oProxyCommand=sh x.sh",
    "find": "-exec or -delete",
}

# An escaped character, or a quoted part, of a word's source: neither is a glob character.
_NOT_GLOB = re.compile(r"\\.|'[^']*'|\"(?:[^\"\\]|\\.)*\"", re.DOTALL)


def _globs(src: str) -> bool:
    """True when the source ``src`` holds a glob character outside quotes and escapes (``\\*`` and ``'*'`` do not)."""
    return any(c in _NOT_GLOB.sub("", src) for c in "*?[")


def glob_may_be_option(value: str, *, find: bool = False) -> bool:
    """True when the unquoted glob ``value`` may expand to a file name the program reads as an option: its pattern
    starts with ``*``, ``?`` or ``[`` (a bracket set given as ``[^...]`` is bash's ``[!...]``); for find, when it can
    match one of find's acting expression words exactly (``-e*`` and ``*`` can, ``*.py`` cannot)."""
    if not find:
        return value[:1] in ("*", "?", "[")
    pattern = value.replace("[^", "[!")
    return any(fnmatch.fnmatchcase(action, pattern) for action in _FIND_ACTIONS)


def check(call: Call, *, find: bool = False) -> None:
    """Refuse a bare glob among ``call``'s words before ``--`` that may expand to an option (module docstring);
    find reads no ``--`` after its starting points, so every glob of its words counts."""
    for word in call.args:
        value = word.value
        if value == "--" and not word.splits and not find:
            return
        if word.splits and value is not None and _globs(word.src) and glob_may_be_option(value, find=find):
            example = _EXAMPLES.get(call.name, "-sdel")
            destructive(
                call,
                "glob-option",
                f"{call.name} {shorten(word.src, 40)}: a file name the glob expands to may be read as "
                f"{'find expression words' if find else 'an option'} (a file named {example} runs a program, "
                "deletes or writes).",
            )
            return


def option_globs(base: Handler) -> Handler:
    """``base`` followed by :func:`check` (tar, rsync, zip, scp, 7z)."""

    def handler(call: Call) -> None:
        base(call)
        check(call)

    handler.__name__ = getattr(base, "__name__", "option_globs")
    return handler


def find_globs(base: Handler) -> Handler:
    """``base`` followed by :func:`check` for find's expression words."""

    def handler(call: Call) -> None:
        base(call)
        check(call, find=True)

    handler.__name__ = getattr(base, "__name__", "find_globs")
    return handler
