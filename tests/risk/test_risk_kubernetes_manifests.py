"""Kubernetes manifests and local Helm charts in the workspace are read (bot/risk/manifests.py, settings tool
``kubernetes``): ``kubectl apply|create|replace -f|-k`` and ``helm install|upgrade`` of what hands a pod the node
(Pod Security Standards, Baseline/Privileged controls) or full control of the cluster (RBAC: cluster-admin, ``*``
roles; admission webhooks) are destructive on the host, so no standing approval covers them; what cannot be read
for certain (standard input, a URL, ``oci://``, ``repo/chart``, a file outside the workspace, unparseable YAML, a
file too large) fails closed. Benign manifests keep the control plane's grade (system); contained, the grade is
the control plane's as before. The fixtures are inert text files; nothing here runs kubectl or helm."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.risk import RiskLevel as R
from bot.risk import classify
from bot.risk.recipes import GivenRecipes, ProjectRecipes
from tests.risk.both_sides import graded, project

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      securityContext:
        runAsNonRoot: true
        runAsUser: 1000
      containers:
        - name: web
          image: nginx:1.25
          securityContext:
            privileged: false
            allowPrivilegeEscalation: false
            capabilities:
              drop: [ALL]
              add: [NET_BIND_SERVICE]
"""
SERVICE = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports: [{port: 80}]\n"
CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  LOG_LEVEL: info\n"
ROLE = (
    "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: reader}\n"
    "rules:\n- apiGroups: ['']\n  resources: [pods]\n  verbs: [get, list, watch]\n"
)


def _pod(spec: str) -> str:
    return f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n{spec}"


RISKY = {
    "crb.yaml": (
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: me}\n"
        "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}\n"
        "subjects: [{kind: ServiceAccount, name: default, namespace: default}]\n"
    ),
    "rb.json": json.dumps(
        {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "RoleBinding",
            "metadata": {"name": "x"},
            "roleRef": {"kind": "ClusterRole", "name": "cluster-admin", "apiGroup": "rbac.authorization.k8s.io"},
            "subjects": [{"kind": "User", "name": "agent"}],
        }
    ),  # fmt: skip
    "star.yaml": (
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: all}\n"
        "rules:\n- apiGroups: ['*']\n  resources: ['*']\n  verbs: ['*']\n"
    ),
    "escalate.yaml": ROLE.replace("[get, list, watch]", "[bind, escalate]"),
    "masters.yaml": (
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: m}\n"
        "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}\n"
        "subjects: [{kind: Group, name: 'system:masters'}]\n"
    ),
    "privileged.yaml": DEPLOYMENT.replace("privileged: false", "privileged: true"),
    "privileged-flow.yaml": _pod("  containers: [{name: x, image: y, securityContext: {privileged: yes}}]\n"),
    "escaped.json": '{"kind": "Pod", "spec": {"containers": [{"securityContext": {"privil\\u0065ged": true}}]}}',
    "hostpid.yaml": _pod("  hostPID: true\n  containers: [{name: x, image: y}]\n"),
    "hostnetwork.yaml": _pod("  hostNetwork: true\n  containers: [{name: x, image: y}]\n"),
    "hostipc.yaml": _pod("  hostIPC: true\n  containers: [{name: x, image: y}]\n"),
    "hostpath.yaml": _pod("  containers: [{name: x, image: y}]\n  volumes:\n  - name: root\n    hostPath: {path: /}\n"),
    "sysadmin.yaml": DEPLOYMENT.replace("add: [NET_BIND_SERVICE]", "add: [SYS_ADMIN]"),
    "capall.yaml": _pod(
        "  containers:\n  - name: x\n    securityContext:\n      capabilities:\n        add:\n        - ALL\n"
    ),
    "escalation.yaml": DEPLOYMENT.replace("allowPrivilegeEscalation: false", "allowPrivilegeEscalation: true").replace(
        "runAsUser: 1000", "runAsUser: 0"
    ),
    "webhook.yaml": (
        "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata: {name: w}\n"
        "webhooks: []\n"
    ),
    "vwebhook.yaml": "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n",
    "list.yaml": (
        "apiVersion: v1\nkind: List\nitems:\n- kind: ClusterRoleBinding\n  apiVersion: rbac.authorization.k8s.io/v1\n"
        "  roleRef: {kind: ClusterRole, name: cluster-admin}\n"
    ),
    "second.yaml": SERVICE + "---\n" + _pod("  hostNetwork: true\n  containers: [{name: x, image: y}]\n"),
    "alias.yaml": _pod("  hostIPC: false\n  hostPID: &on true\n  hostNetwork: *on\n"),
    "unconfined.yaml": _pod("  securityContext:\n    seccompProfile: {type: Unconfined}\n"),
}


