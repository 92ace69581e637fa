"""ffmpeg, ffprobe and ffplay inputs that read what a list or playlist names (bot/risk/programs/viewers.py
``ffmpeg_lists``): the concat demuxer's ``-safe 0`` and the hls demuxer's ``-allowed_extensions`` beyond its media
list let a file the agent wrote name any file, ``~/.ssh/id_rsa`` too: the concat list is read where it lies in the
workspace and a credential it names is a secret-read, a list that cannot be read or an entry that cannot be placed
destructive; any hls playlist past its media extensions is a secret-read; ``-protocol_whitelist`` with a network
protocol fetches the URLs it names. The defaults keep the program's grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from tests.risk.both_sides import graded, project

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
DES = RiskLevel.DESTRUCTIVE


@pytest.mark.parametrize(
    "command",
    [
        "ffmpeg -allowed_extensions ALL -i in.m3u8 -c copy out.mp4",
        "ffmpeg -allowed_extensions mp4,pem -i in.m3u8 out.mp4",
    ],
)
def test_playlists_that_may_name_any_file_are_secret_reads(command: str) -> None:
    for contained in (False, True):
        result = classify(command, contained=contained, workspace="/home/u/proj")
        assert result.risk == NET, (command, result.reasons)
        assert any(r.rule == "secret-read" for r in result.reasons), result.reasons


# -- the concat demuxer's -safe 0: the list (a workspace file the agent can write) is read -------------------------
def _lists(tmp_path: Path) -> Path:
    return project(
        tmp_path,
        {
            "list.txt": "ffconcat version 1.0\nfile 'a.mp4'\nfile clips/b\\ c.mp4\nduration 3\n",
            "keys.txt": "file '/root/.ssh/id_rsa'\n",
            "aws.txt": "# the clips\nfile a.mp4\nfile /root/.aws/credentials\n",
            "tilde.txt": "file ~/.aws/credentials\n",  # no shell: ws/~/.aws/credentials, a credential by its name
            "env.txt": "file '../ws/.env'\n",
            "media.txt": "file '/srv/media/c.mp4'\n",
            "up.txt": "file ../elsewhere/x.mp4\n",
            "url.txt": "file 'http://example.com/x.mp4'\n",
            "nested.txt": "file subfile,,start,0,end,100,,:/root/.ssh/id_rsa\n",
            "option.txt": "option f concat\nfile a.mp4\n",
            "fake.mp4": "ffconcat version 1.0\nfile /root/.aws/credentials\n",
            "quote.txt": "file '/root/.ssh/id_rsa\n",
        },
    )


@pytest.mark.parametrize(
    ("command", "risk"),
    [
        ("ffmpeg -f concat -safe 0 -i list.txt -c copy out.mp4", WW),
        ("ffmpeg -safe 0 -f concat -i list.txt out.mkv", WW),
        ("ffmpeg -f concat -safe 0 -i media.txt -c copy out.mp4", WW),  # a read outside, no secret
        ("ffmpeg -f concat -safe 0 -i up.txt -c copy out.mp4", WW),
        ("ffmpeg -safe 0 -i list.txt out.mkv", WW),  # probed as ffconcat: names workspace files only
        ("ffprobe -f concat -safe 0 -i list.txt", RO),
        ("ffplay -f concat -safe 0 list.txt", RO),
        ("echo done > notes.txt && ffmpeg -f concat -safe 0 -i list.txt out.mp4", WW),
    ],
)
def test_a_concat_list_naming_no_secret_keeps_the_grade(tmp_path: Path, command: str, risk: RiskLevel) -> None:
    assert graded(command, _lists(tmp_path))[0] is risk, command


@pytest.mark.parametrize(
    "command",
    [
        "ffmpeg -f concat -safe 0 -i keys.txt -c copy out.mp4",
        "ffmpeg -f concat -safe false -i aws.txt out.mkv",
        "ffmpeg -f concat -safe 0 -i env.txt out.mkv",
        "ffmpeg -safe 0 -i fake.mp4 out.mkv",  # the demuxer probes "ffconcat version"
        "ffmpeg -f concat -safe 0 -i tilde.txt out.mkv",
        "ffprobe -f concat -safe 0 -i keys.txt",
        "ffplay -f concat -safe 0 keys.txt",
    ],
)
def test_a_concat_list_naming_a_credential_is_a_secret_read(tmp_path: Path, command: str) -> None:
    risk, details = graded(command, _lists(tmp_path))
    assert risk is NET and any("names" in d for d in details), (command, details)


@pytest.mark.parametrize(
    "command",
    [
        "ffmpeg -f concat -safe 0 -i url.txt out.mp4",  # a protocol: FlyBot cannot place it
        "ffmpeg -f concat -safe 0 -i nested.txt out.mp4",
        "ffmpeg -f concat -safe 0 -i option.txt out.mp4",
        "ffmpeg -f concat -safe 0 -i quote.txt out.mp4",  # unterminated quote: not read
        "ffmpeg -f concat -safe 0 -i missing.txt out.mp4",
        "ffmpeg -f concat -safe 0 -i /tmp/list.txt out.mp4",  # outside the workspace: not read
        "ffmpeg -f concat -safe 0 -i ../elsewhere/list.txt out.mp4",
        "ffmpeg -f concat -safe 0 -i $LIST out.mp4",
        "ffmpeg -f concat -safe 0 -i - out.mp4",
        "ffmpeg -f concat -safe 0 -i pipe:0 out.mp4",
        "ffmpeg -f concat -safe $S -i list.txt out.mkv",
        "cd /tmp && ffmpeg -f concat -safe 0 -i list.txt out.mp4",
        # the list read is not the one ffmpeg reads: written (or links made) earlier in the same command
        "cp keys.txt list.txt && ffmpeg -f concat -safe 0 -i list.txt out.mp4",
        "sed -i s/a.mp4/b.mp4/ list.txt; ffmpeg -f concat -safe 0 -i list.txt out.mp4",
        "ln -s /root/.ssh/id_rsa a.mp4; ffmpeg -f concat -safe 0 -i list.txt out.mp4",
    ],
)
def test_a_concat_list_that_cannot_be_read_or_placed_fails_closed(tmp_path: Path, command: str) -> None:
    assert graded(command, _lists(tmp_path))[0] is DES, command


def test_without_the_project_read_a_concat_list_fails_closed() -> None:
    result = classify("ffmpeg -f concat -safe 0 -i list.txt out.mp4", contained=False, workspace="/home/u/proj")
    assert result.risk is DES, result.reasons


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
