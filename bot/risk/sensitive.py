"""Paths and variables whose change or disclosure is worse than an ordinary write or read.

Two lists, each judged on a word's text (its literal value, or for a word only partly known its source with quotes
removed and ``$HOME``/``${HOME}`` read as ``~``):

* **Protected paths** (:func:`protected_path`): a write there changes how the host boots, authenticates or runs
  programs, so on the host it is ``destructive`` (grader.py ``Grader.write``), whatever the write (create, append,
  replace). System trees (FHS 3.0, "The Root Filesystem" and "/usr", "/var"): ``/`` itself, ``/bin``, ``/boot``,
  ``/etc``, ``/lib*``, ``/root``, ``/sbin``, ``/usr`` (also ``/usr/local``: programs on every user's PATH), ``/var``
  (the temp areas of paths.py excepted), ``/sys``, ``/proc``, ``/home`` itself; macOS ``/System``, ``/Library``,
  ``/private/etc``, ``/private/var``. Login and credential files of any home (``~``, ``~user``, ``/home/user``,
  ``/root``): ``.ssh`` (sshd(8) AUTHORIZED_KEYS FILE FORMAT), shell start-up files (bash(1) INVOCATION: ``.bashrc``,
  ``.bash_profile``, ``.bash_login``, ``.profile``, ``.bash_logout``; zsh(1) STARTUP/SHUTDOWN FILES: ``.zshenv``,
  ``.zprofile``, ``.zshrc``, ``.zlogin``, ``.zlogout``), ``.gnupg``, ``.config/autostart``,
  ``.config/systemd`` (systemd.unit(5) user unit search path), ``.pam_environment``, and the credential files below.
* **Credential files** (:func:`credential_path`): reading one prints a secret, and a command's output goes to the
  model provider, so it is at least ``network`` (never downgraded: the output leaves wherever the command ran).
  ssh private keys and the whole ``.ssh`` directory except ``*.pub``, ``known_hosts``, ``config`` and
  ``authorized_keys`` (ssh(1) FILES); ``/etc/ssh/ssh_host_*_key`` (sshd(8) FILES); ``~/.aws/credentials`` and the
  AWS CLI caches ``~/.aws/sso``, ``~/.aws/cli`` (AWS CLI user guide, "Configuration and credential file settings");
  ``~/.config/gcloud`` (gcloud topic configurations); ``~/.kube/config`` (kubectl: "Organizing cluster access");
  ``~/.azure``; ``.netrc``/``_netrc`` (netrc(5)); ``.pgpass`` (PostgreSQL "The Password File");
  ``~/.docker/config.json`` (docker login); ``.npmrc`` (npmrc(5): auth tokens); ``.pypirc``; ``.git-credentials``
  (git-credential-store(1)); ``~/.config/gh/hosts.yml`` (gh auth); ``.cargo/credentials(.toml)`` (The Cargo Book,
  "Credentials"); ``.terraform.d/credentials.tfrc.json``; ``.vault-token``; ``.gnupg`` (private keys);
  ``/etc/shadow``, ``/etc/gshadow`` and their ``-`` backups (shadow(5)); ``/proc/PID/environ`` (proc(5): the
  process's environment). Only paths outside the workspace count (a workspace file is the agent's own).
* **Secret variables** (:func:`secret_variable`): a name with ``SECRET``, ``TOKEN``, ``PASSWORD``/``PASSWD``,
  ``API_KEY``/``APIKEY``, ``PRIVATE_KEY``, ``ACCESS_KEY``, ``CREDENTIAL`` or ``AUTH`` in it (any case): printing
  its value (``echo $GITHUB_TOKEN``, ``printenv AWS_SECRET_ACCESS_KEY``) sends the secret to the model provider.
"""

from __future__ import annotations

import posixpath
import re

__all__ = ["credential_path", "may_name_secret", "path_text", "protected_path", "secret_expansions", "secret_variable"]

_SYSTEM_TREES = (
    "/bin", "/boot", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/root", "/sbin", "/usr", "/var", "/sys", "/proc",
    "/System", "/Library", "/private/etc", "/private/var",
)  # fmt: skip
_NOT_PROTECTED = ("/var/tmp", "/var/folders", "/private/var/tmp", "/private/var/folders")
_HOME_PROTECTED = frozenset({
    ".ssh", ".bashrc", ".bash_profile", ".bash_login", ".profile", ".bash_logout", ".zshenv", ".zprofile", ".zshrc",
    ".zlogin", ".zlogout", ".gnupg", ".pam_environment",
})  # fmt: skip
_HOME_PROTECTED_PAIRS = frozenset({(".config", "autostart"), (".config", "systemd")})
_SSH_PUBLIC = frozenset({"known_hosts", "known_hosts.old", "known_hosts2", "config", "authorized_keys", "authorized_keys2"})
_HOME_FILES = frozenset({".netrc", "_netrc", ".pgpass", ".npmrc", ".pypirc", ".git-credentials", ".vault-token"})
_HOME_SECRET_DIRS = frozenset({".gnupg", ".azure"})
_SHADOW = frozenset({"/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-"})
_HOME_VAR = re.compile(r"^\$(?:HOME\b|\{HOME\})")
_ENVIRON = re.compile(r"^/proc/[^/]+/environ$")
_HOST_KEY = re.compile(r"^/etc/ssh/ssh_host_[^/]*key$")

