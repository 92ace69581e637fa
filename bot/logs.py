"""structlog set-up: console lines in local mode, JSON lines in production; context vars carry request ids."""

from __future__ import annotations

import logging
import sys

import structlog


def configure_logging(fmt: str, *, level: int = logging.INFO) -> None:
    """Configure structlog and the stdlib root logger once.

    Args:
        fmt: ``console`` (human lines) or ``json`` (one JSON object a line).
        level: the minimum level (``logging.INFO`` by default).
    """
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer() if fmt == "json" else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.dict_tracebacks if fmt == "json" else structlog.dev.set_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
