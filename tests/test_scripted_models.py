"""The tests' scripted model APIs read the conversation as the protocol defines it: a turn's tool step is done when
the last user turn holds the tool result, whatever a CLI appends after it (a newer Claude Code appends system
messages after a tool result). Real requests to the scripted servers on loopback."""

from __future__ import annotations

from typing import Any

import aiohttp

from tests.scripted_models import MessagesAPI, ResponsesAPI

BASH = [{"name": "Bash", "input_schema": {"type": "object"}}]
ASKED = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {}}]}
RESULT = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}
REMINDER = {"type": "text", "text": "<system-reminder>the date changed</system-reminder>"}


async def _stop_reason(api: MessagesAPI, messages: list[dict[str, Any]]) -> str:
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{api.url}/v1/messages", json={"model": "m", "messages": messages, "tools": BASH, "stream": False}
        ) as response,
    ):
        return str((await response.json())["stop_reason"])


async def test_the_messages_api_ends_the_turn_after_a_tool_result_whatever_follows_it() -> None:
    api = MessagesAPI()
    await api.start()
    try:
        start = {"role": "user", "content": "go"}
        assert await _stop_reason(api, [start]) == "tool_use"
        assert await _stop_reason(api, [start, ASKED, {"role": "user", "content": [RESULT]}]) == "end_turn"
        assert await _stop_reason(api, [start, ASKED, {"role": "user", "content": [RESULT, REMINDER]}]) == "end_turn"
        appended = [start, ASKED, {"role": "user", "content": [RESULT]}, {"role": "user", "content": [REMINDER]}]
        assert await _stop_reason(api, appended) == "end_turn"
        done = {"role": "assistant", "content": [{"type": "text", "text": "Done."}]}
        assert await _stop_reason(api, [*appended, done, {"role": "user", "content": "again"}]) == "tool_use"
    finally:
        await api.close()


async def test_the_responses_api_ends_the_turn_after_a_function_call_output_whatever_follows_it() -> None:
    api = ResponsesAPI()
    await api.start()
    call = {"type": "function_call", "call_id": "call_1", "name": "exec_command", "arguments": "{}"}
    output = {"type": "function_call_output", "call_id": "call_1", "output": "ok"}
    note = {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "note"}]}
    user = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]}
    done = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]}
    try:
        async with aiohttp.ClientSession() as session:
            for items, expected in (
                ([user], "function_call"),
                ([user, call, output], "message"),
                ([user, call, output, note], "message"),
                ([user, call, output, done, user], "function_call"),
            ):
                async with session.post(f"{api.url}/responses", json={"input": items}) as response:
                    text = await response.text()
                assert f'"type": "{expected}"' in text.split("response.output_item.done", 1)[1][:200], (items, text)
    finally:
        await api.close()
