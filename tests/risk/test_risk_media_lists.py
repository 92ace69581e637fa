"""ffmpeg, ffprobe and ffplay inputs that read what a list or playlist names (bot/risk/programs/viewers.py
``ffmpeg_lists``): the concat demuxer's ``-safe 0`` and the hls demuxer's ``-allowed_extensions`` beyond its media
list let a file the agent wrote name any file, ``~/.ssh/id_rsa`` too (secret-read); ``-protocol_whitelist`` with a
network protocol fetches the URLs it names. The defaults keep the program's grade."""

from __future__ import annotations

import pytest

from bot.risk import RiskLevel, classify

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK


@pytest.mark.parametrize(
    "command",
    [
        "ffmpeg -f concat -safe 0 -i list.txt -c copy out.mp4",
        "ffmpeg -f concat -safe false -i list.txt out.mkv",
        "ffmpeg -f concat -safe $S -i list.txt out.mkv",
        "ffmpeg -safe 0 -f concat -i ../list.txt out.mp4",
        "ffmpeg -allowed_extensions ALL -i in.m3u8 -c copy out.mp4",
        "ffmpeg -allowed_extensions mp4,pem -i in.m3u8 out.mp4",
        "ffprobe -f concat -safe 0 -i list.txt",
        "ffplay -f concat -safe 0 list.txt",
    ],
)
def test_lists_that_may_name_any_file_are_secret_reads(command: str) -> None:
    for contained in (False, True):
        result = classify(command, contained=contained, workspace="/home/u/proj")
        assert result.risk == NET, (command, result.reasons)
        assert any(r.rule == "secret-read" for r in result.reasons), result.reasons


def test_a_protocol_whitelist_with_network_protocols_fetches() -> None:
    result = classify(
        "ffmpeg -protocol_whitelist file,http,https,tcp,tls -i in.m3u8 -c copy out.mp4",
        contained=False,
        workspace="/home/u/proj",
    )
    assert result.risk == NET, result.reasons
    assert not any(r.rule == "secret-read" for r in result.reasons)


@pytest.mark.parametrize(
    ("command", "risk"),
    [
        ("ffmpeg -f concat -i list.txt -c copy out.mp4", WW),
        ("ffmpeg -f concat -safe 1 -i list.txt -c copy out.mp4", WW),
        ("ffmpeg -i in.m3u8 -c copy out.mp4", WW),
        ("ffmpeg -allowed_extensions mp4,ts -i in.m3u8 out.mp4", WW),
        ("ffmpeg -protocol_whitelist file,crypto,data -i in.m3u8 out.mp4", WW),
        ("ffmpeg -i in.mp4 -vf scale=640:-1 out.mp4", WW),
        ("ffprobe -v error -show_format in.mp4", RO),
        ("ffplay movie.mp4", RO),
    ],
)
def test_the_default_list_rules_keep_the_grade(command: str, risk: RiskLevel) -> None:
    assert classify(command, contained=False, workspace="/home/u/proj").risk == risk, command
