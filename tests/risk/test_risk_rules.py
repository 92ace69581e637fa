"""Every base grading rule (docs/grading.md), graded on the host and contained (both directions of each rule)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE

WORKSPACE = Path("/home/dev/project")

# (command, grade on the host, grade contained)
CASES: list[tuple[str, RiskLevel, RiskLevel]] = [
    # --- the issue's own examples
    ("chmod +x run.sh", WW, WW),
    ("echo hi > /etc/hosts", DES, WW),
    ("rm -rf src", DES, DES),
    ("git -C repo push", NET, NET),
    ("sudo apt-get install -y jq", SYS, NET),
    ("sudo rm -rf /", DES, DES),
    ("ls && rm -rf src", DES, DES),
    ("ls > /dev/null", RO, RO),
    ("echo 'rm -rf /'", RO, RO),
    ("curl x | sh", DES, DES),
    ("$cmd", DES, DES),
    ("'r'm -rf x", DES, DES),
    ("./cat", DES, DES),
    ("bash -c 'ls'", RO, RO),
    ("python -c 'print(1)'", DES, DES),
    ("find . -delete", DES, DES),
    ("find . -name x -exec rm {} +", DES, DES),
    ("xargs rm", DES, DES),
    ("kubectl get pods", NET, NET),
    ("timeout 5 curl x", NET, NET),
    ("mkdir /opt/thing", SYS, WW),
    # --- read-only tools and constructs
    ("ls -la", RO, RO),
    ("cat README.md | head -20", RO, RO),
    ("grep -rn TODO src | wc -l", RO, RO),
    ("case $x in a) ls;; *) pwd;; esac", RO, RO),
    ("[[ -f x && -n $y ]] && echo yes", RO, RO),
    ("echo $(( 1 + 2 ))", RO, RO),
    ("if [ -d src ]; then ls src; else pwd; fi", RO, RO),
    ('for f in *.py; do wc -l "$f"; done', RO, RO),
    ('while read -r line; do echo "$line"; done < input.txt', RO, RO),
    ("{ ls; pwd; }", RO, RO),
    ("(cd src && ls)", RO, RO),
    ("ls 2>&1 | tee /dev/null", RO, RO),
    ("echo hi >&2", RO, RO),
    ("echo hi > /dev/stderr", RO, RO),
    ("git status", RO, RO),
    ("git log --oneline -n 5", RO, RO),
    ("git diff HEAD~1 -- src", RO, RO),
    ("sed -n '1,20p' file.txt", RO, RO),
    ("awk '{print $1}' file.txt", RO, RO),
    ("jq '.name' package.json", RO, RO),
    ("find . -name '*.py' -type f", RO, RO),
    ("\\ls", RO, RO),
    ("$'\\x6c\\x73' -l", RO, RO),
    ('"l"s', RO, RO),
    ("/usr/bin/ls -la", RO, RO),
    ("cat <<'EOF'\n$(rm -rf /)\nEOF", RO, RO),
    ("x=1; echo $x", RO, RO),
    ("export LANG=C && env | sort", NET, NET),
    ("export FOO=bar && env | sort", DES, DES),  # sort runs with FOO, a name not known to be inert
    ("command -v git", RO, RO),
    ("xargs", RO, RO),
    ("true && true", RO, RO),
    # --- workspace writes (never raised by containment, never above workspace_write)
    ("echo hi > out.txt", WW, WW),
    ("echo hi >> logs/app.log", WW, WW),
    ("echo hi > /tmp/x", WW, WW),
    ('echo hi > "$TMPDIR/x"', WW, WW),
    ("touch a.txt b.txt", WW, WW),
    ("mkdir -p build/out", WW, WW),
    ("cp src/a.py src/b.py", WW, WW),
    ("mv a.py b.py", WW, WW),
    ("ln -s ../shared/config.json config.json", SYS, WW),
    ("ln -s shared/config.json config.json", WW, WW),
    ("tee out.txt < in.txt", WW, WW),
    ("sed -i 's/a/b/' src/app.py", WW, WW),
    ("sort -o sorted.txt in.txt", WW, WW),
    ("dd if=in.bin of=out.bin", WW, WW),
    ("tar -xzf archive.tar.gz -C build", DES, DES),
    ("tar -xzf archive.tar.gz", DES, DES),
    ("tar -czf out.tar.gz src", WW, WW),
    ("git add -A && git commit -m 'msg'", WW, WW),
    ("git switch -c feature", WW, WW),
    ("git diff --output=patch.diff", WW, WW),
    ("npm test", WW, WW),
    ("npm run build", WW, WW),
    ("pytest -q tests/", WW, WW),
    ("python -m pytest -x", WW, WW),
    ("cargo build --release", WW, WW),
    ("cargo test", WW, WW),
    ("go build ./...", WW, WW),
    ("go test ./...", WW, WW),
    ("make -j4", WW, WW),
    ("cd src && echo hi > ../notes.txt", WW, WW),
    ("find . -name '*.log' -fprint list.txt", WW, WW),
    # --- writes outside the workspace: system on the host, downgraded contained
    ("echo hi > ~/.bashrc", DES, WW),
    ("echo hi > ../outside.txt", DES, WW),
    ("cd .. && echo hi > x", DES, WW),
    ("cp app /usr/local/bin/", DES, WW),
    ("tee -a /etc/profile < x", DES, WW),
    ("touch /etc/motd", DES, WW),
    ("sed -i 's/a/b/' /etc/hosts", DES, WW),
    ("install -m 755 app /usr/local/bin/app", DES, WW),
    ("dd if=x of=/etc/x", DES, WW),
    ("git diff --output=/etc/patch", DES, WW),
    ("make install", SYS, WW),
    ("echo hi > $OUT", DES, WW),  # a target only known when it runs may be /etc/hosts
    ("find / -fprint /etc/list", DES, WW),
    # --- system commands: downgraded only when in the allowlist
    ("systemctl restart nginx", SYS, WW),
    ("service nginx reload", SYS, WW),
    ("apt-get update", SYS, NET),
    ("brew install jq", SYS, NET),
    ("crontab -l", RO, RO),  # a query
    ("mount /dev/sdb1 /mnt", DES, WW),  # hostchanges.py: every mount on the host
    ("iptables -L", RO, RO),  # a query
    ("reboot", DES, WW),
    ("kill 1234", SYS, SYS),
    ("useradd bob", DES, SYS),
    ("sysctl -w net.ipv4.ip_forward=1", DES, SYS),
    ("date -s '2020-01-01'", SYS, SYS),
    ("sudo ls", SYS, WW),
    ("sudo -u postgres psql", DES, DES),
    ("sudo -E -u root apt-get install -y jq", SYS, NET),
    ("sudo kill 1", DES, SYS),
    ("sudo curl x", SYS, NET),
    # --- deletion: destructive everywhere, any flag spelling
    ("rm -fr build", DES, DES),
    ("rm --recursive --force build", DES, DES),
    ("rm build -f", DES, DES),
    ("rmdir empty", WW, WW),  # rmdir removes only empty directories
    ("unlink a", DES, DES),
    ("shred secret.txt", DES, DES),
    ("git clean -fdx", DES, DES),
    ("git rm file.txt", DES, DES),
    ("git reset --hard HEAD~1", DES, DES),
    ("git checkout -- src/app.py", DES, DES),
    ("rsync -a --delete src/ backup/", DES, DES),
    ("kubectl delete pod x", DES, DES),
    ("terraform destroy", DES, DES),
    ("terraform apply -destroy", DES, DES),
    ("helm uninstall release", DES, DES),
    ("ls | xargs rm -f", DES, DES),
    ("find . -name '*.tmp' -exec rm -f {} \\;", DES, DES),
    ("make clean", DES, DES),
    ("cargo clean", DES, DES),
    ("mv src/app.py /tmp/", DES, DES),
    ("dd if=/dev/zero of=/dev/sda", DES, DES),
    ("echo x > .git/hooks/pre-commit", DES, DES),
    ("mkfs.ext4 /dev/sdb1", DES, DES),
    # --- network: at least network wherever it runs
    ("curl https://example.com", NET, NET),
    ("curl -o page.html https://example.com", NET, NET),
    ("curl -o /etc/page https://example.com", DES, NET),
    ("wget https://example.com/f.tgz", NET, NET),
    ("ssh host", NET, NET),
    ("ssh host ls", NET, NET),
    ("ssh host rm -rf /tmp/x", DES, DES),
    ("scp host:file .", NET, NET),
    ("sftp host:file", NET, NET),
    ("sftp host", DES, DES),  # its commands come from standard input: ! runs local commands
    ("rsync -a src/ host:/srv/app/", NET, NET),
    ("nc example.com 80", NET, NET),
    ("git push", NET, NET),
    ("git pull", NET, NET),
    ("git fetch origin", NET, NET),
    ("git clone https://example.com/repo.git", NET, NET),
    ("git remote update", NET, NET),
    ("git ls-remote origin", NET, NET),
    ("git submodule update --init", NET, NET),
    ("env LANG=C git push", NET, NET),
    ("env GIT_TRACE=1 git push", DES, DES),  # GIT_TRACE=/path writes a trace file (git(1))
    ("npm install", NET, NET),
    ("npm install -g typescript", SYS, NET),
    ("pip install requests", NET, NET),
    ("git push --force origin main", DES, DES),
    ("git push origin :feature", DES, DES),
    # --- remote control planes: at least network, never downgraded
    # no recipe book: the manifest or chart is not read (bot/risk/manifests.py), destructive on the host
    ("kubectl apply -f deploy.yaml", DES, SYS),
    # docker reads of the local engine's state (docker CLI reference; programs/control.py _DOCKER_LOCAL_READS)
    ("docker ps", RO, RO),
    ("docker --version", RO, RO),
    ("docker version", RO, RO),
    ("docker info", RO, RO),
    ("docker logs --tail 50 web", RO, RO),
    ("docker images", RO, RO),
    ("docker inspect web", NET, NET),  # Config.Env: the container's environment, secrets too
    ("docker inspect -f '{{.Config.Env}}' db", NET, NET),
    ("docker top web", RO, RO),
    ("docker container ls -a", RO, RO),
    ("podman ps", RO, RO),
    ("docker -H ssh://prod ps", NET, NET),
    ("docker --context prod logs web", NET, NET),
    ("podman --remote ps", NET, NET),
    ("docker search nginx", NET, NET),
    ("docker stats", NET, NET),
    ("docker pull alpine", SYS, SYS),
    ("docker run --rm alpine ls", SYS, SYS),
    ("docker rm -f web", DES, DES),
    ("docker system prune -af", DES, DES),
    ("helm list", NET, NET),
    ("helm install r chart", DES, SYS),
    ("terraform plan", NET, NET),
    ("terraform apply -auto-approve", DES, DES),  # apply destroys what the configuration no longer names
    ("terraform import aws_instance.web i-1", SYS, SYS),
    # --- names: only literal, known programs
    ("nosuchprogram --flag", DES, DES),
    ("/tmp/x/cat file", DES, DES),
    ("../bin/tool", DES, DES),
    ("${TOOL} build", DES, DES),
    ("$(echo ls)", DES, DES),
    ("{r,}m -rf x", DES, DES),
    ("l? file", DES, DES),
    ("f() { ls; }; f", DES, DES),
    ("ls() { rm -rf /; }", DES, DES),
    ("ls() { pwd; }; ls", DES, DES),
    # --- wrappers are unwrapped and what they run is graded
    ("env -i LC_ALL=C ls", RO, RO),
    ("env -i FOO=1 ls", DES, DES),  # only inert names are known not to change what a program does
    ("env -u HOME -- ls", RO, RO),
    ("TZ=UTC LANG=C ls", RO, RO),
    ("FOO=1 BAR=2 ls", DES, DES),
    ("timeout -s KILL 5 rm -rf x", DES, DES),
    ("nice -n 10 make", WW, WW),
    ("nohup curl x &", NET, NET),
    ("stdbuf -oL grep x file", RO, RO),
    ("time ls", RO, RO),
    ("time cd /etc; echo x > passwd", DES, WW),  # bash's time keyword runs cd in this shell
    ("time -p cd ~/.ssh; echo key >> authorized_keys", DES, NET),
    ("time pushd /etc; cp x sudoers", DES, WW),
    ("time cd src; echo x > notes.txt", WW, WW),
    ("/usr/bin/time cd /etc; echo x > passwd", WW, WW),  # time(1) runs cd as a child: it changes nothing here
    ("command ls", RO, RO),
    ("builtin cd src", RO, RO),
    ("exec ls", RO, RO),
    ("exec > log.txt", WW, WW),
    ("xargs -0 -n1 grep foo", RO, RO),
    ("xargs -I{} cp {} /etc/", DES, WW),
    ("find . -type f -name '*.py' -exec grep -l foo {} +", RO, RO),
    ("find . -type f -exec grep -l foo {} +", NET, NET),  # .git/config and .env among them, as grep -rl foo .
    ("find . -execdir sed -i s/a/b/ {} \\;", WW, WW),  # {} below "." is inside the workspace
    ("find . -exec rm {}", DES, DES),
    ("env chmod +x run.sh", WW, WW),
    ("timeout 5 sudo apt-get install jq", SYS, NET),
    # --- shells, eval and interpreters
    ("bash -c 'rm -rf x'", DES, DES),
    ('sh -c "echo hi > /etc/x"', DES, WW),
    ("bash -lc 'npm test'", WW, WW),
    ("eval 'ls -la'", RO, RO),
    ('eval "$CMD"', DES, DES),
    ('bash -c "$CMD"', DES, DES),
    ("bash script.sh", DES, DES),
    ("bash < script.sh", DES, DES),
    ("sh", DES, DES),
    ("source venv/bin/activate", DES, DES),
    ("node -e 'console.log(1)'", DES, DES),
    ("perl -e 'print 1'", DES, DES),
    ("ruby -e 'puts 1'", DES, DES),
    ("python3 script.py", DES, DES),
    ("python3 --version", RO, RO),
    ("trap 'rm -f /tmp/x' EXIT", DES, DES),
    ("bash -c 'bash -c \"ls\"'", RO, RO),
    # --- parse errors and unknown constructs fail closed
    ("", DES, DES),
    ("   \n\t ", DES, DES),
    ("# just a comment", DES, DES),
    ("ls (", DES, DES),
    ("if true; then", DES, DES),
    ("echo 'unterminated", DES, DES),
    ("ls ;; pwd", DES, DES),
    # --- variables that hijack what runs
    ("PATH=/tmp/evil:$PATH ls", DES, DES),
    ("export PATH=/tmp/x", DES, DES),
    ("LD_PRELOAD=/tmp/x.so ls", DES, DES),
    ("env PATH=/tmp ls", DES, DES),
    ("x='$(rm -rf /)'; echo $((x))", DES, DES),
    ("test -v 'a[$(rm -rf /)]'", DES, DES),
    ("git -c core.sshCommand='rm -rf /' fetch", DES, DES),
    ("git -c user.name=bot commit -m x", WW, WW),
    ("git config core.fsmonitor 'rm -rf /'", DES, DES),
    ("git config user.email a@b.c", WW, WW),
    ("git config --global user.email a@b.c", SYS, WW),
    ("git config --get user.email", RO, RO),
    # --- words only known at run time: an unknown word may be an option; an unquoted one may split
    ('git commit -m "$MSG"', WW, WW),
    ('git push origin "$BRANCH"', DES, DES),
    ('git diff "$REF"', SYS, WW),
    ("git -C $DIR status", DES, DES),
    ('ssh "$HOST" uptime', DES, DES),
    ('curl "$URL"', SYS, NET),
    ('cp "$SRC" dest/', SYS, WW),
    ('rg "$PATTERN" src', DES, DES),
    ('cat "$FILE" $OTHER', RO, RO),
    ('grep -rn "$p" src', RO, RO),
    ("timeout $T ls", DES, DES),
    ("env $VARS ls", DES, DES),
    ("find . -name $X", DES, DES),
    ('find . -name "$X" -print', RO, RO),
    ("find . -name '*.py' -exec sed -i s/a/b/ {} +", WW, WW),
    ("read -r line < f", RO, RO),
    ("read PATH < f", DES, DES),
    ("read $NAME < f", DES, DES),
    ("printf -v PATH %s /tmp", DES, DES),
    ("mapfile -C 'rm -rf /' -c 1 arr < f", DES, DES),
    ('export "$NAME=1"', DES, DES),
    # --- sed/awk programs
    ("sed 's/a/b/w /etc/x' f", DES, WW),
    ("sed '1e rm -rf /' f", DES, DES),
    ('sed "s/$a/$b/" f', DES, DES),
    ("awk 'BEGIN { system(\"rm -rf /\") }'", DES, DES),
    ("awk '{ print > \"/etc/x\" }' f", DES, WW),  # replaces a file in /etc, as > /etc/x
    ("awk '{ print >> \"notes.txt\" }' f", WW, WW),
    ("awk '{ print > $1 \".txt\" }' f", DES, WW),  # a name only known when it runs, as > $OUT
    ("awk '$3 > 10 { n++ } END { print n }' f", RO, RO),  # a comparison, not a redirect
    ("awk '{ print ($1 > 2) }' f", RO, RO),
]


@pytest.mark.parametrize(("command", "host", "contained"), CASES, ids=[c[0][:60] for c in CASES])
def test_grade_on_host_and_contained(command: str, host: RiskLevel, contained: RiskLevel) -> None:
    on_host = classify(command, contained=False, workspace=WORKSPACE)
    in_vm = classify(command, contained=True, workspace=WORKSPACE)
    assert (on_host.risk, in_vm.risk) == (host, contained), (on_host.reasons, in_vm.reasons)


def test_downgraded_reasons_are_marked_and_host_reasons_are_not() -> None:
    in_vm = classify("service nginx restart", contained=True, workspace=WORKSPACE)
    on_host = classify("service nginx restart", contained=False, workspace=WORKSPACE)
    assert [r.downgraded for r in in_vm.reasons] == [True]
    assert [r.downgraded for r in on_host.reasons] == [False]
    assert in_vm.contained is True and on_host.contained is False


def test_deletion_network_and_control_planes_are_never_marked_downgraded() -> None:
    for command in ("rm -rf src", "curl x", "git push", "kubectl get pods", "docker run alpine"):
        in_vm = classify(command, contained=True, workspace=WORKSPACE)
        assert not any(r.downgraded for r in in_vm.reasons), command


def test_workspace_none_treats_relative_paths_as_inside() -> None:
    assert classify("echo hi > out.txt", contained=False).risk == WW
    assert classify("echo hi >> ../out.txt", contained=False).risk == SYS
    assert classify("echo hi >> ~/out.txt", contained=False).risk == SYS
    assert classify("echo hi >> /home/dev/project/out.txt", contained=False).risk == SYS
    assert classify("echo hi > ../out.txt", contained=False).risk == DES  # replaces a file outside
    assert classify("echo hi > /tmp/out.txt", contained=False).risk == WW


def test_absolute_path_inside_the_workspace_is_a_workspace_write() -> None:
    assert classify("echo hi > /home/dev/project/out.txt", contained=False, workspace=WORKSPACE).risk == WW
    assert classify("echo hi >> /home/dev/project/../x", contained=False, workspace=WORKSPACE).risk == SYS
    assert classify("echo hi >> /home/dev/projectile/x", contained=False, workspace=WORKSPACE).risk == SYS


def test_cd_that_may_fail_keeps_the_old_directory_as_a_candidate() -> None:
    assert classify("cd src; echo hi >> ../x", contained=False, workspace=WORKSPACE).risk == SYS
    assert classify("cd src && echo hi >> ../x", contained=False, workspace=WORKSPACE).risk == WW
    assert classify("(cd src) && echo hi >> ../x", contained=False, workspace=WORKSPACE).risk == SYS
    assert classify("env cd src && echo hi >> ../x", contained=False, workspace=WORKSPACE).risk == SYS


def test_cd_inside_a_loop_makes_the_directory_unknown() -> None:
    script = "for i in 1 2 3; do cd ..; done; echo hi >> x"
    assert classify(script, contained=False, workspace=WORKSPACE).risk == SYS


def test_cd_to_an_unknown_place_makes_relative_writes_outside() -> None:
    assert classify("cd $DIR && touch x", contained=False, workspace=WORKSPACE).risk == SYS
    assert classify("cd && touch x", contained=False, workspace=WORKSPACE).risk == SYS
    assert classify("cd /tmp && touch x", contained=False, workspace=WORKSPACE).risk == WW


def test_too_deeply_nested_scripts_fail_closed() -> None:
    script = "echo " + "$(echo " * 600 + "x" + ")" * 600
    assessment = classify(script, contained=False)
    assert assessment.risk == DES
    assert assessment.reasons[0].rule in ("too-deep", "internal-error")
    assert classify("eval " * 5 + "ls", contained=False).risk == RO
    assert classify("eval " * 40 + "ls", contained=False).reasons[0].rule == "too-deep"
    assert classify("bash -c " + shlex.quote("bash -c " + shlex.quote("ls")), contained=False).risk == RO


def test_non_string_input_fails_closed() -> None:
    assert classify(None, contained=False).risk == DES  # type: ignore[arg-type]
    assert classify("ls\x00", contained=False).risk == DES
    assert classify("ls \ud800", contained=False).risk == DES


def test_classify_is_safe_to_call_from_threads() -> None:
    from concurrent.futures import ThreadPoolExecutor

    commands = ["ls && git push | tee /tmp/x", "rm -rf build", "echo hi > /etc/hosts"] * 100
    with ThreadPoolExecutor(max_workers=4) as pool:
        risks = list(pool.map(lambda c: classify(c, contained=False).risk, commands))
    assert risks == [NET, DES, DES] * 100


def test_requires_approval_is_risk_above_ceiling() -> None:
    from bot.risk import requires_approval

    assert requires_approval(SYS, WW)
    assert not requires_approval(WW, WW)
    assert not requires_approval(RO, NET)
