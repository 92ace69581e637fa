"""A variable that tells a tool where its credentials are (bot/risk/sensitive.py ``_CREDENTIAL_PLACES``:
``KUBECONFIG``, ``DOCKER_CONFIG``, ``GNUPGHOME``, ``CARGO_HOME``...) is read as the tool's default place, so reading
through it is a secret-read as reading the default path is; other files below those directories and unknown
variables keep their grades."""

from __future__ import annotations

import pytest

from bot.risk import RiskLevel, classify

RO = RiskLevel.READ_ONLY
NET = RiskLevel.NETWORK


@pytest.mark.parametrize(
    "command",
    [
        'cat "$KUBECONFIG"',
        "cat $NETRC",
        "base64 < $PGPASSFILE",
        "cat $DOCKER_CONFIG/config.json",
        "cat ${DOCKER_CONFIG:-~/.docker}/config.json",
        "cat $GNUPGHOME/private-keys-v1.d/key",
        "cat ${CARGO_HOME}/credentials.toml",
        "cat $CLOUDSDK_CONFIG/credentials.db",
        "cat $GH_CONFIG_DIR/hosts.yml",
        "cat $AWS_CONFIG_FILE",
        "cat $GRADLE_USER_HOME/gradle.properties",
        "cat $COMPOSER_HOME/auth.json",
    ],
)
def test_reads_through_credential_places_are_secret_reads(command: str) -> None:
    assessment = classify(command, contained=False)
    assert assessment.risk >= NET, assessment.reasons
    assert any(r.rule == "secret-read" for r in assessment.reasons)


@pytest.mark.parametrize(
    "command",
    [
        "ls $CARGO_HOME/bin",
        "cat $CARGO_HOME/config.toml",
        "cat $KUBECONFIGS",
        "cat $NETRC_X",
        "cat $X",
        'cat "$FOO/bar"',
    ],
)
def test_other_places_keep_their_grade(command: str) -> None:
    assert classify(command, contained=False).risk == RO
