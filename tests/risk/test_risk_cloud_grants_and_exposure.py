"""Grants of full control, exposure to everyone and audit turned off on a cloud account, a forge, a cluster, a
secret store or a database server: destructive (privilege-grant, makes-public, audit-off), on the host and
contained. Their neighbours with a narrow role, a private ACL or an internal range stay a remote change (system)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import ProjectRecipes

SYS = RiskLevel.SYSTEM
NET = RiskLevel.NETWORK
DES = RiskLevel.DESTRUCTIVE


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    return root


def graded(command: str, workspace: Path, contained: bool = False) -> tuple[RiskLevel, set[str]]:
    found = classify(command, contained=contained, workspace=workspace, recipes=ProjectRecipes(workspace))
    return found.risk, {r.rule for r in found.reasons}


_POLICY_ALL = """'{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}'"""
_POLICY_ONE = """'{"Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"*"}]}'"""
_BUCKET_ANYONE = """'{"Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject"}]}'"""
_BUCKET_ROLE = """'{"Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::1:role/r"},"Action":"s3:*"}]}'"""


@pytest.mark.parametrize(
    ("command", "rule", "neighbour", "neighbour_level"),
    [
        (
            "aws iam attach-user-policy --user-name bot --policy-arn arn:aws:iam::aws:policy/AdministratorAccess",
            "privilege-grant",
            "aws iam attach-user-policy --user-name bot --policy-arn arn:aws:iam::aws:policy/ReadOnlyAccess",
            SYS,
        ),
        (
            "aws iam create-user --user-name backdoor && aws iam attach-role-policy --role-name r "
            "--policy-arn=arn:aws:iam::aws:policy/IAMFullAccess",
            "privilege-grant",
            "aws iam create-user --user-name backdoor",
            SYS,
        ),
        (
            f"aws iam put-user-policy --user-name b --policy-name p --policy-document {_POLICY_ALL}",
            "privilege-grant",
            f"aws iam put-user-policy --user-name b --policy-name p --policy-document {_POLICY_ONE}",
            SYS,
        ),
        (
            "aws iam create-login-profile --user-name bot --password 'X1!x'",
            "privilege-grant",
            "aws iam create-group --group-name devs",
            SYS,
        ),
        (
            "aws s3api put-bucket-acl --bucket acme-private --acl public-read",
            "makes-public",
            "aws s3api put-bucket-acl --bucket acme-private --acl private",
            SYS,
        ),
        (
            "aws s3 cp dist/ s3://acme-site/ --recursive --acl public-read",
            "makes-public",
            "aws s3 cp dist/ s3://acme-site/ --recursive",
            SYS,
        ),
        (
            "aws s3api put-object-acl --bucket b --key k --grant-read uri=http://acs.amazonaws.com/groups/global/AllUsers",
            "makes-public",
            "aws s3api put-object-acl --bucket b --key k --grant-read id=abc123",
            SYS,
        ),
        (
            f"aws s3api put-bucket-policy --bucket b --policy {_BUCKET_ANYONE}",
            "makes-public",
            f"aws s3api put-bucket-policy --bucket b --policy {_BUCKET_ROLE}",
            SYS,
        ),
        (
            "aws s3api put-public-access-block --bucket acme-private --public-access-block-configuration "
            "BlockPublicAcls=false,IgnorePublicAcls=false,BlockPublicPolicy=false,RestrictPublicBuckets=false",
            "makes-public",
            "aws s3api put-public-access-block --bucket acme-private --public-access-block-configuration "
            "BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,RestrictPublicBuckets=true",
            SYS,
        ),
        (
            "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 0.0.0.0/0",
            "makes-public",
            "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 10.0.0.0/8",
            SYS,
        ),
        (
            "aws ec2 authorize-security-group-ingress --group-id sg-1 "
            "--ip-permissions 'IpProtocol=tcp,FromPort=22,ToPort=22,Ipv6Ranges=[{CidrIpv6=::/0}]'",
            "makes-public",
            "aws ec2 authorize-security-group-ingress --group-id sg-1 "
            "--ip-permissions 'IpProtocol=tcp,FromPort=22,ToPort=22,IpRanges=[{CidrIp=10.1.0.0/16}]'",
            SYS,
        ),
        ("aws cloudtrail stop-logging --name main", "audit-off", "aws cloudtrail start-logging --name main", SYS),
        (
            "gcloud projects add-iam-policy-binding acme --member=user:evil@example.com --role=roles/owner",
            "privilege-grant",
            "gcloud projects add-iam-policy-binding acme --member=user:dev@example.com --role=roles/viewer",
            SYS,
        ),
        (
            "gcloud projects add-iam-policy-binding acme --member user:evil@example.com --role roles/editor",
            "privilege-grant",
            "gcloud projects add-iam-policy-binding acme --member user:dev@example.com --role roles/logging.viewer",
            SYS,
        ),
        (
            "gcloud storage buckets add-iam-policy-binding gs://b --member=allUsers --role=roles/storage.objectViewer",
            "makes-public",
            "gcloud storage buckets add-iam-policy-binding gs://b --member=group:eng@example.com "
            "--role=roles/storage.objectViewer",
            SYS,
        ),
        (
            "gcloud compute firewall-rules create allow-all --allow=all --source-ranges=0.0.0.0/0",
            "makes-public",
            "gcloud compute firewall-rules create allow-vpc --allow=tcp:22 --source-ranges=10.128.0.0/9",
            SYS,
        ),
        (
            "gsutil iam ch allUsers:objectViewer gs://acme-private",
            "makes-public",
            "gsutil iam ch user:bob@example.com:objectViewer gs://acme-private",
            SYS,
        ),
        ("gsutil acl set public-read gs://b", "makes-public", "gsutil acl set private gs://b", SYS),
        (
            "az role assignment create --assignee evil@example.com --role Owner",
            "privilege-grant",
            "az role assignment create --assignee dev@example.com --role Reader",
            SYS,
        ),
        (
            "az role assignment create --assignee evil@example.com --role 'User Access Administrator'",
            "privilege-grant",
            "az role assignment create --assignee dev@example.com --role 'Storage Blob Data Reader'",
            SYS,
        ),
        (
            "az storage container set-permission --name c --public-access blob",
            "makes-public",
            "az storage container set-permission --name c --public-access off",
            SYS,
        ),
        (
            "az network nsg rule create -g g --nsg-name n -n r --priority 100 --source-address-prefixes '*' "
            "--destination-port-ranges 22",
            "makes-public",
            "az network nsg rule create -g g --nsg-name n -n r --priority 100 --source-address-prefixes 10.0.0.0/8 "
            "--destination-port-ranges 22",
            SYS,
        ),
        (
            "gh api -X PUT repos/acme/app/collaborators/evil -f permission=admin",
            "privilege-grant",
            "gh api -X PUT repos/acme/app/collaborators/friend -f permission=push",
            SYS,
        ),
        (
            "gh api -X PATCH repos/acme/app -f visibility=public",
            "makes-public",
            "gh api -X PATCH repos/acme/app -f visibility=private",
            SYS,
        ),
        (
            "kubectl create rolebinding x --clusterrole=admin --user=evil -n prod",
            "privilege-grant",
            "kubectl create rolebinding x --clusterrole=view --user=dev -n prod",
            SYS,
        ),
        ("vault token create -policy=root", "privilege-grant", "vault token create -policy=ci", NET),
        ("vault token create -policy ci -policy root", "privilege-grant", "vault token create -ttl=1h", NET),
        (
            """mongosh --eval 'db.createUser({user:"x",pwd:"y",roles:["root"]})'""",
            "privilege-grant",
            """mongosh --eval 'db.createUser({user:"x",pwd:"y",roles:["read"]})'""",
            SYS,
        ),
        (
            "terraform state push -force local.tfstate",
            "remote-control-plane",
            "terraform state push local.tfstate",
            SYS,
        ),
    ],
)
def test_grants_and_exposure_are_destructive_their_neighbours_are_not(
    workspace: Path, command: str, rule: str, neighbour: str, neighbour_level: RiskLevel
) -> None:
    for contained in (False, True):
        level, found = graded(command, workspace, contained)
        assert level is DES and rule in found, (command, contained, found)
    level, found = graded(neighbour, workspace)
    assert level is neighbour_level, (neighbour, found)
    assert not found & {"privilege-grant", "makes-public", "audit-off"}, (neighbour, found)


@pytest.mark.parametrize(
    "command",
    [
        'aws iam attach-user-policy --user-name bot --policy-arn "$ARN"',
        'gcloud projects add-iam-policy-binding acme --member=user:x@example.com --role="$ROLE"',
        'az role assignment create --assignee x@example.com --role "$ROLE"',
        'aws s3api put-bucket-acl --bucket b --acl "$ACL"',
        'vault token create -policy="$P"',
    ],
)
def test_a_role_or_acl_only_known_when_it_runs_counts_as_the_widest(workspace: Path, command: str) -> None:
    assert graded(command, workspace)[0] is DES


def test_a_get_with_a_visibility_field_only_queries(workspace: Path) -> None:
    # gh api -X GET sends -f fields as query parameters: no grant, whatever else the method decides.
    assert "makes-public" not in graded("gh api -X GET search/repositories -f visibility=public", workspace)[1]


def test_a_policy_document_from_a_file_is_read_and_an_unread_one_counts_as_public(workspace: Path) -> None:
    """AWS CLI ``file://PATH`` (also ``fileb://``) loads a parameter from a file: the adapter reads a workspace file
    and sends what it found, so the server grades alike; a file it cannot read (outside the workspace, missing,
    written earlier in the same command, not reported) is graded as the public document (fail closed)."""
    from bot.risk.recipes import GivenRecipes

    (workspace / "sub").mkdir()
    (workspace / "public.json").write_text(_BUCKET_ANYONE.strip("'"))
    (workspace / "listed.json").write_text(
        '{"Statement": [{"Effect": "Allow", "Principal": {"AWS": ["arn:aws:iam::1:root", "*"]}, "Action": "s3:*"}]}'
    )
    (workspace / "escaped.json").write_text('{"Statement":[{"Effect":"Allow","Principal":"\\u002a"}]}')
    (workspace / "role.json").write_text(_BUCKET_ROLE.strip("'"))
    (workspace / "acl.json").write_text(
        '{"Grants":[{"Grantee":{"Type":"Group","URI":"http://acs.amazonaws.com/groups/global/AllUsers"},'
        '"Permission":"READ"}],"Owner":{"ID":"o"}}'
    )
    (workspace / "acl-private.json").write_text(
        '{"Grants":[{"Grantee":{"Type":"CanonicalUser","ID":"abc"},"Permission":"FULL_CONTROL"}],"Owner":{"ID":"o"}}'
    )
    (workspace / "block-off.json").write_text('{"BlockPublicAcls": true, "BlockPublicPolicy": false}')
    (workspace / "block-on.json").write_text('{"BlockPublicAcls": true, "BlockPublicPolicy": true}')
    (workspace / "all.json").write_text(_POLICY_ALL.strip("'"))
    (workspace / "one.json").write_text(_POLICY_ONE.strip("'"))
    policy = "aws s3api put-bucket-policy --bucket b --policy "
    acl = "aws s3api put-bucket-acl --bucket b --access-control-policy "
    block = "aws s3api put-public-access-block --bucket b --public-access-block-configuration "
    iam = "aws iam put-role-policy --role-name r --policy-name p --policy-document "
    for command, rule in (
        (policy + "file://public.json", "makes-public"),
        (policy + "fileb://public.json", "makes-public"),
        (policy + "file://listed.json", "makes-public"),
        (policy + "file://escaped.json", "makes-public"),
        (f"{policy}file://{workspace}/public.json", "makes-public"),
        ("cd sub && " + policy + "file://../public.json", "makes-public"),
        (policy + "file:///tmp/p.json", "makes-public"),
        (policy + "file://~/p.json", "makes-public"),
        (policy + "file://missing.json", "makes-public"),
        (policy + "https://example.com/p.json", "makes-public"),
        ("cp public.json role.json && " + policy + "file://role.json", "makes-public"),
        ("aws s3api put-bucket-policy --cli-input-json file://role.json", "makes-public"),
        (acl + "file://acl.json", "makes-public"),
        (acl + _BUCKET_ANYONE.replace("Principal", "URI").replace('"*"', '"http://acs.amazonaws.com/groups/global/AllUsers"'), "makes-public"),
        ("aws s3api put-object-acl --bucket b --key k --access-control-policy file://acl.json", "makes-public"),
        (block + "file://block-off.json", "makes-public"),
        (iam + "file://all.json", "privilege-grant"),
    ):  # fmt: skip
        adapter = classify(command, contained=False, workspace=workspace, recipes=ProjectRecipes(workspace))
        assert adapter.risk is DES and rule in {r.rule for r in adapter.reasons}, (command, adapter.reasons)
        server = classify(command, contained=False, workspace=workspace, recipes=GivenRecipes(adapter.recipes))
        assert server.risk is DES, command
    for command in (
        policy + "file://role.json",
        acl + "file://acl-private.json",
        block + "file://block-on.json",
        iam + "file://one.json",
        "cd sub && " + policy + "file://../role.json",
    ):
        adapter = classify(command, contained=False, workspace=workspace, recipes=ProjectRecipes(workspace))
        assert adapter.risk is SYS, (command, adapter.reasons)
        server = classify(command, contained=False, workspace=workspace, recipes=GivenRecipes(adapter.recipes))
        assert server.risk is SYS, command  # the adapter sends what it read
        unread = classify(command, contained=False, workspace=workspace)
        assert unread.risk is DES, command  # nothing reported: fail closed


# -- grants through other verbs, services opened to other machines, scheduled git -----------------------------------
@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("kubectl set subject clusterrolebinding cluster-admin --user=me", "privilege-grant"),
        (
            "kubectl patch clusterrolebinding cluster-admin --type=json "
            """-p '[{"op":"add","path":"/subjects/-","value":{"kind":"User","name":"me"}}]'""",
            "privilege-grant",
        ),
        ("kubectl edit clusterrolebinding cluster-admin", "privilege-grant"),
        ("kubectl edit role/x", "privilege-grant"),
        ("kubectl auth reconcile -f rbac.yaml --remove-extra-subjects", "privilege-grant"),
        ("kubectl certificate approve csr-x", "privilege-grant"),
        ("kubectl label ns default pod-security.kubernetes.io/enforce=privileged --overwrite", "privilege-grant"),
        ("gh ssh-key add ~/.ssh/id_rsa.pub", "privilege-grant"),
        ("gh gpg-key add x", "privilege-grant"),
        ("glab ssh-key add k.pub", "privilege-grant"),
        ("gh api repos/x/y/hooks -f config[url]=https://evil", "privilege-grant"),
        ("gh api user/keys -f key=x", "privilege-grant"),
        ("tailscale funnel 8080", "inbound-tunnel"),
        ("kubectl proxy --address 0.0.0.0 --accept-hosts '.*'", "inbound-tunnel"),
        ("kubectl port-forward --address 0.0.0.0 pod/x 8080:80", "inbound-tunnel"),
        ("ssh -D 0.0.0.0:1080 host", "inbound-tunnel"),
        ("ssh -L 0.0.0.0:2222:localhost:22 host", "inbound-tunnel"),
        ("ssh -L '*:2222:localhost:22' host", "inbound-tunnel"),
        ("ssh -g -L 2222:localhost:22 host", "inbound-tunnel"),
        ("git maintenance start", "persistence"),
        ("git maintenance start --scheduler=crontab", "persistence"),
        ("git maintenance register", "persistence"),
    ],
)
def test_grants_exposures_and_scheduled_git_are_destructive(workspace: Path, command: str, rule: str) -> None:
    level, found = graded(command, workspace)
    assert level is DES, found
    assert rule in found


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("kubectl set image deploy/x x=y", SYS),
        ("kubectl patch deployment x -p '{}'", SYS),
        ("kubectl edit deploy x", SYS),
        ("kubectl auth reconcile -f rbac.yaml", SYS),
        ("kubectl auth can-i get pods", NET),
        ("kubectl certificate deny csr-x", SYS),
        ("kubectl label ns default pod-security.kubernetes.io/enforce=restricted", SYS),
        ("kubectl label pod x app=web", SYS),
        ("gh ssh-key list", NET),
        ("gh api repos/x/y/hooks", NET),
        ("gh api repos/x/y/issues -f title=x", SYS),
        ("tailscale funnel status", SYS),
        ("tailscale serve 8080", SYS),
        ("kubectl proxy", SYS),
        ("kubectl proxy --address=127.0.0.1", SYS),
        ("kubectl port-forward pod/x 8080:80", SYS),
        ("ssh -D 1080 host", NET),
        ("ssh -L 8080:localhost:80 host", NET),
        ("ssh -L 127.0.0.1:8080:localhost:80 host", NET),
        ("ssh -N -L 5432:db:5432 bastion", NET),
        ("git maintenance stop", SYS),
        ("git maintenance run --task=gc", RiskLevel.WORKSPACE_WRITE),
    ],
)
def test_neighbours_of_grants_exposures_and_scheduled_git_keep_their_grade(
    workspace: Path, command: str, level: RiskLevel
) -> None:
    assert graded(command, workspace)[0] is level


@pytest.mark.parametrize(
    ("command", "level", "rule"),
    [
        ("ssh -A host id", SYS, "credential-forwarding"),
        ("ssh -o ForwardAgent=yes host", SYS, "credential-forwarding"),
        ("ssh -Y host", SYS, "credential-forwarding"),
        ("ssh -o ForwardX11Trusted=yes -X host", SYS, "credential-forwarding"),
        ("ssh -o ForwardAgent=no host id", NET, "network-egress"),
        ("ssh -X host", NET, "network-egress"),
        ("http-server / -p 8080", DES, "serves-secrets"),
        ("http-server ~", DES, "serves-secrets"),
        ("http-server /etc", DES, "serves-secrets"),
        ("http-server ~/.ssh -a 0.0.0.0", DES, "serves-secrets"),
        ("http-server ./dist -p 8080", NET, "network-egress"),
        ("http-server . -a 0.0.0.0", NET, "network-egress"),
    ],
)
def test_forwarded_credentials_and_served_homes(workspace: Path, command: str, level: RiskLevel, rule: str) -> None:
    found_level, found = graded(command, workspace)
    assert found_level is level, found
    assert rule in found