@pytest.mark.parametrize("name", sorted(RISKY))
@pytest.mark.parametrize("verb", ["apply -f", "create -f", "replace -f", "apply --filename="])
def test_a_risky_manifest_is_destructive_on_the_host(tmp_path: Path, name: str, verb: str) -> None:
    workspace = project(tmp_path, {f"k8s/{name}": RISKY[name]})
    separator = "" if verb.endswith("=") else " "
    risk, details = graded(f"kubectl {verb}{separator}k8s/{name}", workspace)
    assert risk == R.DESTRUCTIVE, details
    assert any("the manifest" in d for d in details), details


@pytest.mark.parametrize(
    "command",
    [
        "kubectl apply -f k8s/deployment.yaml",
        "kubectl apply -f k8s/deployment.yaml -f k8s/service.yaml -n app",
        "kubectl apply -f k8s/",
        "kubectl apply -R -f k8s",
        "kubectl create -f k8s/configmap.yaml",
        "kubectl replace -f k8s/role.yaml",
        "kubectl apply -k k8s/",
        "kubectl apply --kustomize=k8s",
        "cd k8s && kubectl apply -f deployment.yaml",
    ],
)
def test_a_benign_manifest_keeps_todays_grade(tmp_path: Path, command: str) -> None:
    workspace = project(
        tmp_path,
        {
            "k8s/deployment.yaml": DEPLOYMENT,
            "k8s/service.yaml": SERVICE,
            "k8s/configmap.yaml": CONFIGMAP,
            "k8s/role.yaml": ROLE,
            "k8s/notes.txt": "privileged: true\n",  # kubectl reads .json, .yaml and .yml in a directory only
            "k8s/kustomization.yaml": "namespace: app\nresources:\n  - deployment.yaml\n  - service.yaml\n",
        },
    )
    assert graded(command, workspace)[0] == R.SYSTEM


def test_a_directory_is_read_below_with_recursive_only(tmp_path: Path) -> None:
    workspace = project(tmp_path, {"k8s/web.yaml": DEPLOYMENT, "k8s/sub/host.yaml": RISKY["hostpid.yaml"]})
    assert graded("kubectl apply -f k8s/", workspace)[0] == R.SYSTEM
    assert graded("kubectl apply -R -f k8s/", workspace)[0] == R.DESTRUCTIVE
    assert graded("kubectl apply -f k8s/sub", workspace)[0] == R.DESTRUCTIVE


@pytest.mark.parametrize(
    "files",
    [
        {"k8s/kustomization.yaml": "resources: [host.yaml]\n", "k8s/host.yaml": RISKY["hostpid.yaml"]},
        {"k8s/kustomization.yaml": "resources: [../base]\n", "base/kustomization.yaml": "resources: [crb.yaml]\n",
         "base/crb.yaml": RISKY["crb.yaml"]},
        {"k8s/kustomization.yaml": "resources: [web.yaml]\npatches:\n- path: priv.yaml\n", "k8s/web.yaml": DEPLOYMENT,
         "k8s/priv.yaml": "kind: Deployment\nmetadata: {name: web}\nspec: {template: {spec: {hostNetwork: true}}}\n"},
        {"k8s/kustomization.yaml": "resources: [web.yaml]\npatches:\n- target: {kind: Deployment}\n  patch: |-\n"
         "    - op: add\n      path: /spec/template/spec/hostPID\n      value: true\n", "k8s/web.yaml": DEPLOYMENT},
    ],
)  # fmt: skip
def test_a_kustomization_is_read_through_its_resources_and_patches(tmp_path: Path, files: dict[str, str]) -> None:
    workspace = project(tmp_path, files)
    assert graded("kubectl apply -k k8s", workspace)[0] == R.DESTRUCTIVE


@pytest.mark.parametrize(
    ("files", "command"),
    [
        ({}, "kubectl apply -f -"),
        ({}, "kubectl apply -f https://example.invalid/x.yaml"),
        ({}, 'kubectl apply -f "$MANIFEST"'),
        ({}, "kubectl apply -f k8s/missing.yaml"),
        ({}, "kubectl create -f /etc/kubernetes/x.yaml"),
        ({}, "kubectl apply -f ../elsewhere/x.yaml"),
        ({"k8s/bad.yaml": "kind: Pod\nspec: [unclosed\n"}, "kubectl apply -f k8s/bad.yaml"),
        ({"k8s/dup.yaml": "kind: Pod\nspec:\n  hostPID: true\n  hostPID: false\n"}, "kubectl apply -f k8s/dup.yaml"),
        ({"k8s/big.yaml": CONFIGMAP + "  x: '" + "a" * 300_000 + "'\n"}, "kubectl apply -f k8s/big.yaml"),
        ({"k8s/kustomization.yaml": "resources:\n- github.com/x/y//base?ref=v1\n"}, "kubectl apply -k k8s"),
        ({"k8s/kustomization.yaml": "helmCharts:\n- name: x\n"}, "kubectl apply -k k8s"),
        ({"k8s/kustomization.yaml": "generators: [gen.yaml]\n"}, "kubectl apply -k k8s"),
        ({"k8s/x.yaml": CONFIGMAP}, "kubectl apply -Rf k8s"),
    ],
)
def test_a_manifest_that_cannot_be_read_is_destructive_on_the_host(
    tmp_path: Path, files: dict[str, str], command: str
) -> None:
    workspace = project(tmp_path, files)
    risk, details = graded(command, workspace)
    assert risk == R.DESTRUCTIVE, details
    assert any("FlyBot cannot read the manifest" in d for d in details), details


