"""Agent adapters: ``flybot hook claude-code``, ``flybot exec`` and ``flybot codex`` -- the one package DESIGN.md's
"Adapters" names (kept as ``bot/hooks``). They import only the classifier, and the HTTP client when they ask FlyBot.

Both grade a shell command with FlyBot's classifier (:func:`bot.risk.classify`) against a ceiling; a command at or
below the ceiling goes ahead at once (its only network call: reading the organisation's program rules once their
copy is stale, :mod:`bot.hooks.rules_cache`; without a fresh copy the ceiling is ``read_only``), one above it becomes
an escalation and waits for the owner's click. Every path that is not an explicit approval fails closed: the hook answers ``deny`` or ``ask`` (never
``allow``), ``exec`` exits 126 without running anything.

Modules:
    :mod:`bot.hooks.gate`: the shared grade -> escalate -> wait -> withdraw logic and its :class:`~bot.hooks.gate.Verdict`.
    :mod:`bot.hooks.asking`: the asking half of the gate (the standard-library HTTP client, withdrawal on signals),
        loaded only when a command is above the ceiling.
    :mod:`bot.hooks.rules_cache`: the adapters' copy of the program rules (raise-only; fail closed when stale).
    :mod:`bot.hooks.claude_code`: the Claude Code command hook protocol (``PreToolUse``, ``PreSkillShellCommand``,
        ``PermissionRequest``; also Codex's ``PreToolUse`` and ``PermissionRequest`` as ``flybot hook codex``).
    :mod:`bot.hooks.gemini`: the Gemini CLI ``BeforeTool`` hook protocol (``flybot hook gemini``).
    :mod:`bot.hooks.agent_hook`: the Cursor, Copilot CLI, Cline and OpenCode hooks (shell commands and, but for
        Cursor, file edits), one module each for the agent's protocol.
    :mod:`bot.hooks.install`: ``flybot hook install``, the hook merged into the agent's settings file.
    :mod:`bot.hooks.runner`: ``flybot exec``, run a command only after approval.
    :mod:`bot.hooks.codex`: ``flybot codex``, a Codex turn through ``codex app-server`` with approvals via FlyBot.
    :mod:`bot.hooks.cli`: ``register(subparsers)`` adding ``hook``, ``exec`` and ``codex`` to ``flybot``.
"""
