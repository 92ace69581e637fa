"""Remote control planes: kubectl, docker, helm, terraform.

They talk to clusters, daemons and clouds outside the sandbox, so every use is at least
``network`` and nothing is ever downgraded by containment (rule
``remote-control-plane``). Verbs that change that remote state are ``system``; verbs
that delete there are ``destructive``; unknown verbs are destructive. docker and podman talk to the engine on
this machine unless pointed elsewhere (``-H``, ``--context``, podman ``--remote``): their reads of its state
(``ps``, ``images``, ``logs``, ``version``, ``info``..., ``_DOCKER_LOCAL_READS``) and ``--version`` are
``read_only``; ``inspect`` prints the container's environment, secrets too: ``network`` (``secret-read``), but for
a ``--format`` printing only state fields (``_INSPECT_FIELD``).
Sources: kubectl reference (kubernetes.io/docs/reference/kubectl), docker CLI
reference (docs.docker.com/reference/cli/docker), helm docs (helm.sh/docs/helm),
terraform CLI docs (developer.hashicorp.com/terraform/cli/commands).

Commands run in a container or pod (``docker``/``podman`` ``run``/``create``/``exec``,
``docker compose run``/``exec``, ``kubectl exec``/``run``/``debug``) run on another machine:
the command is graded as a script on a host with no workspace and no containment downgrade
(as ``ssh HOST CMD``), and the grade is the maximum of that and the control plane's. ``exec``
and an explicit ``--entrypoint`` (``kubectl run --command``) give the command reliably; after an
image the words may be arguments to its unknown ENTRYPOINT, so they are graded only when the
first is a recognised program, and any deletion program among them (``rm``, ``shred``, ``mkfs``...)
is destructive. Options that hand the container the host are destructive (docker run reference:
``--privileged``, ``--pid|--ipc|--userns|--cgroupns=host``, ``--device``, dangerous ``--cap-add``,
``--security-opt ...=unconfined``, ``--use-api-socket``, bind mounts (``-v``/``--mount``) of ``/``,
``/proc``, ``/sys``, ``/dev``, ``/boot``, ``/etc``, ``/run``, ``/var/run`` or a container-engine
socket, or of a directory outside the workspace that holds it (``..``) or is a home or system tree;
``kubectl run --privileged``/``--overrides``, ``kubectl debug node/...``/``--profile=sysadmin``). A build
(docker-buildx-build(1)) whose context or ``--build-context`` is ``/``, a home, a system tree or a directory holding
the workspace (its Dockerfile may ``COPY`` and print any file there), or given ``--allow security.insecure``
(``RUN --security=insecure``: a privileged step), ``--allow network.host`` or ``--network host`` (RUN steps on this
machine's network), is destructive too; so is ``docker buildx create`` of a builder whose ``--driver-opt image=`` is
not Docker's BuildKit image (the docker-container driver runs it privileged), with ``network=host``, or with
``--buildkitd-flags``/``--buildkitd-config`` FlyBot does not read.
So are the options that make the client itself run programs: ``docker --config DIR`` (CLI plugins
and credential helpers), podman ``--hooks-dir``, ``--runtime``, ``--conmon``, ``--module``,
``--network-cmd-path``, ``--storage-opt`` (podman(1)). An unknown option before the image makes the
command impossible to separate: then only the deletion-program check applies. A restart policy other than ``no``
(``run|create --restart``, ``update --restart``) starts the container at every boot: persistence (destructive).
"""

from __future__ import annotations

import posixpath
import re
import shlex

from bot.risk.grader import SYSTEM_BIN_DIRS, Call, Handler, inert_environment
from bot.risk.model import RiskLevel
from bot.risk.paths import Where
from bot.risk.reasons import shorten
from bot.risk.recipes import MAX_LINES, MAX_RECIPES
from bot.risk.sensitive import protected_path
from bot.risk.words import Word, literal_word

from .kit import (
    argv_text,
    build_or_test,
    destructive,
    host_destructive,
    read_only,
    refuse,
    show,
    tool_plugin,
    unpacks,
)

__all__ = ["apptainer_build", "docker", "docker_compose", "helm", "kubectl", "terraform"]

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
        call.flag(R.DESTRUCTIVE, _RULE, f"{what} deletes resources outside the sandbox.")
    elif verb in changes:
        call.flag(R.SYSTEM, _RULE, f"{what} changes state on a cluster, daemon or cloud outside the sandbox.")
    elif verb in reads:
        call.flag(R.NETWORK, _RULE, f"{what} talks to a cluster, daemon or cloud outside the sandbox.")
    else:
        refuse(call, f"the verb {verb}")


_KUBECTL_VALUES = frozenset({
    "-n", "--namespace", "--context", "--cluster", "--kubeconfig", "-s", "--server", "--user", "--token", "--as",
    "--as-group", "--certificate-authority", "--client-certificate", "--client-key", "--request-timeout",
    "--tls-server-name", "--cache-dir", "-v", "--v", "-l", "--selector", "-o", "--output", "-f", "--filename",
    "-c", "--container", "--field-selector", "--sort-by", "--tail", "--since", "--type", "--profile",
    "--profile-output",
})  # fmt: skip
#: kubectl's global options naming a file or directory it writes (kubectl options: ``--profile-output`` "Name of the
#: file to write the profile to", ``--cache-dir`` "Default cache directory", the discovery and HTTP caches; klog's
#: ``--log-file``/``--log-dir``, with ``_`` too, which kubectl before 1.26 still takes).
_KUBECTL_WRITES = ("--profile-output", "--cache-dir", "--log-file", "--log_file", "--log-dir", "--log_dir")
_KUBECTL_READ = frozenset({
    "get", "describe", "logs", "top", "explain", "version", "api-resources", "api-versions", "cluster-info",
    "auth", "diff", "wait", "events", "completion", "kustomize", "plugin", "options",
})  # fmt: skip
_KUBECTL_CHANGE = frozenset({
    "apply", "create", "patch", "edit", "replace", "scale", "autoscale", "rollout", "set", "label", "annotate",
    "taint", "cordon", "uncordon", "expose", "run", "exec", "attach", "cp", "port-forward", "proxy",
    "certificate", "debug",
})  # fmt: skip


def _names_kubeconfig(call: Call) -> bool:
    """``call`` names its kubeconfig with ``--kubeconfig FILE`` (or ``=FILE``; before ``--``), and flags it
    destructive (``runs-program``): a kubeconfig's ``users[].user.exec`` is a credential plugin the client runs
    (Kubernetes "client-go credential plugins"), and ``auth-provider`` loads one, so the file chooses a program the
    command runs, as ``KUBECONFIG=FILE`` does (``env-hijack``). FlyBot does not read the file: fail closed."""
    for word in call.args:
        value = word.value
        if value == "--":
            return False
        text = value if value is not None else word.src
        if text == "--kubeconfig" or text.startswith("--kubeconfig="):
            destructive(
                call,
                "runs-program",
                f"{call.name} --kubeconfig names a kubeconfig, whose exec credential plugin or auth provider is a "
                "program the client runs; FlyBot does not read it.",
            )
            return True
    return False


def kubectl(call: Call) -> None:
    """kubectl: reads are network, changes system, delete/drain (and apply --prune, replace --force) destructive, and
    so is binding the cluster-admin role (``create clusterrolebinding|rolebinding``); ``--kubeconfig FILE`` is
    destructive (:func:`_names_kubeconfig`)."""
    if _names_kubeconfig(call):
        return
    for index, word in enumerate(call.args):
        text = word.value if word.value is not None else word.src
        if text == "--":
            break
        name, eq, attached = text.partition("=")
        if name in _KUBECTL_WRITES:
            target = Word(attached, attached) if eq else (call.args[index + 1] if index + 1 < len(call.args) else None)
            if target is not None:
                call.write(target, f"kubectl {name} writes")
    verbs = _verbs(call.args, _KUBECTL_VALUES)
    if not verbs:
        call.flag(R.NETWORK, _RULE, "kubectl talks to a cluster outside the sandbox.")
        return
    verb = verbs[0]
    if verb is None:
        call.flag(R.DESTRUCTIVE, "dynamic-argument", "The kubectl verb is only known when it runs.")
        return
    values = [w.value or "" for w in call.args]
    if verb == "config":
        action = verbs[1] if len(verbs) > 1 else None
        if action in ("get-contexts", "current-context", "get-clusters", "get-users"):
            # they print names from the local kubeconfig (kubectl config reference); nothing reaches a cluster
            call.flag(R.READ_ONLY, "read-only", f"kubectl config {action} only prints names from the kubeconfig.")
        elif action == "view":
            call.flag(R.NETWORK, _RULE, f"kubectl config {action} reads the cluster configuration.")
            if any(v == "--raw" or v.startswith("--raw=") and v != "--raw=false" for v in values):
                # kubectl config view --raw: "Display raw byte data and sensitive data" (client keys, tokens)
                _prints_credentials(call, "kubectl config view --raw")
        elif any("exec" in v.split("=", 1)[0] or "auth-provider" in v for v in values):
            # kubectl config set-credentials --exec-command / users.*.exec: a program kubectl runs later.
            call.flag(R.DESTRUCTIVE, "runs-program", "kubectl config sets a credential command kubectl will run.")
            return
        else:
            call.write(Word(None, "~/.kube/config"), "kubectl config changes")
            call.flag(R.NETWORK, _RULE, "kubectl config selects which cluster later commands reach.")
        return
    if verb in _KUBECTL_DRY_RUNS and _kubectl_dry_run(call.args):
        # kubectl reference, --dry-run: "If client strategy, only print the object that would be sent, without
        # sending it. If server strategy, submit server-side request without persisting the resource." (apply
        # --dry-run=client still reads the live object to compute the patch): the cluster is read, not changed
        call.flag(R.NETWORK, _RULE, f"kubectl {verb} --dry-run changes nothing on the cluster, which it reads.")
        return
    if (verb == "apply" and any(v.startswith("--prune") for v in values)) or (
        verb == "replace" and "--force" in values
    ):
        call.flag(R.DESTRUCTIVE, _RULE, f"kubectl {verb} with --prune/--force deletes resources outside the sandbox.")
        return
    if (
        verb == "create"
        and len(verbs) > 1
        and verbs[1] in ("clusterrolebinding", "rolebinding")
        and not any(v in ("--dry-run=client", "--dry-run=server") for v in values)  # it prints the object only
    ):
        granted = _kubectl_granted_role(call.args)
        if granted is None or granted in _KUBECTL_SUPERUSER_ROLES:
            role = "a role only known when it runs (it may be cluster-admin)" if granted is None else granted
            scope = "the cluster" if verbs[1] == "clusterrolebinding" else "a namespace"
            call.flag(
                R.DESTRUCTIVE,
                "privilege-grant",
                f"kubectl create {verbs[1]} binds {role}: full control of {scope}, a security-critical change "
                "outside the sandbox.",
            )
            return
    if _kubectl_grant(call, verbs, values):
        return
    if verb in ("proxy", "port-forward") and _kubectl_listens_openly(call.args):
        # kubectl-proxy(1) --address "The IP address on which to serve on" (127.0.0.1 by default): the API server
        # with the caller's credentials for anyone reaching the port; kubectl-port-forward(1) --address likewise
        host_destructive(
            call,
            "inbound-tunnel",
            f"kubectl {verb} --address listens on an address other machines reach: they use the cluster (or the "
            "pod) through it with this user's credentials.",
        )
        return
    if verb == "auth" and verbs[1:2] == ["reconcile"]:
        # kubectl-auth-reconcile(1): "Missing objects are created, and the containing namespace is created for
        # namespaced objects, if required"; --remove-extra-subjects/--remove-extra-permissions remove the rest
        call.flag(R.SYSTEM, _RULE, "kubectl auth reconcile creates or updates roles and role bindings.")
    if verb == "kustomize" and _kubectl_kustomize(call):
        return
    if verb == "version" and any(v in ("--client", "--client=true") for v in values):
        # kubectl version --client: "If true, shows client version only (no server required)"
        read_only(call, "kubectl version --client only prints kubectl's own version.")
        return
    if verb == "rollout" and len(verbs) > 1 and verbs[1] in ("status", "history"):
        # kubectl rollout status|history: they watch or list a rollout; pause, resume, restart and undo change it
        call.flag(R.NETWORK, _RULE, f"kubectl rollout {verbs[1]} reads from a cluster outside the sandbox.")
        return
    _grade(call, verb, _KUBECTL_READ, _KUBECTL_CHANGE, frozenset({"delete", "drain"}))
    if verb in ("apply", "create", "replace") and verbs[1:2] != ["view-last-applied"]:
        _kubectl_manifests(call, verb)
    if verb == "get" and _kubectl_prints_secrets(call.args, verbs[1:]):
        _prints_credentials(call, "kubectl get secrets with an output format")
    elif verb == "get" and _kubectl_raw_secrets(call.args):
        _prints_credentials(call, "kubectl get --raw of a Secret's API path")
    elif verb == "apply" and verbs[1:2] == ["view-last-applied"] and _kubectl_names_secrets(call.args, verbs[2:]):
        # kubectl apply view-last-applied prints the last-applied-configuration annotation, which for a Secret
        # applied with kubectl apply holds its data as given
        _prints_credentials(call, "kubectl apply view-last-applied of a Secret")
    if verb == "create" and verbs[1:2] in (["token"], [None]):
        # kubectl-create-token(1): "Request a service account token", printed on standard output
        _prints_credentials(call, "kubectl create token")
    if verb == "cp":
        positions = _operand_positions(call.args, _KUBECTL_VALUES)
        _copy_here(call, [call.args[p] for p in positions[1:]])
    if verb in ("exec", "run", "debug"):
        _kubectl_inner(call, verb, values)


#: The settings tool whose questions read Kubernetes manifests and Helm charts (bot/risk/manifests.py).
_MANIFESTS = "kubernetes"


def _manifest_items(call: Call, label: str, what: str, question: str) -> None:
    """Grade what the adapter found in the manifest or chart ``question`` names (settings tool ``kubernetes``,
    bot/risk/manifests.py): each risky item, and a manifest that could not be read for certain, is ``destructive``
    on the host (a pod with the node's rights or full control of the cluster, granted outside the sandbox; a
    standing approval never covers it); contained, the control plane's own grade stands (kit ``host_destructive``)."""
    from .projects import settings_lines

    def unreadable(call: Call, rule: str, detail: str) -> None:
        host_destructive(
            call, rule, f"{label}: FlyBot cannot read the {what} ({detail.removeprefix(label + ': ').rstrip('.')})."
        )

    lines = settings_lines(call, _MANIFESTS, label, question, required=True, fail=unreadable)
    for line in (lines or [])[:4]:
        rule = (
            "privilege-grant"
            if any(w in line.command for w in ("bind", "role", "masters", "Webhook"))
            else ("container-host-access")
        )
        host_destructive(call, rule, f"{label}: {shorten(line.command, 120)} ({shorten(line.source, 80)}).")


def _cannot_read(call: Call, label: str, what: str, why: str) -> None:
    host_destructive(call, "recipe-unreadable", f"{label}: FlyBot cannot read the {what} ({why}).")


#: kubectl apply/create/replace options taking a value (kubectl reference for each), besides the global ones.
_KUBECTL_APPLY_VALUES = frozenset({
    "--field-manager", "--selector", "-l", "--template", "--timeout", "--cascade", "--grace-period", "--subresource",
    "--prune-allowlist", "--raw", "--save-config", "--edit-last-applied", "--windows-line-endings",
})  # fmt: skip


def _kubectl_manifests(call: Call, verb: str) -> None:
    """``kubectl apply|create|replace -f FILE|DIR [-R]`` or ``-k DIR``: the manifests are read where the workspace
    holds them (:func:`_manifest_items`); standard input (``-f -``), a URL, a value only known when it runs or a
    file outside the workspace cannot be read: ``destructive`` on the host (kubectl reference, ``--filename``:
    "Filename, directory, or URL to files"; ``--kustomize``: "Process the kustomization directory";
    ``--recursive``: "Process the directory used in -f, --filename recursively")."""
    label = f"kubectl {verb}"
    files: list[Word | None] = []
    kustomizations: list[Word | None] = []
    recursive = False
    words = call.args
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        value = word.value
        if value is None:
            _cannot_read(call, label, "manifest", f"{show(word)} is only known when it runs")
            return
        if value == "--":
            break
        name, eq, attached = value.partition("=")
        if name in ("-f", "--filename", "-k", "--kustomize"):
            taken: Word | None = Word(attached, attached) if eq else (words[index] if index < len(words) else None)
            index += 0 if eq else 1
            (files if name in ("-f", "--filename") else kustomizations).append(taken)
        elif name in ("-R", "--recursive"):
            recursive = attached.lower() not in ("false", "0") if eq else True
        elif value.startswith("-") and not value.startswith("--") and len(value) > 2 and set(value[1:]) & set("fkR"):
            # a cluster of short options (-Rf x, -fx): which file it names is not told apart
            _cannot_read(call, label, "manifest", f"the option {shorten(value, 40)}")
            return
    for taken in files + kustomizations:
        given = None if taken is None else taken.value
        if given is None or given == "-" or "://" in given or not given:
            spelled = "standard input" if given == "-" else show(taken) if taken is not None else "nothing"
            _cannot_read(call, label, "manifest", f"{spelled} is not a file in the workspace")
            return
    for taken in files:
        assert taken is not None and taken.value is not None
        _manifest_items(call, label, "manifest", f"manifest {'-R ' if recursive else ''}{taken.value}")
    for taken in kustomizations:
        assert taken is not None and taken.value is not None
        _manifest_items(call, label, "manifest", f"kustomize {taken.value}")


