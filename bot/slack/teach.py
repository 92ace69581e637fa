"""Listeners for teaching FlyBot a program from an approval card: the "Grade `PROGRAM` …" button and its modal.

The button is on a pending card whose command is destructive only because FlyBot does not know a program
(:func:`bot.program_rules.teachable_programs`); a click naming a program the request's card does not offer (a copy
of a card, restored or forged) opens nothing. Admins only (:meth:`bot.program_rules.ProgramRuleService.set`
decides; a Slack card looks the same to everyone in the room, so a non-admin's click is answered with the
suggestion, ephemerally, and opens nothing). Submitting saves one program rule per subcommand given (or one for
every use), each audited; the card keeps its grade and still needs a decision.
"""

from __future__ import annotations

import json
from typing import Any

import structlog
from slack_bolt.async_app import AsyncAck, AsyncApp

from bot.errors import FlyBotError, InvalidRequest
from bot.program_rules import RuleSpec, parse_program, parse_subcommand, teachable_programs
from bot.slack.actions import GENERIC_FAILURE, _action_value, _outcome_text, _refuse, _where, open_form
from bot.slack.deps import SlackDeps
from cards import (
    TEACH_ACTION,
    TEACH_GRADE_BLOCK,
    TEACH_GRADE_INPUT,
    TEACH_MODAL_CALLBACK,
    TEACH_NOTE_BLOCK,
    TEACH_NOTE_INPUT,
    TEACH_SUBCOMMANDS_BLOCK,
    TEACH_SUBCOMMANDS_INPUT,
    teach_modal,
)

log = structlog.get_logger("flybot.slack.teach")

_FIELD_BLOCKS = {
    "grade": TEACH_GRADE_BLOCK,
    "subcommand": TEACH_SUBCOMMANDS_BLOCK,
    "note": TEACH_NOTE_BLOCK,
    "program": TEACH_GRADE_BLOCK,
}


def _state(values: dict[str, Any], block: str, action: str) -> dict[str, Any]:
    found = (values.get(block) or {}).get(action) or {}
    return found if isinstance(found, dict) else {}


def not_admin_text(program: str) -> str:
    """The answer to a non-admin's click: what an admin can do."""
    return (
        f"FlyBot does not know `{program}`. Only an admin can teach it (a program rule): ask one to use this "
        f"card's *Grade* button or `/flybot rule set {program} GRADE`."
    )


def not_offered_text(program: str) -> str:
    """The answer to a click on a Grade button for a program the request's card does not offer."""
    return (
        f"This request's card does not offer to grade `{program}`, so nothing opened. An admin sets a program rule "
        f"with `/flybot rule set {program} GRADE`."
    )


def register(app: AsyncApp, deps: SlackDeps) -> None:
    """Register the button and the modal's submission."""

    @app.action(TEACH_ACTION)
    @deps.tracked
    async def on_teach(ack: AsyncAck, body: dict[str, Any]) -> None:
        await ack()
        user, channel = body["user"]["id"], _where(body)
        escalation_id, _, program = _action_value(body).partition(" ")
        try:
            program = parse_program(program)
        except InvalidRequest as exc:
            await _refuse(deps, channel, user, _outcome_text(exc))
            return
        if not await deps.standing.is_admin(user):
            await _refuse(deps, channel, user, not_admin_text(program))
            return
        escalation = await deps.store.get_escalation(escalation_id)
        if escalation is None or program not in teachable_programs(escalation.risk, escalation.reasons):
            # only a program the request's card offers (a copy of a card, restored or forged, may name any other)
            await _refuse(deps, channel, user, not_offered_text(program))
            return
        first = None
        words = escalation.command.split()
        if len(words) > 1 and words[0] == program:
            try:
                first = parse_subcommand(words[1])
            except InvalidRequest:
                first = None
        await open_form(
            deps,
            body,
            teach_modal(escalation_id=escalation_id, program=program, first_argument=first),
            f"Grade {program}",
        )

    @app.view(TEACH_MODAL_CALLBACK)
    @deps.tracked
    async def on_submit(ack: AsyncAck, body: dict[str, Any], view: dict[str, Any]) -> None:
        user = body["user"]["id"]
        try:
            meta = json.loads(view.get("private_metadata") or "{}")
            program, escalation_id = str(meta["program"]), str(meta.get("escalation_id") or "")
        except (ValueError, KeyError, TypeError):
            await ack()
            return
        values = (view.get("state") or {}).get("values") or {}
        grade = str(
            (_state(values, TEACH_GRADE_BLOCK, TEACH_GRADE_INPUT).get("selected_option") or {}).get("value") or ""
        )
        subcommands = str(_state(values, TEACH_SUBCOMMANDS_BLOCK, TEACH_SUBCOMMANDS_INPUT).get("value") or "")
        note = _state(values, TEACH_NOTE_BLOCK, TEACH_NOTE_INPUT).get("value")
        words = subcommands.replace(",", " ").split()
        try:  # every rule checked before any is saved, all saved in one transaction: bad input changes nothing
            specs = [
                RuleSpec(program=program, subcommand=word, grade=grade, note=note) for word in dict.fromkeys(words)
            ] or [RuleSpec(program=program, grade=grade, note=note)]
            saved = await deps.program_rules.set_all(user, specs)
        except InvalidRequest as exc:
            await ack(
                response_action="errors", errors={_FIELD_BLOCKS.get(exc.field or "", TEACH_GRADE_BLOCK): exc.detail}
            )
            return
        except FlyBotError as exc:
            await ack(response_action="errors", errors={TEACH_GRADE_BLOCK: _outcome_text(exc)})
            return
        except Exception:  # noqa: BLE001 - never a stack trace in chat
            log.exception("program_rule.teach_failed", program=program)
            await ack(response_action="errors", errors={TEACH_GRADE_BLOCK: GENERIC_FAILURE})
            return
        await ack()
        escalation = await deps.store.get_escalation(escalation_id) if escalation_id else None
        named = ", ".join(f"`{rule.words}`" for rule in saved)
        await _refuse(
            deps,
            (escalation.card_channel or "") if escalation else "",
            user,
            f"Program rule saved: {named} {'is' if len(saved) == 1 else 'are'} graded {saved[0].grade} "
            "from the next request. This card keeps its grade: decide it as usual.",
        )
