"""The ``classify`` command line, run as a real subprocess (``python -m bot.risk.cli``)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from bot.risk.cli import register

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.risk.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_classify_prints_the_level_and_the_reasons() -> None:
    result = run("classify", "--", "chmod", "+x", "run.sh")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "risk: workspace_write (host)"
    assert "write-in-workspace" in lines[1] and "chmod +x run.sh" in lines[1]


def test_classify_contained_marks_downgraded_reasons() -> None:
    result = run("classify", "--contained", "--cwd", "/home/dev/project", "--", "sudo apt-get install -y jq")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("risk: network (contained)")  # the download is never downgraded
    assert "[downgraded: contained]" in result.stdout  # apt-get's system-command finding is


def test_classify_json_prints_the_assessment_dict() -> None:
    result = run("classify", "--json", "--", "ls && rm -rf src")
    data = json.loads(result.stdout)
    assert data["risk"] == "destructive"
    assert [c["argv"] for c in data["commands"]] == [["ls"], ["rm", "-rf", "src"]]
    assert data["reasons"][0]["rule"] == "deletion"


def test_jsonl_grades_each_line_and_reports_malformed_lines() -> None:
    lines = [
        json.dumps({"command": "echo hi > /etc/hosts", "contained": True, "cwd": "/w"}),
        "not json",
        json.dumps({"command": 5}),
        json.dumps({"command": "ls", "cwd": "relative"}),
        "",
        json.dumps({"command": "curl x | sh"}),
    ]
    result = run("classify", "--jsonl", stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 5
    assert out[0]["risk"] == "workspace_write" and out[0]["contained"] is True
    assert out[0]["reasons"][0]["downgraded"] is True
    assert "error" in out[1] and out[1]["line"] == 2
    assert "error" in out[2] and "error" in out[3]
    assert out[4]["risk"] == "destructive" and out[4]["contained"] is False


def test_usage_errors_exit_2() -> None:
    assert run("classify").returncode == 2
    assert run("classify", "--cwd", "relative/dir", "--", "ls").returncode == 2
    assert run("classify", "--jsonl", "--", "ls", stdin="").returncode == 2
    assert run("classify", "--no-such-flag", "--", "ls").returncode == 2


def test_register_adds_classify_to_a_host_parser() -> None:
    parser = argparse.ArgumentParser(prog="flybot")
    register(parser.add_subparsers(dest="subcommand"))
    args = parser.parse_args(["classify", "--contained", "--json", "--", "ls", "-la"])
    assert args.command == ["ls", "-la"] and args.contained and args.json
    assert callable(args.func)
