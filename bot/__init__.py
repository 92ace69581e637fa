"""FlyBot: the approval bot for coding-agent sessions.

See ``../shared/DESIGN.md`` for the architecture map.
"""

__version__ = "0.1.0"
