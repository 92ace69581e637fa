"""Secret reads graded read_only before: WordPress' ``wp-config.php``, MediaWiki's ``LocalSettings.php`` and
Symfony's ``config/parameters.yml`` hold the database password and the application's keys in clear
(sensitive.named_secret); macOS's ``ps -E`` prints every process's environment (grader._ps_environment). Their
templates and everyday ``ps`` stay reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

FILES = {
    "wp-config.php": "<?php define('DB_PASSWORD', 'x');\n",
    "wp-config-sample.php": "<?php define('DB_PASSWORD', 'password_here');\n",
    "w/LocalSettings.php": "<?php $wgDBpassword = 'x';\n",
    "app/config/parameters.yml": "parameters:\n  database_password: x\n",
    "app/config/parameters.yml.dist": "parameters:\n  database_password: ~\n",
    "deploy/parameters.yml": "region: eu\n",
}


@pytest.mark.parametrize(
    "command",
    [
        "cat wp-config.php",
        "grep DB_ wp-config.php",
        "sed -n 1,40p w/LocalSettings.php",
        "cat app/config/parameters.yml",
        "ps -E",
        "ps -Eww -ax",
        "ps -axE -o pid,command",
    ],
)
def test_a_secret_read_goes_to_the_model(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, FILES)
    assert graded(command, ws)[0] >= RiskLevel.NETWORK, graded(command, ws)


@pytest.mark.parametrize(
    "command",
    [
        "cat wp-config-sample.php",
        "cat app/config/parameters.yml.dist",
        "cat deploy/parameters.yml",
        "ps -ef",
        "ps aux",
        "ps -eo pid,comm",
        "ps -p 1 -o etime",
    ],
)
def test_templates_and_everyday_process_lists_stay_reads(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, FILES)
    assert graded(command, ws)[0] == RiskLevel.READ_ONLY, graded(command, ws)
