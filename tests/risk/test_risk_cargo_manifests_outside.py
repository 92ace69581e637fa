"""Cargo.toml paths outside the workspace (bot/risk/settings.py ``_cargo_manifests_outside``): a path dependency, a
``[patch]``/``[replace]`` path, a build script, a target's source or a workspace member outside makes ``cargo build``
and ``cargo test`` compile code (and run build.rs and proc macros) from there: destructive, on the adapter's side and
the server's. Paths inside the workspace, followed to their own manifests, keep the build's grade."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

WW = RiskLevel.WORKSPACE_WRITE
DES = RiskLevel.DESTRUCTIVE
PACKAGE = '[package]\nname = "a"\nversion = "0.1.0"\n'


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    root = project(tmp_path, files)
    (tmp_path / "elsewhere" / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\n')
    return root


INNER = {"crates/inner/Cargo.toml": '[package]\nname = "inner"\nversion = "0.1.0"\n'}


@pytest.mark.parametrize(
    ("manifest", "named"),
    [
        (PACKAGE + '[dependencies]\nx = { path = "../elsewhere" }\n', "dependencies.x.path"),
        (PACKAGE + '[dev-dependencies.x]\npath = "/tmp/x"\n', "dev-dependencies.x.path"),
        (PACKAGE + '[build-dependencies]\nx = { path = "~/src/x" }\n', "build-dependencies.x.path"),
        (PACKAGE + "[target.'cfg(unix)'.dependencies]\nx = { path = \"/srv/x\" }\n", "target.cfg(unix).dependencies"),
        ('[workspace]\nmembers = []\n[workspace.dependencies]\nx = { path = "../elsewhere" }\n', "workspace.dep"),
        (PACKAGE + '[patch.crates-io]\nserde = { path = "/tmp/serde" }\n', "patch.crates-io.serde.path"),
        (PACKAGE + '[replace]\n"foo:0.1.0" = { path = "/srv/foo" }\n', "replace.foo:0.1.0.path"),
        (PACKAGE.replace('"0.1.0"\n', '"0.1.0"\nbuild = "/tmp/build.rs"\n'), "package.build"),
        (PACKAGE.replace('"0.1.0"\n', '"0.1.0"\nworkspace = "../elsewhere"\n'), "package.workspace"),
        (PACKAGE + '[lib]\npath = "../elsewhere/lib.rs"\n', "lib.path"),
        (PACKAGE + '[[bin]]\nname = "b"\npath = "/tmp/main.rs"\n', "bin.path"),
        ('[workspace]\nmembers = ["../elsewhere"]\n', "workspace.members"),
        ('[workspace]\nmembers = ["../*"]\n', "workspace.members"),
        (PACKAGE + '[dependencies]\nx = { git = "file:///tmp/repo" }\n', "a repository on this machine"),
        (PACKAGE + '[dependencies]\nx = { git = "/tmp/repo" }\n', "a repository on this machine"),
    ],
)
def test_a_manifest_naming_code_outside_the_workspace_is_destructive(tmp_path: Path, manifest: str, named: str) -> None:
    root = _project(tmp_path, {"Cargo.toml": manifest, "src/main.rs": "fn main() {}\n"})
    for command in ("cargo build", "cargo test"):
        risk, details = graded(command, root)
        assert risk == DES, (command, details)
        assert any("Cargo.toml" in d and named in d for d in details), details


def test_a_path_dependency_inside_is_followed_to_its_own_manifest(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        {
            "Cargo.toml": PACKAGE + '[dependencies]\ninner = { path = "crates/inner" }\n',
            "crates/inner/Cargo.toml": '[package]\nname = "inner"\nversion = "0.1.0"\n'
            '[dependencies]\nx = { path = "../../../elsewhere" }\n',
        },
    )
    risk, details = graded("cargo build", root)
    assert risk == DES and any("crates/inner/Cargo.toml" in d for d in details), details


def test_a_workspace_member_found_by_a_glob_is_followed(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        {
            "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n',
            "crates/inner/Cargo.toml": '[package]\nname = "inner"\nversion = "0.1.0"\nbuild = "/tmp/b.rs"\n',
        },
    )
    assert graded("cargo test", root)[0] == DES


def test_a_path_dependency_through_a_link_out_of_the_workspace_is_destructive(tmp_path: Path) -> None:
    root = _project(tmp_path, {"Cargo.toml": PACKAGE + '[dependencies]\nx = { path = "crates/x" }\n'})
    (root / "crates").mkdir()
    os.symlink(tmp_path / "elsewhere", root / "crates" / "x")
    assert graded("cargo build", root)[0] == DES


def test_a_manifest_that_cannot_be_read_fails_closed(tmp_path: Path) -> None:
    root = _project(tmp_path, {"Cargo.toml": PACKAGE + "[dependencies\nx = "})
    assert graded("cargo build", root)[0] == DES
    root = _project(tmp_path / "b", {"Cargo.toml": PACKAGE + "[dependencies]\nx = { path = 3 }\n"})
    assert graded("cargo build", root)[0] == DES


@pytest.mark.parametrize(
    "manifest",
    [
        PACKAGE + '[dependencies]\ninner = { path = "crates/inner", version = "0.1" }\nserde = "1"\n',
        PACKAGE + '[dependencies]\ny = { git = "https://github.com/o/y", branch = "main" }\n',
        PACKAGE.replace('"0.1.0"\n', '"0.1.0"\nbuild = "build.rs"\n') + '[lib]\npath = "src/lib.rs"\n',
        PACKAGE + '[patch.crates-io]\ninner = { path = "crates/inner" }\n',
        '[workspace]\nmembers = ["crates/*"]\n[workspace.dependencies]\ninner = { path = "crates/inner" }\n',
        PACKAGE + "[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n",
    ],
)
def test_a_manifest_whose_paths_stay_in_the_workspace_keeps_the_build_grade(tmp_path: Path, manifest: str) -> None:
    root = _project(tmp_path, {"Cargo.toml": manifest, "src/main.rs": "fn main() {}\n", **INNER})
    assert graded("cargo build", root)[0] == WW
    assert graded("cargo test", root)[0] == WW
