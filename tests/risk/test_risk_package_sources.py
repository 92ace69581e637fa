"""Changes to where every later install gets its packages (the user's registry, channel, mirror, proxy, checksum
database or TLS check) are destructive on the host with the reason that future installs come from another source;
contained, a write in the thrown-away VM. Their everyday neighbours (other settings, reads) keep their grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import classify
from bot.risk.model import RiskLevel

W = Path("/home/dev/project")
RO, WW, NET, SYS, DES = (
    RiskLevel.READ_ONLY,
    RiskLevel.WORKSPACE_WRITE,
    RiskLevel.NETWORK,
    RiskLevel.SYSTEM,
    RiskLevel.DESTRUCTIVE,
)

SOURCES = [
    "npm config set registry https://evil.example/",
    "npm set registry=https://evil.example/",
    "npm config set proxy http://evil:8080",
    "pnpm config set registry https://evil.example/",
    "yarn config set npmRegistryServer https://evil.example/",
    "pip config set global.index-url https://evil.example/simple",
    "pip config set global.extra-index-url https://evil.example/simple",
    "conda config --set channel_alias https://evil.example",
    "conda config --add channels https://evil.example/conda",
    "conda config --prepend channels evil",
    "conda config --set proxy_servers.https http://evil:8080",
    "conda config --set ssl_verify false",
    "mamba config --add channels evil",
    "gem sources --add https://evil.example/",
    "gem sources -a https://evil.example/",
    "bundle config set --global mirror.https://rubygems.org https://evil.example",
    "bundle config set ssl_verify_mode 0",
    "composer config -g repos.packagist composer https://evil.example",
    "composer config -g repositories.x vcs https://evil.example/x",
    "composer config -g secure-http false",
    "go env -w GOPROXY=https://evil.example",
    "go env -w GOSUMDB=off",
    "go env -w GONOSUMDB=*",
    "go env -w GOINSECURE=*",
    "go env -w GOPRIVATE=example.com",
]


@pytest.mark.parametrize("command", SOURCES)
def test_a_change_of_the_package_source_is_destructive_on_the_host(command: str) -> None:
    host = classify(command, contained=False, workspace=W)
    assert host.risk == DES, host.reasons
    assert any(
        r.rule == "package-source" and "future installs come from another source" in r.detail for r in host.reasons
    ), host.reasons
    assert classify(command, contained=True, workspace=W).risk < DES


@pytest.mark.parametrize(
    "command",
    [
        "git config --global http.proxy http://evil:8080",
        "git config --global url.https://evil.example/.insteadOf https://github.com/",
        "echo registry=https://evil.example/ >> ~/.npmrc",
        "echo 'export HTTPS_PROXY=http://evil:8080' >> ~/.bashrc",
        "printf '[source.crates-io]\\nreplace-with=\"x\"\\n' >> ~/.cargo/config.toml",
        "go env -w 'GOAUTH=sh -c id'",
    ],
)
def test_user_level_source_files_and_git_proxies_are_destructive(command: str) -> None:
    assert classify(command, contained=False, workspace=W).risk == DES


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("npm config get registry", RO),
        ("pip config set global.timeout 60", SYS),
        ("conda config --set auto_activate_base false", SYS),
        ("conda config --show channels", RO),
        ("conda config --get channels", RO),
        ("gem sources --list", RO),
        ("bundle config set --local path vendor/bundle", WW),  # the application's .bundle/config
        ("composer config -g github-protocols https", SYS),
        ("composer config minimum-stability dev", WW),
        ("composer config repositories.x", WW),
        ("go env -w GO111MODULE=on", SYS),
        ("go env -w GOPROXY=https://proxy.golang.org,direct", SYS),
        ("go env -w GOSUMDB=sum.golang.org", SYS),
        ("go env GOPROXY", RO),
        ("git config --global user.name bob", SYS),
    ],
)
def test_other_settings_and_reads_keep_their_grade(command: str, grade: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=W).risk == grade