def test_a_link_out_of_the_workspace_is_not_read(tmp_path: Path) -> None:
    workspace = project(tmp_path, {})
    (tmp_path / "elsewhere" / "x.yaml").write_text(CONFIGMAP)
    (workspace / "x.yaml").symlink_to(tmp_path / "elsewhere" / "x.yaml")
    assert graded("kubectl apply -f x.yaml", workspace)[0] == R.DESTRUCTIVE


def test_deleting_a_namespace_or_a_crd_stays_destructive(tmp_path: Path) -> None:
    workspace = project(tmp_path, {"k8s/ns.yaml": "apiVersion: v1\nkind: Namespace\nmetadata: {name: app}\n"})
    for command in ("kubectl delete ns app", "kubectl delete crd widgets.example.com", "kubectl delete -f k8s/ns.yaml"):
        assert graded(command, workspace)[0] == R.DESTRUCTIVE, command


def test_dry_runs_are_not_changed(tmp_path: Path) -> None:
    workspace = project(tmp_path, {"k8s/crb.yaml": RISKY["crb.yaml"]})
    assert graded("kubectl apply --dry-run=client -f k8s/crb.yaml", workspace)[0] == R.NETWORK


CHART = {
    "chart/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n",
    "chart/values.yaml": "replicas: 2\nsecurityContext: {}\n  # privileged: true\n",
    "chart/templates/cm.yaml": CONFIGMAP.replace("name: web", "name: {{ .Release.Name }}"),
    "chart/templates/deploy.yaml": DEPLOYMENT.replace("replicas: 2", "replicas: {{ .Values.replicas }}"),
    "chart/templates/_helpers.tpl": '{{- define "web.name" -}}{{ .Chart.Name }}{{- end }}\n',
    "chart/values-prod.yaml": "replicas: 4\n",
}


@pytest.mark.parametrize(
    "command",
    [
        "helm install web ./chart",
        "helm install web chart -n app --create-namespace",
        "helm upgrade --install web ./chart -n app -f chart/values-prod.yaml --set replicas=3 --timeout 5m --wait",
        "helm upgrade web ./chart --values=chart/values-prod.yaml",
        "helm install --generate-name ./chart",
    ],
)
def test_a_benign_local_chart_keeps_todays_grade(tmp_path: Path, command: str) -> None:
    assert graded(command, project(tmp_path, CHART))[0] == R.SYSTEM


@pytest.mark.parametrize(
    ("extra", "command"),
    [
        ({"chart/templates/pod.yaml": _pod("  hostPID: true\n")}, "helm install web ./chart"),
        ({"chart/templates/crb.yaml": RISKY["crb.yaml"]}, "helm upgrade --install web ./chart"),
        (
            {"chart/templates/ds.yaml": _pod("  containers:\n  - securityContext:\n      privileged: {{ .Values.p }}\n")},
            "helm install web ./chart",
        ),
        ({"chart/templates/x.yaml": "kind: {{ .Values.kind }}\n"}, "helm install web ./chart"),
        ({"chart/templates/_helpers.tpl": '{{- define "x" -}}\nhostNetwork: true\n{{- end }}\n'}, "helm install web ./chart"),
        ({"chart/charts/sub/Chart.yaml": "name: sub\n", "chart/charts/sub/templates/w.yaml": RISKY["webhook.yaml"]},
         "helm install web ./chart"),
        ({"chart/values.yaml": "securityContext:\n  privileged: true\n"}, "helm install web ./chart"),
        ({"priv.yaml": "securityContext:\n  capabilities:\n    add: [SYS_ADMIN]\n"}, "helm install web ./chart -f priv.yaml"),
        ({}, "helm install web ./chart --set securityContext.privileged=true"),
        ({}, "helm upgrade web ./chart --set hostNetwork=true,replicas=2"),
    ],
)  # fmt: skip
def test_a_risky_local_chart_is_destructive_on_the_host(tmp_path: Path, extra: dict[str, str], command: str) -> None:
    risk, details = graded(command, project(tmp_path, {**CHART, **extra}))
    assert risk == R.DESTRUCTIVE, details


