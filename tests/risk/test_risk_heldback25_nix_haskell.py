"""Nix, ghcup and Guix readers. ``nix store gc --dry-run`` only shows what would be deleted (nix3-store-gc(1));
``nix-store --query`` prints (nix-store(1)) while its other operations stay unrecognised; ``ghcup list`` fetches
the metadata of available tools, ``install`` puts tools under ~/.ghcup (``-u URL``: a chosen source), ``rm``/``nuke``
delete (ghcup user guide); ``guix describe`` prints the channels in use, ``guix pull`` of the default channels and
``guix install PACKAGE`` install for the user, other channels (``-C``, ``--url``) and Guix's other commands stay
unrecognised. Each beside the everyday form."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("nix store gc", R.DESTRUCTIVE),
        ("nix store delete /nix/store/x-ghc", R.DESTRUCTIVE),
        ("nix-store --gc", R.DESTRUCTIVE),
        ("nix-store --delete /nix/store/x-ghc", R.DESTRUCTIVE),
        ("nix-store -r /nix/store/x.drv", R.DESTRUCTIVE),
        ("nix-store --import < /tmp/x/closure.nar", R.DESTRUCTIVE),
        ("ghcup nuke", R.DESTRUCTIVE),
        ("ghcup rm ghc 9.4.8", R.DESTRUCTIVE),
        ("ghcup install ghc -u https://x.invalid/ghc.tar.xz 9.6.5", R.DESTRUCTIVE),
        ("ghcup install ghc --isolate /etc/ghc 9.6.5", R.DESTRUCTIVE),
        ("ghcup -s https://x.invalid/meta.yaml install ghc", R.DESTRUCTIVE),
        ("ghcup run -- ghc", R.DESTRUCTIVE),
        ("guix pull -C /tmp/x/channels.scm", R.DESTRUCTIVE),
        ("guix gc -d 1m", R.DESTRUCTIVE),
        ("guix shell -m manifest.scm -- make", R.DESTRUCTIVE),
        ("guix pull --channels=guix/channels.legacy.scm", R.DESTRUCTIVE),
        ("guix pull --url=https://git.x.invalid/guix.git", R.DESTRUCTIVE),
        ("guix install -f /tmp/x/pkg.scm", R.DESTRUCTIVE),
        ("guix install -e '(@ (x) y)'", R.DESTRUCTIVE),
    ],
)
def test_hostile_form_keeps_a_high_grade(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, {"flake.nix": "{ outputs = _: { }; }\n"})
    risk, details = graded(command, ws)
    assert risk >= expected, details


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("nix store gc --dry-run", R.READ_ONLY),
        ("nix-store -q --references ./result", R.READ_ONLY),
        ("nix-store -qR ./result", R.READ_ONLY),
        ("nix-store --query --tree ./result", R.READ_ONLY),
        ("nix-store -l ./result", R.NETWORK),
        ("ghcup list", R.NETWORK),
        ("ghcup install ghc 9.6.5", R.SYSTEM),
        ("ghcup set ghc 9.6.5", R.SYSTEM),
        ("guix describe", R.READ_ONLY),
        ("guix describe -f channels", R.READ_ONLY),
        ("guix pull", R.SYSTEM),
        ("guix install hello", R.SYSTEM),
    ],
)
def test_everyday_form_is_not_over_graded(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, {"flake.nix": "{ outputs = _: { }; }\n"})
    risk, details = graded(command, ws)
    assert risk == expected, details
