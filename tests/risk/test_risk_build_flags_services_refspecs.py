"""Build flags that name programs, builders and builds given the host, services that open the host to others,
forced fetch refspecs and packing's life cycle scripts:

* go (``go help build``): ``-gccgoflags`` other than optimisation, debug and warning flags (programs/build.py
  ``_GCCGO_TUNING``: gcc's ``-wrapper``, ``-B``, ``-fplugin=``), beside the ``-gcflags``/``-asmflags``/``-ldflags``,
  ``-toolexec``, ``-exec``, ``-overlay`` and ``CC``/``CGO_*`` rules already there;
* docker-buildx-create(1): a builder image other than Docker's BuildKit, ``network=host``, unread buildkitd flags
  or configuration; docker-buildx-build(1)/bake ``--allow network.host`` and build ``--network host``;
* systemctl(1)/service(8) start of a remote-access unit (programs/hostchanges.py ``REMOTE_ACCESS_UNITS``), tailscale
  up/--ssh, http.server run from ``/`` or ``~``;
* git-fetch(1)/git-pull(1) refspecs that force local branches or tags, ``--prune-tags``, ``--update-head-ok``;
* npm-pack(1), yarn pack, pnpm pack: the package's prepack/prepare/postpack scripts graded as recipe lines.

Each rule is checked in both directions: the risky form is destructive, the everyday form keeps today's grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from tests.risk.both_sides import git, graded, project

R = RiskLevel
GO = {"go.mod": "module example.com/m\n\ngo 1.22\n", "m.go": "package m\n"}


@pytest.mark.parametrize(
    "command",
    [
        "go build -gccgoflags '-wrapper /tmp/x/evil' ./...",
        "go build -gccgoflags=-B/tmp/x ./...",
        "go test -gccgoflags 'all=-fplugin=/tmp/x/p.so' ./...",
        "go build -gccgoflags '-O2 -Wl,-plugin,/tmp/x/p.so' ./...",
        "go install -gccgoflags '-wrapper /tmp/x/evil' ./...",
        "go build -gcflags '-wrapper /tmp/x/evil' ./...",
        "go build -asmflags '-wrapper=/tmp/x/evil' ./...",
        "go build -ldflags=-extld=/tmp/x/evil ./...",
        "go build -ldflags '-linkmode external -extldflags -fuse-ld=/tmp/x/evil' ./...",
        "go build -ldflags '-linkmode external -extld /tmp/x/evil' ./...",
        "CGO_CFLAGS=-B/tmp/x go build ./...",
        "CC=/tmp/x/evil go build ./...",
        "CXX=/tmp/x/evil go build ./...",
        "go test -exec /tmp/x/evil ./...",
        "go test -toolexec /tmp/x/evil ./...",
        "go build -overlay /tmp/x/o.json ./...",
    ],
)
def test_go_flags_naming_a_program_are_destructive(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, GO)
    assert graded(command, ws)[0] == R.DESTRUCTIVE, graded(command, ws)


@pytest.mark.parametrize(
    "command",
    [
        "go build ./...",
        'go build -ldflags "-s -w -X main.version=1.2" ./...',
        "go build -gccgoflags=-O2 ./...",
        "go build -gccgoflags '-O2 -g' ./...",
        "go test -race -count=1 ./...",
        "go build -trimpath -o bin/app .",
    ],
)
def test_everyday_go_builds_keep_the_build_grade(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, GO)
    assert graded(command, ws)[0] == R.WORKSPACE_WRITE, graded(command, ws)


@pytest.mark.parametrize(
    "command",
    [
        "docker buildx create --driver docker-container --driver-opt image=evil/buildkit",
        "docker buildx create --use --driver-opt image=moby/buildkit:v0.12.5,network=host",
        "docker buildx create --driver-opt network=host",
        "docker builder create --driver-opt=image=ghcr.io/x/buildkit",
        "docker buildx create --driver kubernetes --driver-opt qemu.image=evil/binfmt",
        "docker buildx create --buildkitd-flags '--addr tcp://0.0.0.0:1234'",
        "docker buildx create --buildkitd-config /tmp/x/buildkitd.toml",
        'docker buildx create --driver-opt "$OPTS"',
        "docker buildx create --name evil --driver-opt image=evil/bk && docker buildx build --builder evil .",
        "docker buildx build --allow security.insecure .",
        "docker buildx build --allow network.host -t app .",
        "docker buildx build --allow=network.host,security.insecure .",
        "docker build --network=host -t app .",
        "docker buildx bake --allow network.host",
        "docker run --privileged alpine",
        "docker run -v /:/host alpine",
        "docker run --pid=host alpine",
    ],
)
def test_builders_and_builds_handed_the_host_are_destructive(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, {"Dockerfile": "FROM alpine\n"})
    assert graded(command, ws)[0] == R.DESTRUCTIVE, graded(command, ws)


@pytest.mark.parametrize(
    "command",
    [
        "docker buildx build -t app .",
        "docker build -t app .",
        "docker buildx build --builder mybuilder -t app .",
        "docker buildx create --use",
        "docker buildx create --name ci --driver docker-container --bootstrap --use",
        "docker buildx create --use --driver-opt image=moby/buildkit:v0.12.5",
        "docker buildx create --use --buildkitd-flags '--allow-insecure-entitlement network.host'",
        "docker buildx build --network=default -t app .",
        "docker run --rm alpine true",
    ],
)
def test_everyday_builds_and_builders_keep_the_engine_grade(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, {"Dockerfile": "FROM alpine\n"})
    assert graded(command, ws)[0] == R.SYSTEM, graded(command, ws)


@pytest.mark.parametrize(
    "command",
    [
        "systemctl start xrdp",
        "systemctl start smbd",
        "sudo systemctl start nmbd.service",
        "systemctl start vncserver@:1",
        "systemctl restart x11vnc",
        "systemctl start ssh.socket",
        "systemctl start cockpit.socket",
        "systemctl start nfs-server",
        "service smbd start",
        "service xrdp restart",
        "tailscale up",
        "tailscale up --ssh",
        "tailscale set --ssh",
        "tailscale funnel 22",
        "xrdp",
        "x11vnc -display :0 -forever",
        "vncserver :1",
        "smbd -D",
        "nmbd",
        "sshd -p 2222",
        "/usr/sbin/sshd -D -p 2222",
        "ngrok http 22",
        "cloudflared tunnel --url http://localhost:22",
        "socat TCP-LISTEN:4444,fork EXEC:/bin/sh",
        "python3 -m http.server --bind 0.0.0.0 --directory /",
        "python3 -m http.server --bind 0.0.0.0 -d ~",
        "cd / && python3 -m http.server --bind 0.0.0.0",
        "cd ~ && python3 -m http.server 8000",
        "cd / && http-server",
    ],
)
def test_opening_the_host_to_others_is_destructive(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, {})
    assert graded(command, ws)[0] == R.DESTRUCTIVE, graded(command, ws)


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("systemctl status smbd", R.READ_ONLY),
        ("service smbd status", R.READ_ONLY),
        ("systemctl start app.service", R.SYSTEM),
        ("systemctl start postgresql", R.SYSTEM),
        ("service nginx start", R.SYSTEM),
        ("tailscale status", R.READ_ONLY),
        ("tailscale down", R.SYSTEM),
        ("tailscale serve status", R.SYSTEM),
        ("tailscale serve 3000", R.SYSTEM),
        ("tailscale set --ssh=false", R.SYSTEM),
        ("python3 -m http.server 8000", R.NETWORK),
        ("python3 -m http.server --bind 0.0.0.0 8000", R.NETWORK),
        ("cd docs && python3 -m http.server 8000", R.NETWORK),
        ("python3 -m http.server 4173 -d dist", R.NETWORK),
    ],
)
def test_everyday_service_uses_keep_their_grade(tmp_path: Path, command: str, grade: RiskLevel) -> None:
    ws = project(tmp_path, {"docs/index.html": "x\n", "dist/index.html": "x\n"})
    assert graded(command, ws)[0] == grade, graded(command, ws)


def test_remote_access_contained_keeps_the_programs_contained_grade(tmp_path: Path) -> None:
    """In the sandbox VM the service opens the VM, which is discarded: the command keeps the contained grade an
    ordinary use of the same program has (kit.host_destructive), as systemctl's other host changes do."""
    ws = project(tmp_path, {})
    for command, ordinary in (
        ("systemctl start smbd", "systemctl start app"),
        ("service xrdp start", "service app start"),
        ("tailscale up", "tailscale down"),
    ):
        contained = classify(command, contained=True, workspace=str(ws)).risk
        assert contained == classify(ordinary, contained=True, workspace=str(ws)).risk < R.DESTRUCTIVE, command
        assert classify(command, contained=False, workspace=str(ws)).risk == R.DESTRUCTIVE, command


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    ws = project(tmp_path, {"README.md": "x\n"})
    git("init", "-q", "-b", "main", cwd=ws)
    git("add", "-A", cwd=ws)
    git("commit", "-qm", "init", cwd=ws)
    return ws