@pytest.mark.parametrize(
    ("extra", "command"),
    [
        ({}, "helm install web bitnami/nginx"),
        ({}, "helm upgrade --install web bitnami/nginx --version 15.0.0"),
        ({}, "helm install web oci://registry.example.invalid/charts/web"),
        ({}, "helm install web https://example.invalid/web-0.1.0.tgz"),
        ({}, "helm install web nginx --repo https://charts.example.invalid"),
        ({}, "helm install web ./chart --dependency-update"),
        ({"web-0.1.0.tgz": "not read"}, "helm install web ./web-0.1.0.tgz"),
        ({"chart/charts/dep-1.0.0.tgz": "not read"}, "helm install web ./chart"),
        ({}, "helm install web ./chart -f https://example.invalid/values.yaml"),
        ({}, "helm install web ./chart -f ../elsewhere/values.yaml"),
        ({}, "helm install web ./chart --some-new-option x"),
        ({}, 'helm install web "$CHART"'),
    ],
)
def test_a_chart_that_cannot_be_read_is_destructive_on_the_host(
    tmp_path: Path, extra: dict[str, str], command: str
) -> None:
    risk, details = graded(command, project(tmp_path, {**CHART, **extra}))
    assert risk == R.DESTRUCTIVE, details
    assert any("FlyBot cannot read the chart" in d for d in details), details


@pytest.mark.parametrize(
    "command", ["kubectl apply -f k8s/crb.yaml", "kubectl apply -f -", "helm install web bitnami/nginx"]
)
def test_contained_the_control_planes_grade_stands(tmp_path: Path, command: str) -> None:
    workspace = project(tmp_path, {"k8s/crb.yaml": RISKY["crb.yaml"]})
    read = classify(command, contained=True, workspace=str(workspace), recipes=ProjectRecipes(workspace))
    given = classify(command, contained=True, workspace=str(workspace), recipes=GivenRecipes(read.recipes))
    assert read.risk == given.risk == R.SYSTEM


def test_the_server_without_the_adapters_answer_fails_closed(tmp_path: Path) -> None:
    workspace = project(tmp_path, {"k8s/deployment.yaml": DEPLOYMENT})
    given = classify(
        "kubectl apply -f k8s/deployment.yaml", contained=False, workspace=str(workspace), recipes=GivenRecipes([])
    )
    assert given.risk == R.DESTRUCTIVE


def test_the_hook_and_flybot_exec_send_what_the_server_needs_to_grade_the_same(tmp_path: Path) -> None:
    """The adapters' grade (bot/hooks/gate.py ``grade``, which the hooks and ``flybot exec`` run) and the server's,
    from the recipes as the API takes them (bot/api/models.py ``RecipeIn``), agree."""
    from bot.api.models import RecipeIn
    from bot.hooks.gate import grade
    from bot.risk.recipes import Recipe, RecipeLine

    workspace = project(tmp_path, {**CHART, "k8s/deployment.yaml": DEPLOYMENT, "k8s/crb.yaml": RISKY["crb.yaml"]})
    for command, want in (
        ("kubectl apply -f k8s/deployment.yaml", R.SYSTEM),
        ("kubectl apply -f k8s/crb.yaml", R.DESTRUCTIVE),
        ("kubectl apply -f k8s/missing.yaml", R.DESTRUCTIVE),
        ("helm install web ./chart", R.SYSTEM),
        ("helm install web bitnami/nginx", R.DESTRUCTIVE),
    ):
        sent = grade(command, contained=False, cwd=str(workspace), ceiling=R.READ_ONLY)
        recipes = [RecipeIn(**r) for r in sent.recipes]
        given = GivenRecipes([
            Recipe(r.tool, r.target, tuple(RecipeLine(x.source, x.command) for x in r.lines), r.directory, r.file,
                   tuple(r.overrides))
            for r in recipes
        ])  # fmt: skip
        server = classify(command, contained=False, workspace=str(workspace), recipes=given)
        assert sent.risk == server.risk == want, command


def test_flybot_classify_with_cwd_grades_the_same(tmp_path: Path) -> None:
    workspace = project(tmp_path, {"k8s/deployment.yaml": DEPLOYMENT, "k8s/crb.yaml": RISKY["crb.yaml"]})
    lines = "".join(
        json.dumps({"command": c, "cwd": str(workspace), "contained": False}) + "\n"
        for c in ("kubectl apply -f k8s/deployment.yaml", "kubectl apply -f k8s/crb.yaml")
    )
    done = subprocess.run(
        [sys.executable, "-m", "bot.risk.cli", "classify", "--jsonl"],
        input=lines,
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    risks = [json.loads(x)["risk"] for x in done.stdout.splitlines() if x.strip()]
    assert risks == ["system", "destructive"]
