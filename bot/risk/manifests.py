"""What a Kubernetes manifest or a local Helm chart in the workspace asks a cluster for: the items that hand a pod the
node or give full control of the cluster (settings tool ``kubernetes``, bot/risk/settings.py).

``kubectl apply|create|replace -f FILE|DIR [-R]`` and ``-k DIR`` send what the workspace's files say; ``helm
install|upgrade`` of a local chart renders its templates with its values. The adapter reads those files here and
sends each risky item it found as a settings line (programs/control.py grades them ``destructive`` on the host);
what cannot be read for certain (a file outside the workspace, a link out, unparseable YAML, a duplicate key, a file
over :data:`MAX_BYTES`, more than :data:`MAX_FILES` files, a remote kustomize base or a kustomization key that
runs plugins or pulls in Helm charts, a chart archive) raises, which fails closed.

The items (sources):

* Pod Security Standards, "Baseline" and "Privileged" profiles (kubernetes.io/docs/concepts/security/
  pod-security-standards): ``privileged: true`` ("Privileged Pods disable most security mechanisms"), the host
  namespaces ``hostNetwork``, ``hostPID``, ``hostIPC``, ``hostPath`` volumes, ``windowsOptions.hostProcess``,
  ``procMount: Unmasked``, a seccomp or AppArmor profile ``Unconfined`` and capabilities added beyond the baseline's
  list (:data:`BASELINE_CAPABILITIES`); and, from the "Restricted" profile, ``allowPrivilegeEscalation: true``
  where the same document runs as ``runAsUser: 0``.
* RBAC (kubernetes.io/docs/reference/access-authn-authz/rbac): a (Cluster)RoleBinding to ``cluster-admin`` ("allows
  super-user access to perform any action on any resource"), a subject in the ``system:masters`` group, a
  (Cluster)Role whose rules hold ``*`` (every verb, resource or group) or the ``escalate``, ``bind`` or
  ``impersonate`` verbs ("Privilege escalation prevention and bootstrapping"; RBAC good practices).
* Dynamic admission control (kubernetes.io/docs/reference/access-authn-authz/extensible-admission-controllers):
  a ``MutatingWebhookConfiguration`` or ``ValidatingWebhookConfiguration`` sees, and may change, every object the
  cluster admits.

Manifests are parsed as YAML (every document; a duplicate key fails closed, as the cluster's strict decoding may take
another value than PyYAML), dumped back in block style and scanned as text; chart files are Go templates, so they
are scanned as text only: a risky field whose value is a template expression (``privileged: {{ .Values.x }}``) or
anything but an explicit false counts, and so does a ``kind:`` only known when the chart renders. Nothing here runs
anything.
"""

from __future__ import annotations

import os
import re

__all__ = ["BASELINE_CAPABILITIES", "MAX_BYTES", "MAX_FILES", "read", "scan_text"]

