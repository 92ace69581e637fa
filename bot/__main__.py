"""``python -m bot`` is the ``flybot`` command."""

from bot.cli import run

run()
