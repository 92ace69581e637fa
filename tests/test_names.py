"""``bot.slack.directory.Names``: people and rooms by name, asked of chat a few at a time, once."""

from __future__ import annotations

import asyncio

from bot.slack.directory import LOOKUPS_AT_ONCE, Names


class Directory:
    """A chat directory that answers after ``delay_s`` and counts what it was asked (a test input, not a patch)."""

    def __init__(self, names: dict[str, str], delay_s: float = 0.01) -> None:
        self.names, self.delay_s = names, delay_s
        self.asked: list[str] = []
        self.running = self.most = 0

    async def lookup(self, key: str) -> str | None:
        self.asked.append(key)
        self.running += 1
        self.most = max(self.most, self.running)
        try:
            await asyncio.sleep(self.delay_s)
        finally:
            self.running -= 1
        return self.names.get(key)


async def test_many_people_are_asked_a_few_at_a_time_and_each_once() -> None:
    people = {f"U0PERSON{i:02d}": f"Person {i}" for i in range(40)}
    directory = Directory(people)
    names = Names(directory.lookup, directory.lookup)
    shown = await names.people([*people, *people])
    assert shown == {uid: f"@Person {i}" for i, uid in enumerate(people)}
    assert sorted(directory.asked) == sorted(people) and directory.most <= LOOKUPS_AT_ONCE
    assert await names.person("U0PERSON03") == "@Person 3" and len(directory.asked) == 40  # remembered


async def test_an_unknown_or_slow_person_reads_as_the_id_and_the_miss_is_remembered() -> None:
    directory = Directory({"U0SLOW0001": "Slow"}, delay_s=0.5)
    names = Names(directory.lookup, directory.lookup, timeout_s=0.05, miss_ttl_s=60)
    assert await names.person("U0SLOW0001") == "U0SLOW0001"
    assert await names.person("U0SLOW0001") == "U0SLOW0001" and directory.asked == ["U0SLOW0001"]
    assert await names.person("operator:alice") == "operator:alice"  # not a Slack id: never asked
    assert await names.room("C0NOWHERE1") == "C0NOWHERE1"


async def test_a_name_past_its_time_is_answered_at_once_and_refreshed_in_the_background() -> None:
    directory = Directory({"U0OLIVIA01": "Olivia"})
    names = Names(directory.lookup, directory.lookup, ttl_s=0.0)  # every name is past its time at once
    assert await names.person("U0OLIVIA01") == "@Olivia"  # the first time, asked and awaited
    directory.names["U0OLIVIA01"], directory.delay_s = "Olivia B", 0.5
    started = asyncio.get_running_loop().time()
    assert await names.person("U0OLIVIA01") == "@Olivia", "the known name, without waiting for chat"
    assert asyncio.get_running_loop().time() - started < 0.25
    await asyncio.sleep(0.7)  # the background lookup lands
    assert directory.asked == ["U0OLIVIA01", "U0OLIVIA01"]
    assert (await names.person("U0OLIVIA01")) == "@Olivia B"
    await asyncio.sleep(0.6)  # that answer started one more refresh (ttl 0): let it end with the test


async def test_a_name_is_one_line_with_hidden_characters_shown_and_cut() -> None:
    directory = Directory({"U0EVIL0001": "Ada\u202e\nNot Ada" + "x" * 200, "C0ROOM0001": "ops"})
    names = Names(directory.lookup, directory.lookup)
    shown = await names.person("U0EVIL0001")
    assert shown.startswith("@Ada\u27e8U+202E\u27e9\u27e8U+000A\u27e9Not Ada") and "\n" not in shown
    assert len(shown) == 81 and shown.endswith("\u2026")
    assert await names.room("C0ROOM0001") == "#ops"