MAX_BYTES = 256 * 1024
#: The most files one question reads (a directory, a kustomization and its bases, a chart).
MAX_FILES = 200
#: Capabilities the Pod Security Standards' Baseline profile lets a container add ("Capabilities": "Adding
#: additional capabilities beyond those listed below must be disallowed").
BASELINE_CAPABILITIES = frozenset({
    "AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "MKNOD", "NET_BIND_SERVICE", "SETFCAP",
    "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT",
})  # fmt: skip
#: The file extensions kubectl reads in a directory given to ``-f`` (kubectl reference, ``--filename``: "Filename,
#: directory, or URL to files"; k8s.io/cli-runtime resource visitor ``FileExtensions``).
_MANIFEST_EXTENSIONS = (".json", ".yaml", ".yml")
#: Values YAML (and go-yaml v2, which sigs.k8s.io/yaml uses) reads as false; anything else in a risky field counts.
_FALSE = frozenset({"false", "no", "off", "n", "0", "null", "~", "''", '""'})
#: Fields that hand a pod the node when set to anything but false (Pod Security Standards, Baseline).
_HOST_FIELDS = {
    "privileged": "runs a privileged container",
    "hostPID": "shares the node's process namespace (hostPID)",
    "hostNetwork": "shares the node's network namespace (hostNetwork)",
    "hostIPC": "shares the node's IPC namespace (hostIPC)",
    "hostProcess": "runs a Windows HostProcess container",
}
_KEY = r"(?:^|[\s{,\-])[\"']?{}[\"']?[ \t]*:(?:[ \t]+|$)(.*)$"
_FIELDS = {name: re.compile(_KEY.replace("{}", name)) for name in (*_HOST_FIELDS, "allowPrivilegeEscalation")}
_HOST_PATH = re.compile(_KEY.replace("{}", "hostPath"))
_RUN_AS_ROOT = re.compile(_KEY.replace("{}", "runAsUser") + r"")
_UNMASKED = re.compile(_KEY.replace("{}", "procMount"))
_UNCONFINED = re.compile(r"(?i)unconfined")
_ADD = re.compile(_KEY.replace("{}", "add"))
_KIND = re.compile(r"^[ \t]*(?:-[ \t]+)?[\"']?kind[\"']?[ \t]*:[ \t]*[\"']?([^\"'#\s]*)")
_WEBHOOKS = ("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration")
_BINDINGS = ("ClusterRoleBinding", "RoleBinding")
_ROLES = ("ClusterRole", "Role")
_WILDCARD = re.compile(r"[\"']\*[\"']")
_ESCALATING_VERBS = re.compile(r"(?<![\w-])(escalate|bind|impersonate)(?![\w-])")
_DOCUMENT = re.compile(r"(?m)^---")


def _value(text: str) -> str:
    """A field's value as written, without a trailing comment, quotes or flow punctuation."""
    text = re.split(r"[ \t]#", text, maxsplit=1)[0].strip()
    return text.rstrip(",}] ").strip().strip("\"'").strip()


def _set(value: str) -> bool:
    """True unless ``value`` is an explicit false (a template expression or an empty value counts as set)."""
    return value.lower() not in _FALSE


def scan_text(text: str, where: str) -> list[tuple[str, str]]:
    """The risky items (module docstring) in ``text`` (a manifest dumped back as YAML, or a chart's template), as
    ``(where:LINE, what)``; documents are split at ``---`` lines."""
    found: list[tuple[str, str]] = []
    offset = 0
    for document in _DOCUMENT.split(text):
        found += _scan_document(document, where, offset)
        offset += document.count("\n")
    return found


