"""Where downloads, copies and tools' output files land, and secrets read under other spellings: each output path
is graded where it lands (outside the workspace, a control file), its everyday neighbour inside the workspace
keeps its grade; a secret read by any reader goes to the model."""

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

#: (hostile command, least grade, everyday neighbour, its grade)
PLACES = [
    # downloads and copies out of another machine or service
    ("gh release download v1 -D ~/.local/bin", DES, "gh release download v1 -D dist", NET),
    ("gh release download v1 -D .git/hooks", DES, "gh release download v1", NET),
    ("gh release download v1 --dir=.git/hooks", DES, "gh release download v1 --dir=dist", NET),
    ("gh release download v1 -D.claude", DES, "gh release download v1 -Ddist", NET),
    ("gh release download v1 -O ~/.bashrc", DES, "gh release download v1 -O app.tgz", NET),
    ("gh release download v1 --output .venv/bin/python", DES, "gh release download v1 --output app.tgz", NET),
    ("gh run download 123 -D ~/.local/bin", DES, "gh run download 123 -D artifacts", NET),
    ("glab release download v1 -D ~/.local/bin", DES, "glab release download v1 -D dist", NET),
    ("sftp host:f ~/.bashrc", DES, "sftp host:f local.txt", NET),
    ("sftp host:f .git/hooks/pre-commit", DES, "sftp host:f", NET),
    ("sftp -P 2222 host:f ~/.ssh/authorized_keys", DES, "sftp -P 2222 host:f", NET),
    ("sftp sftp://host/f ~/.bashrc", DES, "sftp sftp://host/f local.txt", NET),
    ("sftp -b batch.txt host", DES, "sftp user@host:dir/f", NET),
    ("sftp host <<< 'get f /home/dev/.bashrc'", DES, "sftp host:f out/f", NET),
    ("echo '!id' | sftp host", DES, "sftp sftp://host/dir/f", NET),
    ("sftp host", DES, "sftp host:f", NET),
    ("scp host:f ~/.bashrc", DES, "scp host:f local.txt", NET),
    ("scp host:f .git/hooks/pre-commit", DES, "scp host:f ./dir/", NET),
    ("rsync host:src ~/.ssh/", DES, "rsync -a ./dist/ host:site/", NET),
    ("aws s3 cp s3://x/y ~/.bashrc", DES, "aws s3 cp s3://x/y local.txt", NET),
    ("aws s3 cp s3://x/y .venv/bin/python", DES, "aws s3 cp s3://x/y data/y", NET),
    ("gsutil cp gs://x/y ~/.bashrc", DES, "gsutil cp gs://x/y local.txt", NET),
    ("kubectl cp pod:/x ~/.bashrc", DES, "kubectl cp pod:/x local.txt", SYS),
    ("wget -P ~/.local/bin https://x/y", DES, "wget -P dl https://x/y", NET),
    ("wget -O .claude/settings.json https://x/y", DES, "wget -O out.html https://x/y", NET),
    ("wget --output-document=~/.bashrc https://x/y", DES, "wget --output-document=out.html https://x/y", NET),
    ("curl -o ~/.bashrc https://x/y", DES, "curl -o out.html https://x/y", NET),
    ("curl -O --output-dir ~/.local/bin https://x/y", DES, "curl -O --output-dir dl https://x/y", NET),
    ("curl -O --output-dir .git/hooks https://x/pre-commit", DES, "curl -O https://x/y", NET),
    # tools' output-file options
    ("sort -o /etc/passwd x", DES, "sort -o out.txt x", WW),
    ("sort -o .git/hooks/pre-commit x", DES, "sort -o sorted.txt x", WW),
    ("tee -a ~/.bashrc", DES, "tee -a out.txt", WW),
    ("gcc -o ~/.local/bin/ls x.c", DES, "gcc -o a.out x.c", WW),
    ("go build -o ~/.local/bin/ls .", DES, "go build -o bin/x .", WW),
    ("pip download -d ~/.local/lib x", SYS, "pip download -d dl x", NET),
    ("pip install --target ~/.local/lib/python3/site-packages x", SYS, "pip install --target ./vendor x", NET),
    ("pip install --prefix /usr/local x", DES, "pip install --target vendor x", NET),
    ("pip install --root / x", DES, "pip download x", NET),
    ("npm pack --pack-destination ~/x", SYS, "npm pack --pack-destination ./dist", WW),
    ("cargo build --target-dir ~/.cargo/bin", DES, "cargo build --target-dir target2", WW),
    ("cargo build --out-dir ~/.local/bin -Z unstable-options", DES, "cargo build", WW),
    ("tar -f ~/.bashrc -c x", DES, "tar -cf out.tar x", WW),
    ("tar cf ~/.bashrc x", DES, "tar cf out.tar x", WW),
    ("zip ~/.bashrc x", DES, "zip out.zip x", WW),
    ("openssl genrsa -out ~/.ssh/id_rsa 2048", DES, "openssl genrsa -out key.pem 2048", WW),
    ("ssh-keygen -f ~/.ssh/id_ed25519 -N ''", DES, "ssh-keygen -l -f key.pub", RO),
    ("ssh-keygen -f .git/hooks/pre-commit -N ''", DES, "ssh-keygen -t ed25519 -f deploy_key -N ''", WW),
    ("ssh-keygen -R host -f ~/.ssh/known_hosts", DES, "ssh-keygen -f ./key -N ''", WW),
    ("git bundle create ~/.bashrc HEAD", DES, "git bundle create repo.bundle HEAD", WW),
    ("git bundle create .git/hooks/pre-commit HEAD", DES, "git bundle create out/repo.bundle HEAD", WW),
    ("git archive -o ~/.bashrc HEAD", DES, "git archive -o out.tar HEAD", WW),
    ("pg_dump -f ~/.bashrc db", DES, "pg_dump -f dump.sql db", NET),
    ("sqlite3 ~/.config/x.db 'insert into t values(1)'", DES, "sqlite3 db.sqlite 'create table t(a)'", WW),
    ("dd if=x of=~/.bashrc", DES, "dd if=x of=out.bin", WW),
]


