"""Remote control planes: kubectl, docker, helm, terraform (issue 3).

They talk to clusters, daemons and clouds outside the VM, so every use is at least
``network`` and nothing is ever downgraded by containment (rule
``remote-control-plane``). Verbs that change that remote state are ``system``; verbs
that delete there are ``destructive``; unknown verbs are destructive.
Sources: kubectl reference (kubernetes.io/docs/reference/kubectl), docker CLI
reference (docs.docker.com/reference/cli/docker), helm docs (helm.sh/docs/helm),
terraform CLI docs (developer.hashicorp.com/terraform/cli/commands).
"""

from __future__ import annotations

from bot.risk.grader import Call
from bot.risk.model import RiskLevel
from bot.risk.words import Word

from .kit import refuse

__all__ = ["docker", "docker_compose", "helm", "kubectl", "terraform"]

R = RiskLevel
_RULE = "remote-control-plane"


def _verbs(words: list[Word], value_flags: frozenset[str]) -> list[str | None]:
    """Non-option words in order (None for a dynamic one), skipping values of ``value_flags``."""
    out: list[str | None] = []
    skip = False
    for word in words:
        value = word.value
        if skip:
            skip = False
            continue
        if value is None:
            out.append(None)
        elif value.startswith("-"):
            skip = "=" not in value and value in value_flags
        else:
            out.append(value)
    return out


def _grade(call: Call, verb: str, reads: frozenset[str], changes: frozenset[str], deletes: frozenset[str]) -> None:
    what = f"{call.name} {verb}"
    if verb in deletes:
        call.flag(R.DESTRUCTIVE, _RULE, f"{what} deletes resources outside the VM.")
    elif verb in changes:
        call.flag(R.SYSTEM, _RULE, f"{what} changes state on a cluster, daemon or cloud outside the VM.")
    elif verb in reads:
        call.flag(R.NETWORK, _RULE, f"{what} talks to a cluster, daemon or cloud outside the VM.")
    else:
        refuse(call, f"the verb {verb}")


_KUBECTL_VALUES = frozenset({
    "-n", "--namespace", "--context", "--cluster", "--kubeconfig", "-s", "--server", "--user", "--token", "--as",
    "--as-group", "--certificate-authority", "--client-certificate", "--client-key", "--request-timeout",
    "--tls-server-name", "--cache-dir", "-v", "--v", "-l", "--selector", "-o", "--output", "-f", "--filename",
    "-c", "--container", "--field-selector", "--sort-by", "--tail", "--since", "--type",
})  # fmt: skip
_KUBECTL_READ = frozenset({
    "get", "describe", "logs", "top", "explain", "version", "api-resources", "api-versions", "cluster-info",
    "auth", "diff", "wait", "events", "completion", "kustomize", "plugin", "options",
})  # fmt: skip
_KUBECTL_CHANGE = frozenset({
    "apply", "create", "patch", "edit", "replace", "scale", "autoscale", "rollout", "set", "label", "annotate",
    "taint", "cordon", "uncordon", "expose", "run", "exec", "attach", "cp", "port-forward", "proxy",
    "certificate", "debug",
})  # fmt: skip


def kubectl(call: Call) -> None:
    """kubectl: reads are network, changes system, delete/drain (and apply --prune, replace --force) destructive."""
    verbs = _verbs(call.args, _KUBECTL_VALUES)
    if not verbs:
        call.flag(R.NETWORK, _RULE, "kubectl talks to a cluster outside the VM.")
        return
    verb = verbs[0]
    if verb is None:
        call.flag(R.DESTRUCTIVE, "dynamic-argument", "The kubectl verb is only known when it runs.")
        return
    values = [w.value or "" for w in call.args]
    if verb == "config":
        action = verbs[1] if len(verbs) > 1 else None
        if action in ("view", "get-contexts", "current-context", "get-clusters", "get-users"):
            call.flag(R.NETWORK, _RULE, f"kubectl config {action} reads the cluster configuration.")
        else:
            call.write(Word(None, "~/.kube/config"), "kubectl config changes")
            call.flag(R.NETWORK, _RULE, "kubectl config selects which cluster later commands reach.")
        return
    if (verb == "apply" and any(v.startswith("--prune") for v in values)) or (verb == "replace" and "--force" in values):
        call.flag(R.DESTRUCTIVE, _RULE, f"kubectl {verb} with --prune/--force deletes resources outside the VM.")
        return
    _grade(call, verb, _KUBECTL_READ, _KUBECTL_CHANGE, frozenset({"delete", "drain"}))


