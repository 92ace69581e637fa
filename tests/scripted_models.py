"""Scripted model APIs on loopback for the real agent CLIs in tests: no network, no model.

:class:`MessagesAPI` speaks enough of Anthropic's Messages API (``POST /v1/messages``, streaming SSE or JSON) for
Claude Code: the first answer of a turn asks for the ``Bash`` tool with the scripted command (a fresh ``tool_use``
id on every call), the answer after the tool result ends the turn with a short text. "After the tool result" is read
as the protocol defines the conversation: the messages after the last assistant message (the last user turn) hold a
``tool_result`` for that message's ``tool_use``, whatever else follows it there (text blocks or further user
messages a CLI appends, e.g. system reminders). Requests without tools
(titles, summaries) get a short text answer. Every request is kept in ``requests`` so a test can read what the
agent sent back (e.g. the tool result the hook's denial produced).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.harness import free_socket


def _sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def _blocks_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def answered(messages: list[dict[str, Any]]) -> bool:
    """True when the last assistant message asked for tools and the last user turn (every message after it) holds a
    ``tool_result`` for one of them: the turn's tool step is done. False at a turn's start (no assistant message
    yet, or the last one asked for nothing)."""
    last = max((i for i, m in enumerate(messages) if m.get("role") == "assistant"), default=None)
    if last is None:
        return False
    asked = {b.get("id") for b in _blocks_of(messages[last]) if b.get("type") == "tool_use"}
    return bool(asked) and any(
        b.get("type") == "tool_result" and b.get("tool_use_id") in asked
        for m in messages[last + 1 :]
        if m.get("role") == "user"
        for b in _blocks_of(m)
    )


@dataclass
class MessagesAPI:
    """A scripted Messages API; ``command`` is what the model asks Bash to run on the next turn, or, with ``tool``
    set to another tool the request offers (``Edit``, ``WebFetch``, ``mcp__SERVER__TOOL``), that tool with
    ``tool_input``."""

    command: str = "ls"
    tool: str = "Bash"
    tool_input: dict[str, Any] = field(default_factory=dict)
    before: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """Tool calls the model makes first, one a step, each after the previous one's result."""
    model: str = "claude-sonnet-4-5"
    requests: list[dict[str, Any]] = field(default_factory=list)
    tool_use_ids: list[str] = field(default_factory=list)
    url: str = ""
    _runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/v1/messages", self._messages)
        app.router.add_post("/v1/messages/count_tokens", self._count)
        app.router.add_route("*", "/{tail:.*}", self._other)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        sock = free_socket()
        site = web.SockSite(self._runner, sock)
        await site.start()
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def tool_results(self) -> list[dict[str, Any]]:
        """Every ``tool_result`` block the agent sent back, in order."""
        found: list[dict[str, Any]] = []
        for body in self.requests:
            for message in body.get("messages", []):
                content = message.get("content")
                if message.get("role") == "user" and isinstance(content, list):
                    found += [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
        seen: set[str] = set()
        return [b for b in found if not (b.get("tool_use_id") in seen or seen.add(b.get("tool_use_id")))]  # type: ignore[func-returns-value]

    async def _count(self, _request: web.Request) -> web.Response:
        return web.json_response({"input_tokens": 10})

    async def _other(self, _request: web.Request) -> web.Response:
        return web.json_response(
            {"type": "error", "error": {"type": "not_found_error", "message": "scripted"}}, status=404
        )

    def _blocks(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
        tools = {t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)}
        if "Bash" in tools:  # the agent's main loop: tools it defers (WebFetch, MCP tools) are callable too
            tools.add(self.tool)
        messages = body.get("messages") or []
        step = sum(
            1
            for m in messages
            if m.get("role") == "assistant" and any(b.get("type") == "tool_use" for b in _blocks_of(m))
        )
        if self.before and step < len(self.before) and (step == 0 or answered(messages)):
            name, tool_input = self.before[step]
            tool_id = f"toolu_{uuid.uuid4().hex[:24]}"
            return [{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}], "tool_use"
        if self.before and step == len(self.before) and answered(messages) and self.tool in tools:
            tool_id = f"toolu_{uuid.uuid4().hex[:24]}"
            self.tool_use_ids.append(tool_id)
            return [{"type": "tool_use", "id": tool_id, "name": self.tool, "input": self.tool_input}], "tool_use"
        if self.before:
            return [{"type": "text", "text": "Done."}], "end_turn"
        if self.tool in tools and not answered(messages):
            tool_id = f"toolu_{uuid.uuid4().hex[:24]}"
            self.tool_use_ids.append(tool_id)
            tool_input = (
                {"command": self.command, "description": "scripted step"} if self.tool == "Bash" else self.tool_input
            )
            return [{"type": "tool_use", "id": tool_id, "name": self.tool, "input": tool_input}], "tool_use"
        return [{"type": "text", "text": "Done."}], "end_turn"

    async def _messages(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        blocks, stop = self._blocks(body)
        message = {
            "id": f"msg_{uuid.uuid4().hex[:24]}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model") or self.model,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5},
        }
        if not body.get("stream"):
            return web.json_response({**message, "content": blocks, "stop_reason": stop})
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await response.prepare(request)
        await response.write(
            _sse(
                "message_start",
                {
                    "type": "message_start",
                    "message": {
                        **message,
                        "content": [],
                        "stop_reason": None,
                        "usage": {"input_tokens": 10, "output_tokens": 1},
                    },
                },
            )
        )
        for index, block in enumerate(blocks):
            if block["type"] == "tool_use":
                start = {**block, "input": {}}
                delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
            else:
                start = {"type": "text", "text": ""}
                delta = {"type": "text_delta", "text": block["text"]}
            await response.write(
                _sse("content_block_start", {"type": "content_block_start", "index": index, "content_block": start})
            )
            await response.write(
                _sse("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
            )
            await response.write(_sse("content_block_stop", {"type": "content_block_stop", "index": index}))
        await response.write(
            _sse(
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": 5},
                },
            )
        )
        await response.write(_sse("message_stop", {"type": "message_stop"}))
        await response.write_eof()
        return response