@pytest.mark.parametrize(("hostile", "least", "neighbour", "grade"), PLACES, ids=[p[0] for p in PLACES])
def test_output_lands_where_it_points(hostile: str, least: RiskLevel, neighbour: str, grade: RiskLevel) -> None:
    assert classify(hostile, contained=False, workspace=W).risk >= least
    assert classify(neighbour, contained=False, workspace=W).risk == grade


SECRET_READS = [
    "cat $HOME/.ssh/id_rsa",
    'cat "$HOME/.netrc"',
    "cat ${HOME}/.aws/credentials",
    "cat ~root/.ssh/id_rsa",
    "cat ~bob/.netrc",
    "cat /root/.ssh/id_rsa",
    "cat /home/*/.ssh/id_*",
    "cat ~/.ss?/id_rsa",
    "head -c 9999 ~/.netrc",
    "xxd ~/.pgpass",
    "base64 ~/.docker/config.json",
    "awk 1 ~/.git-credentials",
    "less ~/.ssh/id_rsa",
    "strings ~/.ssh/id_rsa",
    "od -c ~/.ssh/id_rsa",
    "tac ~/.ssh/id_rsa",
    "rev ~/.ssh/id_rsa",
    "nl ~/.ssh/id_rsa",
    "cut -c1- ~/.ssh/id_rsa",
    "grep . ~/.ssh/id_rsa",
    "sed -n p ~/.ssh/id_rsa",
    "diff ~/.ssh/id_rsa /dev/null",
    "cp ~/.ssh/id_rsa ./x",
    "cp ~/.netrc x",
]


@pytest.mark.parametrize("command", SECRET_READS)
def test_secret_reads_in_any_spelling_go_to_the_model(command: str) -> None:
    assessment = classify(command, contained=False, workspace=W)
    assert assessment.risk >= NET
    assert any(r.rule == "secret-read" and "goes to the model" in r.detail for r in assessment.reasons), command


def test_inline_code_reading_a_secret_is_refused() -> None:
    assert classify("python3 -c \"print(open('/root/.netrc').read())\"", contained=False, workspace=W).risk == DES


@pytest.mark.parametrize(
    ("command", "grade"),
    [("cat README.md", RO), ("head -c 100 README.md", RO), ("grep . README.md", RO), ("cp README.md x", WW)],
)
def test_workspace_reads_stay_low(command: str, grade: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=W).risk == grade
