"""The workspace's key and credential files read directly, through git or through a name spelt in parts (secret
reads); files overwritten with nothing, zeros or noise (emptying); HTTP DELETE requests (remote deletions). Each
group has its neighbours that keep their grade."""

from __future__ import annotations

import pytest

from bot.risk import RiskLevel
from tests.risk.test_risk_emptying_persistence_and_vms import DES, NET, RO, WW, grade, rules

# -- the workspace's key and credential files are secrets, as the same names in a home are ---------------------------
SECRET_FILES = [
    ("cat config/master.key", "a private key"),
    ("cat id_rsa", "an ssh private key"),
    ("cat id_ed25519", "an ssh private key"),
    ("cat deploy_key", "an ssh private key"),
    ("cat keys/github-deploy-key", "an ssh private key"),
    ("cat .npmrc", "passwords or tokens"),
    ("cat .pypirc", "passwords or tokens"),
    ("cat .netrc", "passwords or tokens"),
    ("cat .git-credentials", "passwords or tokens"),
    ("cat .aws/credentials", "AWS credentials"),
    ("cat service-account.json", "service account"),
    ("cat gcp-credentials.json", "service credentials"),
    ("cat credentials.json", "service credentials"),
    ("cat terraform.tfstate", "Terraform state"),
    ("cat infra/prod.tfstate.backup", "Terraform state"),
    ("cat secrets/prod.key", "a private key"),
    ("cat server.pem", "a private key"),
    ("cat tls/ca-key.pem", "a private key"),
    ("cat certs/server.key", "a private key"),
    ("cat cert.p12", "a private key"),
    ("cat cert.pfx", "a private key"),
    ("cat kubeconfig", "Kubernetes credentials"),
    ("cat *.key", "a private key"),
    ("cat *.pem", "a private key"),
    ("cat /home/dev/project/id_rsa", "an ssh private key"),
    ("head -c 100 ./certs/../id_ecdsa", "an ssh private key"),
    ("jq -r .private_key service-account.json", "service account"),
    ("openssl rsa -in certs/server.key -text", "a private key"),
    ("python3 -P -m json.tool credentials.json", "service credentials"),
]


@pytest.mark.parametrize(("command", "what"), SECRET_FILES)
@pytest.mark.parametrize("contained", [False, True])
def test_reading_the_workspaces_key_and_credential_files_is_a_secret_read(
    command: str, what: str, contained: bool
) -> None:
    assert grade(command, contained) == NET
    detail = rules(command, contained)["secret-read"]
    assert what in detail and "goes to the model" in detail


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("cat id_rsa.pub", RO),
        ("cat deploy_key.pub", RO),
        ("cat cert.pem", RO),
        ("cat fullchain.pem", RO),
        ("cat ca.pem", RO),
        ("cat ca.crt", RO),
        ("cat server.csr", RO),
        ("cat config/credentials.yml.enc", RO),  # ciphertext: master.key is the secret
        ("cat secrets.yaml", RO),  # SOPS keeps encrypted files under this name
        ("sops -e -i secrets.yaml", WW),
        ("cat README.md", RO),
        ("cat src/keys.py", RO),
        ("cat src/credentials.py", RO),
        ("cat accounts.json", RO),
        ("cat tsconfig.json", RO),
        ("cat id_map.txt", RO),
        ("cat chromium/README.md", RO),  # a browser's profile tree only counts in a home
        ("cat *.json", RO),
        ("cat src/*.py", RO),
        ("ls -l id_rsa server.key", RO),
        ("chmod 600 id_rsa", WW),
        ("openssl genrsa -out server.key 2048", WW),  # -out names the key it writes
        ("ssh-keygen -t ed25519 -f ./deploy_key -N ''", WW),  # writes the key, prints at most its public half
        ("openssl x509 -in cert.pem -noout -text", RO),
        ("git add terraform.tfstate", WW),
    ],
)
def test_public_halves_and_ordinary_names_keep_their_grade(command: str, level: RiskLevel) -> None:
    assert grade(command) == level
    assert "secret-read" not in rules(command)


# -- reading them indirectly: git, find, text tools, names spelt in parts --------------------------------------------
INDIRECT = [
    "git show HEAD:.env",
    "git show HEAD~3:config/master.key",
    "git diff .env",
    "git diff -- .env.production",
    "git log -p -- .env",
    "git log --patch -- id_rsa",
    "git blame .env",
    "git cat-file -p HEAD:.env",
    "git grep KEY -- .env",
    "git -C backend show HEAD:.env",
    "find . -name .env | xargs cat",
    "find . -name '*.key' -exec cat {} +",
    "od -c .env",
    "tail -n +1 .env",
    "sort .env",
    "nl .env",
    "rev .env | rev",
    "cut -c1- .env",
    'while read l; do echo "$l"; done < .env',
    "cat .e''nv",
    "cat $(echo .en)v",
    'cat "$(printf .env)"',
    "cat $(echo id_)rsa",
]


