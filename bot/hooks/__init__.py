"""Agent adapters (issue 7): ``flybot hook claude-code`` and ``flybot exec``.

Both grade a shell command with FlyBot's classifier (:func:`bot.risk.classify`) against a ceiling; a command at or
below the ceiling goes ahead at once without any network call, one above it becomes an escalation and waits for the
owner's click. Every path that is not an explicit approval fails closed: the hook answers ``deny`` or ``ask`` (never
``allow``), ``exec`` exits 126 without running anything.

Modules:
    :mod:`bot.hooks.gate`: the shared grade -> escalate -> wait -> withdraw logic and its :class:`~bot.hooks.gate.Verdict`.
    :mod:`bot.hooks.claude_code`: the Claude Code ``PreToolUse`` command hook protocol.
    :mod:`bot.hooks.runner`: ``flybot exec``, run a command only after approval.
    :mod:`bot.hooks.cli`: ``register(subparsers)`` adding ``hook`` and ``exec`` to ``flybot``.
"""
