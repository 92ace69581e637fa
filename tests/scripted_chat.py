"""A scripted OpenAI Chat Completions API on loopback for the agent CLIs that speak it (OpenCode's and Cline's
OpenAI-compatible providers): no network, no model.

``POST /v1/chat/completions`` (streaming SSE or JSON): the first request of a turn asks for the tool ``tool`` with
``arguments`` (a fresh call id each time); once the conversation holds a ``tool`` message answering the last
assistant message's call, the answer is a short text that ends the turn. "Answering" is read as the protocol defines
the conversation: the messages after the last assistant message that asked for tools. Requests that offer no tool
of that name (titles, summaries) get a short text answer. ``GET /v1/models`` lists the one model. Every request body
is kept in ``requests``.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.harness import free_socket


def answered(messages: list[dict[str, Any]]) -> bool:
    """True when the last assistant message that asked for tools is followed by a ``tool`` message for one of its
    calls: the turn's tool step is done."""
    last = max(
        (i for i, m in enumerate(messages) if m.get("role") == "assistant" and m.get("tool_calls")), default=None
    )
    if last is None:
        return False
    asked = {c.get("id") for c in messages[last].get("tool_calls") or [] if isinstance(c, dict)}
    return any(m.get("role") == "tool" and m.get("tool_call_id") in asked for m in messages[last + 1 :])


def tool_names(body: dict[str, Any]) -> set[str]:
    """The function names a request offers."""
    return {
        str((t.get("function") or {}).get("name"))
        for t in body.get("tools") or []
        if isinstance(t, dict) and isinstance(t.get("function"), dict)
    }


@dataclass
class ChatCompletionsAPI:
    """A scripted Chat Completions API: ``tool`` and ``arguments`` are the call the model makes once per turn."""

    tool: str = "bash"
    arguments: dict[str, Any] = field(default_factory=dict)
    model: str = "scripted-model"
    requests: list[dict[str, Any]] = field(default_factory=list)
    call_ids: list[str] = field(default_factory=list)
    url: str = ""
    _runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._complete)
        app.router.add_get("/v1/models", self._models)
        app.router.add_route("*", "/{tail:.*}", self._other)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        sock = free_socket()
        await web.SockSite(self._runner, sock).start()
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def tool_outputs(self) -> list[str]:
        """The ``tool`` messages' texts the agent sent back for the scripted calls, in order, one per call id."""
        seen: dict[str, str] = {}
        for body in self.requests:
            for message in body.get("messages") or []:
                if isinstance(message, dict) and message.get("role") == "tool":
                    call = str(message.get("tool_call_id"))
                    if call in self.call_ids:
                        content = message.get("content")
                        seen.setdefault(call, content if isinstance(content, str) else json.dumps(content))
        return list(seen.values())

    async def _models(self, _request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": self.model, "object": "model", "owned_by": "t"}]})

    async def _other(self, _request: web.Request) -> web.Response:
        return web.json_response({"error": {"message": "scripted", "type": "not_found"}}, status=404)

    def _message(self, body: dict[str, Any]) -> dict[str, Any]:
        messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
        if self.tool in tool_names(body) and not answered(messages):
            call_id = f"call_{uuid.uuid4().hex[:16]}"
            self.call_ids.append(call_id)
            return {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": self.tool, "arguments": json.dumps(self.arguments)},
                    }
                ],
            }
        return {"role": "assistant", "content": "Done."}

    async def _complete(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        message = self._message(body)
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        base = {"id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "created": int(time.time()), "model": self.model}
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        if not body.get("stream"):
            return web.json_response(
                {
                    **base,
                    "object": "chat.completion",
                    "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                    "usage": usage,
                }
            )
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await response.prepare(request)

        async def chunk(delta: dict[str, Any], reason: str | None, **extra: Any) -> None:
            data = {
                **base,
                "object": "chat.completion.chunk",
                "choices": [{"index": 0, "delta": delta, "finish_reason": reason}],
                **extra,
            }
            await response.write(f"data: {json.dumps(data)}\n\n".encode())

        await chunk({"role": "assistant", "content": ""}, None)
        if message.get("tool_calls"):
            calls = [{"index": i, **call} for i, call in enumerate(message["tool_calls"])]
            await chunk({"tool_calls": calls}, None)
        else:
            await chunk({"content": message["content"]}, None)
        await chunk({}, finish, usage=usage)
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response