#: kubectl-kustomize(1) options that run programs or reach past the kustomization's root: ``--enable-helm`` ("Enable
#: use of the Helm chart inflator generator", which runs ``--helm-command``, "helm command (path to executable)"),
#: ``--enable-alpha-plugins`` ("enable kustomize plugins": exec and container KRM functions), ``--enable-exec``
#: ("enable support for exec functions (raw executables)"), ``-e``/``--env`` and ``--mount`` (the functions'
#: environment and host mounts), ``--load-restrictor`` (``LoadRestrictionsNone`` reads files outside the root, a
#: credential among them, into the output). The same set kustomize build takes (catalogue/containers.py).
_KUSTOMIZE_RUNS = ("--enable-helm", "--helm-command", "--enable-alpha-plugins", "--enable-exec", "-e", "--env",
                   "--mount", "--load-restrictor", "--load_restrictor")  # fmt: skip


def _kubectl_kustomize(call: Call) -> bool:
    """``kubectl kustomize`` with an option of :data:`_KUSTOMIZE_RUNS` is destructive (True, graded); its
    ``-o``/``--output PATH`` ("If specified, write output to this path") is a write."""
    words = call.args
    start = next((i for i, w in enumerate(words) if w.value == "kustomize"), len(words))
    for index in range(start + 1, len(words)):
        word = words[index]
        if word.value is None:
            continue
        name, eq, attached = word.value.partition("=")
        if name == "--":
            break
        if name in _KUSTOMIZE_RUNS or (name.startswith("-e") and not name.startswith("--") and len(name) > 2):
            destructive(
                call,
                "runs-program",
                f"kubectl kustomize {name} runs programs (helm, exec or container functions) or reads files outside "
                "the kustomization's root.",
            )
            return True
        if name in ("-o", "--output") or (name.startswith("-o") and not name.startswith("--") and len(name) > 2):
            if eq and name in ("-o", "--output"):
                target: Word | None = Word(attached, attached)
            elif name in ("-o", "--output"):
                target = words[index + 1] if index + 1 < len(words) else None
            else:
                rest = word.value[2:]
                target = Word(rest, rest)
            if target is not None:
                call.write(target, "kubectl kustomize -o writes")
    return False


def _prints_credentials(call: Call, what: str) -> None:
    """``what`` prints credentials or secret values: ``network`` (``secret-read``, which no standing approval
    covers), as reading a credential file is: its output goes to the model."""
    call.flag(R.NETWORK, "secret-read", f"{what} prints credentials: its output goes to the model.")


#: RBAC resources whose subjects or rules decide who may do what (kubectl api-resources, rbac.authorization.k8s.io).
_KUBECTL_RBAC = re.compile(r"(?:cluster)?role(?:binding)?s?(?:\.rbac(?:\.authorization\.k8s\.io)?)?(?:/.*)?")


#: LXD/Incus instance options that give the container the host (LXD "Instance options": ``security.privileged``
#: "Whether to run the instance in privileged mode" (container root is host root), ``security.nesting``,
#: ``raw.lxc``/``raw.apparmor``/``raw.seccomp``/``raw.idmap`` (raw keys: confinement off, every device),
#: ``security.syscalls.intercept.mount``/``.mknod``/``.bpf`` (the host performs them)).
_LXC_HOST_KEYS = ("security.privileged", "security.nesting", "raw.", "security.syscalls.intercept.")


#: qm(1)/pct(1) (Proxmox VE 8) options whose value hands a guest a host path or device, or runs a program on the
#: host: pct ``--mpN [volume=]PATH,mp=DIR`` (a host path is a bind mount), ``--devN [path=]/dev/X`` (device
#: passthrough), ``--rootfs``; qm ``--virtioN``/``--scsiN``/``--sataN``/``--ideN`` ``[file=]/dev/X`` (a host block
#: device as the guest's disk); ``--hookscript`` (a script the host runs at each step of the guest's life) and qm
#: ``--args`` (arguments given to kvm: "for experts only").
_PROXMOX_MOUNTS = re.compile(r"^--?(?:mp\d+|dev\d+|rootfs|virtio\d+|scsi\d+|sata\d+|ide\d+|efidisk\d+|tpmstate\d+)$")
_PROXMOX_RUNS = frozenset({"--hookscript", "-hookscript", "--args", "-args"})


