"""The ``standing`` command words, shared by the ``/flybot`` slash command and ``flybot standing`` (same rules).

``standing list [--bot NAME | --room [CHANNEL]]``
``standing add --bot NAME|--room [CHANNEL] PATTERN... [--max-risk LEVEL] [--host-ok] [--expires 7d] [--note TEXT]``
(every other word, ``-rf`` included, is the pattern's, in order; after ``--``, every word)
``standing revoke ID``
"""

from __future__ import annotations

import argparse
import re
import shlex
from typing import NoReturn

from bot.errors import InvalidRequest

USAGE = (
    "standing list [--bot NAME | --room [CHANNEL]]\n"
    "standing add --bot NAME|--room [CHANNEL] PATTERN [--max-risk LEVEL] [--host-ok] [--expires 7d] [--note TEXT]\n"
    "standing revoke ID"
)


_CHANNEL_WORD = re.compile(r"^(?:<#)?([CG][A-Z0-9]{2,20})(?:\|[^>]*)?>?$")
"""A channel id as typed (``C0123ABCD``) or as Slack escapes a mentioned channel in a slash command (``<#C0123|name>``)."""


def _named_room(words: list[str], here: str) -> tuple[list[str], str]:
    """In the slash command ``--room`` means this channel; ``--room C0123ABCD`` (as on the command line) or
    ``--room #name`` (Slack sends ``<#C0123ABCD|name>``) names another. Returns the words without the channel and
    the room meant."""
    for index, word in enumerate(words[:-1]):
        if word == "--room":
            found = _CHANNEL_WORD.match(words[index + 1])
            if found:
                return words[: index + 1] + words[index + 2 :], found.group(1)
    return words, here


_ADD_VALUES = frozenset({"--bot", "--max-risk", "--expires", "--note"})
_ADD_FLAGS = frozenset({"--host-ok"})


def _options_then_pattern(words: list[str], *, room_flag: bool) -> list[str]:
    """``standing add``'s words as its options, ``--``, then the pattern's words in order: every word that is not
    one of ``add``'s options (or its value) belongs to the pattern, a ``-rf`` too, so ``rm -rf build`` needs no
    quotes. After a ``--`` every word is the pattern's (a pattern holding ``--note``)."""
    options: list[str] = []
    pattern: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        name = word.split("=", 1)[0]
        if word == "--":
            pattern += words[index + 1 :]
            break
        if name in _ADD_VALUES or (name == "--room" and not room_flag):
            options.append(word)
            if "=" not in word and index + 1 < len(words):
                options.append(words[index + 1])
                index += 1
        elif word in _ADD_FLAGS or (word == "--room" and room_flag):
            options.append(word)
        else:
            pattern.append(word)
        index += 1
    return [*options, "--", *pattern]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise InvalidRequest(f"{message}. Usage:\n{USAGE}")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise InvalidRequest(message or USAGE)


def build_parser(*, room_default: str | None) -> argparse.ArgumentParser:
    """The parser. With ``room_default`` (the slash command's channel) ``--room`` is a flag meaning that channel;
    without it (the command line) ``--room`` takes a channel ID."""
    parser = _Parser(prog="standing", add_help=False)
    sub = parser.add_subparsers(dest="action", required=True, parser_class=_Parser)
    room_kwargs: dict[str, object] = (
        {"action": "store_const", "const": room_default} if room_default else {"metavar": "CHANNEL_ID"}
    )
    lst = sub.add_parser("list", add_help=False)
    lst.add_argument("--bot")
    lst.add_argument("--room", **room_kwargs)  # type: ignore[arg-type]
    add = sub.add_parser("add", add_help=False)
    target = add.add_mutually_exclusive_group(required=True)
    target.add_argument("--bot")
    target.add_argument("--room", **room_kwargs)  # type: ignore[arg-type]
    add.add_argument("--max-risk", dest="max_risk")
    add.add_argument("--host-ok", dest="host_ok", action="store_true")
    add.add_argument("--expires")
    add.add_argument("--note")
    add.add_argument("pattern", nargs="+")
    revoke = sub.add_parser("revoke", add_help=False)
    revoke.add_argument("id")
    return parser


def parse(words: list[str] | str, *, room_default: str | None = None) -> argparse.Namespace:
    """Parse ``standing ...`` words (a string is split like a shell would).

    Raises:
        InvalidRequest: bad words, with the usage.
    """
    if isinstance(words, str):
        try:
            words = shlex.split(words)
        except ValueError:
            raise InvalidRequest(f"unbalanced quotes. Usage:\n{USAGE}") from None
    if room_default:
        words, room_default = _named_room(words, room_default)
    if words[:1] == ["add"]:
        words = ["add", *_options_then_pattern(words[1:], room_flag=room_default is not None)]
    args = build_parser(room_default=room_default).parse_args(words)
    for name in ("bot", "room"):
        if getattr(args, name, None) == "":  # ``--bot ''``: no Bot named, not "every Bot" nor "no target"
            raise InvalidRequest(f"--{name} needs a value. Usage:\n{USAGE}", field=name)
    if args.action == "add":
        args.pattern = " ".join(args.pattern)
    return args
