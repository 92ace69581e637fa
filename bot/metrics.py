"""Prometheus metrics (prometheus-client), one registry per application so that several apps in one process
(tests, two replicas) never share counters.

Names follow Prometheus conventions (``_total`` counters, ``_seconds`` histograms, base units).
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

__all__ = ["CONTENT_TYPE_LATEST", "DECIDERS", "Metrics", "decider"]

DECIDERS = {"owner": "owner", "fallback": "fallback", "admin": "admin", "standing_approval": "standing"}
"""Decision source -> the ``decider`` label of ``flybot_decision_latency_seconds``."""


def decider(decision_source: str) -> str:
    """Who decided, as the latency histogram labels it: ``owner``, ``fallback``, ``admin``, ``standing``, or
    ``none`` for a source where no person decided (``timeout``, ``session``, ``delivery_failure``)."""
    return DECIDERS.get(decision_source, "none")


class Metrics:
    """FlyBot's metrics.

    Attributes:
        escalations: ``flybot_escalations_total{status, decision_source}``: escalations that reached a final status
            (plus ``status="pending"`` with ``decision_source="created"`` when made).
        decision_latency: ``flybot_decision_latency_seconds{decision_source, decider}``: created -> decided,
            seconds; ``decider`` says who decided: ``owner``, ``fallback``, ``admin``, ``standing``,
            or ``none`` (expired, withdrawn, undeliverable: no person decided).
        pending: ``flybot_pending_escalations``: set at each scrape from the store.
        standing_hits: ``flybot_standing_approval_hits_total``: escalations answered by a standing approval.
        slack_errors: ``flybot_slack_api_errors_total{method, error}``: Slack Web API calls that failed for good.
        slack_retries: ``flybot_slack_api_retries_total{reason}``: retries by slack-sdk's handlers.
        blocked_reports: ``flybot_blocked_reports_total{outcome}``: blocked-host reports (``new`` or ``folded``).
        deliveries: ``flybot_deliveries_total{kind, outcome}``: outbox jobs handled by this replica's workers, by
            job kind and outcome: ``delivered``, ``retried`` (a failed send tried again later), ``rate_limited``
            (Slack's 429: the room pauses for its Retry-After), ``failed`` (given up past the delivery deadline,
            or refused by Slack) and ``dropped`` (its escalation, report or Bot no longer exists).
        queue_depth: ``flybot_outbox_queue_depth{kind}``: jobs due and waiting (store-wide), set at each scrape.
        queue_oldest: ``flybot_outbox_oldest_job_age_seconds{kind}``: age of the oldest of them, set at each scrape.
        rate_limited: ``flybot_rate_limited_total{reason}``: requests refused by admission control: ``rate``
            (requests a minute), ``open_escalations``, ``room_queue`` (429) and ``long_polls`` (503, this replica).
        long_polls: ``flybot_long_polls``: long-polls held by this replica now.
        long_poll_rechecks: ``flybot_long_poll_recheck_queries_total{kind}``: the safety net's store queries (one
            per interval for all the waiters of a kind, ``escalation`` or ``report``).
        accept_errors: ``flybot_accept_errors_total``: connections the listening socket could not accept (out of
            file descriptors or memory; logged once per burst).
        refusals: ``flybot_refusals_total{event, why}``: refused requests and connections (:mod:`bot.refusals`; the
            log names the first of each kind a minute).
        connections: ``flybot_connections``: HTTP connections this replica holds now (``flybot serve``'s guard).
    """

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.escalations = Counter(
            "flybot_escalations",
            "Escalations by status and decision source.",
            ["status", "decision_source"],
            registry=self.registry,
        )
        self.decision_latency = Histogram(
            "flybot_decision_latency_seconds",
            "Seconds from escalation to its decision.",
            ["decision_source", "decider"],
            buckets=(1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600),
            registry=self.registry,
        )
        self.pending = Gauge(
            "flybot_pending_escalations", "Escalations waiting for a decision.", registry=self.registry
        )
        self.standing_hits = Counter(
            "flybot_standing_approval_hits", "Escalations answered by a standing approval.", registry=self.registry
        )
        self.slack_errors = Counter(
            "flybot_slack_api_errors",
            "Slack Web API calls that failed after retries.",
            ["method", "error"],
            registry=self.registry,
        )
        self.slack_retries = Counter(
            "flybot_slack_api_retries",
            "Slack Web API retries by slack-sdk's retry handlers.",
            ["reason"],
            registry=self.registry,
        )
        self.blocked_reports = Counter(
            "flybot_blocked_reports", "Blocked-host reports received.", ["outcome"], registry=self.registry
        )
        self.deliveries = Counter(
            "flybot_deliveries", "Outbox jobs by kind and outcome.", ["kind", "outcome"], registry=self.registry
        )
        self.queue_depth = Gauge(
            "flybot_outbox_queue_depth", "Outbox jobs waiting, by kind.", ["kind"], registry=self.registry
        )
        self.queue_oldest = Gauge(
            "flybot_outbox_oldest_job_age_seconds",
            "Age of the oldest waiting outbox job, by kind.",
            ["kind"],
            registry=self.registry,
        )

        self.rate_limited = Counter(
            "flybot_rate_limited",
            "Requests refused by admission control, by reason.",
            ["reason"],
            registry=self.registry,
        )
        self.long_polls = Gauge("flybot_long_polls", "Long-polls held by this replica.", registry=self.registry)
        self.long_poll_rechecks = Counter(
            "flybot_long_poll_recheck_queries",
            "Safety-net store queries for all waiting long-polls.",
            ["kind"],
            registry=self.registry,
        )
        self._escalation_children: dict[tuple[str, str], Counter] = {}
        self._latency_children: dict[str, Histogram] = {}
        self.accept_errors = Counter(
            "flybot_accept_errors",
            "Connections not accepted (out of file descriptors or memory).",
            registry=self.registry,
        )
        self.refusals = Counter(
            "flybot_refusals",
            "Requests and connections refused (by event and reason).",
            ["event", "why"],
            registry=self.registry,
        )
        self.connections = Gauge("flybot_connections", "HTTP connections held by this replica.", registry=self.registry)

    def count_escalation(self, status: str, decision_source: str) -> None:
        """``escalations{status, decision_source}`` + 1, through a remembered child: ``labels()`` validates and locks
        on every call (three times per auto-answer). The child is made at first use, as ``labels()`` would,
        so no series shows before it happened."""
        key = (status, decision_source)
        child = self._escalation_children.get(key)
        if child is None:
            child = self._escalation_children[key] = self.escalations.labels(status, decision_source)
        child.inc()

    def observe_decision(self, decision_source: str, seconds: float) -> None:
        """``decision_latency{decision_source, decider}`` observes ``seconds`` (:func:`decider` names who decided),
        through a remembered child (see :meth:`count_escalation`)."""
        child = self._latency_children.get(decision_source)
        if child is None:
            child = self._latency_children[decision_source] = self.decision_latency.labels(
                decision_source, decider(decision_source)
            )
        child.observe(seconds)

    def render(self) -> bytes:
        """The text exposition format (``CONTENT_TYPE_LATEST``)."""
        return generate_latest(self.registry)
