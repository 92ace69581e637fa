"""The session-facing HTTP API: thin handlers that parse with pydantic, call a service and map errors at one edge."""