@pytest.mark.parametrize(
    "command",
    [
        "git fetch origin +refs/heads/*:refs/heads/*",
        "git fetch -f origin main:main",
        "git fetch --force origin main:main",
        "git fetch --forc origin refs/heads/main:refs/heads/main",
        "git fetch origin +main:main",
        "git fetch origin +refs/tags/*:refs/tags/*",
        "git fetch -f origin tag v1.0",
        "git fetch --prune --prune-tags",
        "git fetch -pP origin",
        "git fetch --prune origin 'refs/heads/*:refs/heads/*'",
        "git fetch --tags --force",
        "git fetch --force",
        "git pull --force",
        "git pull origin +main:main",
        "git fetch --update-head-ok origin main:main",
        "git fetch -u origin main:main",
        "git fetch --refmap='+refs/heads/*:refs/heads/*' origin main",
        "git reset --hard",
    ],
)
def test_fetches_overwriting_local_branches_or_tags_are_destructive(repo: Path, command: str) -> None:
    risk, reasons = graded(command, repo)
    assert risk == R.DESTRUCTIVE, reasons


@pytest.mark.parametrize(
    "command",
    [
        "git fetch origin",
        "git fetch origin main",
        "git fetch origin main:main",
        "git fetch -f origin main",
        "git fetch --prune",
        "git fetch --all --prune",
        "git fetch --all --tags",
        "git fetch --depth 1 origin main",
        "git fetch origin +refs/heads/*:refs/remotes/origin/*",
        "git fetch origin refs/heads/main:refs/remotes/origin/main",
        "git pull --rebase",
        "git pull --ff-only origin main",
    ],
)
def test_everyday_fetches_stay_network(repo: Path, command: str) -> None:
    risk, reasons = graded(command, repo)
    assert risk == R.NETWORK, reasons