#: Words a secret variable's name contains (matched case-insensitively).
_SECRET_NAME = re.compile(r"SECRET|TOKEN|PASSW(?:OR)?D|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|CREDENTIAL|AUTH", re.IGNORECASE)
_SECRET_PATH_TEXT = re.compile(
    r"\.(?:ssh|aws|kube|azure|netrc|pgpass|docker|npmrc|pypirc|git-credentials|config/g|cargo|terraform\.d|"
    r"vault-token|gnupg)|_netrc|shadow|environ|ssh_host_|printenv"
)
_SECRET_VARIABLE_TEXT = re.compile(
    r"\$\{?[A-Za-z_]*(?:SECRET|TOKEN|PASSW|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|CREDENTIAL|AUTH)", re.IGNORECASE
)


def may_name_secret(text: str) -> bool:
    """A cheap pre-check on a simple command's text (about half a microsecond): something in it may name a credential
    file or expand a secret variable, so its words are looked at one by one."""
    return _SECRET_PATH_TEXT.search(text) is not None or ("$" in text and _SECRET_VARIABLE_TEXT.search(text) is not None)


_EXPANSION = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")


def path_text(value: str | None, src: str) -> str:
    """The path a word names, as far as it is known: its value; for a word only partly known, its source with quotes
    removed when it starts with ``$HOME``/``${HOME}`` (read as ``~``), else "" (not known)."""
    if value is not None:
        return value
    text = src.replace('"', "").replace("'", "")
    return _HOME_VAR.sub("~", text) if _HOME_VAR.match(text) else ""


def _home_rest(path: str) -> list[str] | None:
    """The components after a home directory (``~``, ``~user``, ``/home/user``, ``/root``, ``/Users/user``), or None."""
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if path.startswith("~"):
        return parts[1:]
    if path.startswith("/") and len(parts) >= 2 and parts[0] in ("home", "Users"):
        return parts[2:]
    if path.startswith("/") and parts[:1] == ["root"]:
        return parts[1:]
    return None


def protected_path(text: str) -> str | None:
    """Why a write to the path ``text`` changes the system or a login (see the module docstring), or None."""
    if not text:
        return None
    rest = _home_rest(text)
    if rest is not None:
        if rest and (rest[0] in _HOME_PROTECTED or rest[0] in _HOME_FILES):
            return f"{rest[0]} in a home directory holds logins, keys or start-up code"
        if len(rest) >= 2 and (rest[0], rest[1]) in _HOME_PROTECTED_PAIRS:
            return f"{rest[0]}/{rest[1]} starts programs at login"
        if rest and credential_path(text) is not None:
            return "it holds credentials"
        if text.startswith("~"):
            return None
    if not text.startswith("/"):
        return None
    path = posixpath.normpath(text)
    if path.startswith("//"):
        path = "/" + path.lstrip("/")
    if path in ("/", "/home", "/Users"):
        return f"{path} holds the whole system" if path == "/" else f"{path} holds every user's files"
    for temp in _NOT_PROTECTED:
        if path == temp or path.startswith(temp + "/"):
            return None
    for tree in _SYSTEM_TREES:
        if path == tree or path.startswith(tree + "/"):
            return f"{tree} is a system directory"
    return None


def credential_path(text: str) -> str | None:
    """What secret the path ``text`` holds (see the module docstring), or None. Globs count as the files they may
    match (``~/.ssh/*``)."""
    if not text:
        return None
    path = text
    if path.startswith("/"):
        path = posixpath.normpath(path)
        if path in _SHADOW:
            return "the password hashes"
        if _ENVIRON.match(path):
            return "a process's environment"
        if _HOST_KEY.match(path):
            return "the host's ssh private key"
    parts = [p for p in path.split("/") if p not in ("", ".")]
    for index, part in enumerate(parts):
        following = parts[index + 1 :]
        if part == ".ssh":
            if not following or not (following[-1].endswith(".pub") or following[-1] in _SSH_PUBLIC):
                return "ssh private keys"
        elif part == ".aws" and (not following or following[0] in ("credentials", "sso", "cli")):
            return "AWS credentials"
        elif part == ".config" and following[:1] == ["gcloud"]:
            return "Google Cloud credentials"
        elif part == ".config" and following[:2] == ["gh", "hosts.yml"]:
            return "a GitHub token"
        elif part == ".kube" and (not following or following[0] == "config"):
            return "Kubernetes credentials"
        elif part == ".docker" and (not following or following[0] == "config.json"):
            return "container registry credentials"
        elif part == ".cargo" and following[:1] in (["credentials"], ["credentials.toml"]):
            return "a crates.io token"
        elif part == ".terraform.d" and following[:1] == ["credentials.tfrc.json"]:
            return "Terraform credentials"
        elif part in _HOME_SECRET_DIRS:
            return "private keys or credentials"
        elif part in _HOME_FILES and not following:
            return "passwords or tokens"
    return None


def secret_variable(name: str) -> bool:
    """True when a variable named ``name`` holds a secret by its name (see the module docstring)."""
    return _SECRET_NAME.search(name) is not None


def secret_expansions(src: str) -> list[str]:
    """The secret variables (:func:`secret_variable`) a word's source text expands (``"$GITHUB_TOKEN"``,
    ``${AWS_SECRET_ACCESS_KEY}``); single-quoted text expands nothing (bash(1) QUOTING)."""
    if "$" not in src:
        return []
    names: list[str] = []
    quoted = False
    for index, char in enumerate(src):
        if char == "'" and not _in_double(src, index):
            quoted = not quoted
        elif char == "$" and not quoted:
            found = _EXPANSION.match(src, index)
            if found and secret_variable(found.group(1)):
                names.append(found.group(1))
    return names


def _in_double(src: str, index: int) -> bool:
    """True when ``src[index]`` is inside double quotes (a ``'`` there is literal)."""
    inside = False
    for char in src[:index]:
        if char == '"':
            inside = not inside
    return inside
