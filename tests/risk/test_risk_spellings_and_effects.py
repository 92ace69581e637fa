"""Spellings and effects the classifier must see through, each with its near-misses:

abbreviated long options (git takes any unique prefix), tunnels that open this machine to another, infrastructure
applies that destroy what the configuration no longer names, the catalogue's ``critical`` effect (stopping services,
taking the machine off the network, turning SELinux off) and its ``reads`` (an option that makes a file an input),
secrets printed by decrypting or listing, copies out of containers, launchd jobs, archives whose names escape, and
monitors, log readers and small file tools that only print."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.programs.catalogue import CatalogueError, compile_entry

R = RiskLevel
RO, WW, NET, SYS, DES = R.READ_ONLY, R.WORKSPACE_WRITE, R.NETWORK, R.SYSTEM, R.DESTRUCTIVE
WORKSPACE = Path("/home/dev/project")


def grade(command: str, *, contained: bool = False) -> RiskLevel:
    return classify(command, contained=contained, workspace=WORKSPACE).risk


def rules(command: str) -> set[str]:
    return {r.rule for r in classify(command, contained=False, workspace=WORKSPACE).reasons}


# (command, host grade, contained grade)
CASES = [
    # git's parse-options takes a unique prefix of a long option (gitcli(7))
    ("git push --forc origin main", DES, DES),
    ("git push origin HEAD --forc", DES, DES),
    ("git push --force-w origin main", DES, DES),
    ("git push --mirr", DES, DES),
    ("git push --del origin old", DES, DES),
    ("git push --pru origin 'refs/heads/*:refs/heads/*'", DES, DES),
    ("git push --dry-run origin main", NET, NET),
    ("git push --porcelain origin main", NET, NET),
    ("git reset --ha HEAD~2", DES, DES),
    ("git reset --soft HEAD~1", WW, WW),
    ("git clean --dry -d", RO, RO),
    ("git clean --forc -d", DES, DES),
    ("git branch --delete --force old", DES, DES),
    ("git switch -f main", DES, DES),
    ("git switch --discard-changes main", DES, DES),
    ("git switch -c topic", WW, WW),
    ("git read-tree --reset -u HEAD", DES, DES),
    ("git read-tree HEAD", WW, WW),
    ("git branch -a", RO, RO),
    ("git branch -r", RO, RO),
    ("git tag -a v1 -m release", WW, WW),
    ("git apply --check fix.patch", RO, RO),
    ("git apply --stat --apply fix.patch", DES, DES),
    ("git send-email --to=dev@example.com 0001.patch", NET, NET),
    ("git send-email --to-cmd=./x 0001.patch", DES, DES),
    # ssh -R / RemoteForward open this machine to the other one; -L and -D reach out
    ("ssh -R 2222:localhost:22 user@example.net -N", DES, SYS),
    ("ssh -o RemoteForward=8080:localhost:80 example.net", DES, SYS),
    ("ssh -L 5432:localhost:5432 bastion", NET, NET),
    ("ssh example.net -D 1080 -N", NET, NET),
    ("ssh -V", RO, RO),
    # rsync -n changes nothing; abbreviated deletion options still delete
    ("rsync -avn --delete src/ mirror/", RO, RO),
    ("rsync -a --dry-run --delete src/ host:dst/", NET, NET),
    ("rsync -n -e 'sh -c id' a host:b", DES, DES),
    ("rsync -a --remove-sou src/ dst/", DES, DES),
    ("rsync -a --delete src/ mirror/", DES, DES),
    # applies destroy what the configuration (which the agent writes) no longer names
    ("terraform apply -auto-approve", DES, DES),
    ("terraform apply plan.out", DES, DES),
    ("tofu apply", DES, DES),
    ("pulumi up --yes", DES, DES),
    ("terraform plan", NET, NET),
    ("terraform import aws_instance.web i-1", SYS, SYS),
    ("pulumi preview", NET, NET),
    ("helm upgrade api ./chart --force", DES, DES),  # replaces resources, as kubectl replace --force
    ("helm rollback api 1 --force", DES, DES),
    ("helm upgrade --install api ./chart", DES, SYS),  # no recipe book: the chart is not read
    # the catalogue's critical effect: destructive on the host, the system grade contained
    ("setenforce 0", DES, SYS),
    ("setenforce Permissive", DES, SYS),
    ("setenforce 1", SYS, SYS),
    ("nmcli networking off", DES, SYS),
    ("nmcli n off", DES, SYS),
    ("nmcli radio wifi off", DES, SYS),
    ("nmcli connection down eth0", DES, SYS),
    ("nmcli device disconnect eth0", DES, SYS),
    ("nmcli networking on", SYS, SYS),
    ("nmcli connection up eth0", SYS, SYS),
    ("nmcli radio wifi", RO, RO),
    ("pg_ctl stop -D data", DES, SYS),
    ("pg_ctl status -D data", RO, RO),
    ("loginctl kill-user bob", DES, SYS),
    ("loginctl list-sessions", RO, RO),
    ("virsh net-destroy default", DES, DES),
    ("virsh net-start default", SYS, SYS),
    # the catalogue's reads: ssh-keygen -l/-y/-F read the -f file; generating still writes it
    ("ssh-keygen -lf ~/.ssh/id_ed25519.pub", RO, RO),
    ("ssh-keygen -l -f deploy_key.pub", RO, RO),
    ("ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519 -N ''", DES, NET),
    # decrypting and some listings print secrets
    ("age -d -i key.txt secrets.age", NET, NET),
    ("age -e -r age1xyz -o secrets.age notes.txt", WW, WW),
    ("getent shadow", NET, NET),
    ("getent -s files shadow root", NET, NET),
    ("getent passwd alice", RO, RO),
    ("nmcli device wifi show-password", NET, NET),
    # copies out of a container or pod land on this machine (docker cp only reads the container: contained, network)
    ("docker cp web:/etc/passwd /etc/passwd", DES, NET),
    ("docker container cp web:/x ~/.vimrc", DES, NET),
    ("kubectl cp api-7c9:/x /etc/x", DES, SYS),
    ("docker cp ./x web:/app/x", SYS, SYS),
    ("kubectl config current-context", RO, RO),
    ("kubectl config view --raw", NET, NET),
    # launchd: loading a job file, running a program, setting every job's environment, stopping services
    ("launchctl load ~/Library/LaunchAgents/com.x.plist", DES, WW),
    ("launchctl bootout gui/501/com.x", DES, WW),
    ("launchctl setenv DYLD_INSERT_LIBRARIES /tmp/x.dylib", DES, WW),
    ("launchctl submit -l x -- /tmp/x", DES, WW),
    ("launchctl kickstart -k gui/501/com.x", SYS, WW),
    ("launchctl list", RO, RO),
    # archives whose member names escape the destination
    ("unzip -: evil.zip -d build", DES, DES),
    ("unzip -o bundle.zip -d build", DES, DES),
    ("unzip -o bundle.zip", DES, DES),
    # variables kept for a command run as root are graded as if assigned
    ("sudo --preserve-env=LD_PRELOAD ls", DES, DES),
    ("sudo --preserve-env=PATH make install", DES, DES),
    ("sudo ls", SYS, WW),
    # trusting a configuration that runs on every cd runs code nobody has seen
    ("mise trust", DES, DES),
    ("mise trust --show", RO, RO),
    ("direnv allow", DES, DES),
    ("direnv status", RO, RO),
    # monitors, log readers and file tools
    ("journalctl -u nginx --since today", RO, RO),
    ("journalctl --vacuum-time=1d", DES, DES),
    ("dmesg", RO, RO),
    ("dmesg -C", DES, DES),
    ("top -bn1", RO, RO),
    ("vmstat 1 3", RO, RO),
    ("pidof nginx", RO, RO),
    ("uuidgen", RO, RO),
    ("last -n 5", RO, RO),
    ("renice 10 -p 4242", SYS, SYS),
    ("split -l 1000 big.csv chunk_", WW, WW),
    ("split -b 1k key.pub ~/.ssh/authorized_keys", DES, WW),
    ("split --filter='sh -c id' big.csv", DES, DES),
    ("iconv -f latin1 -t utf-8 old.txt", RO, RO),
    ("iconv -f latin1 -o /etc/motd old.txt", DES, WW),
    ("iconv -t utf-8 ~/.netrc", NET, NET),
    ("xmllint --noout pom.xml", RO, RO),
    ("xmllint --shell pom.xml", DES, DES),
    ("sponge /etc/hosts", DES, WW),
    ("entr rm -rf src", DES, DES),
    ("coverage html", WW, WW),
    ("coverage erase", DES, DES),
    ("twine check dist/*", RO, RO),
    ("twine upload dist/*", NET, NET),
    ("fly status", NET, NET),
    ("ssh-keyscan github.com", NET, NET),
    ("ssh-add -l", RO, RO),
    ("ssh-add", SYS, WW),
    ("bundle -v", RO, RO),
    ("node --check src/index.js", RO, RO),
    ("node --check -r ./x.js src/index.js", DES, DES),
    ("curl --version", RO, RO),
    ("dune build", WW, WW),
    ("dune clean", DES, DES),
    ("lein test", WW, WW),
    ("elm make src/Main.elm --output=/etc/x.js", DES, WW),
    ("stylelint 'src/**/*.css'", WW, WW),
    ("pdftoppm -png report.pdf page", WW, WW),
    ("pdftoppm -png report.pdf /etc/page", DES, WW),
]


@pytest.mark.parametrize(("command", "host", "contained"), CASES, ids=[c[0][:60] for c in CASES])
def test_grade_on_the_host_and_contained(command: str, host: RiskLevel, contained: RiskLevel) -> None:
    assert (grade(command), grade(command, contained=True)) == (host, contained)


def test_reasons_name_what_the_command_does() -> None:
    assert "inbound-tunnel" in rules("ssh -R 2222:localhost:22 user@example.net -N")
    assert "host-critical" in rules("setenforce 0")
    assert "secret-read" in rules("age -d -i key.txt secrets.age")
    assert "secret-read" in rules("getent gshadow")
    assert "remote-history-loss" in rules("git push --forc origin main")
    assert "env-hijack" in rules("sudo --preserve-env=LD_PRELOAD ls")
    assert "makes-public" in rules("gh repo edit o/r --visibility public")


def test_a_when_reads_names_only_listed_options() -> None:
    compile_entry("x", {"source": "x", "grade": "home", "options": "-f=out -l", "when": {"-l": {"reads": "-f"}}})
    with pytest.raises(CatalogueError, match="reads -o"):
        compile_entry("x", {"source": "x", "grade": "home", "options": "-f=out -l", "when": {"-l": {"reads": "-o"}}})
