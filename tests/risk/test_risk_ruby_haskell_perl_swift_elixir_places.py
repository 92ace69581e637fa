"""Ruby, Haskell, Perl, Swift and Elixir tools pointed at code outside the workspace, writing where programs start
later, or printing credentials:

- ``prove`` runs its operands (test files, directories) and loads modules from ``-I`` directories (prove(1));
- ``ghc`` compiles its sources and the modules it imports from ``-i`` directories, running their Template Haskell
  (GHC User's Guide);
- ``bundle init --gemspec`` evaluates the gemspec (Ruby), ``bundle binstubs --path`` writes the binstubs there,
  ``bundle gem --edit`` runs an editor, and ``bundle config`` (no arguments, ``list``, ``get``) prints settings that
  hold gem servers' credentials (bundle-config(1));
- ``swift package edit --path`` makes a dependency build from that checkout;
- ``mix archive.install PATH`` builds or installs that archive into ~/.mix.

Each is graded by where it points; the everyday forms inside the workspace keep their grades."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import ProjectRecipes
from tests.risk.both_sides import graded, project

DES = RiskLevel.DESTRUCTIVE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
WW = RiskLevel.WORKSPACE_WRITE
RO = RiskLevel.READ_ONLY


def _both(command: str, workspace: Path) -> tuple[RiskLevel, RiskLevel]:
    host, _ = graded(command, workspace)
    inside = classify(command, contained=True, workspace=str(workspace), recipes=ProjectRecipes(workspace)).risk
    return host, inside


@pytest.mark.parametrize(
    ("command", "host", "inside"),
    [
        ("prove -r ../elsewhere", DES, DES),
        ("prove ../elsewhere/t", DES, DES),
        ("prove -I ../elsewhere t", DES, DES),
        ("prove -I lib -I ../elsewhere t", DES, DES),
        ("ghc ../elsewhere/x.hs", DES, DES),
        ("ghc -i../elsewhere Main.hs", DES, DES),
        ("ghc -isrc:../elsewhere Main.hs", DES, DES),
        ("ghc -isrc:~/lib Main.hs", DES, DES),
        ("bundle init --gemspec ../elsewhere/x.gemspec", DES, DES),
        ("bundle binstubs rake --path ~/.local/bin", DES, WW),
        ("bundle gem foo --edit=vim", DES, DES),
        ("bundle gem foo -e vim", DES, DES),
        ("bundle config", NET, NET),
        ("bundle config list", NET, NET),
        ("bundle config get gems.example.com", NET, NET),
        ("swift package edit dep --path ../elsewhere", DES, DES),
        ("mix archive.install ../elsewhere/x.ez", DES, DES),
    ],
)
def test_pointed_outside_or_printing_credentials(
    tmp_path: Path, command: str, host: RiskLevel, inside: RiskLevel
) -> None:
    assert _both(command, project(tmp_path, {})) == (host, inside)


@pytest.mark.parametrize(
    ("command", "host", "inside"),
    [
        ("prove", WW, WW),
        ("prove -lr t", WW, WW),
        ("prove -Ilib -v t/foo.t", WW, WW),
        ("ghc -O2 -o app Main.hs", WW, WW),
        ("ghc -isrc Main.hs", WW, WW),
        ("ghc -isrc:lib Main.hs", WW, WW),
        ("ghc --version", RO, RO),
        ("bundle init", WW, WW),
        ("bundle init --gemspec=foo.gemspec", WW, WW),
        ("bundle binstubs rake", WW, WW),
        ("bundle gem foo --test=rspec", WW, WW),
        ("bundle config set --local path vendor", WW, WW),
        ("swift package edit dep --path Packages/dep", WW, WW),
        ("swift package unedit dep", WW, WW),
        ("mix archive.install ./x.ez", SYS, NET),
    ],
)
def test_everyday_forms_keep_their_grade(tmp_path: Path, command: str, host: RiskLevel, inside: RiskLevel) -> None:
    assert _both(command, project(tmp_path, {})) == (host, inside)