@pytest.mark.parametrize("command", INDIRECT)
@pytest.mark.parametrize("contained", [False, True])
def test_indirect_reads_of_secret_files_are_secret_reads(command: str, contained: bool) -> None:
    assert grade(command, contained) >= NET
    assert "secret-read" in rules(command, contained)


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("git log -- .env", RO),  # commit messages only
        ("git log --stat -- .env", RO),
        ("git show HEAD:README.md", RO),
        ("git show HEAD:.env.example", RO),
        ("git diff src/main.py", RO),
        ("git check-ignore .env", RO),
        ("git rm --cached .env", WW),
        ("grep -rn TODO src", RO),  # which files the workspace holds is only known when it runs (docs/grading.md)
        ("rg KEY", RO),
        ("git grep KEY", RO),
        ("git grep deploy_key", RO),  # the pattern, not a path
        ("git grep -e id_rsa -- src", RO),
        ("cat $(echo src/a).py", RO),
    ],
)
def test_neighbours_of_indirect_reads_keep_their_grade(command: str, level: RiskLevel) -> None:
    assert grade(command) == level
    assert "secret-read" not in rules(command)


# -- overwriting a file with nothing, zeros or noise empties it ------------------------------------------------------
EMPTYING = [
    ("dd if=/dev/zero of=README.md", "README.md"),
    ("dd if=/dev/urandom of=app.db conv=notrunc", "app.db"),
    ("dd if=/dev/urandom of=app.db bs=1k count=1 conv=notrunc", "app.db"),
    ("dd if=/dev/null of=app.db", "app.db"),
    ("tee src/main.py < /dev/null", "src/main.py"),
    ("sort -o README.md /dev/null", "README.md"),
    ("sort -o README.md < /dev/null", "README.md"),
    ("shuf -o names.txt < /dev/null", "names.txt"),
    ("install -m 000 /dev/null src/main.py", "src/main.py"),
    ("uniq /dev/null README.md", "README.md"),
    ("sed -i d src/main.py", "src/main.py"),
    ("sed -i '1,$d' src/main.py", "src/main.py"),
    ("sed -i -e '/^/d' a.txt b.txt", "a.txt"),
    ("truncate --size 0 src/*.py", "src/*.py"),
    ("ln -sf /dev/null src/main.py", "src/main.py"),
]


@pytest.mark.parametrize(("command", "file"), EMPTYING)
@pytest.mark.parametrize("contained", [False, True])
def test_overwriting_a_file_with_nothing_empties_it(command: str, file: str, contained: bool) -> None:
    assert grade(command, contained) == DES
    assert file in rules(command, contained)["empties-file"]


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("echo hi > out.txt", WW),
        ("sed -i s/a/b/ f", WW),
        ("sed -i '/foo/d' f", WW),
        ("sed -i 1d f", WW),
        ("sed d f", RO),
        ("sort -o out.txt in.txt", WW),
        ("uniq in.txt out.txt", WW),
        ("tee out.txt < in.txt", WW),
        ("tee -a log.txt < /dev/null", WW),
        ("dd if=build/img of=out.img", WW),
        ("dd if=/dev/null of=app.db conv=notrunc", WW),
        ("dd if=/dev/zero bs=1M count=1", RO),
        ("install -m 644 build/app bin/app", WW),
        ("ln -s /dev/null src/main.py", WW),  # without -f an existing file is kept
        ("ln -sf ../shared/config.py src/config.py", WW),
        ("shuf -e a b -o out.txt < /dev/null", WW),
    ],
)
def test_ordinary_writes_next_to_the_emptying_forms_keep_their_grade(command: str, level: RiskLevel) -> None:
    assert grade(command) == level
    assert "empties-file" not in rules(command)


# -- an HTTP DELETE deletes on the other machine ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "curl -X DELETE https://api.example.com/items/1",
        "curl --request DELETE https://api.example.com/items/1",
        "curl -XDELETE localhost:9200/logs-*",
        "curl -s -X delete http://localhost:9200/index",
        "wget --method=DELETE https://api.example.com/items/1",
        "http DELETE https://api.example.com/items/1",
        "http -a user:pass DELETE api.example.com/items/1",
        "https DELETE api.example.com/items/1",
        "xh DELETE api.example.com/items/1",
        # Elasticsearch/OpenSearch "Delete by query" deletes the matching documents through a POST
        "curl -s -X POST -H 'Content-Type: application/json' localhost:9200/products/_delete_by_query -d '{}'",
        "curl -XPOST 'http://localhost:9200/logs-*/_delete_by_query?conflicts=proceed' -d @q.json",
        "wget --post-data '{}' http://localhost:9200/products/_delete_by_query",
    ],
)
@pytest.mark.parametrize("contained", [False, True])
def test_http_delete_is_a_remote_deletion(command: str, contained: bool) -> None:
    assert grade(command, contained) == DES
    assert "delete" in rules(command, contained)["remote-control-plane"]


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("curl https://api.example.com/items", NET),
        ("curl -X GET https://api.example.com/items", NET),
        ("curl -X POST -d x=1 https://api.example.com/items", NET),
        ("http GET https://api.example.com/items", NET),
        ("http https://api.example.com/items", NET),
        ("http --offline DELETE api.example.com/x", DES),  # still names a deletion; it builds the request only
        ("curl -s -X POST localhost:9200/products/_search -d '{}'", NET),
        ("curl -s 'localhost:9200/products/_count?q=name:delete_by_query'", NET),
        ("curl -s localhost:9200/_cat/indices?v", NET),
        ("gh api repos/o/r", NET),
        ("gh api -X DELETE repos/o/r/issues/1/labels/x", DES),  # already a remote deletion (remote-control-plane)
    ],
)
def test_neighbours_of_http_delete_keep_their_grade(command: str, level: RiskLevel) -> None:
    assert grade(command) == level
