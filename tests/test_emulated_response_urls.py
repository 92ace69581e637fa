"""The Slack emulation's ``response_url`` behaves as Slack's: up to 5 posts within 30 minutes of the command or
click, then 404 ``used_url`` / ``expired_url``; the URLs that ran out are forgotten, so its memory stays bounded."""

from __future__ import annotations

import asyncio

from bot.localchat.emulator import RESPONSE_URL_TTL_S, RESPONSE_URL_USES
from tests.harness import OWNER, Harness


async def _post(harness: Harness, token: str, text: str) -> tuple[int, str]:
    async with harness.http.post(f"{harness.emu_url}/response/{token}", json={"text": text}) as response:
        return response.status, await response.text()


async def _new_token(harness: Harness) -> str:
    """The response URL of a fresh ``/flybot help`` (FlyBot answers it in its acknowledgement: no post used)."""
    before = set(harness.emulator._response_urls)
    await harness.slash(OWNER, "help")
    (token,) = set(harness.emulator._response_urls) - before
    return token


async def test_a_response_url_takes_five_posts_then_answers_used_url(harness: Harness) -> None:
    assert (RESPONSE_URL_USES, RESPONSE_URL_TTL_S) == (5, 1800.0)  # Slack: "up to 5 times within 30 minutes"
    token = await _new_token(harness)
    async with harness.http.post(f"{harness.emu_url}/response/{token}", json={"text": "x", "blocks": 5}) as response:
        assert response.status == 400  # a refused body uses nothing up
    for n in range(RESPONSE_URL_USES):
        assert await _post(harness, token, f"answer {n}") == (200, "ok")
    assert harness.ephemerals(OWNER)[-1] == f"answer {RESPONSE_URL_USES - 1}"
    assert await _post(harness, token, "one too many") == (404, "used_url")
    assert "one too many" not in harness.ephemerals(OWNER)


async def test_a_response_url_expires_and_the_emulation_forgets_the_ones_run_out(harness: Harness) -> None:
    harness.emulator.response_url_ttl_s = 0.5
    token = await _new_token(harness)
    assert await _post(harness, token, "in time") == (200, "ok")
    await asyncio.sleep(0.6)
    assert await _post(harness, token, "too late") == (404, "expired_url")
    assert "too late" not in harness.ephemerals(OWNER)
    for _ in range(5):
        await harness.slash(OWNER, "help")
    await asyncio.sleep(0.6)
    await harness.slash(OWNER, "help")
    assert len(harness.emulator._response_urls) == 1  # only the last command's URL is held
    assert await _post(harness, "0" * 24, "unknown") == (404, "expired_url")
