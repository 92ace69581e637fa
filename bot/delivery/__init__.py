"""The outbox's delivery: workers that claim chat jobs from the store, send them through the chat port
(:mod:`bot.chat`) as cards (:mod:`cards`), and record the result in the transaction that ends the job. The only
package that sends chat effects (DESIGN.md, "Chat effects are durable jobs"). See :mod:`bot.delivery.worker`."""

from bot.delivery.worker import CARD_TAG, NOTICE_TAG, REPORT_TAG, Delivery, DeliveryConfig

__all__ = ["CARD_TAG", "NOTICE_TAG", "REPORT_TAG", "Delivery", "DeliveryConfig"]
