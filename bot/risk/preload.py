"""Load at once everything the classifier otherwise loads on first use, for a long-running process.

The classifier loads lazily so that the agent adapters, which start on every tool call, import only what the
command in hand needs (:class:`bot.risk.table.ProgramTable`). The server grades inside its event loop, where a
first-use import (compiled from source when no bytecode is cached) holds up every request at once, including
Slack acknowledgements due within 3 seconds; it calls :func:`preload` once before it serves.
"""

from __future__ import annotations

import importlib
import pkgutil

import bot.risk

SQL_DIALECTS = ("postgres", "mysql", "sqlite")
"""The sqlglot dialects bot.risk.programs.databases parses (each dialect module is imported on first use)."""

_loaded: list[int] = []  # the count, once loaded (a process may start several servers: tests, replicas)


def preload() -> int:
    """Import every module of :mod:`bot.risk`, load every program's rules (handler modules, catalogue entries), and
    the libraries grading imports on first use (the bash parser, sqlglot and its dialects, the look-alike table).
    Returns how many programs are loaded; once done, a further call returns at once."""
    if _loaded:
        return _loaded[0]
    for module in pkgutil.walk_packages(bot.risk.__path__, f"{bot.risk.__name__}."):
        importlib.import_module(module.name)
    from bot.risk.hidden import lookalikes
    from bot.risk.programs.databases import grade_sql
    from bot.risk.table import PROGRAMS
    from bot.risk.walker import parse

    loaded = sum(1 for name in PROGRAMS if PROGRAMS[name] is not None)
    for dialect in SQL_DIALECTS:
        grade_sql("SELECT 1", dialect)
    parse(b"true")  # the bash grammar, and this thread's parser (the event loop's)
    lookalikes("\u0455udo")  # a Cyrillic dze: the confusables data
    _loaded.append(loaded)
    return loaded