def hypervisor_host(base: Handler) -> Handler:
    """qm, pct and virsh handing a guest the host. qm(1)/pct(1): :data:`_PROXMOX_MOUNTS` values naming a host path
    (``/``, a home, a system tree, the workspace's parent: as a container's bind mount) or a ``/dev`` device, and
    :data:`_PROXMOX_RUNS`, are destructive (``container-host-access``, ``runs-program``). virsh(1):
    ``attach-disk DOMAIN SOURCE`` with a host device (``/dev/sda``) gives the guest the host's disk
    (``container-host-access``); ``define``/``create FILE`` with a domain XML outside the workspace (or only known when
    it runs) starts what FlyBot never read (``<qemu:commandline>`` runs any emulator arguments, ``<hostdev>`` passes
    devices): destructive (``project-outside-workspace``)."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        values = [w.value for w in words]
        if call.name == "virsh":
            operands = [w for w in words if w.value is None or not w.value.startswith("-")]
            verb = operands[0].value if operands else None
            if verb == "attach-disk" and len(operands) >= 3:
                source = operands[2].value
                if source is None or source.startswith("/dev/"):
                    destructive(
                        call,
                        "container-host-access",
                        f"virsh attach-disk {show(operands[2])} gives the guest the host's disk.",
                    )
            elif verb in ("define", "create") and len(operands) >= 2:
                file = operands[1]
                if file.value is None or call.where(file) is not Where.WORKSPACE:
                    destructive(
                        call,
                        "project-outside-workspace",
                        f"virsh {verb} {show(file)} makes a guest from a domain XML outside the workspace (or only "
                        "known when it runs): emulator arguments and devices FlyBot never read.",
                    )
            return
        for index, value in enumerate(values):
            if value is None:
                continue
            name, eq, attached = value.partition("=")
            if name in _PROXMOX_RUNS:
                destructive(
                    call,
                    "runs-program",
                    f"{call.name} {name} makes the host run a program (a hook script, kvm arguments) of the "
                    "caller's choosing.",
                )
                return
            if not _PROXMOX_MOUNTS.match(name):
                continue
            spec = attached if eq else (values[index + 1] if index + 1 < len(values) else "")
            if spec is None:
                destructive(call, "container-host-access", f"{call.name} {name}: a volume only known when it runs.")
                return
            fields = spec.split(",")
            source = next((f.partition("=")[2] for f in fields if f.startswith(("volume=", "path=", "file="))), "")
            source = source or (fields[0] if "=" not in fields[0] else "")
            if source.startswith("/dev/"):
                reason: str | None = f"{name} {spec} passes the host's {source} to the guest"
            else:
                reason = _host_source(call, name, spec, source)
            if reason is not None:
                destructive(call, "container-host-access", f"{call.name} {reason}.")
                return

    handler.__name__ = "hypervisor_host"
    return handler


def lxc_host_keys(base: Handler) -> Handler:
    """lxc/incus: setting one of :data:`_LXC_HOST_KEYS` (``config set C KEY VALUE``, ``KEY=VALUE``, ``launch -c
    KEY=VALUE``, ``profile set``) to anything but false hands the container the host (container-host-access);
    ``file pull``'s target is written over, as ``cp``'s destination is (outside the workspace: destructive)."""

    def handler(call: Call) -> None:
        base(call)
        values = [w.value for w in call.args]
        if values[:1] in (["list"], ["ls"], ["info"]) or any(v in ("get", "show") for v in values[:2]):
            return
        if values[:2] == ["file", "pull"]:
            # lxc-file-pull(1)/incus file pull SOURCE... TARGET (-r: directories): the files are written over what
            # TARGET holds on this machine, as cp does
            operands = [w for w in call.args[2:] if w.value is None or not w.value.startswith("-")]
            if len(operands) >= 2:
                call.write(operands[-1], f"{call.name} file pull writes", replaces=True)
            return
        for index, value in enumerate(values):
            if value is None:
                continue
            key, eq, setting = value.partition("=")
            if not key.startswith(_LXC_HOST_KEYS):
                continue
            if not eq:
                setting = values[index + 1] or "" if index + 1 < len(values) else ""
            if setting.strip().lower() in ("false", "0", "no", ""):
                continue
            destructive(
                call,
                "container-host-access",
                f"{call.name} sets {key}: a privileged or unconfined instance whose root is the host's root.",
            )
            return

    handler.__name__ = "lxc_host_keys"
    return handler


def _compose_config_secrets(call: Call) -> None:
    """``docker compose config`` prints the compose model with every ``${VAR}`` interpolated from this shell's
    environment, secrets too, and ``--environment`` prints that whole environment (docker compose config reference:
    "--environment: Print environment used for interpolation"); the output goes to the model, as ``env``'s. Only
    the names (``--services``, ``--volumes``, ``--profiles``, ``--images``, ``--networks``, ``--hash``), ``-q``
    and ``-o FILE`` print none."""
    values = [w.value for w in call.args]
    quiet = {"--services", "--volumes", "--profiles", "--images", "--networks", "--hash", "-q", "--quiet",
             "--no-interpolate", "-o", "--output"}  # fmt: skip
    if "--environment" not in values and any(v is not None and v.split("=", 1)[0] in quiet for v in values):
        return
    _prints_credentials(call, f"{call.name} compose config (the environment interpolated)")


#: kubectl verbs whose ``--dry-run=client|server`` persists nothing (kubectl reference: each lists the option).
_KUBECTL_DRY_RUNS = frozenset({
    "apply", "create", "delete", "patch", "replace", "annotate", "label", "set", "expose", "autoscale", "scale",
    "taint",
})  # fmt: skip


def _kubectl_dry_run(words: list[Word]) -> bool:
    """True when the last ``--dry-run`` among ``words`` (before ``--``) is ``client``, ``server``, ``true`` (the
    deprecated spelling of client) or bare (kubectl: "--dry-run is deprecated and can be replaced with
    --dry-run=client"), and no word is only known when it runs (it may be ``--dry-run=none``)."""
    last: str | None = None
    for word in words:
        if word.value is None:
            return False
        if word.value == "--":
            break
        name, eq, value = word.value.partition("=")
        if name == "--dry-run":
            last = value if eq else "client"
    return last in ("client", "server", "true")


def _kubectl_listens_openly(words: list[Word]) -> bool:
    """True when ``--address`` (a comma-separated list) names an address that is not this machine's loopback."""
    from .net import open_bind

    for index, word in enumerate(words):
        value = word.value
        if value is None:
            continue
        name, eq, attached = value.partition("=")
        if name != "--address":
            continue
        given = attached if eq else (words[index + 1].value if index + 1 < len(words) else "")
        if given is None or any(open_bind(a.strip()) for a in given.split(",")):
            return True
    return False


def _kubectl_grant(call: Call, verbs: list[str | None], values: list[str]) -> bool:
    """True (after a destructive ``privilege-grant``) when the command changes who may do what in the cluster:
    ``set subject`` (kubectl-set-subject(1): "Update the user, group, or service account in a role binding or
    cluster role binding"), ``patch``/``edit``/``replace`` of a (cluster) role or binding (its rules or subjects),
    ``auth reconcile --remove-extra-subjects``/``--remove-extra-permissions`` and ``certificate approve``
    (kubectl-certificate-approve(1): the signer issues the client certificate the request asks for, which may
    name the ``system:masters`` group). A ``--dry-run`` only prints."""
    if any(v.startswith("--dry-run") and v != "--dry-run=none" for v in values):
        return False
    verb = verbs[0]
    kind = verbs[1] if len(verbs) > 1 else ""
    what: str | None = None
    if verb == "set" and kind in ("subject", None):
        what = "kubectl set subject adds users, groups or service accounts to a role binding"
    elif verb in ("patch", "edit", "replace") and (kind is None or _KUBECTL_RBAC.fullmatch(kind.lower())):
        what = f"kubectl {verb} {kind or '(a resource only known when it runs)'} changes a role's rules or a binding's subjects"
    elif (
        verb == "auth"
        and kind == "reconcile"
        and any(
            v.split("=", 1)[0] in ("--remove-extra-subjects", "--remove-extra-permissions") and not v.endswith("=false")
            for v in values
        )
    ):
        what = "kubectl auth reconcile --remove-extra-* rewrites roles and bindings to the file's"
    elif verb == "certificate" and kind in ("approve", None):
        what = "kubectl certificate approve lets the signer issue the client certificate asked for (any group)"
    elif verb in ("label", "annotate") and any(
        v.lower().startswith("pod-security.kubernetes.io/") and v.lower().endswith("=privileged") for v in values
    ):
        # Kubernetes "Pod Security Admission": the privileged level is "entirely unrestricted" (host namespaces,
        # privileged containers, hostPath mounts) for every pod the namespace admits
        what = f"kubectl {verb} sets a namespace's Pod Security level to privileged (host access for its pods)"
    if what is None:
        return False
    call.flag(R.DESTRUCTIVE, "privilege-grant", f"{what}: a security-critical change outside the sandbox.")
    return True


#: kubectl get output formats that print only names or the table (kubectl reference, "Output options": ``-o name``,
#: ``-o wide``; a Secret's table shows its type and number of keys, never their values). Every other format
#: (``yaml``, ``json``, ``jsonpath=``, ``go-template=``, ``custom-columns=``, ``template``) prints the data.
_KUBECTL_TABLE_OUTPUTS = frozenset({"name", "wide"})
#: kubectl get's short options (its own and kubectl's global ones, kubectl reference) that take a value: in a cluster
#: of short options (``-Ao yaml``, ``-Aojson``) the rest of the word, or the next one, is that value.
_KUBECTL_SHORT_VALUES = frozenset("oflnkLsvc")
#: Options that choose the objects by a file or kustomization (kubectl get ``-f``/``--filename``,
#: ``-k``/``--kustomize``): a Secret among them is only known from the files, which FlyBot does not read.
_KUBECTL_FILE_OPTIONS = ("-f", "--filename", "-k", "--kustomize")


def _kubectl_secret_resource(text: str) -> bool:
    """True when ``text`` (a ``kubectl get`` operand: ``TYPE[.VERSION[.GROUP]][/NAME]``, types joined by ``,``)
    names the Secret resource: ``secrets``, ``secret``, ``Secret``, ``secret/db``, ``secrets.v1.``, ``secret.v1``,
    ``all,secrets`` (kubectl api-resources: ``secrets``, no short name; a type is matched by its name before the
    first ``.``, so a resource of another group spelled ``secrets.GROUP`` counts too: fail closed)."""
    return any(part.split("/", 1)[0].split(".", 1)[0].lower() in ("secret", "secrets") for part in text.split(","))


def _kubectl_names_secrets(words: list[Word], operands: list[str | None]) -> bool:
    """True when a kubectl command's ``operands`` name Secrets (any operand: ``secrets``, ``cm/a secret/b``), one is
    only known when it runs, or the objects come from files (:data:`_KUBECTL_FILE_OPTIONS`)."""
    if any(kind is None or _kubectl_secret_resource(kind) for kind in operands):
        return True
    for word in words:
        value = word.value
        if value == "--":
            break
        if value is not None and (
            value in _KUBECTL_FILE_OPTIONS
            or value.startswith(tuple(f"{option}=" for option in _KUBECTL_FILE_OPTIONS))
            or (value.startswith("-f") and not value.startswith("--"))
            or (value.startswith("-k") and not value.startswith("--"))
        ):
            return True
    return False


def _kubectl_prints_secrets(words: list[Word], operands: list[str | None]) -> bool:
    """True when ``kubectl get OPERANDS`` names Secrets (:func:`_kubectl_names_secrets`) with an output format that
    prints their data (:data:`_KUBECTL_TABLE_OUTPUTS`): ``-o FORMAT``, ``-oFORMAT``, ``-o=FORMAT``, in a cluster of
    short options (``-Ao yaml``), ``--output FORMAT``, ``--output=FORMAT``, ``--template``."""
    if not _kubectl_names_secrets(words, operands):
        return False
    formats: list[str | None] = []
    for index, word in enumerate(words):
        value = word.value
        following = words[index + 1].value if index + 1 < len(words) else ""
        if value is None:
            formats.append(None)
        elif value == "--":
            break
        elif value == "--output":
            formats.append(following)
        elif value.startswith("--output="):
            formats.append(value.split("=", 1)[1])
        elif value.startswith("--template"):
            formats.append("template")
        elif value.startswith("-") and not value.startswith("--"):
            for position, letter in enumerate(value[1:], start=2):
                if letter == "o":
                    formats.append(value[position:].lstrip("=") or following)
                if letter in _KUBECTL_SHORT_VALUES:
                    break
    return any(f is None or f.split("=", 1)[0] not in _KUBECTL_TABLE_OUTPUTS for f in formats)


def _kubectl_raw_secrets(words: list[Word]) -> bool:
    """True when ``kubectl get --raw PATH`` may request Secrets (the API path names ``secrets``, holds a ``%``
    escape, or is only known when it runs): the server's answer, the Secrets' data, is printed as is."""
    for index, word in enumerate(words):
        value = word.value
        if value == "--raw":
            path = words[index + 1].value if index + 1 < len(words) else ""
        elif value is not None and value.startswith("--raw="):
            path = value[len("--raw=") :]
        elif value is None and "--raw" in word.src:
            return True
        else:
            continue
        if path is None or "secret" in path.lower() or "%" in path:
            return True
    return False


#: ClusterRoles that give everything (Kubernetes "Using RBAC Authorization", "User-facing roles": cluster-admin
#: "allows super-user access to perform any action on any resource"; bound cluster-wide by a ClusterRoleBinding,
#: in a namespace by a RoleBinding; admin "allows admin access ... within a namespace", including creating roles
#: and role bindings there).
_KUBECTL_SUPERUSER_ROLES = frozenset({"cluster-admin", "admin"})


def _kubectl_granted_role(words: list[Word]) -> str | None:
    """The role ``kubectl create clusterrolebinding|rolebinding`` binds (``--clusterrole NAME``, ``--role NAME``,
    attached with ``=`` or not), ``""`` when none is named, or None when one is only known when it runs."""
    for index, word in enumerate(words):
        value = word.value
        if value is None:
            if "--clusterrole" in word.src or "--role" in word.src:
                return None
            continue
        name, eq, attached = value.partition("=")
        if name not in ("--clusterrole", "--role"):
            continue
        if eq:
            return attached
        following = words[index + 1] if index + 1 < len(words) else None
        return following.value if following is not None else ""
    return ""


def _kubectl_inner(call: Call, verb: str, values: list[str]) -> None:
    """kubectl exec/run/debug: host-handing options, then the command after ``--`` (kubectl reference)."""
    words = call.args
    end = values.index("--") if "--" in values else len(values)
    for value in values[:end]:
        name, _, attached = value.partition("=")
        if name in ("--privileged", "--overrides") or (
            verb == "debug"
            and (value.startswith("node/") or (name == "--profile" and attached in ("sysadmin", "legacy")))
        ):
            destructive(
                call,
                "container-host-access",
                f"kubectl {verb} {value} gives the pod the node (privileges, host namespaces or files).",
            )
            return
    if verb == "debug" and "--profile" in values[:end]:
        profile = values[values.index("--profile") + 1] if values.index("--profile") + 1 < end else ""
        if profile in ("sysadmin", "legacy"):
            destructive(
                call, "container-host-access", f"kubectl debug --profile {profile} runs a privileged container."
            )
            return
    if end < len(values):
        reliable = verb == "exec" or (verb == "run" and "--command" in values[:end])
        _inner(call, words[end + 1 :], f"kubectl {verb}", reliable=reliable)
    elif verb == "exec":
        operands = _operand_positions(words, _KUBECTL_VALUES | {"--pod-running-timeout"})
        if len(operands) >= 3:  # exec POD COMMAND... (the deprecated form without --)
            _inner(call, words[operands[2] :], "kubectl exec", reliable=False)


_DOCKER_VALUES = frozenset(
    {"-H", "--host", "--context", "-c", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"}
)
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
#: compose subcommands that create or start containers from the compose file (Docker's "docker compose" reference).
_COMPOSE_STARTS = frozenset({"up", "create", "start", "restart", "watch", "run"})
_DOCKER_GROUPS = frozenset({
    "container", "image", "volume", "network", "system", "builder", "buildx", "context", "node", "service",
    "stack", "swarm", "secret", "config", "plugin", "trust", "manifest", "compose",
})  # fmt: skip


#: docker plugin install/upgrade/create/enable/set (docker-plugin-install(1), docker-plugin-set(1): a managed plugin
#: runs inside the daemon with the privileges it requests, ``--grant-all-permissions`` grants them, ``set`` changes
#: its mounts and devices; an enabled plugin is started with the daemon).
_PLUGIN_LOADS = frozenset({"install", "upgrade", "create", "enable", "set"})
_PODMAN_RUNS = ("--hooks-dir", "--runtime", "--conmon", "--module", "--network-cmd-path", "--storage-opt")
#: The global options, per engine, that make it run or load programs of the caller's choosing, which it takes after
#: the subcommand too (:func:`_engine_loads`): podman's (:data:`_PODMAN_RUNS`), and nerdctl's ``--cni-path`` (nerdctl
#: cmd/nerdctl/main.go, a persistent flag: "cni plugins binary directory", whose plugins run as root to set up every
#: container's network).
_ENGINE_RUNS = {"podman": _PODMAN_RUNS, "nerdctl": ("--cni-path",)}


def _docker_outputs(call: Call) -> None:
    """``docker save|export -o FILE`` and ``docker build -o PATH`` / ``--output type=local,dest=PATH`` write on
    this machine (docker-save(1), docker-export(1), docker-build(1) "--output"): a write to that path."""
    words = call.args
    for index, word in enumerate(words):
        value = word.value or ""
        name, eq, attached = value.partition("=")
        if name not in ("-o", "--output"):
            continue
        target = literal_word(attached) if eq else (words[index + 1] if index + 1 < len(words) else None)
        if target is None:
            continue
        spec = target.value
        if spec is not None and ("dest=" in spec or spec.startswith("type=")):
            dest = next((part[len("dest=") :] for part in spec.split(",") if part.startswith("dest=")), None)
            if dest is None:
                continue
            target = literal_word(dest)
        call.write(target, f"{call.name} {name} writes")


def docker(call: Call) -> None:
    """docker: reads are network, changes system, rm/rmi/prune/down destructive (management groups unwrapped);
    run/create/exec grade the command run in the container."""
    flags = _DOCKER_VALUES | _KUBECTL_VALUES
    for word in call.args:
        value = word.value or ""
        if not value.startswith("-"):
            break
        name = value.split("=", 1)[0]
        if name == "--config" or (call.name == "podman" and name in _PODMAN_RUNS):
            destructive(
                call,
                "runs-program",
                f"{call.name} {name} makes it load programs (plugins, hooks, runtimes) of the caller's choosing.",
            )
            return
    verbs = _verbs(call.args, flags)
    if verbs[:1] == ["compose"]:
        # docker compose's own options before its command take a value too (-p NAME, --ansi never): the command is
        # the word after them, not the value
        flags = flags | _COMPOSE_VALUES
        verbs = _verbs(call.args, flags)
    if verbs[:1] == ["build"] or verbs[:2] in (["image", "build"], ["buildx", "build"]):
        verbs = _verbs(_without_build_values(call.args), flags)
    _docker_verbs(call, verbs)
    if verbs[:2] in (["context", "use"], ["context", "create"], ["context", "update"], ["context", "import"]) and (
        verbs[2:3] != ["default"] or verbs[1] != "use"
    ):
        # docker context use (docker-context-use(1)) sets the context every later docker command talks to; create,
        # update and import make one a later use or --context picks: later commands then act on another engine
        call.flag(
            R.DESTRUCTIVE,
            "remote-control-plane",
            f"{call.name} context {verbs[1]} chooses the engine later {call.name} commands talk to: what they run, "
            "copy and mount then happens on another machine, under approvals given for this one.",
        )
    if verbs[:1] == ["compose"]:
        at = next(i for i, w in enumerate(call.args) if w.value == "compose")
        _compose_restarts(call, call.args[at + 1 :], f"{call.name} compose")
    elif verbs[:2] in (["service", "create"], ["stack", "deploy"], ["stack", "up"]):
        _swarm_restarts(call, verbs)
    if verbs[:2] == ["volume", "create"]:
        _volume_device(call)
    if any(v in ("save", "export", "build") for v in verbs):
        _docker_outputs(call)
    if call.name == "podman" and verbs[:1] == ["generate"]:
        _generate_outputs(call)
    positions = _operand_positions(call.args, flags)
    if len(positions) >= 2 and call.args[positions[0]].value in ("container", "compose"):
        group, verb_at = call.args[positions[0]].value, positions[1]
    elif positions:
        group, verb_at = None, positions[0]
    else:
        return
    verb = call.args[verb_at].value
    rest = call.args[verb_at + 1 :]
    if call.name in _ENGINE_RUNS and (group == "compose" or verb not in ("run", "create", "exec")):
        # the engine's global options are persistent flags, taken after the subcommand too (_engine_loads); run,
        # create and exec are read up to the image by _container, as the words after it are the container's command
        for word in rest:
            if word.value == "--":
                break
            name = (word.value or "").split("=", 1)[0]
            if name in _ENGINE_RUNS[call.name]:
                _engine_loads(call, name)
                return
    if group == "compose":
        if verb in ("run", "exec"):
            _container(
                call,
                rest,
                f"{call.name} compose {verb}",
                _COMPOSE_RUN if verb == "run" else _COMPOSE_EXEC,
                reliable=verb == "exec",
            )
    elif verb in ("run", "create"):
        _container(call, rest, f"{call.name} {verb}", _DOCKER_RUN, reliable=False)
    elif verb == "exec":
        _container(call, rest, f"{call.name} exec", _DOCKER_EXEC, reliable=True)
    elif verb == "cp":
        _copy_here(call, [call.args[p] for p in positions if p > verb_at])
    elif verb == "update":
        _update_restart(call, rest, f"{call.name} update")
    if verbs[:2] in (["buildx", "create"], ["builder", "create"]):
        create_at = next(p for p in positions if call.args[p].value == "create")
        _buildx_create(call, call.args[create_at + 1 :], f"{call.name} {verbs[0]} create")
    if "build" in verbs[:3]:
        build_at = next(p for p in positions if call.args[p].value == "build")
        _docker_build(call, call.args[build_at + 1 :], f"{call.name} build")
    elif "bake" in verbs[:3]:
        bake_at = next(p for p in positions if call.args[p].value == "bake")
        _docker_bake(call, call.args[bake_at + 1 :], f"{call.name} buildx bake")


def _update_restart(call: Call, words: list[Word], wrapper: str) -> None:
    """``docker update --restart POLICY`` (docker-container-update(1)) sets a container's restart policy."""
    for index, word in enumerate(words):
        value = word.value
        if value is None:
            _restart_policy(call, None, wrapper)  # it may be --restart=always
        elif value == "--":
            return
        elif value == "--restart":
            _restart_policy(call, words[index + 1] if index + 1 < len(words) else None, wrapper)
        elif value.startswith("--restart="):
            attached = value.partition("=")[2]
            _restart_policy(call, Word(attached, attached), wrapper)


def _restart_policy(call: Call, policy: Word | None, wrapper: str) -> None:
    """A restart policy other than ``no`` (docker run reference, "Restart policies (--restart)": ``always``,
    ``unless-stopped``, ``on-failure[:N]``; podman-run(1) ``--restart``) makes the engine start the container again
    when it stops and when the engine starts, at every boot: persistence, graded as ``systemctl enable`` is
    (destructive). The engine runs outside the sandbox, so it is not downgraded. A policy only known when it runs
    counts as one."""
    text = policy.value if policy is not None else ""
    if text is not None and text.strip().lower() in ("", "no"):
        return
    shown = show(policy) if policy is not None else "?"
    call.flag(
        R.DESTRUCTIVE,
        "persistence",
        f"{wrapper} --restart {shown} makes the engine start the container again at every boot: code that runs at "
        "every boot, persistence the owner must see.",
    )


def _generate_outputs(call: Call) -> None:
    """``podman generate systemd --files`` writes the unit files where it runs and ``podman generate kube
    -f/--filename FILE`` writes FILE (podman-generate-systemd(1), podman-generate-kube(1)); without them they print."""
    words = call.args
    if any(w.value == "--files" for w in words):
        call.write(literal_word("."), "podman generate systemd --files writes unit files into")
    for index, word in enumerate(words):
        name, eq, attached = (word.value or "").partition("=")
        if name in ("-f", "--filename"):
            target = literal_word(attached) if eq else (words[index + 1] if index + 1 < len(words) else None)
            if target is not None:
                call.write(target, f"podman generate {name} writes")


def _volume_device(call: Call) -> None:
    """``docker volume create -o device=PATH`` (the local driver mounts PATH, with ``o=bind`` a bind mount: docker
    volume create "Driver-specific options"): a container given the volume gets that host path."""
    words = call.args
    for index, word in enumerate(words):
        value = word.value
        if value is None:
            destructive(call, "dynamic-argument", f"{show(word)} may be a volume option that mounts a host path.")
            return
        option: str | None = None
        if value in ("-o", "--opt") and index + 1 < len(words):
            option = words[index + 1].value
            if option is None:
                destructive(
                    call,
                    "dynamic-argument",
                    f"{show(words[index + 1])} may be a volume option that mounts a host path.",
                )
                return
        elif value.startswith("--opt="):
            option = value[len("--opt=") :]
        elif value.startswith("-o") and len(value) > 2:
            option = value[2:].removeprefix("=")
        if option is not None and option.strip().lower().startswith("device="):
            reason = _host_source(call, "--opt", option, option.partition("=")[2])
            if reason is not None:
                destructive(call, "container-host-access", f"{call.name} volume create {reason}.")
                return


def _copy_here(call: Call, operands: list[Word]) -> None:
    """``docker cp CONTAINER:SRC DEST`` and ``kubectl cp POD:SRC DEST`` (docker-container-cp(1), kubectl cp): a
    destination without ``CONTAINER:``/``POD:`` is a path on this machine, written as ``cp`` would write it."""
    if len(operands) < 2:
        return
    dest = operands[-1]
    source = operands[0]
    if source.value is None or (":" not in source.value and source.value != "-"):
        # docker-container-cp(1)/kubectl cp copy a local directory recursively: every file below it is read
        call.g.read_below(call.rec, call.scope, f"{call.name} cp", source, None)
    if dest.value is None or (":" not in dest.value and dest.value != "-"):
        call.write(dest, f"{call.name} cp writes", replaces=True)
        if (operands[0].value or "").endswith("/.") and call.g.at_workspace_root(dest):
            # docker-container-cp(1): "SRC_PATH does end with /. ... the content of the source directory is copied
            # into this directory": files only the container names, .git/config among them
            unpacks(call, dest, f"{call.name} cp copies the files its source names into")


#: ``docker compose`` options taking a value (Docker's "docker compose" reference).
_COMPOSE_VALUES = frozenset({
    "-f", "--file", "-p", "--project-name", "--project-directory", "--env-file", "--profile", "--ansi", "--progress",
    "--parallel",
})  # fmt: skip


#: ``docker compose`` queries of the local engine's state, as ``docker ps``/``logs``/``top``/``port``/``images`` are
#: (Docker's "docker compose" reference: ps lists the project's containers, logs prints their output, ls the running
#: projects, version the client's version). Each but ls and version first loads the project's compose files, whose
#: ``include:`` (and ``-f``) may name remote resources (``oci://``, a git URL: Compose "Use a remote resource",
#: Compose 2.34 OCI artifacts) fetched as they load.
_COMPOSE_LOCAL_READS = frozenset({"ps", "logs", "top", "port", "images", "ls", "version"})
#: Prefixes of a compose file named by ``-f`` that Compose fetches from another machine.
_COMPOSE_REMOTE_FILE = ("oci:", "git@", "git:", "http:", "https:", "ssh:")


def _compose_config_reaches_out(call: Call) -> bool:
    """True when ``docker compose config`` does more than render: ``-o``/``--output`` writes a file, and
    ``--resolve-image-digests``/``--lock-image-digests`` ask the registry for each image's digest (docker compose
    config reference)."""
    out = ("-o", "--output", "--resolve-image-digests", "--lock-image-digests")
    return any(w.value is None or w.value.split("=", 1)[0] in out or w.value.startswith("-o") for w in call.args)


def _compose_config_output(call: Call) -> None:
    """``docker compose config -o FILE``/``--output FILE``: "Save to file (default to stdout)" (docker compose config
    reference), graded as a write that replaces FILE."""
    words = call.args
    for index, word in enumerate(words):
        value = word.value
        if value is None:
            continue
        name, eq, attached = value.partition("=")
        if name in ("-o", "--output"):
            target = Word(attached, attached) if eq else words[index + 1] if index + 1 < len(words) else None
        elif value.startswith("-o") and len(value) > 2:
            target = Word(value[2:], value[2:])
        else:
            continue
        if target is not None:
            call.write(target, "docker compose config -o writes", replaces=True)


def _compose_local_read(call: Call, sub: str) -> bool:
    """True (graded read_only, or destructive when the compose files could not be read) when ``docker compose SUB``
    (:data:`_COMPOSE_LOCAL_READS`, and ``config``) only reads the local engine's state: the client is not pointed at another engine
    (-H, --context), no word is only known when it runs, ``-f`` names no remote file, neither ``--project-directory``
    nor ``--env-file`` chooses other files, and the compose files it loads pull in no others (settings.py
    ``_compose_restarts`` refuses ``include:`` and ``extends: file:``, as the adapter reports them)."""
    values = [w.value for w in call.args]
    if any(v is None or v.split("=", 1)[0] in _DOCKER_ELSEWHERE for v in values):
        return False
    words = call.args[values.index("compose") + 1 :] if "compose" in values else call.args
    files: list[str] = []
    index = 0
    while index < len(words):
        value = words[index].value or ""
        index += 1
        if not value.startswith("-"):
            break
        name, eq, attached = value.partition("=")
        if name in ("--project-directory", "--env-file"):
            return False
        if name in _COMPOSE_VALUES:
            taken = attached if eq else (words[index].value or "" if index < len(words) else "")
            index += 0 if eq else 1
            if name in ("-f", "--file"):
                files.append(taken)
        elif value.startswith("-f") and len(value) > 2:
            files.append(value[2:])
    if any(not f or f == "-" or f.startswith(_COMPOSE_REMOTE_FILE) or "://" in f for f in files):
        return False
    label = f"{call.name} compose {sub}" if call.name == "docker" or call.name == "podman" else f"{call.name} {sub}"
    if sub not in ("ls", "version"):
        from .projects import configured_options

        for question in [f"file {f}" for f in files] or [""]:
            if configured_options(call, "compose", label, question) is None:
                return True
    if sub == "config":
        # docker compose config: "Parse, resolve and render compose file in canonical format" (docker compose
        # config reference): it reads the compose files and asks no engine
        call.flag(R.READ_ONLY, "read-only", f"{label} only renders the local compose files.")
    else:
        call.flag(R.READ_ONLY, "read-only", f"{label} only reads the local engine's state.")
    return True


def _compose_restarts(call: Call, words: list[Word], label: str) -> None:
    """``docker compose [OPTIONS] up|create|start|restart|watch|run``: the restart policies of the compose files it
    reads (settings.py ``_compose_restarts``: a service's ``restart:`` other than ``no``, any
    ``deploy.restart_policy``), as the recipe book answers them (the adapter reads the files and sends what it
    found), are persistence, as ``docker run --restart`` is (:func:`_restart_policy`). The files ``-f`` names, else
    the default ones where it runs; ``--project-directory``, ``--env-file``, ``-f -`` or a file only known when it
    runs: which files it reads is not looked up (destructive)."""
    files: list[Word] = []
    verb: str | None = None
    unknown: str | None = None
    index = 0
    while index < len(words):
        word = words[index]
        value = word.value
        index += 1
        if value is None:
            return  # graded by _docker_verbs (a word only known when it runs)
        if not value.startswith("-"):
            verb = value
            break
        name, eq, attached = value.partition("=")
        if name in _COMPOSE_VALUES:
            taken = Word(attached, attached) if eq else (words[index] if index < len(words) else Word(None, ""))
            index += 0 if eq else 1
            if name in ("-f", "--file"):
                files.append(taken)
            elif name in ("--project-directory", "--env-file"):
                unknown = name
        elif value.startswith("-f") and len(value) > 2:
            files.append(Word(value[2:], value[2:]))
    if verb not in _COMPOSE_STARTS:
        return
    call.flag(
        R.DESTRUCTIVE,
        "container-host-access",
        f"docker compose {verb} starts the containers the compose file describes, "
        "which FlyBot does not read: it may run them privileged or mount / or the home directory.",
    )
    if unknown is not None or any(f.value is None or f.value == "-" for f in files):
        call.flag(
            R.DESTRUCTIVE,
            "persistence",
            f"{label} {verb}: which compose files it reads ({unknown or 'a file only known when it runs'}) is not "
            "looked up, and a service's restart policy makes the engine start it again at every boot.",
        )
        return
    from .projects import configured_options

    questions = [f"file {f.value}" for f in files] or [""]
    for question in questions:
        policies = configured_options(call, "compose", f"{label} {verb}", question)
        for policy in policies or []:
            call.flag(
                R.DESTRUCTIVE,
                "persistence",
                f"{label} {verb} starts a service with {shorten(policy, 80)}: the engine starts it again at every "
                "boot, code that runs at every boot, persistence the owner must see.",
            )
        if policies is None:
            return


def _swarm_restarts(call: Call, verbs: list[str | None]) -> None:
    """A swarm service runs until it is removed, and the swarm starts it again after a failure or a reboot
    (docker-service-create(1) ``--restart-condition``: ``any``, the default, ``on-failure``, ``none``; a stack's
    services take the compose file's ``deploy.restart_policy``, condition ``any`` by default): persistence, as
    ``docker run --restart always`` is, unless ``service create --restart-condition none``."""
    values = [w.value for w in call.args]
    for index, value in enumerate(values):
        if value == "--restart-condition" and index + 1 < len(values) and values[index + 1] == "none":
            return
        if value == "--restart-condition=none":
            return
    call.flag(
        R.DESTRUCTIVE,
        "persistence",
        f"{call.name} {' '.join(v or '?' for v in verbs[:2])} starts a service the swarm starts again after a failure "
        "or a reboot: code that runs at every boot, persistence the owner must see.",
    )


def docker_compose(call: Call) -> None:
    """docker-compose (v1 spelling of ``docker compose``)."""
    flags = _DOCKER_VALUES | _COMPOSE_VALUES
    verbs: list[str | None] = ["compose"]
    _docker_verbs(call, verbs + _verbs(call.args, flags))
    _compose_restarts(call, call.args, "docker-compose")
    positions = _operand_positions(call.args, flags)
    if positions and call.args[positions[0]].value in ("run", "exec"):
        verb = call.args[positions[0]].value
        table = _COMPOSE_RUN if verb == "run" else _COMPOSE_EXEC
        _container(call, call.args[positions[0] + 1 :], f"docker-compose {verb}", table, reliable=verb == "exec")


def _operand_positions(words: list[Word], value_flags: frozenset[str]) -> list[int]:
    """Indexes of the non-option words (as :func:`_verbs` sees them)."""
    out: list[int] = []
    skip = False
    for index, word in enumerate(words):
        value = word.value
        if skip:
            skip = False
        elif value is not None and value.startswith("-"):
            skip = "=" not in value and value in value_flags
        else:
            out.append(index)
    return out


class _Options:
    """A container command's options: long/short ones taking a value, and flags."""

    __slots__ = ("long_flags", "long_values", "short_flags", "short_values")

    def __init__(self, short_values: str, short_flags: str, long_values: str, long_flags: str) -> None:
        self.short_values = short_values
        self.short_flags = short_flags
        self.long_values = frozenset(long_values.split())
        self.long_flags = frozenset(long_flags.split())


# docker container run/create reference (docs.docker.com/reference/cli/docker/container/run).
_DOCKER_RUN = _Options(
    "acehlmpuvw", "dinPqt",
    "--add-host --annotation --attach --blkio-weight --blkio-weight-device --cap-add --cap-drop --cgroup-parent "
    "--cgroupns --cidfile --cpu-count --cpu-percent --cpu-period --cpu-quota --cpu-rt-period --cpu-rt-runtime "
    "--cpu-shares --cpus --cpuset-cpus --cpuset-mems --detach-keys --device --device-cgroup-rule --device-read-bps "
    "--device-read-iops --device-write-bps --device-write-iops --dns --dns-option --dns-search --domainname "
    "--entrypoint --env --env-file --expose --gpus --group-add --health-cmd --health-interval --health-retries "
    "--health-start-interval --health-start-period --health-timeout --hostname --io-maxbandwidth --io-maxiops --ip "
    "--ip6 --ipc --isolation --kernel-memory --label --label-file --link --link-local-ip --log-driver --log-opt "
    "--mac-address --memory --memory-reservation --memory-swap --memory-swappiness --mount --name --network --net "
    "--network-alias --net-alias --oom-score-adj --pid --pids-limit --platform --publish --pull --restart --runtime "
    "--security-opt --shm-size --stop-signal --stop-timeout --storage-opt --sysctl --tmpfs --ulimit --user --userns "
    "--uts --volume --volume-driver --volumes-from --workdir",
    "--detach --interactive --tty --rm --privileged --publish-all --read-only --init --no-healthcheck "
    "--oom-kill-disable --sig-proxy --quiet --disable-content-trust --use-api-socket --rootfs",
)  # fmt: skip
# docker container exec reference.
_DOCKER_EXEC = _Options(
    "euw", "dit", "--detach-keys --env --env-file --user --workdir", "--detach --interactive --tty --privileged"
)
# docker compose run / exec reference.
_COMPOSE_RUN = _Options(
    "elpuvw", "diPTt",
    "--env --label --name --publish --user --volume --workdir --entrypoint --pull --cap-add --cap-drop --env-from-file",
    "--detach --rm --interactive --no-TTY --tty --no-deps --service-ports --use-aliases --build --remove-orphans "
    "--publish-all --quiet-pull --quiet",
)  # fmt: skip
_COMPOSE_EXEC = _Options(
    "euw", "diTt", "--env --user --workdir --index", "--detach --privileged --no-TTY --interactive --tty"
)

_SHORT_LONG = {
    "-v": "--volume",
    "-e": "--env",
    "-u": "--user",
    "-w": "--workdir",
    "-p": "--publish",
    "-h": "--hostname",
}
_HOST_PATHS = (
    "/",
    "/proc",
    "/sys",
    "/dev",
    "/boot",
    "/etc",
    "/run",
    "/var/run",
    "/var/lib/docker",
    "/var/lib/containers",
)
_SOCKETS = ("docker.sock", "podman.sock", "containerd.sock", "crio.sock", "buildkitd.sock")
_HOST_NAMESPACES = ("--pid", "--ipc", "--userns", "--cgroupns", "--uts")
_DANGEROUS_CAPS = frozenset({
    "ALL", "SYS_ADMIN", "SYS_MODULE", "SYS_RAWIO", "SYS_PTRACE", "SYS_BOOT", "SYS_TIME", "DAC_READ_SEARCH",
    "DAC_OVERRIDE", "MKNOD", "BPF", "PERFMON", "SYSLOG", "NET_ADMIN",
})  # fmt: skip
_PWD_SPELLINGS = ("$PWD", "${PWD}", "$(pwd)", "`pwd`")
# Deletion programs looked for among the words run in a container whose command is not certain.
_DELETERS = frozenset(
    {
        "rm",
        "rmdir",
        "unlink",
        "shred",
        "userdel",
        "groupdel",
        "wipefs",
        "fdisk",
        "sfdisk",
        "parted",
        "sgdisk",
        "-delete",
        "--delete",
    }
)
_TOKENS = re.compile(r"[\s;&|()`'\"<>{}$=]+")


def _container(call: Call, words: list[Word], wrapper: str, options: _Options, *, reliable: bool) -> None:
    """Parse a container command's options up to the image (or container/service), then grade the command."""
    index = 0
    entrypoint: Word | None = None
    rootfs = False
    while index < len(words):
        word = words[index]
        value = word.value
        if value is None:
            destructive(
                call, "dynamic-argument", f"{show(word)} may be a {wrapper} option that hands the container the host."
            )
            return
        if value == "--" or not value.startswith("-") or value == "-":
            index += 1 if value == "--" else 0
            break
        index += 1
        taken: list[tuple[str, Word | None]] = []
        if call.name in _ENGINE_RUNS and value.startswith("--"):
            name, eq, attached = value.partition("=")
            if name in _ENGINE_RUNS[call.name] or (
                # nerdctl run --runtime: a value that is not a containerd shim's name is run as runc (nerdctl
                # docs/command-reference.md "--runtime"), a path then any program
                call.name == "nerdctl" and name == "--runtime" and "/" in (attached if eq else _value_at(words, index))
            ):
                _engine_loads(call, name)
                return
            if call.name == "podman" and name == "--env-host":
                if not eq or attached not in ("false", "0"):
                    _prints_credentials(
                        call, f"{wrapper} --env-host (this machine's whole environment, handed to the container)"
                    )
                continue
        if value.startswith("--"):
            name, eq, attached = value.partition("=")
            if name in options.long_values:
                taken.append((name, Word(attached, attached) if eq else (words[index] if index < len(words) else None)))
                index += 0 if eq else 1
            elif name in options.long_flags:
                taken.append((name, Word(attached, attached) if eq else None))
            else:
                _unseparable(call, words, wrapper)
                return
        else:
            letters = value[1:]
            for position, letter in enumerate(letters):
                if letter in options.short_values:
                    rest = letters[position + 1 :].removeprefix("=")
                    taken.append(
                        (
                            _SHORT_LONG.get("-" + letter, "-" + letter),
                            Word(rest, rest) if rest else (words[index] if index < len(words) else None),
                        )
                    )
                    index += 0 if rest else 1
                    break
                if letter not in options.short_flags:
                    _unseparable(call, words, wrapper)
                    return
        for name, taken_word in taken:
            if _hands_over_host(call, name, taken_word, wrapper):
                return
            if name == "--entrypoint":
                entrypoint = taken_word
            elif name == "--health-cmd" and taken_word is not None:
                _inner_script(call, taken_word, f"{wrapper} --health-cmd")
            elif name == "--cidfile" and taken_word is not None:
                call.write(taken_word, f"{wrapper} --cidfile writes")
            elif name == "--restart":
                _restart_policy(call, taken_word, wrapper)
            elif name == "--rootfs" and (taken_word is None or taken_word.value not in ("false", "0")):
                rootfs = True
            elif name == "--env" and taken_word is not None:
                _passes_secret(call, taken_word, wrapper)
    command = words[index + 1 :]
    if rootfs and index < len(words):
        # podman-run(1) --rootfs: "the first argument refers to an exploded container on the file system", used
        # read-write as the container's root: a bind mount of that host directory at /, and the words after it
        # are the command itself (no image ENTRYPOINT)
        path = words[index].value
        if path is None:
            destructive(call, "container-host-access", f"{wrapper} --rootfs {show(words[index])} may be the host's /.")
            return
        source = path.split(":", 1)[0]
        reason = _host_source(call, "--rootfs", path, source if source.startswith(("/", ".", "~")) else "./" + source)
        if reason is not None:
            destructive(call, "container-host-access", f"{wrapper} {reason}.")
            return
        reliable = True
    if entrypoint is not None:
        if entrypoint.value is None:
            destructive(call, "dynamic-argument", f"The {wrapper} --entrypoint is only known when it runs.")
            return
        if entrypoint.value:
            command = [entrypoint] + command
        reliable = True
    _inner(call, command, wrapper, reliable=reliable)


def _passes_secret(call: Call, value: Word, wrapper: str) -> None:
    """``-e NAME``/``--env NAME`` without ``=VALUE`` hands the container this machine's value of NAME (docker-run(1)
    "Set environment variables": "If you don't provide a value ... the variable's value is taken from the current
    environment"; podman-run(1) ``--env``: "If no value is given, the value is taken from the host environment"):
    for a secret variable (sensitive.py) that is reading it, as ``-e NAME=$NAME`` is: what the image's command
    prints goes to the model."""
    from bot.risk.sensitive import secret_variable

    text = value.value
    if text is not None and "=" not in text and secret_variable(text):
        _prints_credentials(call, f"{wrapper} --env {text} (this machine's value, handed to the container)")


def _value_at(words: list[Word], index: int) -> str:
    """The text of ``words[index]`` ("/" when it is only known when it runs: it may be a path), "" past the end."""
    if index >= len(words):
        return ""
    value = words[index].value
    return "/" if value is None else value


def _engine_loads(call: Call, name: str) -> None:
    """A container engine's global option that makes it run or load programs (:data:`_ENGINE_RUNS`; podman(1)
    GLOBAL OPTIONS: ``--runtime`` "Path to the OCI-compatible binary used to run containers", ``--conmon``,
    ``--hooks-dir``, ``--module``, ``--network-cmd-path``, ``--storage-opt``): destructive wherever it stands, as
    podman and nerdctl define these as persistent flags of their root command (podman cmd/podman/root.go
    ``cmd.PersistentFlags()``), which cobra accepts after the subcommand too (``podman run --runtime /tmp/x
    alpine``)."""
    destructive(
        call,
        "runs-program",
        f"{call.name} {name} makes it load programs (plugins, hooks, runtimes) of the caller's choosing.",
    )


def _hands_over_host(call: Call, name: str, value: Word | None, wrapper: str) -> bool:
    """True (after a destructive finding) for an option that gives the container the host."""
    text = value.value if value is not None else ""
    reason: str | None = None
    if name in ("--privileged", "--use-api-socket") and (value is None or text not in ("false", "0")):
        reason = f"{name} gives the container the host"
    elif name in _HOST_NAMESPACES and (text is None or text == "host" or text.startswith("container:")):
        reason = f"{name}={text} shares the host's namespace or another container's"
    elif name in ("--network", "--net") and (text is None or text.startswith("container:")):
        reason = f"{name}={text} joins another container's network namespace, whose access it does not show"
    elif name == "--volumes-from":
        reason = "--volumes-from mounts another container's volumes, which may be the host's / or its socket"
    elif name == "--device":
        reason = "--device gives the container a host device"
    elif name == "--device-cgroup-rule":
        # docker-run(1) "--device-cgroup-rule: Add a rule to the cgroup allowed devices list": with the default
        # CAP_MKNOD the container makes the node itself (``mknod /dev/x b 8 0``) and reads or writes the host disk
        reason = "--device-cgroup-rule lets the container open host devices (raw disks too) it makes with mknod"
    elif name == "--cap-add" and (text is None or text.upper().removeprefix("CAP_") in _DANGEROUS_CAPS):
        reason = f"--cap-add {text} gives the container host-level privileges"
    elif name == "--security-opt" and (text is None or "unconfined" in text or "disable" in text):
        reason = f"--security-opt {text} removes the container's confinement"
    elif name in ("--volume", "--mount") and value is not None:
        reason = _host_mount(call, name, value)
    if reason is None:
        return False
    destructive(call, "container-host-access", f"{wrapper} {reason}.")
    return True


def mount_fields(text: str) -> dict[str, list[str]] | None:
    """A ``--mount`` value as docker's CLI reads it (opts/mount.go): one CSV record (encoding/csv: fields may be
    quoted, ``""`` is a quote), each field ``key=value`` with the key lower-cased and trimmed; every value of a key,
    in order (``volume-opt`` repeats). None when it is not one record of such fields."""
    import csv

    try:
        rows = list(csv.reader([text], strict=True))
    except csv.Error:
        return None
    if len(rows) != 1:
        return None
    out: dict[str, list[str]] = {}
    for field in rows[0]:
        key, eq, value = field.partition("=")
        key = key.strip().lower()
        if not eq and key not in ("readonly", "ro", "bind-nonrecursive", "volume-nocopy"):
            return None
        out.setdefault(key, []).append(value)
    return out


def _host_mount(call: Call, name: str, value: Word) -> str | None:
    """Why a bind mount of ``value`` hands over the host (``/``, a system directory, an engine socket), or None."""
    text = value.value
    if text is None:
        source = value.src.strip("'\"")
        spelled = next((p for p in _PWD_SPELLINGS if source.startswith(p)), None)
        cwds = call.g.state.cwds
        rest = source[len(spelled) :].split(":", 1)[0] if spelled else ""
        if spelled and cwds and "/" not in cwds and ".." not in rest and "$" not in rest:
            return None
        return f"{name} {show(value)} may mount the host's root or the docker socket"
    if name == "--mount":
        fields = mount_fields(text)
        if fields is None:
            return f"{name} {text} cannot be read as docker reads it (CSV fields of key=value)"
        kind = fields.get("type", ["volume"])[-1].lower()
        if kind == "volume":
            # the local driver's device option mounts that host path (docker volume create: "local" driver options
            # mirror mount(8)), a bind with o=bind
            options = dict(opt.partition("=")[::2] for opt in fields.get("volume-opt", []))
            source = options.get("device", "")
            if not source:
                return None
        else:
            source = (fields.get("source") or fields.get("src") or [""])[-1]
    else:
        parts = text.split(":")
        if len(parts) < 2:
            return None
        source = parts[0]
    return _host_source(call, name, text, source)


def _host_source(call: Call, name: str, text: str, source: str) -> str | None:
    """Why mounting the host path ``source`` (spelled in ``name text``) hands over the host, or None."""
    if not source.startswith(("/", ".", "~")):
        return None  # a named volume
    home = protected_path(source)
    if home is not None and (source.startswith("~") or source.startswith(("/home/", "/Users/", "/root"))):
        return f"{name} {text} mounts the host's {source} into the container: {home}"
    if source.startswith("~"):
        return f"{name} {text} may mount a directory holding the host's system files" if ".." in source else None
    found = call.g.state.targets(source)
    if found is None:
        return f"{name} {text} mounts a host directory only known when it runs"
    for path in found:
        path = posixpath.normpath(path)
        if path in _HOST_PATHS or path.startswith(("/proc/", "/sys/", "/dev/", "/boot/")) or path.endswith(_SOCKETS):
            return f"{name} {text} mounts the host's {path} into the container"
        why = holds_host(call, path)
        if why is not None:
            return f"{name} {text} mounts the host's {path} into the container: {why}"
    return None


_HOME_OR_SYSTEM = "a home directory or system tree, with its keys, credentials and start-up files"


def holds_host(call: Call, path: str) -> str | None:
    """Why the absolute normalised ``path`` outside the workspace, handed to a container or build, gives it the
    host's files: it holds the workspace (``..``: the workspace's parent, a home directory, ``/``), or it is a
    protected path (sensitive.py: a home, a system tree). None for a path in the workspace or elsewhere."""
    root = call.g.state.root
    if path == root or path.startswith(root.rstrip("/") + "/"):
        return None
    if root.startswith(path.rstrip("/") + "/"):
        return "it holds the workspace and every file beside it"
    return None if protected_path(path) is None else _HOME_OR_SYSTEM


#: docker-build(1) and docker-buildx-build(1) options that take no value (every other long option takes one).
_BUILD_FLAGS = frozenset({
    "--no-cache", "--pull", "--push", "--load", "-q", "--quiet", "--rm", "--force-rm", "--squash", "--compress",
    "--debug", "--disable-content-trust", "--help",
})  # fmt: skip
_BUILD_SHORT_VALUES = frozenset("tfomv")


#: docker build options whose value names the image, a build argument, a label, a stage or a platform
#: (docker-buildx-build(1)): the option parser takes the next word whole as the value, so an unknown one that stays
#: one word cannot be another option, and none of them names a program or a file on this machine.
_BUILD_NAMING_VALUES = ("-t", "--tag", "--build-arg", "--label", "--target", "--platform")
_BUILD_NAMING_ATTACHED = re.compile(r'"?(?:--tag|--build-arg|--label|--target|--platform)=')


def _without_build_values(words: list[Word]) -> list[Word]:
    """``words`` without the unknown values of :data:`_BUILD_NAMING_VALUES` after ``build`` (``-t "app:$TAG"``,
    ``--tag=app:$TAG``) that bash keeps one word, read as :func:`_docker_build` reads the options; an unquoted
    expansion (``-t $TAG``) may split into several, the later ones options (``--allow security.insecure``), and
    stays, as does a word after an option that is itself another option's value."""
    start = next((i for i, w in enumerate(words) if w.value == "build"), len(words))
    kept = words[: start + 1]
    pending: str | None = None  # "naming": the next word is a naming value; "other": another option's value
    for word in words[start + 1 :]:
        value = word.value
        if pending is not None:
            if not (pending == "naming" and value is None and not word.splits):
                kept.append(word)
            pending = None
            continue
        if value is None:
            if not (not word.splits and _BUILD_NAMING_ATTACHED.match(word.src)):
                kept.append(word)
            continue
        kept.append(word)
        if value == "--":  # the rest are operands
            return words
        if value in _BUILD_NAMING_VALUES:
            pending = "naming"
        elif value.startswith("--") and "=" not in value and value not in _BUILD_FLAGS:
            pending = "other"
        elif value[:1] == "-" and len(value) == 2 and value[1] in _BUILD_SHORT_VALUES:
            pending = "other"
    return kept


def _docker_build(call: Call, rest: list[Word], what: str) -> None:
    """docker build / buildx build (docker-buildx-build(1)): the build context (the operand) and each
    ``--build-context NAME=PATH`` are files the Dockerfile may ``COPY`` and print; ``--allow security.insecure``
    permits ``RUN --security=insecure``, a privileged container (as ``--privileged``). A context or build context
    that is the host's root, a home, a system tree or the directory holding the workspace is destructive
    (container-host-access). (``--secret src=FILE`` and ``--ssh ID=KEY`` naming a credential file are secret reads
    by the grader's check of every word.)"""
    index = 0
    context: Word | None = None
    while index < len(rest):
        word = rest[index]
        value = word.value
        index += 1
        if value is None:
            if context is None and (word.splits or not _BUILD_NAMING_ATTACHED.match(word.src)):
                context = word
            continue
        if value == "--":
            context = rest[index] if context is None and index < len(rest) else context
            break
        if not value.startswith("-") or value == "-":
            if context is None:
                context = word
            continue
        name, eq, attached = value.partition("=")
        taken: Word | None = None
        if name.startswith("--"):
            if name not in _BUILD_FLAGS:
                taken = literal_word(attached) if eq else (rest[index] if index < len(rest) else None)
                index += 0 if eq else 1
        elif name[1:2] in _BUILD_SHORT_VALUES:
            taken = literal_word(value[2:]) if len(value) > 2 else (rest[index] if index < len(rest) else None)
            index += 0 if len(value) > 2 else 1
        if taken is None:
            continue
        text = taken.value
        if name == "--allow" and (text is None or "security.insecure" in text):
            destructive(call, "container-host-access", f"{what} --allow security.insecure runs privileged steps.")
            return
        if (name == "--allow" and text is not None and "network.host" in text) or (
            name == "--network" and text == "host"
        ):
            destructive(call, "container-host-access", _BUILD_HOST_NETWORK.format(what=f"{what} {name} {text}"))
            return
        if name in ("-v", "--volume"):
            # podman-build(1) --volume: "the host directory is mounted into the container when executing RUN
            # instructions", read-write
            reason = _host_mount(call, "--volume", taken)
            if reason is not None:
                destructive(call, "container-host-access", f"{what}: {reason}.")
                return
        if name == "--secret" and text is not None:
            from bot.risk.sensitive import secret_variable

            fields = dict(part.partition("=")[::2] for part in text.split(","))
            variable = fields.get("env") or (
                fields.get("id") if "src" not in fields and "source" not in fields else None
            )
            if variable and secret_variable(variable):
                # docker-buildx-build(1) --secret id=ID,env=VAR: the variable's value is handed to RUN steps (and an
                # id alone names the variable too), whose output the build prints
                _prints_credentials(call, f"{what} --secret {text} (the secret variable handed to the build)")
        if name == "--ssh" and text is not None and "=" not in text.partition(",")[0]:
            # docker-buildx-build(1) --ssh default: the local ssh agent (every loaded key) is forwarded to RUN steps
            call.flag(
                R.SYSTEM,
                "credential-forwarding",
                f"{what} --ssh {text} hands the build's steps this machine's ssh agent (its loaded keys).",
            )
        if name in ("--iidfile", "--metadata-file") and text != "-":
            call.write(taken, f"{what} {name} writes")  # docker-buildx-build(1): the image ID / build metadata
        if name == "--cache-to" and text is not None and "type=local" in text:
            dest = next((p[len("dest=") :] for p in text.split(",") if p.startswith("dest=")), None)
            if dest:
                call.write(literal_word(dest), f"{what} --cache-to writes the cache into")
        if name == "--build-context":
            source = None if text is None else text.partition("=")[2]
            if source is None or (source and "://" not in source):
                reason = _build_source(call, source, f"--build-context {show(taken)}")
                if reason is not None:
                    destructive(call, "container-host-access", f"{what}: {reason}.")
                    return
    if context is not None and (context.value is None or "://" not in context.value) and context.value != "-":
        if context.value is None and any(context.src.strip("'\"").startswith(p) for p in _PWD_SPELLINGS):
            return
        reason = _build_source(call, context.value, f"the build context {show(context)}")
        if reason is not None:
            destructive(call, "container-host-access", f"{what}: {reason}.")


#: docker-buildx-build(1) ``--allow network.host``: "Allows executions with host networking", an entitlement BuildKit
#: counts as insecure (it is off unless the builder allows it, ``--allow-insecure-entitlement``), as
#: ``security.insecure`` is: ``RUN --network=host`` steps share this machine's network, its services bound to
#: localhost (engine and database ports, the cloud metadata address) included; ``--network host`` ("Set the
#: networking mode for the RUN instructions during build") puts every RUN step there (buildx asks for the
#: entitlement itself).
_BUILD_HOST_NETWORK = (
    "{what} lets the build's RUN steps use this machine's network and reach its local services (host networking, "
    "an insecure entitlement as security.insecure is)."
)
#: docker buildx create options (docker-buildx-create(1), Docker Buildx 0.17) taking a value, and its flags.
_CREATE_VALUES = frozenset({
    "--buildkitd-config", "--config", "--buildkitd-flags", "--driver", "--driver-opt", "--name", "--node",
    "--platform", "--timeout",
})  # fmt: skip
_CREATE_FLAGS = frozenset({"--append", "--bootstrap", "--leave", "--use", "--help", "-h"})
#: The BuildKit images Docker publishes for its builders (docker-buildx-create(1) ``--driver-opt image=``: the
#: default is ``moby/buildkit``, any tag or digest of it; the kubernetes driver's ``qemu.image`` default is
#: ``tonistiigi/binfmt``).
_BUILDKIT_IMAGES = re.compile(r"(?:docker\.io/)?(?:moby/buildkit|tonistiigi/binfmt)(?:[:@][\w.:+-]+)?")
#: buildkitd(8) flags (``--buildkitd-flags``) that only log or permit entitlements a build asks for by name (a build
#: given ``--allow security.insecure|network.host`` is graded itself); any other flag may listen on an address
#: (``--addr tcp://0.0.0.0:1234``: the root builder opened to others), run a program (``--oci-worker-binary``) or
#: read a configuration (``--config``).
_BUILDKITD_INERT = frozenset(
    {"--debug", "--trace", "--allow-insecure-entitlement", "network.host", "security.insecure"}
)


def _buildx_create(call: Call, rest: list[Word], what: str) -> None:
    """docker buildx create (docker-buildx-create(1); the drivers' pages, "Docker container driver": the BuildKit
    container is run privileged): ``--driver-opt image=IMAGE`` (or ``qemu.image``) other than Docker's BuildKit
    images runs that image as a privileged builder, as ``docker run --privileged IMAGE`` does; ``network=host`` puts
    that privileged container in this machine's network namespace (it may change the host's interfaces and
    firewall); ``--buildkitd-flags`` other than :data:`_BUILDKITD_INERT`, and a ``--buildkitd-config`` outside the
    workspace, configure the root daemon in ways FlyBot does not read: all destructive (container-host-access,
    project-outside-workspace). An option not listed, or a word only known when it runs, is refused."""
    index = 0
    while index < len(rest):
        word = rest[index]
        value = word.value
        index += 1
        if value is None:
            destructive(call, "dynamic-argument", f"{what}: {show(word)} may be a builder option (its image).")
            return
        if value == "--":
            return
        if not value.startswith("-"):
            continue  # the context or endpoint
        name, eq, attached = value.partition("=")
        if name in _CREATE_FLAGS:
            continue
        if name not in _CREATE_VALUES:
            refuse(call, f"the {what} option {shorten(value, 40)}")
            return
        taken = literal_word(attached) if eq else (rest[index] if index < len(rest) else None)
        index += 0 if eq else 1
        if taken is None:
            continue
        text = taken.value
        if text is None:
            destructive(call, "dynamic-argument", f"{what} {name} {show(taken)} is only known when it runs.")
            return
        if name == "--driver-opt":
            for part in text.split(","):
                key, _, setting = part.partition("=")
                key = key.strip().strip('"')
                setting = setting.strip().strip('"')
                if key in ("image", "qemu.image") and not _BUILDKIT_IMAGES.fullmatch(setting):
                    destructive(
                        call,
                        "container-host-access",
                        f"{what} --driver-opt {key}={shorten(setting, 40)} runs that image as the builder, a "
                        "privileged container: it gets the host.",
                    )
                    return
                if key == "network" and setting == "host":
                    destructive(
                        call,
                        "container-host-access",
                        f"{what} --driver-opt network=host puts the privileged builder in this machine's network "
                        "namespace: it may change the host's interfaces and firewall and reach its local services.",
                    )
                    return
        elif name == "--buildkitd-flags":
            try:
                flags = shlex.split(text)
            except ValueError:
                flags = [text]
            odd = next((f for f in flags if f.partition("=")[0] not in _BUILDKITD_INERT), None)
            if odd is not None:
                destructive(
                    call,
                    "container-host-access",
                    f"{what} --buildkitd-flags {shorten(odd, 40)} configures the root BuildKit daemon (an address it "
                    "listens on, a program it runs): FlyBot does not read what that opens.",
                )
                return
        elif name in ("--buildkitd-config", "--config") and call.where(taken) is not Where.WORKSPACE:
            destructive(
                call,
                "project-outside-workspace",
                f"{what} {name} {show(taken)} configures the root BuildKit daemon from a file outside the workspace "
                "(addresses it listens on, entitlements, registries): FlyBot does not read it.",
            )
            return


#: docker buildx bake options taking a value (docker-buildx-bake(1), Docker Buildx 0.17).
_BAKE_VALUES = frozenset({
    "-f", "--file", "--set", "--allow", "--builder", "--call", "--metadata-file", "--progress", "--list",
    "--provenance", "--sbom",
})  # fmt: skip


def _docker_bake(call: Call, rest: list[Word], what: str) -> None:
    """docker buildx bake (docker-buildx-bake(1), "Bake file reference"): builds every target of its bake files
    (``docker-bake.hcl``, ``compose.yaml``... where it runs, or those ``-f``/``--file`` names), each as docker build
    would, with the contexts, Dockerfiles, secrets and entitlements the file sets. A bake file outside the workspace
    (or a URL, or one only known when it runs) is a build definition FlyBot never read: destructive
    (``project-outside-workspace``); ``--allow security.insecure`` and ``--allow fs=PATH``/``fs.read=PATH``/
    ``fs.write=PATH`` (the build may read or write that host path) for the host's root, a home, a system tree or
    the workspace's parent, and ``--set TARGET.context=PATH`` naming one, hand the build the host
    (``container-host-access``), as ``docker build`` with such a context does. A remote definition given as the
    first operand (a git or HTTP URL) is one FlyBot never read too."""
    index = 0
    operands: list[Word] = []
    while index < len(rest):
        word = rest[index]
        value = word.value
        index += 1
        if value is None:
            destructive(call, "dynamic-argument", f"{what}: {show(word)} may name a bake file or an entitlement.")
            return
        if value == "--":
            operands += rest[index:]
            break
        if not value.startswith("-"):
            operands.append(word)
            continue
        name, eq, attached = value.partition("=")
        if name not in _BAKE_VALUES and not (name[:2] == "-f" and len(name) > 2):
            continue
        if name[:2] == "-f" and len(name) > 2:
            taken: Word | None = literal_word(value[2:])
            name = "-f"
        else:
            taken = literal_word(attached) if eq else (rest[index] if index < len(rest) else None)
            index += 0 if eq else 1
        if taken is None:
            continue
        text = taken.value
        if name in ("-f", "--file"):
            if text == "-":
                destructive(call, "project-outside-workspace", f"{what} -f - reads its bake file from its input.")
                return
            if text is None or "://" in text or call.where(taken) is not Where.WORKSPACE:
                destructive(
                    call,
                    "project-outside-workspace",
                    f"{what} {name} {show(taken)} builds from a bake file outside the workspace (or only known when "
                    "it runs): its targets' contexts, Dockerfiles and steps are code FlyBot does not read.",
                )
                return
        elif name == "--allow":
            for grant in (text or "?").split(","):
                kind, _, path = grant.partition("=")
                if kind == "security.insecure" or text is None:
                    destructive(call, "container-host-access", f"{what} --allow {show(taken)} runs privileged steps.")
                    return
                if kind == "network.host":
                    destructive(
                        call, "container-host-access", _BUILD_HOST_NETWORK.format(what=f"{what} --allow network.host")
                    )
                    return
                if kind in ("fs", "fs.read", "fs.write"):
                    reason = _build_source(call, path or None, f"--allow {grant}")
                    if reason is not None:
                        destructive(call, "container-host-access", f"{what}: {reason}.")
                        return
        elif name == "--set" and text is not None:
            key, _, setting = text.partition("=")
            if key.endswith(".context") or ".contexts." in key:
                reason = _build_source(call, setting or None, f"--set {text}")
                if reason is not None:
                    destructive(call, "container-host-access", f"{what}: {reason}.")
                    return
    if operands and operands[0].value is not None and "://" in operands[0].value:
        destructive(
            call,
            "project-outside-workspace",
            f"{what} {show(operands[0])} builds from a remote bake definition FlyBot does not read.",
        )


def _build_source(call: Call, source: str | None, spelled: str) -> str | None:
    """Why a build's context directory ``source`` gives the build the host's files, or None."""
    if source is None:
        return f"{spelled} is only known when it runs: it may be the host's root or a home"
    if source.startswith("~"):
        return (
            None
            if protected_path(source) is None
            else f"{spelled} hands the build every file of {source}: {_HOME_OR_SYSTEM}"
        )
    found = call.g.state.targets(source)
    if found is None:
        return f"{spelled} is only known when it runs: it may be the host's root or a home"
    for path in sorted(found):
        path = posixpath.normpath(path)
        why = "it is the host's root" if path == "/" else holds_host(call, path)
        if why is not None:
            return f"{spelled} hands the build every file of {path}: {why}"
    return None


def _deletes(words: list[Word]) -> Word | None:
    """The first word that is, or holds, a deletion program (or an unknown word), else None."""
    for word in words:
        if word.value is None:
            return word
        for token in _TOKENS.split(word.value):
            base = token.rsplit("/", 1)[-1]
            if base in _DELETERS or base.startswith("mkfs"):
                return word
    return None


def _unseparable(call: Call, words: list[Word], wrapper: str) -> None:
    """The command cannot be told apart from the options: a deletion program among the words is destructive."""
    found = _deletes(words)
    if found is not None:
        destructive(
            call,
            "deletion",
            f"{wrapper} may run {show(found)} in the container (an unknown option hides which word is the command).",
        )


def _inner(call: Call, command: list[Word], wrapper: str, *, reliable: bool) -> None:
    """Grade the command run in the container as a script on another machine (max with the control plane)."""
    if not command:
        return
    if not reliable:
        found = _deletes(command)
        if found is not None:
            destructive(call, "deletion", f"{wrapper} runs {show(found)} in the container.")
            return
        name = command[0].value
        for prefix in SYSTEM_BIN_DIRS:
            if name is not None and name.startswith(prefix):
                name = name[len(prefix) :]
        if name is None or name not in call.g.programs:
            return  # arguments to the image's ENTRYPOINT: the control plane's grade stands
    from .net import remote_shell_reading_stdin

    if remote_shell_reading_stdin([w.value or "" for w in command]):
        # a shell in the container reading its script from standard input (docker exec -i, kubectl exec -i,
        # podman run -i: the client passes its own standard input on), graded as ssh's remote shell is: a literal
        # here-document is that script, run in the container; the session's own input (no file or pipe) is an
        # interactive shell there, the control plane's grade standing; a file or pipe the classifier cannot see
        # stays shell-stdin (below)
        if call.rec.null_stdin:
            return
        if call.rec.stdin is not None:
            call.script(call.rec.stdin, f"{wrapper} (its standard input, run in the container)", remote=True)
            call.rec.emit = True
            return
        if not call.rec.fed:
            return
    call.script(argv_text(command).lstrip(), wrapper, remote=True)
    call.rec.emit = True


def _inner_script(call: Call, text: Word, wrapper: str) -> None:
    if text.value is None:
        destructive(call, "dynamic-script", f"The {wrapper} command is only known when it runs.")
        return
    call.script(text.value, wrapper, remote=True)
    call.rec.emit = True


#: docker/podman uses that only read the local engine's own state (docker CLI reference: ``docker ps``,
#: ``images``, ``inspect``, ``logs``, ``version``, ``info``, ``top``, ``port``, ``diff``, ``history`` and their
#: ``container``/``image``/``system`` group spellings): read_only when the client talks to the default local socket.
#: ``docker logs`` prints what a container wrote, which may hold its secrets; like ``journalctl`` reading the host's
#: logs it stays read_only (secret-read is for credential files and variables, sensitive.py). ``inspect`` prints the
#: environment a container or image was given (``Config.Env``), as ``printenv`` does: network (``secret-read``),
#: never downgraded, as the grader's environment dumps are. ``save`` (``image save``) writes the images' layers as a
#: tar archive to standard output or its ``-o`` file (graded as a write by :func:`_docker_outputs`). ``search``
#: (Docker Hub), ``stats``/``events`` (they follow the engine until stopped; ``stats --no-stream`` prints once and
#: reads) keep the control plane's grade. podman's ``generate systemd|kube|spec`` print what they make of a container
#: or pod (files they write: :func:`_generate_outputs`).
_DOCKER_LOCAL_READS = frozenset({
    ("ps",), ("images",), ("inspect",), ("logs",), ("version",), ("info",), ("top",), ("port",), ("diff",),
    ("history",), ("container", "ls"), ("container", "list"), ("container", "ps"), ("container", "inspect"),
    ("container", "logs"), ("container", "top"), ("container", "port"), ("container", "diff"), ("image", "ls"),
    ("image", "list"), ("image", "inspect"), ("image", "history"), ("system", "info"), ("system", "df"),
    ("volume", "ls"), ("volume", "inspect"), ("network", "ls"), ("network", "inspect"), ("context", "ls"),
    ("context", "show"), ("save",), ("image", "save"),
})  # fmt: skip
#: Options that point the client at another engine (docker(1) ``-H``/``--host``, ``--context``/``-c``; podman(1)
#: ``--remote``/``-r``, ``--url``, ``--connection``, ``--identity``): the daemon is then outside the machine.
_DOCKER_ELSEWHERE = frozenset(
    {"-H", "--host", "--context", "-c", "--remote", "-r", "--url", "--connection", "--identity"}
)
_DOCKER_ABOUT = frozenset({"--version", "-v", "--help", "-h"})


#: One action of a ``docker inspect --format`` Go template that prints a field holding no environment, command line
#: or label (docker inspect reference, "Format the output using the given Go template"; the container's JSON:
#: State, Name, Id, Image, Created, RestartCount, Platform, Driver, NetworkSettings addresses, HostConfig's
#: RestartPolicy/NetworkMode; an image's RepoTags, RepoDigests, Architecture, Os, Size), optionally through ``json``.
_INSPECT_FIELD = re.compile(
    r"\{\{-?\s*(?:json\s+)?\.(?:State|Name|Id|Image|Created|RestartCount|Platform|Driver|Architecture|Os|Size|RepoTags"
    r"|RepoDigests|NetworkSettings\.(?:IPAddress|Ports|Networks)|HostConfig\.(?:RestartPolicy|NetworkMode))"
    r"(?:\.[A-Za-z0-9_]+)*\s*-?\}\}"
)


def _inspect_format_fields(values: list[str | None]) -> bool:
    """True when every ``-f``/``--format`` template of a ``docker inspect`` prints only :data:`_INSPECT_FIELD`
    actions (and there is one): the environment (``Config.Env``) and command line stay unprinted."""
    templates: list[str] = []
    for index, value in enumerate(values):
        if value is None:
            return False
        name, eq, attached = value.partition("=")
        if name in ("-f", "--format"):
            following = values[index + 1] if index + 1 < len(values) else None
            taken = attached if eq else following
            if taken is None:
                return False
            templates.append(taken)
        elif value.startswith("-f") and len(value) > 2:
            templates.append(value[2:])
    return bool(templates) and all(
        "{{" in t and "{{" not in _INSPECT_FIELD.sub("", t) and "}}" not in _INSPECT_FIELD.sub("", t) for t in templates
    )


def _docker_local_read(call: Call, verbs: list[str | None]) -> bool:
    """True (and graded read_only) when ``call`` only reads the local engine's state or prints the client's version."""
    values = [w.value for w in call.args]
    if any(v is None or v.split("=", 1)[0] in _DOCKER_ELSEWHERE for v in values):
        return False
    if not verbs and values and all(v in _DOCKER_ABOUT for v in values):
        call.flag(R.READ_ONLY, "read-only", f"{call.name} {values[0]} only prints the client's version or help.")
        return True
    key = tuple(v or "" for v in verbs[:2])
    if key[:1] == ("stats",) or key == ("container", "stats"):
        if "--no-stream" not in values:
            return False
        call.flag(R.READ_ONLY, "read-only", f"{call.name} stats --no-stream only reads the local engine's state once.")
        return True
    if key[:1] == ("generate",) and call.name == "podman":  # docker would look for a CLI plugin docker-generate
        call.flag(R.READ_ONLY, "read-only", "podman generate only reads the local engine's state.")
        return True
    if key[:1] in _DOCKER_LOCAL_READS or key in _DOCKER_LOCAL_READS:
        what = " ".join(key if key in _DOCKER_LOCAL_READS else key[:1])
        if (key[0] == "inspect" or key in (("container", "inspect"), ("image", "inspect"))) and _inspect_format_fields(
            values
        ):
            call.flag(
                R.READ_ONLY, "read-only", f"{call.name} {what} --format prints only state fields, no environment."
            )
            return True
        if key[0] == "inspect" or key in (("container", "inspect"), ("image", "inspect")):
            # Config.Env: the environment a container or image was given, like printenv's (grader: secret-read)
            call.flag(
                R.NETWORK,
                "secret-read",
                f"{call.name} {what} prints the environment (Config.Env), secrets too: its output goes to the model.",
            )
            return True
        call.flag(R.READ_ONLY, "read-only", f"{call.name} {what} only reads the local engine's state.")
        return True
    return False


def _docker_verbs(call: Call, verbs: list[str | None]) -> None:
    if _docker_local_read(call, verbs):
        return
    if not verbs:
        call.flag(R.NETWORK, _RULE, f"{call.name} talks to a daemon outside the sandbox.")
        return
    if any(v is None for v in verbs[:2]):
        call.flag(R.DESTRUCTIVE, "dynamic-argument", f"The {call.name} command is only known when it runs.")
        return
    verb = verbs[0] or ""
    if verb in _DOCKER_GROUPS and len(verbs) > 1:
        sub = verbs[1] or ""
        if (
            verb == "compose"
            and (sub in _COMPOSE_LOCAL_READS or (sub == "config" and not _compose_config_reaches_out(call)))
            and _compose_local_read(call, sub)
        ):
            if sub == "config":
                _compose_config_secrets(call)
            return
        if verb == "compose" and sub in ("ps", "logs", "config", "ls", "images", "top", "version", "events", "port"):
            call.flag(R.NETWORK, _RULE, f"docker compose {sub} talks to a daemon outside the sandbox.")
            if sub == "config":
                _compose_config_secrets(call)
                _compose_config_output(call)
            return
        if verb == "compose" and sub in _COMPOSE_STARTS:
            call.flag(
                R.DESTRUCTIVE,
                "container-host-access",
                f"docker compose {sub} starts the containers the compose file describes, "
                "which FlyBot does not read: it may run them privileged or mount / or the home directory.",
            )
            return
        if verb == "compose" and sub not in _DOCKER_DELETE:
            call.flag(R.SYSTEM, _RULE, f"docker compose {sub} changes state on a daemon outside the sandbox.")
            return
        if verb == "plugin" and sub in _PLUGIN_LOADS:
            destructive(
                call,
                "tool-plugin",
                f"{call.name} plugin {sub} installs or starts a managed plugin: it runs in the daemon on the host "
                "with the privileges it asks for (host mounts, devices, CAP_SYS_ADMIN) and starts again with the "
                "daemon at every boot.",
            )
            return
        verb = sub
    elif verb in _DOCKER_GROUPS and verb != "compose":
        verb = "ls"
    if verb == "cp" and _copies_out(verbs[verbs.index("cp") + 1 :]):
        call.flag(R.NETWORK, _RULE, f"{call.name} cp copies files out of a container (its destination is graded).")
        return
    _grade(call, verb, _DOCKER_READ, _DOCKER_CHANGE, _DOCKER_DELETE)


def _container_path(value: str) -> bool:
    """True when a ``docker cp`` operand names a path in a container (docker-container-cp(1): ``CONTAINER:PATH``; a
    local path holding a colon is written with ``./`` or ``/`` first)."""
    return ":" in value and not value.startswith(("/", "."))


def _copies_out(operands: list[str | None]) -> bool:
    """True when ``docker cp SRC DEST`` copies from a container to this machine (or ``-``, a tar on standard
    output): the container is only read."""
    if len(operands) != 2 or any(v is None for v in operands):
        return False
    source, dest = operands[0] or "", operands[1] or ""
    return _container_path(source) and not _container_path(dest)


_HELM_VALUES = frozenset(
    {
        "-n",
        "--namespace",
        "--kube-context",
        "--kubeconfig",
        "-f",
        "--values",
        "--set",
        "--version",
        "-o",
        "--output",
        "--repo",
    }
)
_HELM_READ = frozenset(
    {
        "list",
        "ls",
        "status",
        "get",
        "history",
        "hist",
        "show",
        "inspect",
        "search",
        "template",
        "version",
        "env",
        "lint",
        "verify",
        "completion",
    }
)
_HELM_CHANGE = frozenset(
    {
        "install",
        "upgrade",
        "rollback",
        "repo",
        "dependency",
        "dep",
        "pull",
        "fetch",
        "push",
        "package",
        "registry",
        "plugin",
        "test",
        "create",
    }
)


def helm(call: Call) -> None:
    """helm: reads are network, install/upgrade/rollback system, uninstall destructive; ``template``, ``lint``,
    ``create``, ``package`` and ``show`` of a local chart never reach a cluster (helm.sh/docs/helm: template
    renders locally unless ``--validate``; a chart given as a URL, ``oci://`` or with ``--repo`` is fetched);
    ``--post-renderer`` runs a program (destructive), and so may the kubeconfig ``--kubeconfig`` names
    (:func:`_names_kubeconfig`)."""
    if _names_kubeconfig(call):
        return
    values = [w.value or "" for w in call.args]
    if any(v.split("=", 1)[0] == "--post-renderer" for v in values):
        destructive(call, "runs-program", "helm --post-renderer runs a program of the caller's choosing.")
        return
    verbs = _verbs(
        call.args,
        _HELM_VALUES
        | frozenset({"--output-dir", "--destination", "-d", "--api-versions", "--kube-version", "-s", "--show-only"}),
    )
    if not verbs:
        call.flag(R.NETWORK, _RULE, "helm talks to a cluster outside the sandbox.")
        return
    if verbs[0] is None:
        call.flag(R.DESTRUCTIVE, "dynamic-argument", "The helm command is only known when it runs.")
        return
    verb = verbs[0]
    if verb == "repo" and len(verbs) > 1 and verbs[1] in ("list", "ls"):
        call.flag(R.NETWORK, _RULE, "helm repo list reads the repository list.")
        return
    if verb == "repo" and len(verbs) > 1 and verbs[1] in ("update", "up", "add", "remove", "rm"):
        _helm_repo(call, verbs[1], values)
        return
    if verb == "dependency" or verb == "dep":
        if len(verbs) > 1 and verbs[1] in ("list", "ls"):
            # helm dependency list: "List all of the dependencies declared in a chart" from Chart.yaml and charts/
            # (helm.sh/docs/helm/helm_dependency_list); it fetches nothing
            read_only(call, "helm dependency list reads the chart's Chart.yaml and charts/ directory.")
            return
        if len(verbs) > 2 and verbs[1] in ("update", "up", "build"):
            # helm dependency update "Update the on-disk dependencies to mirror Chart.yaml" and build "Rebuild the
            # charts/ directory based on the Chart.lock file" (helm.sh/docs/helm/helm_dependency_update, _build):
            # they download the charts into CHART/charts/ (and write CHART/Chart.lock), refreshing the repositories'
            # indexes into helm's cache first (as helm repo update) unless --skip-refresh; no cluster is reached
            call.flag(R.NETWORK, "network-egress", f"helm dependency {verbs[1]} downloads the chart's dependencies.")
            chart = next(w for w in call.args if w.value == verbs[2]) if verbs[2] is not None else None
            call.write(chart or Word(None, "?"), f"helm dependency {verbs[1]} writes the chart's charts/ directory in")
            for index, value in enumerate(values):
                name, eq, attached = value.partition("=")
                if name in ("--repository-cache", "--repository-config"):
                    target = (
                        Word(attached, attached) if eq else call.args[index + 1] if index + 1 < len(values) else None
                    )
                    call.write(target or Word(None, "?"), f"helm dependency {verbs[1]} writes")
            return
    if verb in ("template", "lint", "create", "package", "version", "env", "completion", "show", "inspect"):
        _helm_local(call, verb, verbs[1:], values)
        if _values_from_url(values):
            # helm template/install/lint -f, --values: "specify values in a YAML file or a URL" (helm.sh/docs/helm)
            call.flag(R.NETWORK, "network-egress", f"helm {verb} downloads a values file named by URL.")
        return
    if verb == "plugin":
        _helm_plugin(call, verbs[1] if len(verbs) > 1 else "")
        return
    if verb in ("upgrade", "rollback", "install") and any(v.split("=", 1)[0] == "--force" for v in values):
        # helm-upgrade(1)/helm-rollback(1) --force: "force resource updates through a replacement strategy"
        # (deleted and created again, as kubectl replace --force)
        call.flag(R.DESTRUCTIVE, _RULE, f"helm {verb} --force deletes and recreates resources outside the VM.")
        return
    if (
        verb in ("install", "upgrade")
        and _helm_client_dry_run(call.args)
        and not any(v.split("=", 1)[0] == "--dependency-update" for v in values)
    ):
        call.flag(R.NETWORK, _RULE, f"helm {verb} --dry-run simulates the release; it reads the cluster only.")
        return
    _grade(call, verb, _HELM_READ, _HELM_CHANGE, frozenset({"uninstall", "delete", "del", "un"}))
    if verb in ("install", "upgrade"):
        _helm_chart(call, verb)
    if verb in ("pull", "fetch"):
        # helm-pull(1): "-d, --destination string   location to write the chart" (default "."), "--untardir string
        # if untar is specified, this flag specifies the name of the directory into which the chart is expanded"
        for index, word in enumerate(call.args):
            name, eq, attached = (word.value or "").partition("=")
            if name in ("--destination", "-d", "--untardir") and (eq or index + 1 < len(call.args)):
                call.write(Word(attached, attached) if eq else call.args[index + 1], f"helm {verb} {name} writes into")
    if verb == "get" and len(verbs) > 1 and verbs[1] in ("values", "all", None):
        # helm get values|all: the release's values, where charts take passwords and tokens (helm.sh/docs/helm)
        _prints_credentials(call, f"helm get {verbs[1] or '(a subcommand only known when it runs)'}")


#: helm install/upgrade options taking a value (helm.sh/docs/helm/helm_install, helm_upgrade, and helm's global
#: flags); ``--dry-run`` takes one only when attached.
_HELM_INSTALL_VALUES = frozenset({
    "-n", "--namespace", "--kube-context", "--kubeconfig", "--kube-apiserver", "--kube-as-user", "--kube-as-group",
    "--kube-ca-file", "--kube-token", "--kube-tls-server-name", "--registry-config", "--repository-cache",
    "--repository-config", "--burst-limit", "--qps", "-f", "--values", "--set", "--set-string", "--set-file",
    "--set-json", "--set-literal", "--version", "-o", "--output", "--repo", "--ca-file", "--cert-file", "--key-file",
    "--keyring", "--username", "--password", "--description", "--name-template", "--timeout", "--history-max",
    "-l", "--labels", "--post-renderer-args", "--max-history", "--content-cache",
})  # fmt: skip
#: helm install/upgrade options that take no value.
_HELM_INSTALL_FLAGS = frozenset({
    "--atomic", "--create-namespace", "--dependency-update", "--devel", "--disable-openapi-validation",
    "--enable-dns", "-g", "--generate-name", "--hide-notes", "--insecure-skip-tls-verify", "--no-hooks",
    "--pass-credentials", "--plain-http", "--render-subchart-notes", "--replace", "--skip-crds",
    "--skip-schema-validation", "--verify", "--wait", "--wait-for-jobs", "--debug", "-i", "--install",
    "--reset-values", "--reuse-values", "--reset-then-reuse-values", "--cleanup-on-fail", "--take-ownership",
    "--rollback-on-failure", "--hide-secret", "--skip-tests",
})  # fmt: skip


def _helm_chart(call: Call, verb: str) -> None:
    """``helm install|upgrade [NAME] CHART``: a chart that is a directory in the workspace is read, with the values
    files ``-f``/``--values``/``--set-file`` name and the ``--set`` values (bot/risk/manifests.py: its templates as
    text); a chart given by URL, ``oci://``, a repository reference (``repo/chart``, helm.sh/docs/helm/helm_install:
    "By chart reference", "By absolute URL", "By OCI registries") or ``--repo``, a chart archive, one fetched by
    ``--dependency-update``, or an option FlyBot does not know, cannot be read: ``destructive`` on the host."""
    label = f"helm {verb}"
    operands: list[Word] = []
    values: list[Word] = []
    words = call.args
    index = 0
    seen_verb = False
    while index < len(words):
        word = words[index]
        index += 1
        value = word.value
        if value is None:
            _cannot_read(call, label, "chart", f"{show(word)} is only known when it runs")
            return
        if value == "--":
            operands += words[index:]
            break
        name, eq, attached = value.partition("=")
        if not value.startswith("-"):
            if seen_verb:
                operands.append(word)
            seen_verb = seen_verb or value == verb
            continue
        if name in ("--repo", "--dependency-update"):
            _cannot_read(call, label, "chart", f"{name} fetches the chart or its dependencies from a repository")
            return
        if name in _HELM_INSTALL_VALUES:
            taken = Word(attached, attached) if eq else (words[index] if index < len(words) else Word(None, ""))
            index += 0 if eq else 1
            if name in ("-f", "--values", "--set-file"):
                values.append(taken if name != "--set-file" else Word(_after_eq(taken.value), taken.src))
            elif name.startswith("--set") and taken.value is not None:
                _helm_set(call, label, taken.value)
            continue
        if name in _HELM_INSTALL_FLAGS or name == "--dry-run":
            continue
        if value.startswith("-f") and len(value) > 2:
            values.append(Word(value[2:], value[2:]))
            continue
        _cannot_read(call, label, "chart", f"the option {shorten(value, 40)} is not one FlyBot knows")
        return
    if not operands:
        return
    chart = operands[-1]
    given = chart.value
    if given is None or "://" in given or given.startswith("oci:") or given.endswith((".tgz", ".tar.gz")):
        _cannot_read(call, label, "chart", f"{show(chart)} is not a chart directory in the workspace")
        return
    _manifest_items(call, label, "chart", f"chart {given}")
    for file in values:
        named = file.value
        if named is None or not named or named == "-" or "://" in named:
            _cannot_read(call, label, "chart", f"the values file {show(file)} is not a file in the workspace")
            return
        _manifest_items(call, label, "chart", f"values {named}")


def _after_eq(value: str | None) -> str | None:
    """The file of a ``--set-file KEY=FILE`` value."""
    return None if value is None else value.partition("=")[2]


def _helm_set(call: Call, label: str, given: str) -> None:
    """``--set KEY=VALUE,...``: a key path whose last part is a risky field (bot/risk/manifests.py) set to anything
    but false, or a value holding ``cluster-admin`` or ``system:masters``, is graded as the chart's own would be."""
    from bot.risk.manifests import scan_text

    text = "\n".join(
        f"{key.rsplit('.', 1)[-1].split('[', 1)[0]}: {value}"
        for key, _eq, value in (pair.partition("=") for pair in given.split(","))
    )
    for _at, what in scan_text(text, "--set")[:2]:
        rule = "privilege-grant" if "masters" in what else "container-host-access"
        host_destructive(call, rule, f"{label} --set: {what}.")
    if "cluster-admin" in given:
        host_destructive(call, "privilege-grant", f"{label} --set names cluster-admin.")


def _helm_client_dry_run(words: list[Word]) -> bool:
    """True when helm install/upgrade only simulates (helm.sh/docs/helm/helm_upgrade: "--dry-run string[="client"]
    simulate an install. If --dry-run is set with no option being specified or as '--dry-run=client', it will not
    attempt cluster connections. Setting '--dry-run=server' allows attempting cluster connections"): the last
    ``--dry-run`` is bare, ``client`` or ``true`` (the older boolean spelling) and no word is only known when it
    runs. Not ``server``: its templates' ``lookup`` reads live objects, Secrets among them, into the printed output.
    Nothing is installed and no hook runs; the release's current state is still read."""
    last: str | None = None
    for word in words:
        if word.value is None:
            return False
        if word.value == "--":
            break
        name, eq, value = word.value.partition("=")
        if name == "--dry-run":
            last = value if eq else "client"
    return last in ("client", "true")


def _values_from_url(values: list[str]) -> bool:
    """True when a ``-f``/``--values`` option names a URL (helm-template(1): "a YAML file or a URL")."""
    for index, value in enumerate(values):
        name, eq, attached = value.partition("=")
        if name in ("-f", "--values"):
            named = attached if eq else values[index + 1] if index + 1 < len(values) else ""
        elif value.startswith("-f") and len(value) > 2 and not value.startswith("--"):
            named = value[2:]
        else:
            continue
        if "://" in named:
            return True
    return False


def _helm_repo(call: Call, sub: str, values: list[str]) -> None:
    """helm repo (helm.sh/docs/helm/helm_repo_add, helm_repo_update, helm_repo_remove; "Helm Environment Variables"):
    ``update`` downloads each repository's index into helm's cache ($HELM_REPOSITORY_CACHE, ~/.cache/helm/repository)
    and reaches no cluster: network, as a package manager's index refresh is; ``add`` (which downloads the index too)
    and ``remove`` (which deletes its cached index) change the user's repository list ($HELM_REPOSITORY_CONFIG, ~/.config/helm/repositories.yaml), which later installs resolve
    chart names through: a change to the user's files under ~ (system on the host). A ``--repository-cache`` or
    ``--repository-config`` the command names is graded as a write there."""
    if sub not in ("remove", "rm"):
        call.flag(R.NETWORK, "network-egress", f"helm repo {sub} downloads the chart repositories' indexes.")
    named = ("--repository-cache", "--repository-config") if sub not in ("update", "up") else ("--repository-cache",)
    for index, value in enumerate(values):
        name, eq, attached = value.partition("=")
        if name in named:
            target = Word(attached, attached) if eq else call.args[index + 1] if index + 1 < len(values) else None
            call.write(target or Word(None, "?"), f"helm repo {sub} writes")
    if sub not in ("update", "up") and not any(value.split("=", 1)[0] == "--repository-config" for value in values):
        call.write(
            Word(None, "~"), f"helm repo {sub} changes the user's chart repository list (repositories.yaml) under"
        )


def _helm_plugin(call: Call, sub: str | None) -> None:
    """helm plugin (helm.sh/docs/helm/helm_plugin; "Helm Plugins Guide": plugin.yaml ``hooks`` ``install``,
    ``update``, ``delete`` are commands helm runs then): ``install`` and ``update`` fetch a plugin and run its hook,
    code every later helm run can load (tool-plugin, destructive); ``uninstall`` runs the installed plugin's delete
    hook and removes it from under ~ (system); ``list`` reads the local plugin directory (read_only)."""
    if sub in ("install", "add", "update", "up"):
        call.flag(R.NETWORK, "package-install", f"helm plugin {sub} fetches a plugin.")
        tool_plugin(call, f"helm plugin {sub}")
    elif sub in ("list", "ls"):
        read_only(call, "helm plugin list only reads the installed plugins.")
    elif sub in ("uninstall", "rm", "remove"):
        call.flag(R.SYSTEM, "system-command", f"helm plugin {sub} runs the plugin's delete hook and removes it.")
    else:
        refuse(call, f"helm plugin {sub or ''}".rstrip())


def _helm_local(call: Call, verb: str, operands: list[str | None], values: list[str]) -> None:
    remote = any(v.startswith("--repo") or v.startswith("--validate") for v in values) or any(
        o is None or "://" in o for o in operands
    )
    if verb in ("show", "inspect") and not any(o is not None and o.startswith((".", "/")) for o in operands[1:]):
        remote = True
    if remote:
        call.flag(R.NETWORK, _RULE, f"helm {verb} fetches a chart or asks a cluster.")
    for index, word in enumerate(call.args):
        name, eq, attached = (word.value or "").partition("=")
        if name in ("--output-dir", "--destination", "-d") and (eq or index + 1 < len(call.args)):
            call.write(Word(attached, attached) if eq else call.args[index + 1], f"helm {verb} writes into")
    if verb == "create":
        target = next(
            (w for w in call.args if w.value is not None and not w.value.startswith("-") and w.value != "create"), None
        )
        call.write(target or Word(None, "?"), "helm create writes")
    elif verb == "package" and not any((w.value or "").split("=", 1)[0] in ("--destination", "-d") for w in call.args):
        call.write(Word(".", "."), "helm package writes a chart archive into")
    elif not remote:
        call.flag(R.READ_ONLY, "read-only", f"helm {verb} renders or checks a chart locally.")


_TF_READ = frozenset({"plan", "show", "output", "providers", "get", "init", "console", "login", "logout", "metadata"})
_TF_CHANGE = frozenset({"import", "refresh", "taint", "untaint", "force-unlock", "test"})
# terraform apply "creates, updates, or destroys infrastructure" (terraform CLI docs, "terraform apply"): it destroys
# every resource the configuration (in the workspace) or a saved plan no longer names.
_TF_DELETE = frozenset({"destroy", "apply"})
# Local only (terraform CLI docs): validate checks the configuration, fmt rewrites it (``-check``/``-write=false``
# only report), graph and version print; none reach a provider or backend. validate and graph load the providers'
# schemas ("Validation requires an initialized working directory with any referenced plugins and modules
# installed"): they start the provider binaries of ``.terraform/providers`` (and a ``terraform.d/plugins`` local
# mirror), files of the workspace, so they run its code as a build does.
_TF_LOCAL = frozenset({"validate", "fmt", "graph", "version", "-version", "--version", "-help", "--help", "help"})
_TF_PROVIDERS_RUN = frozenset({"validate", "graph"})


def _tf_chdir_outside(call: Call) -> bool:
    """``terraform -chdir=DIR`` (terraform CLI docs, "Switching working directory with -chdir") with DIR outside the
    workspace or only known when it runs, flagged destructive: the command loads the configuration there and starts
    the provider binaries of its ``.terraform`` directory and any ``data "external"`` program, code FlyBot did not
    read (as ``npm --prefix DIR``)."""
    for word in call.args:
        text = word.value if word.value is not None else word.src
        if not text.startswith(("-chdir=", "--chdir=")):
            continue
        place = text.split("=", 1)[1]
        if word.value is None or call.where(Word(place, place)) is not Where.WORKSPACE:
            destructive(
                call,
                "project-outside-workspace",
                f"{call.name} -chdir={shorten(place, 60)} loads the configuration and starts the providers of a "
                "directory outside the workspace: code FlyBot does not read.",
            )
            return True
    return False


def _tf_plugin_dir_outside(call: Call) -> bool:
    """``terraform init -plugin-dir=DIR`` (terraform CLI docs, "terraform init": "Force plugin installation to read
    provider plugins only from the specified directory") with DIR outside the workspace or only known when it runs:
    the providers installed from there are programs every later plan and apply starts, code FlyBot does not read:
    destructive (``runs-program``), and True."""
    words = call.args
    for index, word in enumerate(words):
        text = word.value if word.value is not None else word.src
        name, eq, place = text.partition("=")
        if name not in ("-plugin-dir", "--plugin-dir"):
            continue
        if not eq:
            following = words[index + 1] if index + 1 < len(words) else None
            if following is None:
                continue
            place, word = following.value if following.value is not None else following.src, following
        if word.value is None or call.where(Word(place, place)) is not Where.WORKSPACE:
            destructive(
                call,
                "runs-program",
                f"{call.name} -plugin-dir={shorten(place, 60)} installs provider programs from outside the workspace: "
                "code FlyBot does not read, started by every later plan and apply.",
            )
            return True
    return False


#: terraform options naming a file the command writes (terraform CLI docs): plan ``-out=FILENAME`` ("Write a plan
#: file to the given path"), plan ``-generate-config-out=PATH`` (writes HCL for import blocks), ``-state-out=PATH``
#: and ``-backup=PATH`` of apply, refresh, import, taint and state mv/rm ("Path to write updated state file"; a
#: backup "-" disables it), test ``-junit-xml=PATH``.
_TF_WRITE_OPTIONS = frozenset({"out", "generate-config-out", "state-out", "backup", "junit-xml"})


def _tf_writes(call: Call, verb: str, verbs: list[str | None]) -> None:
    """The files a terraform command writes by option (:data:`_TF_WRITE_OPTIONS`; Go flags take ``-name=V``,
    ``-name V`` and ``--name``) and ``terraform providers mirror TARGET_DIR`` ("saves local copies of all required
    provider plugins" in the directory), resolved against ``-chdir`` ("switch to a different working directory
    before executing the given subcommand"): writes (a dynamic one is a write to an unknown place)."""
    words = call.args
    chdir = next(
        (w.value.split("=", 1)[1] for w in words if w.value and w.value.startswith(("-chdir=", "--chdir="))), None
    )

    def place(word: Word) -> Word:
        value = word.value
        if value is None or chdir is None or value.startswith(("/", "~")):
            return word
        joined = posixpath.join(chdir, value)
        return Word(joined, joined)

    for index, word in enumerate(words):
        text = word.value
        if text is None or not text.startswith("-"):
            continue
        name, eq, attached = text.lstrip("-").partition("=")
        if name not in _TF_WRITE_OPTIONS:
            continue
        target = Word(attached, attached) if eq else (words[index + 1] if index + 1 < len(words) else None)
        if target is None or target.value == "-":
            continue
        call.write(place(target), f"{call.name} -{name} writes")
    if verb == "providers" and verbs[1:2] == ["mirror"] and len(verbs) > 2:
        target = next((w for w in reversed(words) if w.value is None or not w.value.startswith("-")), None)
        if target is not None:
            call.write(place(target), f"{call.name} providers mirror copies provider programs into")


#: terraform commands that read the configuration's data sources (terraform CLI docs: plan and refresh "read the
#: current state", console evaluates expressions, import reads the configuration).
_TF_READS_DATA = frozenset({"plan", "refresh", "console", "import"})


def terraform(call: Call) -> None:
    """terraform: plan/show are network, import system, apply / destroy / state rm / workspace delete destructive;
    ``-chdir`` outside the workspace is destructive (:func:`_tf_chdir_outside`)."""
    verbs = _verbs(call.args, frozenset())
    values = [w.value or "" for w in call.args]
    if not verbs and values[:1] and values[0] in _TF_LOCAL:
        call.flag(R.READ_ONLY, "read-only", f"terraform {values[0]} only prints.")
        return
    if not verbs:
        call.flag(R.NETWORK, _RULE, "terraform talks to providers outside the sandbox.")
        return
    verb = verbs[0]
    if verb is None:
        call.flag(R.DESTRUCTIVE, "dynamic-argument", "The terraform command is only known when it runs.")
        return
    action = verbs[1] if len(verbs) > 1 else None
    if verb not in _TF_LOCAL - _TF_PROVIDERS_RUN and (_tf_chdir_outside(call) or _tf_plugin_dir_outside(call)):
        return
    if verb in _TF_LOCAL or (not verbs and values and values[0] in _TF_LOCAL):
        if verb == "fmt" and not any(v in ("-check", "--check", "-write=false", "--write=false") for v in values):
            chdir = next((v.split("=", 1)[1] for v in values if v.startswith(("-chdir=", "--chdir="))), None)
            target = verbs[1] if len(verbs) > 1 else None
            call.write(
                Word(target or chdir or ".", target or chdir or "."), "terraform fmt rewrites configuration files in"
            )
        elif verb in _TF_PROVIDERS_RUN:
            chdir = next((v.split("=", 1)[1] for v in values if v.startswith(("-chdir=", "--chdir="))), ".")
            if call.where(Word(chdir, chdir)) is not Where.WORKSPACE:
                destructive(
                    call,
                    "project-outside-workspace",
                    f"{call.name} {verb} starts the provider binaries installed in {chdir[:60]}, outside the "
                    "workspace: code FlyBot does not read.",
                )
            else:
                build_or_test(call, f"{call.name} {verb} (it starts the installed provider binaries)")
        else:
            call.flag(R.READ_ONLY, "read-only", f"terraform {verb} only checks or prints the local configuration.")
        return
    _tf_writes(call, verb, verbs)
    if verb == "apply" and any(v in ("-destroy", "--destroy") for v in values):
        verb = "destroy"
    if verb in ("state", "workspace"):
        if action in ("rm", "delete"):
            call.flag(R.DESTRUCTIVE, _RULE, f"terraform {verb} {action} deletes state outside the sandbox.")
        elif verb == "state" and action == "push" and any(v in ("-force", "--force") for v in values):
            # terraform state push -force: "Write a local state file to the remote backend", skipping the lineage
            # and serial checks (terraform CLI docs, "terraform state push"): the remote state is replaced, and the
            # records of live resources it held are lost.
            call.flag(
                R.DESTRUCTIVE, _RULE, "terraform state push -force overwrites the remote state outside the sandbox."
            )
        elif action in ("list", "show", "pull", "select"):
            call.flag(R.NETWORK, _RULE, f"terraform {verb} {action} reads state.")
            if verb == "state" and action == "pull":
                # terraform state pull prints the raw state: every resource attribute, sensitive ones in clear
                _prints_credentials(call, "terraform state pull")
        else:
            call.flag(R.SYSTEM, _RULE, f"terraform {verb} {action} changes state outside the sandbox.")
        return
    if verb == "apply":
        call.flag(
            R.DESTRUCTIVE,
            _RULE,
            f"{call.name} apply destroys every resource the configuration or plan no longer names (and replaces "
            "those it cannot update in place).",
        )
        return
    _grade(call, verb, _TF_READ, _TF_CHANGE, _TF_DELETE)
    if verb in _TF_READS_DATA:
        # terraform "external Data Source": data sources are read while planning (plan, refresh, console, import),
        # so a data "external" program runs then: graded as the command it is (settings.py _iac_programs)
        from .cloud import iac_programs

        chdir = next((v.split("=", 1)[1] for v in values if v.startswith(("-chdir=", "--chdir="))), "")
        iac_programs(call, f"{call.name} {verb}", f"terraform {chdir}".strip())
    if verb == "output" and any(v.split("=", 1)[0].lstrip("-") in ("json", "raw") for v in values):
        # terraform output: "-json ... sensitive values in plain text"; -raw prints a sensitive value too
        _prints_credentials(call, "terraform output -json|-raw")
    if verb == "show" and any(v.split("=", 1)[0].lstrip("-") == "json" for v in values):
        # terraform show: "When using the -json command-line flag, any sensitive values in Terraform state will be
        # displayed in plain text"
        _prints_credentials(call, "terraform show -json")


#: Build specs apptainer build(1) fetches or converts rather than builds from a recipe (Apptainer 1.3 "Build a
#: Container": library://, docker://, shub://, oras:// URIs; docker-daemon:, docker-archive:, oci:, oci-archive:
#: sources), and the image files it converts (SIF, an ext3/squashfs image).
_APPTAINER_SOURCES = ("library://", "docker://", "shub://", "oras://", "http://", "https://", "docker-daemon:",
                      "docker-archive:", "oci:", "oci-archive:")  # fmt: skip
_APPTAINER_IMAGES = (".sif", ".simg", ".img", ".squashfs")


def apptainer_build(base: Handler) -> Handler:
    """apptainer/singularity ``build IMAGE SPEC`` (Apptainer 1.3 "Definition Files"). A build from a definition file
    runs its recipe (:func:`_apptainer_definition`): at least system, as ``docker build .`` is; a definition file
    outside the workspace, or only known when it runs, is code from outside (``project-outside-workspace``,
    destructive). A URI or source (``docker://``, ``oras://``, ``library://``, ``docker-archive:``...) or an image
    file (``.sif``) is fetched or converted: the catalogue's grade (fetch) stands. The spec is the last operand."""

    def handler(call: Call) -> None:
        base(call)
        words = [w for w in call.args if w.value is None or not w.value.startswith("-")]
        if not words or words[0].value != "build" or len(words) < 3:
            return
        spec = words[-1]
        value = spec.value
        if value is not None and (value.startswith(_APPTAINER_SOURCES) or value.endswith(_APPTAINER_IMAGES)):
            return
        what = f"{call.name} build {shorten(spec.src, 60)}"
        if value is None or value.startswith("~") or call.where(spec) is not Where.WORKSPACE:
            destructive(
                call,
                "project-outside-workspace",
                f"{what}: the definition file is outside the workspace (or only known when it runs); its %setup "
                "runs on this machine and %post at build time, code FlyBot does not read.",
            )
            return
        call.flag(
            R.SYSTEM,
            "system-command",
            f"{what}: the definition file's %setup runs on this machine and %post at build time (as docker build).",
        )
        binds = [w for w in call.args if w.value is not None and w.value.split("=", 1)[0] in _APPTAINER_BIND_OPTIONS]
        if binds:
            destructive(
                call,
                "mount",
                f"{what} {binds[0].value}: the build hands host directories to %post, which runs as root in them.",
            )
            return
        _apptainer_definition(call, value, what)

    handler.__name__ = "apptainer_build"
    return handler


#: apptainer build's options that bind host paths into the build's %post and %test (apptainer build(1): ``-B``,
#: ``--bind``, ``--mount``).
_APPTAINER_BIND_OPTIONS = frozenset({"-B", "--bind", "--mount"})
#: Where a %setup's ``$APPTAINER_ROOTFS`` is: the container's root file system, a new directory the build makes under
#: its temporary directory ($APPTAINER_TMPDIR, else $TMPDIR, else /tmp: apptainer build(1) "Temporary files").
_APPTAINER_ROOTFS = "/tmp/build-temp-flybot/rootfs"
#: ``$APPTAINER_ENVIRONMENT`` in a build's sections: the container's environment file (apptainer
#: internal/pkg/build/stage.go ``aEnvironment``), the same path on the host for %setup.
_ENVIRONMENT_FILE = "/.singularity.d/env/91-environment.sh"
_ENVIRONMENT_VARIABLE = re.compile(
    r"\$(?:\{(?:APPTAINER|SINGULARITY)_ENVIRONMENT\}|(?:APPTAINER|SINGULARITY)_ENVIRONMENT\b)"
)
#: A %post command that empties a package manager's cache or lists in the image (``rm -rf /var/lib/apt/lists/*``,
#: the usual last step of an install): the build's configuration binds no host path there (pkg/util/apptainerconf
#: ``ApplyBuildConfig`` drops the configured bind paths and the home directory; only /tmp and /var/tmp are bound, and
#: a build given ``--bind`` is destructive), so it deletes the image's own files. A path holding ``..`` is not one.
_IMAGE_CLEANUP = re.compile(
    r"(?:(?<=^)|(?<=[;&|\n(]))([ \t]*)rm(?:[ \t]+-[rRfv]+)+((?:[ \t]+(?:/var/lib/apt/lists|/var/cache/(?:apt|dnf|yum|apk)"
    r"|/root/\.cache)(?:/[\w.*-]*)*)+)(?=[ \t]*(?:$|[;&|\n)]))",
    re.MULTILINE,
)
_ROOTFS_VARIABLE = re.compile(r"\$(?:\{(?:APPTAINER|SINGULARITY)_ROOTFS\}|(?:APPTAINER|SINGULARITY)_ROOTFS\b)")


def _apptainer_definition(call: Call, spec: str, what: str) -> None:
    """Grade what the definition file ``spec`` (relative to the shell's directory, in the workspace) makes
    ``apptainer build`` run, read by the recipe book (tool ``apptainer``, the file as ``file``, the shell's directory
    as ``directory``: recipes.py :func:`~bot.risk.recipes.apptainer_definition`), as Apptainer 1.3 "Definition
    Files" says each section runs: ``%setup`` (and ``%pre``) "executed on the host system outside of the container",
    in the directory the build runs in (apptainer internal/pkg/build/stage.go ``runHostScript``), graded as a script
    typed there, with ``$APPTAINER_ROOTFS`` a directory in the temp area; ``%post``, ``%test`` and ``%appinstall``
    in the container being built, with network access (at least network): graded as a script on another machine
    (nothing there is the workspace; the build's configuration binds /tmp and /var/tmp of this machine and any
    ``APPTAINER_BINDPATH``: pkg/util/apptainerconf ``ApplyBuildConfig``); ``%files`` sources are read on this
    machine ("the source is a path on your host system", copied with ``cp -fLr``: files/copy.go ``CopyFromHost``),
    graded as ``cp -r SOURCE`` into the temp area, so a secret file is a secret read. A definition file the book
    cannot read (or that the adapter did not send) is destructive: "FlyBot cannot read the definition file"."""
    from bot.risk.hidden import needs_a_person, reveal
    from bot.risk.model import Runner
    from bot.risk.paths import CwdState
    from bot.risk.recipes import APPTAINER_CONTAINER, APPTAINER_FILES, APPTAINER_HOST, UNKNOWN, is_unreadable

    from .projects import _inside, _rewritten

    g = call.g
    state = g.state
    if g.recipe_elsewhere is not None:
        destructive(call, "recipe-elsewhere", f"{what}: {g.recipe_elsewhere}; FlyBot does not read those recipes.")
        return
    environment = sorted(name for name in g.assigned if not inert_environment(name))
    if environment:
        # %setup runs with the build's environment, and APPTAINER_BIND/APPTAINER_BINDPATH bind host paths into %post
        destructive(
            call,
            "recipe-environment",
            f"{what} runs with {shorten(environment[0], 40)} set by this command: the environment can change what "
            "the definition file runs and which host paths %post sees.",
        )
        return
    if not state.cwds:
        destructive(
            call,
            "recipe-place-unknown",
            f"{what}: FlyBot cannot read the definition file (the directory the build runs in is only known when it runs).",
        )
        return
    runner_argv: list[str] = []
    for word in call.rec.words:
        if word.value is None:
            break
        runner_argv.append(word.value)
    for cwd in sorted(state.cwds):
        directory = _inside(cwd, state.root)
        file = _inside(posixpath.normpath(posixpath.join(cwd, spec)), state.root)
        if directory is None or not file:
            destructive(
                call,
                "project-outside-workspace",
                f"{what}: FlyBot cannot read the definition file (outside the workspace).",
            )
            return
        rewritten = _rewritten(g.written_before, cwd, file)
        if rewritten is not None:
            destructive(
                call,
                "recipe-rewritten",
                f"{what}: this command writes {shorten(rewritten, 80)} before the build, so the definition file "
                "that runs is not the one FlyBot read.",
            )
            return
        key = ("apptainer", "", directory, file, ())
        recipe = next((r for r in g.recipes_used if (r.tool, r.target, r.directory, r.file, r.overrides) == key), None)
        if recipe is None:
            recipe = g.recipes.recipe("apptainer", "", directory, file) if g.recipes is not None else None
            if recipe is not None and len(g.recipes_used) >= MAX_RECIPES:
                recipe = None  # not sent, so the server could not know it either
            if recipe is not None:
                g.recipes_used.append(recipe)
        if recipe is None or is_unreadable(recipe):
            why = "not reported by the adapter" if recipe is None else recipe.lines[0].source
            destructive(
                call, "recipe-unreadable", f"{what}: FlyBot cannot read the definition file ({shorten(why, 200)})."
            )
            return
        saved = g.state
        g.state = CwdState(saved.root, frozenset({cwd}), saved.remote)
        try:
            for line in recipe.lines[:MAX_LINES]:
                section = line.source.split(" ", 1)[0].removeprefix("%")
                label = f"{what} ({shorten(reveal(line.source, multiline=False), 80)})"
                hidden = needs_a_person(line.command) or needs_a_person(line.source)
                if hidden is not None:
                    destructive(call, "hidden-characters", f"{label}: {hidden}")
                runner = Runner(tuple(runner_argv), directory, file, line.source)
                before = len(g.records)
                level_before = call.rec.level
                command = _ENVIRONMENT_VARIABLE.sub(_ENVIRONMENT_FILE, line.command)
                if section in APPTAINER_HOST:
                    call.script(_ROOTFS_VARIABLE.sub(_APPTAINER_ROOTFS, command), label, runner=runner)
                elif section in APPTAINER_CONTAINER:
                    call.script(_image_cleanup(command), label, remote=True, runner=runner)
                    call.flag(
                        R.NETWORK, "network-egress", f"{label}: runs in the build container, with network access."
                    )
                elif section in APPTAINER_FILES:
                    source = line.command
                    if UNKNOWN in source or not _APPTAINER_SOURCE.fullmatch(source):
                        destructive(
                            call,
                            "recipe-unreadable",
                            f"{label}: FlyBot cannot read the definition file's source path {shorten(source, 80)}.",
                        )
                        continue
                    call.script(f"cp -r -- {source} {_APPTAINER_ROOTFS}/", label, runner=runner)
                else:
                    destructive(
                        call,
                        "recipe-unreadable",
                        f"{label}: FlyBot cannot read the definition file (a section it does not know).",
                    )
                    continue
                inner = max((r.level for r, _ in g.records[before:]), default=level_before)
                call.flag(inner, "recipe-line", f"{line.source} runs: {shorten(line.command, 100)}", subject=label)
        finally:
            g.state = saved
        if len(recipe.lines) > MAX_LINES:
            destructive(
                call,
                "recipe-too-long",
                f"{what} runs more than {MAX_LINES} definition file sections or files; the rest are not graded.",
            )
    call.rec.emit = True


def _image_cleanup(script: str) -> str:
    """``script`` with each command of :data:`_IMAGE_CLEANUP` (none holding ``..``) replaced by ``true``."""
    return _IMAGE_CLEANUP.sub(lambda m: m.group(0) if "/.." in m.group(2) else m.group(1) + "true", script)


#: A ``%files`` source graded as a path: path and glob characters only (apptainer expands it with bash's globbing).
_APPTAINER_SOURCE = re.compile(r"~?[\w./*?\[\]+@%,=:-]+")
