"""The ``flybot`` subcommands' handlers, one module per group; :mod:`bot.cli` imports a module only when its command
runs, so a light command never pays for the server's imports.

Modules:
    :mod:`bot.commands.server`: ``serve``, ``db`` (aiohttp's server, the store, Alembic).
    :mod:`bot.commands.admin`: ``bots``, ``standing``, ``admin-tokens`` (the store).
    :mod:`bot.commands.ask`: ``ask`` (the HTTP client only).

The agent adapters (``hook``, ``exec``, ``codex``) live in :mod:`bot.hooks`, ``classify`` in :mod:`bot.risk.cli`,
``preflight`` in :mod:`bot.preflight.cli`.
"""