def _scan_document(document: str, where: str, offset: int) -> list[tuple[str, str]]:
    lines = document.split("\n")
    found: list[tuple[str, str]] = []
    kinds: set[str] = set()
    escalation = 0
    as_root = False
    for number, raw in enumerate(lines, start=offset + 1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        at = f"{where}:{number}"
        kind = _KIND.match(line)
        if kind is not None:
            name = kind.group(1)
            if not name or "{{" in line:
                found.append((at, "a kind only known when the chart renders"))
            kinds.add(name)
        for field, what in _HOST_FIELDS.items():
            match = _FIELDS[field].search(line)
            if match is not None and _set(_value(match.group(1))):
                found.append((at, f"the manifest {what}"))
        match = _FIELDS["allowPrivilegeEscalation"].search(line)
        if match is not None and _set(_value(match.group(1))):
            escalation = escalation or number
        match = _RUN_AS_ROOT.search(line)
        if match is not None and (_value(match.group(1)) == "0" or "{{" in match.group(1)):
            as_root = True
        if _HOST_PATH.search(line) is not None:
            found.append((at, "the manifest mounts a hostPath volume (a directory of the node)"))
        match = _UNMASKED.search(line)
        if match is not None and _value(match.group(1)) not in ("Default", ""):
            found.append((at, f"the manifest sets procMount {_value(match.group(1))[:40]}"))
        if _UNCONFINED.search(line) and re.search(r"(?i)seccomp|apparmor|type[\"']?\s*:", line):
            found.append((at, "the manifest runs a container with an unconfined seccomp or AppArmor profile"))
        match = _ADD.search(line)
        if match is not None:
            added = _added(lines, number - offset - 1, match.group(1))
            extra = [c for c in added if c.upper().removeprefix("CAP_") not in BASELINE_CAPABILITIES]
            if extra:
                found.append((at, f"the manifest adds the capabilities {', '.join(extra)[:80]}"))
        if "system:masters" in line:
            found.append((at, "the manifest names the system:masters group (full control of the cluster)"))
    if escalation and as_root:
        found.append((f"{where}:{escalation}", "the manifest allows privilege escalation in a container run as root"))
    text = "\n".join(line for line in lines if not line.lstrip().startswith("#"))
    if kinds & set(_BINDINGS) and "cluster-admin" in text:
        found.append((f"{where}:{offset + 1}", "the manifest binds cluster-admin"))
    if kinds & set(_ROLES):
        if _WILDCARD.search(text):
            found.append((f"{where}:{offset + 1}", "the manifest makes a role with * (every verb, resource or group)"))
        elif _ESCALATING_VERBS.search(text):
            found.append(
                (f"{where}:{offset + 1}", "the manifest makes a role with the escalate, bind or impersonate verb")
            )
    for webhook in _WEBHOOKS:
        if webhook in kinds:
            found.append((f"{where}:{offset + 1}", f"the manifest registers a {webhook} (admission of every object)"))
    return found


def _added(lines: list[str], index: int, inline: str) -> list[str]:
    """The items of the ``add:`` list on ``lines[index]``: its flow list, or the ``- ITEM`` lines below it; an item
    that is a template expression or anything else but a plain name is kept as written (it counts)."""
    value = re.split(r"[ \t]#", inline, maxsplit=1)[0].strip()
    if value:
        listed = [v.strip().strip("\"'") for v in value.strip("[]{} ").split(",")]
        return [i for i in listed if i] or [value]
    indent = len(lines[index]) - len(lines[index].lstrip())
    items: list[str] = []
    for line in lines[index + 1 :]:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        depth = len(line) - len(line.lstrip())
        if depth < indent or (depth == indent and not stripped.startswith("- ")):
            break
        items.append(_value(stripped.removeprefix("- ")) or stripped)
    return items


def _inside(root: str, path: str) -> str:
    """The real path of ``path``; raises ValueError when it lies outside the workspace ``root``."""
    real = os.path.realpath(path)
    if real != root and not real.startswith(root.rstrip("/") + "/"):
        raise ValueError(f"{os.path.relpath(path, root)} is outside the workspace")
    return real


def _rel(root: str, path: str) -> str:
    return os.path.relpath(path, root)


def _text(path: str) -> str:
    from bot.risk.reading import read_text

    return read_text(path, MAX_BYTES)


class _Budget:
    """Counts the files one question reads (:data:`MAX_FILES`)."""

    def __init__(self) -> None:
        self.files = 0

    def take(self) -> None:
        self.files += 1
        if self.files > MAX_FILES:
            raise ValueError(f"more than {MAX_FILES} files")


def _documents(text: str, where: str) -> list[object]:
    """Every YAML document of ``text``; raises ValueError for YAML that does not parse or holds a duplicate key."""
    import yaml

    class Strict(yaml.SafeLoader):  # type: ignore[misc]
        pass

    def mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> object:
        seen: set[str] = set()
        for key, _value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value != "<<":
                if key.value in seen:
                    raise ValueError(f"{where}: the key {key.value[:40]} is given twice")
                seen.add(key.value)
        return yaml.SafeLoader.construct_mapping(loader, node, deep=True)

    Strict.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    try:
        return [d for d in yaml.load_all(text, Loader=Strict) if d is not None]  # noqa: S506 - a SafeLoader
    except yaml.YAMLError as error:
        raise ValueError(f"{where} is not YAML FlyBot can parse ({str(error)[:80]})") from error


def _manifest_file(root: str, path: str, budget: _Budget) -> list[tuple[str, str]]:
    """The risky items of the manifest file ``path``: each document parsed, dumped back in block style and scanned."""
    import yaml

    budget.take()
    real = _inside(root, path)
    where = _rel(root, path)
    found: list[tuple[str, str]] = []
    for document in _documents(_text(real), where):
        dumped = yaml.safe_dump(document, default_flow_style=False, sort_keys=False, width=1 << 30)
        found += [(where, what) for _at, what in scan_text(dumped, where)]
        found += _json_patch_items(document, where)
    return list(dict.fromkeys(found))


def _json_patch_items(document: object, where: str) -> list[tuple[str, str]]:
    """A JSON 6902 patch (kustomize ``patchesJson6902``/``patches``): a list of ``{op, path, value}``; each value is
    scanned as the field its path's last part names (``/spec/template/spec/hostNetwork`` ``true``)."""
    import yaml

    if not isinstance(document, list):
        return []
    found: list[tuple[str, str]] = []
    for op in document:
        if isinstance(op, dict) and isinstance(op.get("path"), str) and "value" in op:
            field = op["path"].rstrip("/").rsplit("/", 1)[-1] or "value"
            dumped = yaml.safe_dump({field: op["value"]}, default_flow_style=False, width=1 << 30)
            found += [(where, what) for _at, what in scan_text(dumped, where)]
    return found


def _directory(root: str, path: str, recursive: bool, budget: _Budget) -> list[tuple[str, str]]:
    """kubectl ``-f DIR``: its ``.json``/``.yaml``/``.yml`` files, and with ``-R`` those of every directory below."""
    found: list[tuple[str, str]] = []
    for name in sorted(os.listdir(path)):
        full = os.path.join(path, name)
        if os.path.isdir(full):
            if recursive:
                _inside(root, full)
                found += _directory(root, full, recursive, budget)
        elif name.endswith(_MANIFEST_EXTENSIONS):
            found += _manifest_file(root, full, budget)
    return found


#: kustomization keys that change no pod's or role's rights (kubectl-kustomize, kustomize "Kustomization" reference).
_KUSTOMIZE_INERT = frozenset({
    "apiVersion", "kind", "metadata", "namespace", "namePrefix", "nameSuffix", "commonLabels", "labels",
    "commonAnnotations", "images", "replicas", "configMapGenerator", "secretGenerator", "generatorOptions",
    "buildMetadata", "sortOptions", "openapi", "crds", "vars", "configurations", "nameReference",
})  # fmt: skip
#: kustomization keys naming files or directories of manifests, or patches, that kustomize reads (and inline patches).
_KUSTOMIZE_FILES = frozenset({"resources", "bases", "components", "patches", "patchesStrategicMerge",
                              "patchesJson6902"})  # fmt: skip
_KUSTOMIZATIONS = ("kustomization.yaml", "kustomization.yml", "Kustomization")


def _kustomization(root: str, path: str, budget: _Budget, depth: int = 0) -> list[tuple[str, str]]:
    """``kubectl apply -k DIR``: the kustomization in DIR, the manifests and patches it names and the kustomizations
    of the directories among them. Other keys than :data:`_KUSTOMIZE_INERT` and :data:`_KUSTOMIZE_FILES`
    (``generators``, ``transformers``, ``validators``: plugins; ``helmCharts``; ``replacements``, which copy any
    field's value into another) and a resource that is not a file or directory in the workspace (a remote base) are
    not read: ValueError."""
    if depth > 10:
        raise ValueError("kustomizations nested too deep")
    real = _inside(root, path)
    file = next((os.path.join(real, n) for n in _KUSTOMIZATIONS if os.path.isfile(os.path.join(real, n))), None)
    if file is None:
        raise ValueError(f"{_rel(root, path)} holds no kustomization")
    budget.take()
    where = _rel(root, file)
    documents = _documents(_text(file), where)
    if len(documents) != 1 or not isinstance(documents[0], dict):
        raise ValueError(f"{where} is not one mapping")
    found: list[tuple[str, str]] = []
    for key, value in documents[0].items():
        if key in _KUSTOMIZE_INERT:
            continue
        if key not in _KUSTOMIZE_FILES:
            raise ValueError(f"{where}: {str(key)[:40]} (not read: plugins, charts or replacements)")
        for entry in value if isinstance(value, list) else [value]:
            found += _kustomize_entry(root, real, entry, where, budget, depth)
    return found


def _kustomize_entry(
    root: str, base: str, entry: object, where: str, budget: _Budget, depth: int
) -> list[tuple[str, str]]:
    """One entry of a kustomization's resources, bases, components or patches: a path, an inline patch (a string
    holding a newline, or a ``patch:`` value) or a ``{path, target}`` mapping."""
    if isinstance(entry, dict):
        inline = entry.get("patch")
        if isinstance(inline, str):
            return _inline(inline, where)
        named = entry.get("path")
        if not isinstance(named, str):
            raise ValueError(f"{where}: an entry FlyBot cannot read")
        entry = named
    if not isinstance(entry, str):
        raise ValueError(f"{where}: an entry FlyBot cannot read")
    if "\n" in entry:
        return _inline(entry, where)
    full = os.path.join(base, entry)
    if "://" in entry or not os.path.lexists(full):
        raise ValueError(f"{where}: {entry[:80]} (a remote or missing resource, not read)")
    if os.path.isdir(_inside(root, full)):
        return _kustomization(root, full, budget, depth + 1)
    return _manifest_file(root, full, budget)


def _inline(text: str, where: str) -> list[tuple[str, str]]:
    import yaml

    found: list[tuple[str, str]] = []
    for document in _documents(text, where):
        dumped = yaml.safe_dump(document, default_flow_style=False, sort_keys=False, width=1 << 30)
        found += [(where, what) for _at, what in scan_text(dumped, where)]
        found += _json_patch_items(document, where)
    return found


def _chart(root: str, path: str, budget: _Budget) -> list[tuple[str, str]]:
    """A local chart directory (helm install|upgrade NAME DIR): every file in it scanned as text (templates are Go
    templates; ``.Files.Get`` may paste any file of the chart; subcharts under ``charts/`` are directories of the
    same kind). A chart archive (``.tgz``, also under ``charts/``) is not read: ValueError."""
    real = _inside(root, path)
    if not os.path.isdir(real):
        raise ValueError(f"{_rel(root, path)} is a chart archive or not a chart directory (not read)")
    if not os.path.isfile(os.path.join(real, "Chart.yaml")):
        raise ValueError(f"{_rel(root, path)} holds no Chart.yaml")
    found: list[tuple[str, str]] = []
    for top, directories, files in os.walk(real):
        directories.sort()
        for name in directories:
            _inside(root, os.path.join(top, name))
        for name in sorted(files):
            full = os.path.join(top, name)
            if name.endswith((".tgz", ".tar.gz")):
                raise ValueError(f"{_rel(root, full)} (a chart archive, not read)")
            if name in (".helmignore", "README.md", "LICENSE", "NOTES.txt") or name.endswith(".md"):
                continue
            budget.take()
            where = _rel(root, full)
            text = _text(_inside(root, full))
            found += scan_text(text, where)
    return found


def read(root: str, base: str, question: str) -> list[tuple[str, str]]:
    """The risky items of what ``question`` names, from the directory ``base`` in the workspace ``root``:
    ``manifest PATH`` (kubectl ``-f``), ``manifest -R PATH`` (with ``--recursive``), ``kustomize PATH`` (``-k``),
    ``chart PATH`` (a local Helm chart) or ``values PATH`` (a Helm values file, read as a manifest).

    Raises:
        OSError, ValueError, UnicodeDecodeError: what is named cannot be read for certain (fail closed).
    """
    kind, _, rest = question.partition(" ")
    recursive = rest.startswith("-R ")
    named = rest[3:] if recursive else rest
    if not named:
        raise ValueError("no file named")
    full = os.path.normpath(os.path.join(base, named))
    if not os.path.lexists(full):
        raise ValueError(f"{named[:80]} (no such file in the workspace: a remote chart or manifest is not read)")
    budget = _Budget()
    if kind == "manifest":
        real = _inside(root, full)
        return _directory(root, real, recursive, budget) if os.path.isdir(real) else _manifest_file(root, full, budget)
    if kind == "values":
        return _manifest_file(root, full, budget)
    if kind == "kustomize":
        return _kustomization(root, full, budget)
    if kind == "chart":
        return _chart(root, full, budget)
    raise ValueError(f"no question {kind[:40]}")
