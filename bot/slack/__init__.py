"""Slack surfaces: the bolt app, its listeners (one module per group) and the chat gateway."""
