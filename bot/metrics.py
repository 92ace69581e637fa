"""Prometheus metrics (prometheus-client), one registry per application so that several apps in one process
(tests, two replicas) never share counters.

Names follow Prometheus conventions (``_total`` counters, ``_seconds`` histograms, base units).
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

__all__ = ["CONTENT_TYPE_LATEST", "Metrics"]


class Metrics:
    """FlyBot's metrics.

    Attributes:
        escalations: ``flybot_escalations_total{status, decision_source}``: escalations that reached a final status
            (plus ``status="pending"`` with ``decision_source="created"`` when made).
        decision_latency: ``flybot_decision_latency_seconds{decision_source}``: created -> decided, seconds.
        pending: ``flybot_pending_escalations``: set at each scrape from the store.
        standing_hits: ``flybot_standing_approval_hits_total``: escalations answered by a standing approval.
        slack_errors: ``flybot_slack_api_errors_total{method, error}``: Slack Web API calls that failed for good.
        slack_retries: ``flybot_slack_api_retries_total{reason}``: retries by slack-sdk's handlers.
        blocked_reports: ``flybot_blocked_reports_total{outcome}``: blocked-host reports (``new`` or ``folded``).
    """

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.escalations = Counter(
            "flybot_escalations", "Escalations by status and decision source.", ["status", "decision_source"],
            registry=self.registry,
        )
        self.decision_latency = Histogram(
            "flybot_decision_latency_seconds", "Seconds from escalation to its decision.", ["decision_source"],
            buckets=(1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600), registry=self.registry,
        )
        self.pending = Gauge("flybot_pending_escalations", "Escalations waiting for a decision.", registry=self.registry)
        self.standing_hits = Counter(
            "flybot_standing_approval_hits", "Escalations answered by a standing approval.", registry=self.registry
        )
        self.slack_errors = Counter(
            "flybot_slack_api_errors", "Slack Web API calls that failed after retries.", ["method", "error"],
            registry=self.registry,
        )
        self.slack_retries = Counter(
            "flybot_slack_api_retries", "Slack Web API retries by slack-sdk's retry handlers.", ["reason"],
            registry=self.registry,
        )
        self.blocked_reports = Counter(
            "flybot_blocked_reports", "Blocked-host reports received.", ["outcome"], registry=self.registry
        )

    def render(self) -> bytes:
        """The text exposition format (``CONTENT_TYPE_LATEST``)."""
        return generate_latest(self.registry)
