"""sudo, env and exec options that change how the wrapped command runs are named in its wrapper (which no standing
approval looks through); ``sudo -R``/``--chroot`` to another root grades destructive."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

WORKSPACE = Path("/home/dev/project")


@pytest.mark.parametrize(("script", "wrapper"), [
    ("sudo -E git push origin main", "sudo -E"),
    ("sudo --preserve-env=HOME git push", "sudo --preserve-env=HOME"),
    ("sudo -u nobody apt-get install -y jq", "sudo -u nobody"),
    ("sudo -i apt-get install -y jq", "sudo -i"),
    ("sudo -D sub git push", "sudo -D sub"),
    ("env -C sub git push", "env -C sub"),
    ("env --argv0=x git push", "env --argv0=x"),
    ("exec -c git push", "exec -c"),
    ("sudo -n apt-get install -y jq", "sudo"),
    ("sudo -nHk apt-get install -y jq", "sudo"),
    ("sudo -- apt-get install -y jq", "sudo"),
    ("env LANG=C git push", "env"),
    ("exec git push", "exec"),
])  # fmt: skip
def test_wrapper_options_are_named_in_the_wrapper(script: str, wrapper: str) -> None:
    command = classify(script, contained=False, workspace=WORKSPACE).commands[-1]
    assert command.wrappers == (wrapper,), command


@pytest.mark.parametrize("script", [
    "sudo -R /tmp/evil git push", "sudo -R/tmp/evil git push", "sudo --chroot=/tmp/evil git push",
    "sudo --chr /tmp/evil git push", "sudo -R root apt-get install -y jq",
])  # fmt: skip
def test_sudo_into_another_root_is_destructive(script: str) -> None:
    for contained in (False, True):
        verdict = classify(script, contained=contained, workspace=WORKSPACE)
        assert verdict.risk is RiskLevel.DESTRUCTIVE, script
        assert any(r.rule == "chroot" for r in verdict.reasons), verdict.reasons