SCRIPTED = {"package.json": '{"name": "p", "version": "1.0.0", "scripts": {"prepack": "node build.js"}}'}
PLAIN = {"package.json": '{"name": "p", "version": "1.0.0", "scripts": {"test": "jest"}}'}
BROKEN = {"package.json": '{"name": '}


@pytest.mark.parametrize("command", ["npm pack", "npm publish --dry-run", "yarn pack", "pnpm pack"])
def test_packing_runs_the_life_cycle_scripts(tmp_path: Path, command: str) -> None:
    """npm-pack(1) runs prepack, prepare and postpack (npm "Scripts": life cycle operation order), as yarn and pnpm
    pack do: a script FlyBot cannot read (``node build.js``) or a package.json it cannot parse is destructive."""
    scripted = project(tmp_path / "a", SCRIPTED)
    risk, reasons = graded(command, scripted)
    assert risk == R.DESTRUCTIVE and any("prepack" in r for r in reasons), reasons
    broken = project(tmp_path / "b", BROKEN)
    assert graded(command, broken)[0] == R.DESTRUCTIVE


@pytest.mark.parametrize(
    ("command", "grade"),
    [("npm pack", R.WORKSPACE_WRITE), ("yarn pack", R.WORKSPACE_WRITE), ("pnpm pack", R.WORKSPACE_WRITE)],
)
def test_packing_without_life_cycle_scripts_is_a_workspace_write(
    tmp_path: Path, command: str, grade: RiskLevel
) -> None:
    ws = project(tmp_path, PLAIN)
    assert graded(command, ws)[0] == grade, graded(command, ws)
