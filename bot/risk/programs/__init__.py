"""Per-program handlers; each module's docstring names the manual pages its rules come from.

The table in :mod:`bot.risk.table` maps program names to these handlers.
"""