_DOCKER_VALUES = frozenset({"-H", "--host", "--context", "-c", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"})
_DOCKER_READ = frozenset({
    "ps", "images", "inspect", "logs", "version", "info", "stats", "top", "port", "diff", "events", "search",
    "history", "ls", "df", "show", "config",
})  # fmt: skip
_DOCKER_CHANGE = frozenset({
    "run", "exec", "start", "stop", "restart", "kill", "pause", "unpause", "create", "build", "pull", "push", "tag",
    "commit", "cp", "login", "logout", "save", "load", "import", "export", "update", "rename", "attach", "wait",
    "connect", "disconnect", "use", "deploy", "up", "scale", "init", "join", "leave", "promote", "demote",
    "install", "enable", "disable", "upgrade", "bake", "buildx", "compose",
})  # fmt: skip
_DOCKER_DELETE = frozenset({"rm", "rmi", "prune", "remove", "down", "delete"})
_DOCKER_GROUPS = frozenset({
    "container", "image", "volume", "network", "system", "builder", "buildx", "context", "node", "service",
    "stack", "swarm", "secret", "config", "plugin", "trust", "manifest", "compose",
})  # fmt: skip


def docker(call: Call) -> None:
    """docker: reads are network, changes system, rm/rmi/prune/down destructive (management groups unwrapped)."""
    verbs = _verbs(call.args, _DOCKER_VALUES | _KUBECTL_VALUES)
    _docker_verbs(call, verbs)


def docker_compose(call: Call) -> None:
    """docker-compose (v1 spelling of ``docker compose``)."""
    verbs: list[str | None] = ["compose"]
    _docker_verbs(call, verbs + _verbs(call.args, _DOCKER_VALUES | frozenset({"-f", "--file", "-p", "--project-name"})))


def _docker_verbs(call: Call, verbs: list[str | None]) -> None:
    if not verbs:
        call.flag(R.NETWORK, _RULE, f"{call.name} talks to a daemon outside the VM.")
        return
    if any(v is None for v in verbs[:2]):
        call.flag(R.DESTRUCTIVE, "dynamic-argument", f"The {call.name} command is only known when it runs.")
        return
    verb = verbs[0] or ""
    if verb in _DOCKER_GROUPS and len(verbs) > 1:
        sub = verbs[1] or ""
        if verb == "compose" and sub in ("ps", "logs", "config", "ls", "images", "top", "version", "events", "port"):
            call.flag(R.NETWORK, _RULE, f"docker compose {sub} talks to a daemon outside the VM.")
            return
        if verb == "compose" and sub not in _DOCKER_DELETE:
            call.flag(R.SYSTEM, _RULE, f"docker compose {sub} changes state on a daemon outside the VM.")
            return
        verb = sub
    elif verb in _DOCKER_GROUPS and verb != "compose":
        verb = "ls"
    _grade(call, verb, _DOCKER_READ, _DOCKER_CHANGE, _DOCKER_DELETE)


_HELM_VALUES = frozenset({"-n", "--namespace", "--kube-context", "--kubeconfig", "-f", "--values", "--set", "--version", "-o", "--output", "--repo"})
_HELM_READ = frozenset({"list", "ls", "status", "get", "history", "hist", "show", "inspect", "search", "template", "version", "env", "lint", "verify", "completion"})
_HELM_CHANGE = frozenset({"install", "upgrade", "rollback", "repo", "dependency", "dep", "pull", "fetch", "push", "package", "registry", "plugin", "test", "create"})


def helm(call: Call) -> None:
    """helm: reads are network, install/upgrade/rollback system, uninstall destructive."""
    verbs = _verbs(call.args, _HELM_VALUES)
    if not verbs:
        call.flag(R.NETWORK, _RULE, "helm talks to a cluster outside the VM.")
        return
    if verbs[0] is None:
        call.flag(R.DESTRUCTIVE, "dynamic-argument", "The helm command is only known when it runs.")
        return
    verb = verbs[0]
    if verb == "repo" and len(verbs) > 1 and verbs[1] in ("list", "ls"):
        call.flag(R.NETWORK, _RULE, "helm repo list reads the repository list.")
        return
    _grade(call, verb, _HELM_READ, _HELM_CHANGE, frozenset({"uninstall", "delete", "del", "un"}))


_TF_READ = frozenset({"plan", "show", "validate", "fmt", "output", "version", "providers", "graph", "get", "init", "console", "login", "logout", "metadata", "test"})
_TF_CHANGE = frozenset({"apply", "import", "refresh", "taint", "untaint", "force-unlock"})


def terraform(call: Call) -> None:
    """terraform: plan/show are network, apply/import system, destroy / apply -destroy / state rm / workspace delete destructive."""
    verbs = _verbs(call.args, frozenset())
    values = [w.value or "" for w in call.args]
    if not verbs:
        call.flag(R.NETWORK, _RULE, "terraform talks to providers outside the VM.")
        return
    verb = verbs[0]
    if verb is None:
        call.flag(R.DESTRUCTIVE, "dynamic-argument", "The terraform command is only known when it runs.")
        return
    action = verbs[1] if len(verbs) > 1 else None
    if verb == "apply" and any(v in ("-destroy", "--destroy") for v in values):
        verb = "destroy"
    if verb in ("state", "workspace"):
        if action in ("rm", "delete"):
            call.flag(R.DESTRUCTIVE, _RULE, f"terraform {verb} {action} deletes state outside the VM.")
        elif action in ("list", "show", "pull", "select"):
            call.flag(R.NETWORK, _RULE, f"terraform {verb} {action} reads state.")
        else:
            call.flag(R.SYSTEM, _RULE, f"terraform {verb} {action} changes state outside the VM.")
        return
    _grade(call, verb, _TF_READ, _TF_CHANGE, frozenset({"destroy"}))