def function_call_answered(items: list[dict[str, Any]]) -> bool:
    """True when the model asked for tools after its last message (the last turn's ``function_call`` items) and a
    ``function_call_output`` for one of them follows, whatever else follows too: the turn's tool step is done. False
    at a turn's start (no call since the model's last message)."""
    said = max(
        (i for i, item in enumerate(items) if item.get("type") == "message" and item.get("role") == "assistant"),
        default=-1,
    )
    calls = {item.get("call_id") for item in items[said + 1 :] if item.get("type") == "function_call"}
    return bool(calls) and any(
        item.get("type") == "function_call_output" and item.get("call_id") in calls for item in items[said + 1 :]
    )


def calls_answered(items: list[dict[str, Any]]) -> int:
    """How many ``function_call_output`` items follow the model's last message: the tool calls of this turn that
    came back."""
    said = max(
        (i for i, item in enumerate(items) if item.get("type") == "message" and item.get("role") == "assistant"),
        default=-1,
    )
    return sum(1 for item in items[said + 1 :] if item.get("type") == "function_call_output")


@dataclass
class ResponsesAPI:
    """A scripted OpenAI Responses API (``POST /v1/responses``, streaming SSE) for ``codex app-server``.

    The first request of a turn (:func:`function_call_answered` is false) gets a ``function_call`` to Codex's
    ``exec_command`` tool running ``command``, asking to run it outside the sandbox (``sandbox_permissions:
    require_escalated`` with a ``justification``, as Codex's own instructions tell the model to do); the request
    after the tool's output gets a short message that ends the turn (or, with ``then``, a second ``function_call``
    first, and the message after its output). ``requests`` keeps every request body.
    """

    command: str = "true"
    justification: str = "Do you allow the scripted step?"
    escalate: bool = True
    call: tuple[str, dict[str, Any]] | None = None
    """Another tool to call instead of ``exec_command`` (its name and arguments), e.g. ``request_permissions``."""
    then: tuple[str, dict[str, Any]] | None = None
    """A second tool call (its name and arguments) made once the first call's output came back, in the same turn."""
    requests: list[dict[str, Any]] = field(default_factory=list)
    call_ids: list[str] = field(default_factory=list)
    url: str = ""
    _runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/v1/responses", self._responses)
        app.router.add_route("*", "/{tail:.*}", self._other)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        sock = free_socket()
        await web.SockSite(self._runner, sock).start()
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def outputs(self) -> list[str]:
        """The ``function_call_output`` texts Codex sent back, in order, one per call id."""
        seen: dict[str, str] = {}
        for body in self.requests:
            for item in body.get("input") or []:
                if isinstance(item, dict) and item.get("type") == "function_call_output":
                    output = item.get("output")
                    text = output if isinstance(output, str) else json.dumps(output)
                    seen.setdefault(str(item.get("call_id")), text)
        return list(seen.values())

    async def _other(self, _request: web.Request) -> web.Response:
        return web.json_response({"error": {"message": "scripted", "type": "not_found"}}, status=404)

    def _item(self, body: dict[str, Any]) -> dict[str, Any]:
        items = [i for i in body.get("input") or [] if isinstance(i, dict)]
        if function_call_answered(items) and self.then is not None and calls_answered(items) == 1:
            call_id = f"call_{uuid.uuid4().hex[:12]}"
            self.call_ids.append(call_id)
            return {
                "type": "function_call",
                "id": f"fc_{uuid.uuid4().hex[:12]}",
                "call_id": call_id,
                "name": self.then[0],
                "arguments": json.dumps(self.then[1]),
            }
        if function_call_answered(items):
            return {
                "type": "message",
                "role": "assistant",
                "id": f"msg_{uuid.uuid4().hex[:12]}",
                "content": [{"type": "output_text", "text": "Done."}],
            }
        call_id = f"call_{uuid.uuid4().hex[:12]}"
        self.call_ids.append(call_id)
        if self.call is not None:
            return {
                "type": "function_call",
                "id": f"fc_{uuid.uuid4().hex[:12]}",
                "call_id": call_id,
                "name": self.call[0],
                "arguments": json.dumps(self.call[1]),
            }
        arguments: dict[str, Any] = {"cmd": self.command}
        if self.escalate:
            arguments.update(sandbox_permissions="require_escalated", justification=self.justification)
        return {
            "type": "function_call",
            "id": f"fc_{uuid.uuid4().hex[:12]}",
            "call_id": call_id,
            "name": "exec_command",
            "arguments": json.dumps(arguments),
        }

    async def _responses(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        item = self._item(body)
        response_id = f"resp_{uuid.uuid4().hex[:12]}"
        stream = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await stream.prepare(request)

        def event(kind: str, data: dict[str, Any]) -> bytes:
            return _sse(kind, {"type": kind, **data})

        await stream.write(event("response.created", {"response": {"id": response_id}}))
        await stream.write(event("response.output_item.done", {"output_index": 0, "item": item}))
        await stream.write(
            event(
                "response.completed",
                {
                    "response": {
                        "id": response_id,
                        "usage": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15},
                    }
                },
            )
        )
        await stream.write_eof()
        return stream


