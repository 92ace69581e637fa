"""The embedded local chat: an emulation of the Slack Web API methods FlyBot calls, and a chat page.

The same emulation is the tests' Slack: interactions are delivered to ``/slack/events`` as signed Slack
payloads over HTTP, the very code path that production uses.
"""

from bot.localchat.emulator import DEFAULT_CHANNELS, DEFAULT_USERS, SlackEmulator

__all__ = ["DEFAULT_CHANNELS", "DEFAULT_USERS", "SlackEmulator"]