def function_response_follows(contents: list[dict[str, Any]]) -> bool:
    """True when the model's last content asked for functions (``functionCall`` parts) and a later ``user``
    content answers one of them (a ``functionResponse`` part of the same name), whatever else follows: the turn's
    tool step is done. False at a turn's start (the model's last content called nothing, or there is none)."""
    last = max((i for i, c in enumerate(contents) if c.get("role") == "model"), default=None)
    if last is None:
        return False
    called = {
        p["functionCall"].get("name")
        for p in contents[last].get("parts") or []
        if isinstance(p, dict) and isinstance(p.get("functionCall"), dict)
    }
    return bool(called) and any(
        isinstance(p, dict)
        and isinstance(p.get("functionResponse"), dict)
        and p["functionResponse"].get("name") in called
        for c in contents[last + 1 :]
        if c.get("role") == "user"
        for p in c.get("parts") or []
    )


@dataclass
class GenerateContentAPI:
    """A scripted Gemini API (``POST /v1beta/models/MODEL:generateContent`` and ``:streamGenerateContent?alt=sse``)
    for Gemini CLI pointed at it with ``GOOGLE_GEMINI_BASE_URL``.

    A request that offers the ``run_shell_command`` function at a turn's start (:func:`function_response_follows`
    is false) gets a ``functionCall`` running ``command`` (or ``call``); the request after the function's response gets a short
    text that ends the turn. Other requests (routing, titles, checks) get a short text. ``requests`` keeps every
    request body.
    """

    command: str = "ls"
    call: tuple[str, dict[str, Any]] | None = None
    """Another function to call instead of ``run_shell_command`` (its name and arguments), e.g. ``write_file``."""
    requests: list[dict[str, Any]] = field(default_factory=list)
    calls: int = 0
    url: str = ""
    _runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/{version}/models/{call}", self._generate)
        app.router.add_route("*", "/{tail:.*}", self._other)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        sock = free_socket()
        await web.SockSite(self._runner, sock).start()
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def function_responses(self) -> list[dict[str, Any]]:
        """Every ``functionResponse`` the agent sent back, in order, once each (the conversation repeats them)."""
        found: list[dict[str, Any]] = []
        for body in self.requests:
            for content in body.get("contents") or []:
                for part in content.get("parts") or [] if isinstance(content, dict) else []:
                    if isinstance(part, dict) and isinstance(part.get("functionResponse"), dict):
                        if part["functionResponse"] not in found:
                            found.append(part["functionResponse"])
        return found

    async def _other(self, _request: web.Request) -> web.Response:
        return web.json_response({"error": {"code": 404, "message": "scripted", "status": "NOT_FOUND"}}, status=404)

    def _parts(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        offered = {
            d.get("name")
            for tool in body.get("tools") or []
            if isinstance(tool, dict)
            for d in tool.get("functionDeclarations") or []
            if isinstance(d, dict)
        }
        contents = [c for c in body.get("contents") or [] if isinstance(c, dict)]
        if "run_shell_command" in offered and not function_response_follows(contents):
            self.calls += 1
            if self.call is not None:
                return [{"functionCall": {"name": self.call[0], "args": self.call[1]}}]
            return [
                {
                    "functionCall": {
                        "name": "run_shell_command",
                        "args": {"command": self.command, "description": "scripted step"},
                    }
                }
            ]
        return [{"text": "Done."}]

    async def _generate(self, request: web.Request) -> web.StreamResponse:
        call = request.match_info["call"]
        if call.endswith(":countTokens"):
            return web.json_response({"totalTokens": 10})
        body = await request.json()
        self.requests.append(body)
        chunk = {
            "candidates": [
                {"content": {"role": "model", "parts": self._parts(body)}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
            "modelVersion": "gemini-2.5-flash",
        }
        if not call.endswith(":streamGenerateContent"):
            return web.json_response(chunk)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await response.prepare(request)
        await response.write(f"data: {json.dumps(chunk)}\n\n".encode())
        await response.write_eof()
        return response
