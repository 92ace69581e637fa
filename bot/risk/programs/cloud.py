"""Cloud and forge command lines: ``aws``, ``gcloud``, ``az``, ``gsutil``, ``gh``, ``glab``.

They change things on another machine, so nothing here is ever downgraded: reads are
``network`` (they talk to a cloud or forge), changes ``system``, deletions ``destructive``.
Commands are recognised by their verb; a verb the classifier does not know is
``unrecognised-use`` (destructive): aliases and extensions of these tools are such verbs.
Local-only uses (``--version``, ``help``, printing the local configuration) are read-only;
changing the local configuration is a write to the user's home (``system`` on the host).
Commands that open a shell on another machine grade the command they run there as a remote
script (``gcloud compute ssh --command``), or destructive when it is not given.

Sources: AWS CLI v2 command reference (awscli.amazonaws.com/v2/documentation/api/latest);
gcloud reference (cloud.google.com/sdk/gcloud/reference); az reference
(learn.microsoft.com/cli/azure/reference-index); gsutil commands (cloud.google.com/storage/docs/gsutil);
GitHub CLI manual (cli.github.com/manual); glab docs (gitlab.com/gitlab-org/cli/-/tree/main/docs).
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase

from bot.risk.grader import Call, Handler
from bot.risk.options import option_values
from bot.risk.paths import Where
from bot.risk.reasons import shorten
from bot.risk.sensitive import secret_setting, secret_variable
from bot.risk.words import Word, literal_word

from .kit import R, destructive, read_only, refuse, show, unpacks

__all__ = ["adb_shell", "ansible_module", "aws", "project_here", "az", "gcloud", "gh", "glab", "gsutil"]

_RULE = "remote-control-plane"
_CONFIG_HOME = Word(None, "~/.config")


def _operands(words: list[Word], value_flags: frozenset[str]) -> list[Word]:
    """Non-option words in order (skipping values of ``value_flags``; ``--`` ends options)."""
    out: list[Word] = []
    skip = False
    for index, word in enumerate(words):
        value = word.value
        if skip:
            skip = False
            continue
        if value == "--":
            out.extend(words[index + 1 :])
            break
        if value is not None and value.startswith("-") and value != "-":
            skip = "=" not in value and value in value_flags
            continue
        out.append(word)
    return out


def _reads(call: Call, what: str) -> None:
    call.flag(R.NETWORK, _RULE, f"{what} reads from a cloud or forge service.")


def _changes(call: Call, what: str) -> None:
    call.flag(R.SYSTEM, _RULE, f"{what} changes state on a cloud or forge service.")


def _deletes(call: Call, what: str) -> None:
    call.flag(R.DESTRUCTIVE, _RULE, f"{what} deletes on a cloud or forge service.")


def _version_or_help(call: Call) -> bool:
    values = [w.value for w in call.args]
    if (
        values
        and all(v in ("--version", "-v", "version", "help", "--help", "-h") for v in values[:1])
        and len(values) <= 2
    ):
        read_only(call, f"{call.name} {values[0]} only prints.")
        return True
    return False


# -- aws ----------------------------------------------------------------------------------------
_AWS_VALUES = frozenset({
    "--profile", "--region", "--output", "--query", "--endpoint-url", "--ca-bundle", "--cli-read-timeout",
    "--cli-connect-timeout", "--color", "--cli-binary-format",
})  # fmt: skip
_AWS_READ_PREFIXES = (
    "describe-", "list-", "get-", "head-", "batch-get-", "search-", "lookup-", "filter-", "validate-",
    "estimate-", "preview-", "simulate-", "test-", "check-", "select-", "query", "scan", "detect-", "generate-",
)  # fmt: skip
_AWS_READ = frozenset({"wait", "tail", "assume-role", "decrypt", "encrypt", "sign", "verify", "ls", "presign", "help"})
_AWS_DELETE_PREFIXES = (
    "delete-",
    "remove-",
    "terminate-",
    "deregister-",
    "purge-",
    "destroy-",
    "batch-delete-",
    "reset-",
    "drop-",
)
_AWS_CHANGE_PREFIXES = (
    "create-", "put-", "update-", "modify-", "start-", "stop-", "run-", "invoke", "tag-", "untag-", "attach-",
    "detach-", "associate-", "disassociate-", "authorize-", "revoke-", "enable-", "disable-", "register-",
    "copy-", "import-", "export-", "publish", "send-", "upload-", "restore-", "reboot-", "set-", "add-",
    "replace-", "allocate-", "release-", "request-", "accept-", "reject-", "confirm-", "cancel-", "change-",
    "apply-", "deploy", "promote-", "rotate-", "receive-", "subscribe", "unsubscribe", "execute-", "complete-",
    "initiate-", "abort-", "resume-", "suspend-", "rebuild-", "renew-", "upgrade-", "admin-", "sign-up",
    "sync", "mb", "website", "cp", "login", "logout",
)  # fmt: skip
# Operations that open a shell or run commands on the remote side (not graded: destructive).
_AWS_REMOTE_RUN = frozenset({"start-session", "send-command", "execute-command"})


def aws(call: Call) -> None:
    """AWS CLI v2: ``aws [options] SERVICE OPERATION``; operations graded by their verb (``describe-``,
    ``list-``, ``get-`` read; ``delete-``, ``terminate-``, ``s3 rm|rb|mv``, ``s3 sync --delete`` delete)."""
    if _version_or_help(call):
        return
    ops = _operands(call.args, _AWS_VALUES)
    if not ops:
        refuse(call, "aws without a command")
        return
    if any(w.value is None for w in ops[:2]):
        destructive(call, "dynamic-argument", "The aws command is only known when it runs.")
        return
    service = ops[0].value or ""
    op = ops[1].value if len(ops) > 1 else "help"
    what = f"aws {service} {op}"
    flags = {w.value for w in call.args if w.value is not None}
    if service == "configure":
        if op == "export-credentials" or (
            op == "get" and any(w.value is None or secret_variable(w.value.rsplit(".", 1)[-1]) for w in ops[2:3])
        ):
            # AWS CLI v2 "configure export-credentials" prints the access key, secret key and session token;
            # "configure get aws_secret_access_key" prints the secret key (sensitive.py: secret names).
            call.flag(R.NETWORK, "secret-read", f"{what} prints credentials: its output goes to the model.")
        elif op in ("list", "get", "list-profiles", "export-credentials", "help"):
            read_only(call, f"{what} prints the local configuration.")
        else:
            key = ops[2].value if op == "set" and len(ops) > 2 else ""
            if key is None or key.rsplit(".", 1)[-1].lower() in _AWS_PROGRAM_KEYS:
                call.flag(
                    R.DESTRUCTIVE,
                    "runs-program",
                    f"{what} {show(ops[2])} configures a program, a trusted certificate authority or an endpoint that "
                    'every later aws command runs or talks to (AWS CLI "Configuration and credential file '
                    "settings\"): code or a party of the caller's choosing.",
                    contained_level=R.WORKSPACE_WRITE,
                )
            call.write(Word(None, "~/.aws"), f"{what} changes")
        return
    if op in _AWS_REMOTE_RUN:
        destructive(call, "remote-shell", f"{what} runs commands on another machine; the classifier cannot see them.")
        return
    if _aws_security_change(call, service, op or "", what):
        return
    if service == "s3" and op in ("cp", "sync", "mv", "rm", "rb"):
        _aws_s3(call, op, ops[2:], flags)
        return
    _aws_verb(call, op or "", what)
    if (service, op) in _AWS_PRINTS_SECRETS or (
        service == "ssm" and op in _AWS_SSM_DECRYPTS and any(f.startswith("--with-decryption") for f in flags)
    ):
        _prints_credentials(call, what)
    if (service, op) in _AWS_OUTFILE and len(ops) > 2:
        call.write(ops[-1], f"{what} writes")
    if (service, op) == ("eks", "update-kubeconfig"):
        # aws eks update-kubeconfig: "--kubeconfig (string) Optionally specify a kubeconfig file to append with your
        # configuration. By default, the configuration is written to the first file path in the KUBECONFIG
        # environment variable (if it is set) or the default kubeconfig path (.kube/config) in your home directory."
        _written_by_option(call, ("--kubeconfig",), Word(None, "~/.kube/config"), what)


#: AWS CLI v2 operations whose last positional argument is ``outfile`` ("Filename where the content will be saved",
#: the AWS CLI command reference of each).
_AWS_OUTFILE = frozenset({
    ("s3api", "get-object"), ("s3api", "get-object-torrent"), ("lambda", "invoke"), ("polly", "synthesize-speech"),
    ("glacier", "get-job-output"), ("kinesis-video-media", "get-media"), ("mediastore-data", "get-object"),
    ("sagemaker-runtime", "invoke-endpoint"), ("lex-runtime", "post-content"), ("lexv2-runtime", "recognize-utterance"),
})  # fmt: skip


def _written_by_option(call: Call, names: tuple[str, ...], default: Word | None, what: str) -> None:
    """The file named by the first of ``names`` (``--name V`` or ``--name=V``) is written; ``default`` without it."""
    words = call.args
    for index, word in enumerate(words):
        name, eq, attached = (word.value or "").partition("=")
        if name in names and (eq or index + 1 < len(words)):
            target = Word(attached, attached) if eq else words[index + 1]
            if target.value != "-":
                call.write(target, f"{what} {name} writes")
            return
    if default is not None:
        call.write(default, f"{what} writes")


#: AWS CLI v2 configuration keys ("Configuration and credential file settings") naming a program every later aws
#: command runs (``credential_process``, the ``cli_pager``), the certificate authorities it trusts (``ca_bundle``: a
#: proxy holding such a certificate reads the traffic) or where its requests go (``endpoint_url``).
_AWS_PROGRAM_KEYS = frozenset({"credential_process", "cli_pager", "ca_bundle", "endpoint_url"})


def _prints_credentials(call: Call, what: str) -> None:
    """``what`` prints credentials or secret values: ``network`` (``secret-read``, which no standing approval
    covers), as reading a credential file is: its output goes to the model."""
    call.flag(R.NETWORK, "secret-read", f"{what} prints credentials: its output goes to the model.")


#: AWS CLI v2 operations whose output is a secret or a credential (the AWS CLI command reference of each):
#: secretsmanager get-secret-value (SecretString), ecr get-login-password (a registry password), the sts operations
#: that return AccessKeyId/SecretAccessKey/SessionToken, eks get-token, codeartifact get-authorization-token, rds
#: generate-db-auth-token, iam create-access-key (SecretAccessKey), kms decrypt (Plaintext); sso
#: get-role-credentials and cognito-identity get-credentials-for-identity (an access key, secret key and session
#: token), iam create|reset-service-specific-credential (ServicePassword), kms generate-data-key[-pair] (the
#: Plaintext key), sso-oidc create-token (an access token), lambda get-function[-configuration]
#: (Environment.Variables, where functions keep their secrets).
_AWS_PRINTS_SECRETS = frozenset({
    ("secretsmanager", "get-secret-value"), ("secretsmanager", "batch-get-secret-value"),
    ("ecr", "get-login-password"), ("ecr", "get-authorization-token"), ("ecr-public", "get-login-password"),
    ("ecr-public", "get-authorization-token"), ("sts", "get-session-token"), ("sts", "assume-role"),
    ("sts", "assume-role-with-saml"), ("sts", "assume-role-with-web-identity"), ("sts", "get-federation-token"),
    ("eks", "get-token"), ("codeartifact", "get-authorization-token"), ("rds", "generate-db-auth-token"),
    ("iam", "create-access-key"), ("kms", "decrypt"),
    ("sso", "get-role-credentials"), ("cognito-identity", "get-credentials-for-identity"),
    ("iam", "create-service-specific-credential"), ("iam", "reset-service-specific-credential"),
    ("kms", "generate-data-key"), ("kms", "generate-data-key-pair"), ("sso-oidc", "create-token"),
    ("lambda", "get-function-configuration"), ("lambda", "get-function"),
})  # fmt: skip
#: ssm operations that print SecureString parameters decrypted when given ``--with-decryption``.
_AWS_SSM_DECRYPTS = frozenset({"get-parameter", "get-parameters", "get-parameters-by-path", "get-parameter-history"})


def _aws_verb(call: Call, op: str, what: str) -> None:
    if op.startswith(_AWS_DELETE_PREFIXES) or op in ("rm", "rb"):
        _deletes(call, what)
    elif op in _AWS_READ or op.startswith(_AWS_READ_PREFIXES):
        _reads(call, what)
    elif op.startswith(_AWS_CHANGE_PREFIXES):
        _changes(call, what)
    else:
        refuse(call, f"the operation {op}")


def _aws_s3(call: Call, op: str, paths: list[Word], flags: set[str]) -> None:
    what = f"aws s3 {op}"
    if op in ("rm", "rb", "mv") or (op == "sync" and "--delete" in flags):
        _deletes(call, what)
        return
    dest = paths[-1] if len(paths) >= 2 else None
    if dest is not None and dest.value is not None and not dest.value.startswith("s3://"):
        _reads(call, what)
        call.write(dest, f"{what} writes")
        if (op == "sync" or "--recursive" in flags) and call.g.at_workspace_root(dest):
            # aws s3 sync / cp --recursive write every key below the prefix by its name: a key .git/config lands as
            # ./.git/config (AWS CLI reference, "s3 sync")
            unpacks(call, dest, f"{what} writes the keys the bucket names into")
    else:
        _changes(call, what)
        if op == "sync" or "--recursive" in flags:
            # every file below a local source is read and uploaded (a home holds credentials)
            for source in paths[:-1]:
                if source.value is None or not source.value.startswith("s3://"):
                    call.g.read_below(call.rec, call.scope, what, source, None)


# -- gcloud, az: GROUP [SUBGROUP...] VERB -------------------------------------------------------
_READ_VERBS = frozenset({
    "list", "describe", "show", "get", "read", "tail", "query", "search", "check", "validate", "info", "version",
    "help", "ls", "cat", "du", "print-access-token", "print-identity-token", "get-iam-policy", "get-value",
    "wait", "exists", "logs", "browse", "status", "diff", "view", "checks", "watch", "find",
})  # fmt: skip
_READ_PREFIXES = ("list-", "describe-", "show-", "get-", "check-", "test-", "search-")
_DELETE_VERBS = frozenset({
    "delete", "remove", "purge", "destroy", "rm", "rb", "delete-batch", "reset", "wipe", "prune", "garbage-collection",
})  # fmt: skip
_DELETE_PREFIXES = ("delete-", "remove-", "purge-")
_CHANGE_VERBS = frozenset({
    "create", "update", "deploy", "set", "unset", "add", "start", "stop", "restart", "resize", "patch", "apply",
    "import", "export", "submit", "run", "enable", "disable", "login", "logout", "activate", "cp", "mv", "rsync",
    "upload", "download", "publish", "invoke", "call", "scale", "attach", "detach", "move", "rename", "copy",
    "restore", "backup", "promote", "failover", "rollback", "reboot", "reset-password", "edit", "merge", "close",
    "reopen", "comment", "review", "ready", "lock", "unlock", "pin", "unpin", "transfer", "fork", "sync",
    "archive", "unarchive", "rerun", "cancel", "approve", "revoke", "grant", "tag", "untag", "sign", "upgrade",
    "install", "register", "unregister", "connect", "disconnect", "swap", "trigger", "retry", "develop",
    "clone", "checkout", "mb", "setmeta", "label", "acl", "iam", "lifecycle", "versioning", "defacl", "notification",
})  # fmt: skip
_CHANGE_PREFIXES = (
    "add-",
    "set-",
    "update-",
    "create-",
    "enable-",
    "disable-",
    "start-",
    "stop-",
    "move-",
    "attach-",
    "detach-",
)


def _verb_level(verb: str) -> str | None:
    if verb in _DELETE_VERBS or verb.startswith(_DELETE_PREFIXES):
        return "delete"
    if verb in _READ_VERBS or verb.startswith(_READ_PREFIXES):
        return "read"
    if verb in _CHANGE_VERBS or verb.startswith(_CHANGE_PREFIXES):
        return "change"
    return None


def _by_verb(call: Call, ops: list[Word], first_is_group: bool, lead: str = "") -> str | None:
    """Grade by the first verb among ``ops`` (a verb in first position only counts when no later one does).

    Returns the verb used, or None when graded otherwise (refused or dynamic)."""
    found: list[tuple[int, str, str]] = []
    for index, word in enumerate(ops[:6]):
        if word.value is None:
            if not found:
                destructive(call, "dynamic-argument", f"The {call.name} command is only known when it runs.")
                return None
            break
        level = _verb_level(word.value)
        if level is not None:
            found.append((index, word.value, level))
    if first_is_group and len(found) > 1 and found[0][0] == 0:
        found = found[1:]
    if not found:
        refuse(call, f"the command {' '.join(w.value or '?' for w in ops[:3])}")
        return None
    index, verb, level = found[0]
    what = " ".join([call.name] + ([lead] if lead else []) + [w.value or "" for w in ops[: index + 1]])
    {"read": _reads, "change": _changes, "delete": _deletes}[level](call, what)
    return verb


_GCLOUD_VALUES = frozenset({
    "--project", "--account", "--configuration", "--format", "--verbosity", "--region", "--zone", "--filter",
    "--limit", "--sort-by", "--page-size", "--billing-project", "--impersonate-service-account", "--trace-token",
    "--command", "--location", "--flags-file",
})  # fmt: skip


def gcloud(call: Call) -> None:
    """gcloud: ``gcloud GROUP... VERB``; ``config``/``auth list`` are local; ``compute ssh --command`` is graded remotely."""
    if _version_or_help(call):
        return
    if any((w.value or "").startswith("--flags-file") for w in call.args):
        destructive(
            call, "unrecognised-use", "gcloud --flags-file reads more options from a file the classifier cannot see."
        )
        return
    ops = _operands(call.args, _GCLOUD_VALUES)
    values = [w.value for w in ops]
    if values[:1] == ["config"] and values[1:2] != ["config-helper"]:
        if (
            len(values) > 1
            and values[1] in ("list", "get-value", "get", "configurations")
            and (values[1] != "configurations" or values[2:3] in (["list"], ["describe"]))
        ):
            read_only(call, "gcloud config only prints the local configuration.")
        else:
            call.write(_CONFIG_HOME, "gcloud config changes")
        return
    if values[:2] in (["auth", "print-access-token"], ["auth", "print-identity-token"]) or values[:3] in (
        ["auth", "application-default", "print-access-token"],
        ["config", "config-helper"],
    ):
        # gcloud auth print-access-token|print-identity-token, application-default print-access-token and
        # config config-helper print an OAuth access or identity token (gcloud reference)
        _prints_credentials(call, "gcloud " + " ".join(v or "" for v in values[:3]))
        return
    if values[:4] == ["iam", "service-accounts", "keys", "create"]:
        # gcloud iam service-accounts keys create OUTPUT-FILE: a new private key written to the file (``-``:
        # standard output); a later read of the file in the workspace would not count as a secret read
        _prints_credentials(call, "gcloud iam service-accounts keys create (a new private key)")
        if len(ops) > 4 and ops[4].value != "-":
            call.write(ops[4], "gcloud iam service-accounts keys create writes")
    if values[:2] == ["auth", "list"] or values[:1] in (["info"], ["version"]):
        read_only(call, "gcloud only prints local information.")
        return
    if "ssh" in values[:3]:
        _remote_command(call, "gcloud ssh")
        return
    if _gcloud_security_change(call, values):
        return
    verb = _by_verb(call, ops, first_is_group=True)
    if verb == "get-credentials":
        call.write(Word(None, "~/.kube/config"), "gcloud get-credentials writes")
    if values[:1] == ["storage"] and verb in ("cp", "rsync", "mv") and len(ops) >= 4:
        # gcloud storage cp|rsync|mv SOURCE... DESTINATION (gcloud storage reference): a local destination is
        # written, as gsutil cp's
        target = ops[-1]
        if target.value is None or "://" not in target.value:
            call.write(target, f"gcloud storage {verb} writes")


def _remote_command(call: Call, what: str) -> None:
    """``--command CMD`` run on another machine: graded as a remote script; without it, an interactive shell."""
    call.flag(R.NETWORK, _RULE, f"{what} connects to another machine.")
    words = call.args
    for index, word in enumerate(words):
        value = word.value or ""
        if value == "--command" and index + 1 < len(words):
            text = words[index + 1].value
        elif value.startswith("--command="):
            text = value.split("=", 1)[1] if word.value is not None else None
        else:
            continue
        if text is None:
            destructive(call, "dynamic-script", f"The {what} command is only known when it runs.")
        else:
            call.script(text, what, remote=True)
            call.rec.emit = True
        return
    destructive(call, "remote-shell", f"{what} without --command opens a shell on another machine.")


_AZ_VALUES = frozenset(
    {"--subscription", "--output", "-o", "--query", "--resource-group", "-g", "--name", "-n", "--only-show-errors"}
)


def az(call: Call) -> None:
    """az: ``az GROUP... VERB``; ``run-command``, ``ssh`` and extensions run code (destructive)."""
    if _version_or_help(call):
        return
    ops = _operands(call.args, _AZ_VALUES)
    values = [w.value for w in ops]
    if (
        "run-command" in values[:3]
        or values[:1] in (["ssh"], ["extension"])
        and values[1:2] not in (["list"], ["show"])
    ):
        destructive(call, "remote-shell", "az run-command/ssh/extension runs code the classifier cannot see.")
        return
    if values[:1] == ["config"] or values[:2] == ["account", "list"] or values[:2] == ["account", "show"]:
        if values[1:2] in (["get"], ["list"], ["show"]) or values[:1] == ["account"]:
            read_only(call, "az only prints the local configuration.")
        else:
            call.write(Word(None, "~/.azure"), "az config changes")
        return
    if values[:1] == ["rest"]:
        _http_method(call, "az rest", ("--method", "-m"), default="GET")
        return
    if _az_security_change(call, values):
        return
    if (
        values[:2] == ["account", "get-access-token"]
        or values[:3] in (["keyvault", "secret", "show"], ["keyvault", "secret", "download"])
        or values[:4] in (["storage", "account", "keys", "list"], ["acr", "credential", "show"])
        or values[:3] == ["storage", "account", "show-connection-string"]
        or (values[:2] == ["acr", "login"] and "--expose-token" in (w.value for w in call.args))
        or _az_lists_keys(values, [w.value for w in call.args])
    ):
        # az account get-access-token (an access token), keyvault secret show|download (the secret's value),
        # storage account keys list / show-connection-string (account keys), acr credential show and acr login
        # --expose-token (registry passwords, a token): az reference
        _prints_credentials(call, "az " + " ".join(v or "" for v in values[:4]))
        _by_verb(call, ops, first_is_group=True)
        return
    verb = _by_verb(call, ops, first_is_group=True)
    if verb == "get-credentials":
        # az aks get-credentials: "--file -f  Kubernetes configuration file to update. Use "-" to print YAML to
        # stdout instead." (default ~/.kube/config)
        _written_by_option(call, ("--file", "-f"), Word(None, "~/.kube/config"), "az get-credentials")
    elif values[:1] == ["storage"] and verb in ("download", "download-batch"):
        # az storage blob|file download: "--file -f  Path of file to write out to"; download-batch: "--destination
        # -d  The local directory where the files are downloaded to"; file download: "--dest" (az storage reference)
        names = ("--file", "-f", "--dest") if verb == "download" else ("--destination", "-d")
        _written_by_option(call, names, None, f"az storage {verb}")


#: az commands that print a resource's access keys, connection strings or deployment passwords (az reference:
#: ``cosmosdb keys list``, ``redis list-keys``, ``functionapp keys list``, ``servicebus|eventhubs ...
#: authorization-rule keys list``, ``webapp deployment list-publishing-profiles`` (userPWD),
#: ``list-publishing-credentials``, ``signalr key list``, ``search admin-key show``).
_AZ_KEY_WORDS = frozenset({"list-keys", "list-publishing-profiles", "list-publishing-credentials",
                           "list-connection-strings", "admin-key", "query-key", "show-connection-string"})  # fmt: skip


def _az_lists_keys(values: list[str | None], words: list[str | None]) -> bool:
    """True for an az command printing keys (:data:`_AZ_KEY_WORDS`, ``... keys list``/``key list``) or ``aks
    get-credentials --file -`` (the kubeconfig, client key and token, on standard output)."""
    if any(v in _AZ_KEY_WORDS for v in values):
        return True
    if values[:1] != ["keyvault"] and any(  # keyvault key list|show: key names and public halves only
        values[i] in ("keys", "key") and values[i + 1] == "list" for i in range(len(values) - 1)
    ):
        return True
    if values[:2] == ["aks", "get-credentials"]:
        for index, word in enumerate(words):
            if word in ("--file", "-f") and index + 1 < len(words) and words[index + 1] in ("-", None):
                return True
            if word is not None and word in ("--file=-", "-f-"):
                return True
    return False


_GSUTIL_VALUES = frozenset({"-u", "-o", "-h", "-i"})


def gsutil(call: Call) -> None:
    """gsutil: ``ls``/``cat``/``du``/``stat`` read; ``rm``/``rb``/``mv``/``rsync -d`` delete; a download writes locally."""
    if _version_or_help(call):
        return
    ops = _operands(call.args, _GSUTIL_VALUES)
    if not ops:
        refuse(call, "gsutil without a command")
        return
    if ops[0].value is None:
        destructive(call, "dynamic-argument", "The gsutil command is only known when it runs.")
        return
    verb = ops[0].value
    flags = {w.value for w in call.args if w.value is not None}
    if verb in ("rm", "rb", "mv") or (
        verb == "rsync" and any(f.startswith("-") and not f.startswith("--") and "d" in f for f in flags)
    ):
        _deletes(call, f"gsutil {verb}")
        return
    if verb in ("acl", "iam", "defacl") and len(ops) > 1 and ops[1].value != "get" and _to_everyone(call.args):
        _grants(call, "makes-public", f"gsutil {verb} {ops[1].value or '?'} opens the bucket or objects to everyone")
        return
    if verb in ("acl", "iam", "lifecycle", "versioning", "defacl", "label", "cors", "logging", "web") and len(ops) > 1:
        (_reads if ops[1].value == "get" else _changes)(call, f"gsutil {verb} {ops[1].value}")
        return
    if (
        verb in ("cp", "rsync")
        and len(ops) >= 3
        and ops[-1].value is not None
        and not ops[-1].value.startswith("gs://")
    ):
        _reads(call, f"gsutil {verb}")
        call.write(ops[-1], f"gsutil {verb} writes")
        recursive = verb == "rsync" or any(
            (w.value or "").startswith("-") and not (w.value or "").startswith("--") and set(w.value or "") & set("rR")
            for w in call.args
        )
        if (
            recursive
            and call.g.at_workspace_root(ops[-1])
            and (verb == "rsync" or any((o.value or "").endswith("/.") for o in ops[1:-1]))
        ):
            # gsutil rsync: every object below the prefix lands by its name (a key .git/config too)
            unpacks(call, ops[-1], f"gsutil {verb} writes the objects the bucket names into")
        return
    if verb in ("cp", "rsync") and any(
        (w.value or "").startswith("-") and not (w.value or "").startswith("--") and set(w.value or "") & set("rR")
        for w in call.args
    ):  # gsutil cp -r / rsync -r: every file below a local source is read and uploaded
        for source in ops[1:-1]:
            if source.value is None or "://" not in source.value:
                call.g.read_below(call.rec, call.scope, f"gsutil {verb} -r", source, None)
    if verb in ("ls", "cat", "du", "stat", "hash", "version", "help", "signurl"):
        _reads(call, f"gsutil {verb}")
    elif verb in (
        "cp",
        "rsync",
        "mb",
        "setmeta",
        "compose",
        "kms",
        "notification",
        "retention",
        "requesterpays",
        "ubla",
        "pap",
        "autoclass",
        "rpo",
        "defstorageclass",
        "bucketpolicyonly",
    ):
        _changes(call, f"gsutil {verb}")
    else:
        refuse(call, f"the command {verb}")


# -- gh, glab -----------------------------------------------------------------------------------
_GH_VALUES = frozenset({"-R", "--repo", "--hostname", "-B", "--base", "-H", "--head", "-t", "--title", "-b", "--body",
                        "-F", "--body-file", "-l", "--label", "-L", "--limit", "-s", "--state", "-a", "--assignee",
                        "-A", "--author", "-q", "--jq", "--json", "--template", "-m", "--milestone",
                        "-X", "--method", "-f", "--field", "--raw-field", "--header", "--input", "-p", "--preview"})  # fmt: skip
_GH_GROUPS = frozenset({
    "pr", "issue", "repo", "release", "run", "workflow", "gist", "label", "secret", "variable", "cache", "project",
    "ruleset", "codespace", "org", "ssh-key", "gpg-key", "auth", "config", "status", "search", "api", "browse",
    "alias", "extension", "ext", "attestation", "completion", "version", "help", "mr", "ci", "pipeline", "snippet",
    "user", "milestone", "incident", "schedule", "deploy-key", "stack", "changelog", "check-update", "cluster",
})  # fmt: skip
#: Built-in aliases of gh command groups (GitHub CLI manual: codespace "cs", ruleset "rs", attestation "at").
_GH_GROUP_ALIASES = {"cs": "codespace", "rs": "ruleset", "at": "attestation"}
# Config keys that name a program the tool runs (gh config: editor, browser, pager; glab: editor, browser, glab_pager).
_GH_PROGRAM_KEYS = frozenset({"editor", "browser", "pager", "glab_pager", "glamour_style"})


def gh(call: Call) -> None:
    """GitHub CLI: ``gh GROUP VERB``; list/view/status read; create/merge/edit change; delete destructive;
    ``gh api`` by method; aliases, extensions and ``codespace ssh`` run code the classifier cannot see."""
    _forge(call, "gh")


def glab(call: Call) -> None:
    """GitLab CLI (glab): the same shape as gh (``mr``, ``issue``, ``ci``, ``repo``, ``api``...)."""
    _forge(call, "glab")


def _forge(call: Call, tool: str) -> None:
    _forge_command(call, tool)
    values = [w.value for w in call.args]
    ops = [w.value for w in _operands(call.args, _GH_VALUES)[:2]]
    if ops[:1] == ["repo"] and ops[1:] in (["clone"], ["fork"]) and "--" in values:
        # gh-repo-clone(1), gh-repo-fork(1) --clone, glab repo clone: "Pass additional git clone flags by listing
        # them after --": graded as git clone given them
        flags = call.args[values.index("--") + 1 :]
        url = literal_word("https://example.com/o/r.git")
        call.run([literal_word("git"), literal_word("clone"), *flags, url], f"{tool} repo {ops[1]}")


def _forge_command(call: Call, tool: str) -> None:
    if _version_or_help(call):
        return
    ops = _operands(call.args, _GH_VALUES)
    if not ops:
        read_only(call, f"{tool} without a command prints help.")
        return
    group = ops[0].value
    if group is None:
        destructive(call, "dynamic-argument", f"The {tool} command is only known when it runs.")
        return
    if tool == "gh":
        group = _GH_GROUP_ALIASES.get(group, group)
    verb = ops[1].value if len(ops) > 1 else None
    what = f"{tool} {group}" + (f" {verb}" if verb else "")
    if group == "auth" and (
        verb == "token" or (verb == "status" and any(w.value in ("-t", "--show-token") for w in call.args))
    ):
        # gh auth token: "Print the authentication token gh uses"; gh|glab auth status -t/--show-token prints it too
        _prints_credentials(call, f"{what}")
        return
    if group not in _GH_GROUPS:
        destructive(call, "unrecognised", f"{tool} {group} is an alias or extension the classifier cannot see.")
    elif group in ("alias", "extension", "ext") and verb not in ("list", "ls", None):
        destructive(call, "runs-program", f"{what} installs or runs a command of the caller's choosing.")
    elif group == "config":
        _forge_config(call, tool, ops)
    elif group == "api":
        _forge_api(call, tool, verb)
    elif group in ("codespace", "cs") and verb in ("ssh", "cp", "code", "jupyter"):
        destructive(call, "remote-shell", f"{what} opens a shell or copies files on another machine.")
    elif group in (
        "auth",
        "status",
        "search",
        "browse",
        "completion",
        "version",
        "help",
        "changelog",
        "check-update",
    ) and verb not in ("login", "logout", "refresh", "setup-git", "switch"):
        if group in ("completion", "version", "help"):
            read_only(call, f"{what} only prints.")
        elif group == "browse" and not any(w.value in ("-n", "--no-browser") for w in call.args):
            call.flag(R.NETWORK, _RULE, f"{what} opens a web page in the browser.")
        else:
            _reads(call, what)
    elif verb is None:
        refuse(call, f"{tool} {group} without a verb")
    elif verb in ("checkout", "co", "clone", "download"):
        _reads(call, what)
        ends = next((i for i, w in enumerate(call.args) if w.value == "--"), len(call.args))
        given = [w for w in ops[3:4] if any(w is v for v in call.args[:ends])]  # after --: git clone's flags
        target = given[0] if verb == "clone" and given else None
        places = _download_places(call.args) if verb == "download" else []
        for place in places or [target or Word(".", ".")]:
            call.write(place, f"{what} writes into")
            if group == "run" and verb == "download" and call.g.at_workspace_root(place):
                # gh-run-download(1): each artifact (a zip of files the workflow chose) is extracted there
                unpacks(call, place, f"{what} extracts the artifacts' files into")
        if any(w.value in ("-f", "--force") for w in call.args):
            destructive(call, "discards-work", f"{what} --force overwrites local work.")
    elif verb == "sync" and any(w.value in ("-f", "--force") for w in call.args):
        _deletes(call, f"{what} --force")  # gh-repo-sync(1): --force hard-resets the destination branch
    elif (group in ("ssh-key", "gpg-key") and verb == "add") or (
        group == "repo" and verb == "deploy-key" and (len(ops) > 2 and ops[2].value in ("add", None))
    ):
        # gh-ssh-key-add(1), gh-gpg-key-add(1), glab ssh-key add: a key that signs in (or signs) as the user on every
        # repository the account reaches; gh repo deploy-key add: a key with access to the repository
        _grants(call, "privilege-grant", f"{what} adds a key that authenticates as the account or to the repository")
    elif group == "repo" and verb == "edit" and _makes_public(call.args):
        # gh-repo-edit(1) --visibility public: the repository's code and history become readable by anyone, which
        # no later change undoes
        destructive(call, "makes-public", f"{what} --visibility public publishes the whole repository.")
    elif group in _FORGE_CONTENT and _verb_level(verb) == "change":
        # Writing issues, pull requests, comments, gists, labels and releases deletes nothing on the forge: network, as
        # a push is; deleting a branch or overwriting release assets is destructive.
        values = {w.value for w in call.args}
        if values & {"-d", "--delete-branch"} and verb in ("merge", "close"):
            _deletes(call, f"{what} --delete-branch")
        elif "--clobber" in values and verb == "upload":
            _deletes(call, f"{what} --clobber")
        else:
            call.flag(R.NETWORK, _RULE, f"{what} writes to the forge (it deletes nothing there).")
    else:
        _by_verb(call, ops[1:2], first_is_group=False, lead=group)


#: Options of ``gh release download``, ``gh run download``, ``glab release download`` and their kin naming where
#: the files land (GitHub CLI manual: ``-D/--dir DIR``, ``-O/--output FILE``, ``-`` for standard output; glab
#: ``-D/--dir``); pflag also takes ``-DDIR``, ``-D=DIR`` and ``--dir=DIR``.
_DOWNLOAD_PLACES = {"-D": "--dir", "-O": "--output"}


def _download_places(words: list[Word]) -> list[Word]:
    """The directories and files a forge download names with :data:`_DOWNLOAD_PLACES` (``-`` is standard output:
    none), each to be graded where it lands."""
    out: list[Word] = []
    longs = set(_DOWNLOAD_PLACES.values())
    for index, word in enumerate(words):
        value = word.value
        if value == "--":
            break
        if value is None:
            continue
        name, eq, attached = value.partition("=")
        if name in longs or name in _DOWNLOAD_PLACES:
            if eq:
                place = Word(attached, word.src)
            elif index + 1 < len(words):
                place = words[index + 1]
            else:
                continue
        elif value[:2] in _DOWNLOAD_PLACES and len(value) > 2:
            place = Word(value[2:].removeprefix("="), word.src)
        else:
            continue
        if place.value != "-":
            out.append(place)
    return out


def _makes_public(words: list[Word]) -> bool:
    """True when ``--visibility public`` (or a value only known when it runs) is among ``words``."""
    for index, word in enumerate(words):
        name, eq, attached = (word.value or "").partition("=")
        if name == "--visibility":
            value = attached if eq else (words[index + 1].value if index + 1 < len(words) else "")
            if value is None or value.lower() == "public":
                return True
    return False


#: Forge groups whose writes add or edit content (GitHub CLI manual: pr, issue, gist, label, release, project; glab:
#: mr, snippet, milestone, incident): not the repository's settings, secrets, workflows or keys.
_FORGE_CONTENT = frozenset(
    {"pr", "issue", "gist", "label", "release", "project", "mr", "snippet", "milestone", "incident"}
)


def _forge_config(call: Call, tool: str, ops: list[Word]) -> None:
    verb = ops[1].value if len(ops) > 1 else None
    if verb == "get":
        # gh-config-get(1) -h HOST oauth_token prints the token stored in hosts.yml; glab config get token prints
        # the token in glab-cli/config.yml (glab docs "glab config get"): a key that names a secret is a secret read.
        keys = [w for w in ops[2:] if w.value is None or secret_setting(w.value)]
        if keys:
            call.flag(
                R.NETWORK,
                "secret-read",
                f"{tool} config get {show(keys[0])} prints a stored token or secret: its output goes to the model.",
            )
            return
    if verb in ("get", "list", "ls", None):
        read_only(call, f"{tool} config {verb or ''} only prints its configuration.".replace("  ", " "))
        return
    key = ops[2].value if len(ops) > 2 else None
    if key is None or key.lower() in _GH_PROGRAM_KEYS:
        destructive(call, "runs-program", f"{tool} config {verb} {key or '?'} names a program {tool} will run.")
        return
    call.write(_CONFIG_HOME, f"{tool} config {verb} changes")


_READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

_API_FIELD_FLAGS = ("-f", "-F", "--field", "--raw-field")
# GraphQL mutation fields that delete, archive, transfer or change visibility (GitHub: deleteRepository, deleteRef,
# archiveRepository, transferRepository, updateRepository visibility; GitLab: projectDelete, destroyX); a
# ``force: true`` argument (updateRef, updateRefs) rewrites history.
_GRAPHQL_DESTROYS = re.compile(
    r"(?:delete|remove|archive|transfer|destroy|purge|visibility)|force\s*:\s*true", re.IGNORECASE
)
_GRAPHQL_MUTATION = re.compile(r"\b(?:mutation|subscription)\b", re.IGNORECASE)


def _api_fields(call: Call) -> list[str | None]:
    """The ``KEY=VALUE`` texts of ``-f``/``-F``/``--field``/``--raw-field`` (None when only known at run time)."""
    fields: list[str | None] = []
    words = call.args
    for index, word in enumerate(words):
        value = word.value
        if value is None:
            continue
        name, eq, attached = value.partition("=")
        if name in _API_FIELD_FLAGS:
            fields.append(attached if eq else (words[index + 1].value if index + 1 < len(words) else None))
        elif len(value) > 2 and value[:2] in ("-f", "-F"):
            fields.append(value[2:])
    return fields


def _forge_api(call: Call, tool: str, endpoint: str | None) -> None:
    """``gh api``/``glab api``: a GraphQL document whose mutation deletes, archives, transfers or forces a ref, a
    ``force=true`` field, a method-override header or a body only known when it runs is remote deletion or
    history rewrite (destructive); a GraphQL document without a mutation reads; otherwise by HTTP method."""
    what = f"{tool} api"
    values = [w.value for w in call.args]
    if any(v is not None and "method-override" in v.lower() for v in values):
        destructive(call, _RULE, f"{what} with an HTTP method-override header can delete remotely.")
        return
    fields = _api_fields(call)
    if any(f is None for f in fields) and (endpoint is None or endpoint == "graphql" or "git/refs" in endpoint):
        # A GraphQL document or a ref update whose fields are only known at run time may delete or force.
        destructive(call, "dynamic-argument", f"A field of {what} is only known when it runs.")
        return
    texts = [f or "" for f in fields]
    if any(
        t.partition("=")[0].strip().lower() == "force" and t.partition("=")[2].strip().lower() in ("true", "1")
        for t in texts
    ):
        destructive(call, _RULE, f"{what} with force=true moves a ref regardless of history (history rewrite).")
        return
    if endpoint == "graphql":
        if any(v == "--input" or (v or "").startswith("--input=") for v in values) or any(
            t.partition("=")[2].startswith("@") for t in texts
        ):
            destructive(call, _RULE, f"{what} graphql reads its document from a file the classifier cannot see.")
            return
        document = " ".join(t.partition("=")[2] for t in texts)
        if _GRAPHQL_MUTATION.search(document) is None:
            _reads(call, f"{what} graphql")
        elif _GRAPHQL_DESTROYS.search(document):
            _deletes(call, f"{what} graphql (a mutation that deletes, archives, transfers or forces a ref)")
        else:
            _changes(call, f"{what} graphql mutation")
        return
    if endpoint is not None and _forge_api_grant(call, what, endpoint, texts):
        return
    _http_method(call, what, ("-X", "--method"), default="GET", body_flags=(*_API_FIELD_FLAGS, "--input"))


def _http_method(
    call: Call, what: str, method_flags: tuple[str, ...], *, default: str, body_flags: tuple[str, ...] = ()
) -> None:
    """A raw API call: GET/HEAD read, DELETE deletes, any other method changes (a body implies POST)."""
    words = call.args
    method: str | None = default
    for index, word in enumerate(words):
        value = word.value
        if value is None:
            continue
        name, eq, attached = value.partition("=")
        if name in method_flags:
            method = attached if eq else (words[index + 1].value if index + 1 < len(words) else None)
        elif len(value) > 2 and any(value.startswith(f) and not f.startswith("--") for f in method_flags):
            method = value[2:]
        elif name in body_flags and method == default:
            method = "POST"
    if method is None:
        destructive(call, "dynamic-argument", f"The HTTP method of {what} is only known when it runs.")
    elif method.upper() == "DELETE":
        _deletes(call, f"{what} -X DELETE")
    elif method.upper() in _READ_METHODS:
        _reads(call, what)
    else:
        _changes(call, f"{what} -X {method.upper()}")


# -- grants of full control, exposure to everyone, audit turned off ---------------------------------------------
# These change a cloud account or forge the way a sudoers edit, a cluster-admin binding or a firewall flush changes a
# machine: a new owner, data readable by anyone (which no later change takes back once read), or the record of what
# happened turned off. They are destructive (rules privilege-grant, makes-public, audit-off), never downgraded.


def _grants(call: Call, rule: str, text: str) -> None:
    call.flag(R.DESTRUCTIVE, rule, f"{text}: a security-critical change outside the sandbox.")


#: Values that mean "anyone on the internet": IPv4/IPv6 any-address ranges (AWS "Security group rules", gcloud
#: "firewall-rules create --source-ranges", az "network nsg rule create --source-address-prefixes": ``*``,
#: ``Internet``, ``Any``), the public principals of GCS (``allUsers``, ``allAuthenticatedUsers``: cloud.google.com
#: /storage/docs/access-control/iam) and S3 (``http://acs.amazonaws.com/groups/global/AllUsers``,
#: ``AuthenticatedUsers``: docs.aws.amazon.com/AmazonS3/latest/userguide/acl-overview.html), and the canned ACLs
#: ``public-read``, ``public-read-write``, ``authenticated-read`` (S3 "Canned ACL"; gsutil ``acl set``).
_EVERYONE = re.compile(
    r"(?:^|[\s=,:/{\[\"'])(?:0\.0\.0\.0/0|::/0|allUsers|allAuthenticatedUsers|AllUsers|AuthenticatedUsers|"
    r"public-read(?:-write)?|authenticated-read)(?:$|[\s,:}\]\"'])"
)


def _to_everyone(words: list[Word]) -> bool:
    """True when a word opens something to everyone (:data:`_EVERYONE`) or is only known when it runs."""
    return any(w.value is None or _EVERYONE.search(w.value) for w in words)


def _option_values(words: list[Word], *names: str) -> list[str | None]:
    """The values given to the options ``names`` (``--name VALUE`` or ``--name=VALUE``; None: known at run time)."""
    out: list[str | None] = []
    for index, word in enumerate(words):
        value = word.value
        if value is None:
            if word.src.startswith(tuple(f"{n}=" for n in names)):
                out.append(None)  # --role="$ROLE"
            continue
        name, eq, attached = value.partition("=")
        if name in names:
            out.append(attached if eq else (words[index + 1].value if index + 1 < len(words) else ""))
    return out


#: AWS managed policies that give every permission or the power to grant it (AWS "AWS managed policies for job
#: functions": AdministratorAccess "provides full access to AWS services and resources"; IAMFullAccess lets the
#: holder attach AdministratorAccess to itself).
_AWS_ADMIN_POLICIES = ("AdministratorAccess", "IAMFullAccess")
#: IAM actions that lead to full control of the account when allowed on any resource (IAM User Guide, "Granting a
#: user permissions to pass a role to an AWS service": a role passed runs with its rights; "Adding and removing IAM
#: identity permissions": attaching or putting a policy grants anything, AdministratorAccess among it), lower-cased:
#: IAM action names are not case-sensitive (IAM JSON policy elements: Action).
_AWS_ESCALATIONS = (
    "iam:passrole", "iam:attachuserpolicy", "iam:attachrolepolicy", "iam:attachgrouppolicy", "iam:putuserpolicy",
    "iam:putrolepolicy", "iam:putgrouppolicy",
)  # fmt: skip
#: An IAM policy statement allowing every action (IAM JSON policy reference, "Action": ``"*"``, ``"iam:*"``).
_AWS_ALLOW_ALL = re.compile(r'"Action"\s*:\s*\[?\s*"(?:\*|iam:\*)"')
#: A bucket policy whose principal is everyone (S3 "Bucket policy examples": ``"Principal": "*"``,
#: ``{"AWS": "*"}``, ``{"AWS": ["arn:...", "*"]}``; ``NotPrincipal`` with ``Allow`` allows everyone else).
_AWS_ANY_PRINCIPAL = re.compile(r'"(?:Not)?Principal"\s*:\s*(?:"\*"|\{[^{}]*"AWS"\s*:\s*(?:"\*"|\[[^\]]*"\*"))')
#: A public access block setting turned off (shorthand ``BlockPublicPolicy=false`` or JSON ``"...": false``).
_AWS_BLOCK_OFF = re.compile(r"=\s*false|:\s*false", re.IGNORECASE)
#: What a policy document given to an AWS CLI option is (the settings question ``document KIND FILE`` names it):
#: ``policy`` a bucket policy (``s3api put-bucket-policy --policy``), ``acl`` an access control policy
#: (``put-bucket-acl``/``put-object-acl --access-control-policy``), ``block`` a public access block configuration
#: (``put-public-access-block --public-access-block-configuration``), ``iam`` an IAM policy (``iam put-*-policy
#: --policy-document``).
#: ``template`` a CloudFormation template deployed with IAM capabilities (:func:`cloudformation_grants`).
AWS_DOCUMENTS = ("policy", "acl", "block", "iam", "template")
#: The settings line for a document file that opens nothing (bot/risk/settings.py ``_aws_document``).
AWS_CLOSED = "opens nothing to everyone"


def aws_document_opens(kind: str, text: str) -> bool:
    """True when the policy document ``text`` of ``kind`` (:data:`AWS_DOCUMENTS`) opens a bucket or objects to
    everyone, turns a public access block setting off, or (``iam``) allows every action. JSON is read and written
    again (escapes such as ``\\u002a`` undone, any spacing), other text (the CLI's shorthand) is matched as given."""
    import json

    if kind == "template":
        return cloudformation_grants(text) is not None
    try:
        text = json.dumps(json.loads(text), ensure_ascii=False)
    except ValueError:
        pass
    if kind == "policy":
        return bool(_AWS_ANY_PRINCIPAL.search(text))
    if kind == "acl":
        return bool(_EVERYONE.search(text))
    if kind == "block":
        return bool(_AWS_BLOCK_OFF.search(text))
    return bool(_AWS_ALLOW_ALL.search(text))


#: The most nodes of a template walked (YAML aliases can make a small file a huge tree): past it, not read.
_TEMPLATE_NODES = 50_000
#: Top-level ``Transform`` values that are AWS's own fixed expansions (AWS CloudFormation User Guide, "Transform
#: reference": AWS::Serverless, AWS::LanguageExtensions); any other is a macro, a Lambda function that rewrites the
#: template as it likes before it is deployed.
_AWS_TRANSFORMS = frozenset({"AWS::Serverless-2016-10-31", "AWS::LanguageExtensions"})
#: Resource types whose template lives elsewhere (AWS::CloudFormation::Stack ``TemplateURL``, the SAM
#: AWS::Serverless::Application ``Location``): a nested stack deployed under the same capabilities.
_NESTED_STACKS = frozenset({"AWS::CloudFormation::Stack", "AWS::Serverless::Application"})


def _template_tree(text: str) -> object:
    """A CloudFormation template (JSON or YAML) as plain data; a YAML short-form tag ``!Name`` becomes
    ``{"Fn::Name": value}`` (``!Ref`` ``{"Ref": value}``), the long form (AWS CloudFormation User Guide,
    "Intrinsic function reference").

    Raises:
        ValueError: neither JSON nor YAML, a key given twice, too many nodes, or not a mapping at its top.
    """
    import json

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        out = dict(items)
        if len(out) != len(items):
            raise ValueError("a key given twice")
        return out

    try:
        data: object = json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError:
        data = _yaml_tree(text)
    if not isinstance(data, dict):
        raise ValueError("not a mapping")
    return data


def _yaml_tree(text: str) -> object:
    """The YAML ``text`` as plain data, tags kept as intrinsic functions (:func:`_template_tree`); composed only,
    never constructed, so no tag runs anything and unknown tags parse."""
    try:
        import yaml
    except ImportError as error:  # pragma: no cover - the adapter ships PyYAML
        raise ValueError("no YAML reader") from error
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise ValueError(f"not JSON or YAML, line {mark.line + 1}" if mark else "not JSON or YAML") from error
    budget = [_TEMPLATE_NODES]

    def plain(node: yaml.Node) -> object:
        budget[0] -= 1
        if budget[0] < 0:
            raise ValueError("too many nodes")
        if isinstance(node, yaml.MappingNode):
            out: dict[str, object] = {}
            for key, value in node.value:
                name = str(plain(key))
                if name in out or name == "<<":
                    raise ValueError("a key given twice or merged")
                out[name] = plain(value)
            data: object = out
        elif isinstance(node, yaml.SequenceNode):
            data = [plain(item) for item in node.value]
        else:
            data = node.value
        tag = node.tag or ""
        if tag.startswith("!") and not tag.startswith("!!"):
            name = tag[1:]
            return {"Ref" if name == "Ref" else f"Fn::{name}": data}
        return data

    return plain(root) if root is not None else None


def cloudformation_grants(text: str) -> str | None:
    """Why the CloudFormation template ``text`` gives admin-like access or deploys what FlyBot cannot see, or None.
    Counted, anywhere in the template (AWS CloudFormation User Guide; IAM JSON policy element reference): a policy
    statement that is not ``Deny`` whose ``Action`` is ``*`` or ``iam:*`` (or only known on deploy: an intrinsic
    function) or that has a ``NotAction``; one allowing ``iam:PassRole``, ``iam:Attach*Policy`` or
    ``iam:Put*Policy`` (:data:`_AWS_ESCALATIONS`, also by a wildcard such as ``iam:Put*``) on any resource (a
    wildcard, none, ``NotResource``, or one chosen on deploy); one whose ``Principal``/``NotPrincipal`` is everyone
    (``"*"``, ``{"AWS": "*"}``) or chosen on deploy (a ``Ref`` to a parameter, an ``Fn::Sub`` naming one, or a name
    neither a resource nor a pseudo parameter, an ``Fn::Join`` of such parts); the AdministratorAccess or IAMFullAccess managed
    policy (an ARN or, in SAM ``Policies``, the name); a nested stack (its template is elsewhere); a macro
    (``Transform`` other than :data:`_AWS_TRANSFORMS`, ``Fn::Transform``). A template that cannot be read as JSON
    or YAML counts too."""
    try:
        tree = _template_tree(text)
    except (ValueError, RecursionError) as error:
        return f"could not be read ({str(error)[:80]})"
    found: list[str] = []

    def strings(value: object) -> list[object]:
        if isinstance(value, list):
            return [leaf for item in value for leaf in strings(item)]
        return [value]

    def intrinsic(value: object) -> bool:
        return isinstance(value, dict) and len(value) == 1 and any(k == "Ref" or k.startswith("Fn::") for k in value)

    def chosen(value: object) -> bool:  # a Ref to a parameter (pseudo parameters AWS::... are fixed)
        ref = value.get("Ref") if isinstance(value, dict) else None
        return intrinsic(value) and not (isinstance(ref, str) and ref.startswith("AWS::"))

    parameters = tree.get("Parameters") if isinstance(tree, dict) else None
    resources = tree.get("Resources") if isinstance(tree, dict) else None
    names = set(parameters) if isinstance(parameters, dict) else set()
    fixed = set(resources) if isinstance(resources, dict) else set()

    def substituted(value: object) -> tuple[str, bool]:
        """The text of an ``Fn::Sub`` and whether a variable in it is chosen on deploy: a parameter, or a name
        neither a resource of the template nor a pseudo parameter (``AWS::AccountId``) nor given in its own map."""
        text, given = (value[0], value[1]) if isinstance(value, list) and len(value) == 2 else (value, {})
        if not isinstance(text, str) or not isinstance(given, dict):
            return "", True
        picked = any(principal_open(v) or chosen(v) for v in given.values())
        for name in re.findall(r"\$\{([^}!][^}]*)\}", text):
            base = name.strip().split(".", 1)[0]
            if name.strip() in given or name.startswith("AWS::"):
                continue
            picked = picked or base in names or base not in fixed
        return text, picked

    def principal_open(value: object) -> bool:
        if isinstance(value, dict) and not intrinsic(value):
            return any(principal_open(v) for v in value.values())
        for leaf in strings(value):
            if leaf == "*" or (isinstance(leaf, dict) and "Ref" in leaf and chosen(leaf)):
                return True
            if isinstance(leaf, dict) and "Fn::Sub" in leaf:
                text, picked = substituted(leaf["Fn::Sub"])
                if picked or text == "*":
                    return True
            if isinstance(leaf, dict) and "Fn::Join" in leaf:
                parts = leaf["Fn::Join"]
                if isinstance(parts, list) and len(parts) == 2 and principal_open(parts[1]):
                    return True
        return False

    def broad_resource(statement: dict[str, object]) -> bool:
        """True when a statement's ``Resource`` may name every role, user or policy: none given, a
        ``NotResource``, a wildcard, or a value chosen on deploy (a parameter, or an intrinsic other than
        ``Fn::GetAtt`` and a ``Ref`` to a resource of the template)."""
        if "NotResource" in statement or "Resource" not in statement:
            return True
        for leaf in strings(statement["Resource"]):
            if isinstance(leaf, str):
                if "*" in leaf:
                    return True
            elif isinstance(leaf, dict) and "Fn::Sub" in leaf:
                text, picked = substituted(leaf["Fn::Sub"])
                if picked or "*" in text:
                    return True
            elif isinstance(leaf, dict) and "Fn::GetAtt" in leaf:
                continue
            elif isinstance(leaf, dict) and isinstance(leaf.get("Ref"), str) and leaf["Ref"] in fixed:
                continue
            else:
                return True
        return False

    def escalates(action: object) -> bool:
        return isinstance(action, str) and any(fnmatchcase(e, action.lower()) for e in _AWS_ESCALATIONS)

    def walk(value: object) -> None:
        if found:
            return
        if isinstance(value, list):
            for item in value:
                walk(item)
            return
        if isinstance(value, str):
            if value.rsplit("/", 1)[-1] in _AWS_ADMIN_POLICIES:
                found.append(f"attaches the {value.rsplit('/', 1)[-1]} managed policy")
            return
        if not isinstance(value, dict):
            return
        effect = value.get("Effect")
        allows = not (isinstance(effect, str) and effect.lower() == "deny")
        if allows and "NotAction" in value:
            found.append("allows every action but some (NotAction)")
        elif allows and any(
            chosen(a) or (isinstance(a, str) and a.lower() in ("*", "iam:*")) for a in strings(value.get("Action", []))
        ):
            found.append('allows every action or all of IAM (Action "*" or "iam:*", or one chosen on deploy)')
        elif allows and broad_resource(value) and any(escalates(a) for a in strings(value.get("Action", []))):
            found.append(
                "allows iam:PassRole or attaching or putting IAM policies on any role or user (a way to full "
                "control of the account)"
            )
        elif allows and any(principal_open(value[k]) for k in ("Principal", "NotPrincipal") if k in value):
            found.append('allows everyone (Principal "*" or one chosen on deploy)')
        elif value.get("Type") in _NESTED_STACKS:
            found.append(f"deploys a nested stack ({value['Type']}) whose template FlyBot does not read")
        elif "Fn::Transform" in value:
            found.append("runs a macro (Fn::Transform) that rewrites the template")
        for item in value.values():
            walk(item)

    assert isinstance(tree, dict)
    transforms = strings(tree.get("Transform", []))
    if any(t not in _AWS_TRANSFORMS for t in transforms):
        return "runs a macro (Transform) that rewrites the template"
    try:
        walk(tree)
    except RecursionError:
        return "could not be read (nested too deeply)"
    return found[0] if found else None


def _aws_file_lines(call: Call, kind: str, path: str) -> list[str] | None:
    """The recipe book's lines for the document of ``kind`` in the file ``path`` (from where aws runs), or None when
    FlyBot cannot know what aws reads there: an empty path, under ``~``, too long a question, control characters,
    or a file written earlier in the same command (the file read before it ran is not what aws reads)."""
    from bot.risk.recipes import SETTINGS
    from bot.risk.settings import AWS_DOCUMENT

    from .projects import configured_options

    question = f"{AWS_DOCUMENT}{kind} {path}"
    if (
        not path
        or path.startswith("~")
        or len(SETTINGS + question) > 200
        or any(ord(c) < 32 or ord(c) == 127 for c in path)
    ):
        return None
    written = call.g.written_before
    targets = call.g.state.targets(path) or frozenset()
    if any(t == w or t.startswith(w.rstrip("/") + "/") for t in targets for w in written):
        return None
    return configured_options(call, "aws", f"aws {kind} document", question)


def _aws_opens(call: Call, kind: str, value: str | None) -> bool:
    """True when the value of an AWS CLI option taking a policy document of ``kind`` opens (:func:`aws_document_opens`)
    or may: only known when it runs, a URL (AWS CLI v1 fetches ``http://``/``https://`` parameters), or a
    ``file://``/``fileb://`` file (AWS CLI "Loading parameters from a file") that the recipe book did not report
    as opening nothing (settings.py ``_aws_document``: the adapter reads it in the workspace; outside it, under
    ``~``, written earlier in the same command, or not reported: fail closed)."""
    if value is None or value.startswith(("http://", "https://")):
        return True
    for scheme in ("file://", "fileb://"):
        if value.startswith(scheme):
            lines = _aws_file_lines(call, kind, value[len(scheme) :])
            return not lines or any(line != AWS_CLOSED for line in lines)
    return aws_document_opens(kind, value)


#: The AWS CLI operations taking a policy document, with the rule a public or all-allowing one is graded by.
_AWS_DOCUMENT_OPERATIONS = {
    "put-bucket-policy": "makes-public",
    "put-bucket-acl": "makes-public",
    "put-object-acl": "makes-public",
    "put-public-access-block": "makes-public",
    "put-user-policy": "privilege-grant",
    "put-role-policy": "privilege-grant",
    "put-group-policy": "privilege-grant",
}


#: cloudformation operations that create or change a stack or stack set from a template (AWS CLI v2 reference,
#: cloudformation deploy, create-stack, update-stack, create-change-set, create-stack-set, update-stack-set).
_CFN_DEPLOYS = frozenset({
    "deploy", "create-stack", "update-stack", "create-change-set", "create-stack-set", "update-stack-set",
})  # fmt: skip
#: Capabilities acknowledging IAM resources or macros and nested stacks (AWS CLI v2 reference, cloudformation
#: create-stack ``--capabilities``: CAPABILITY_IAM, CAPABILITY_NAMED_IAM, CAPABILITY_AUTO_EXPAND).
_CFN_CAPABILITIES = frozenset({"CAPABILITY_IAM", "CAPABILITY_NAMED_IAM", "CAPABILITY_AUTO_EXPAND"})


_UNREAD = "could not be read (outside the workspace, missing, too big or not reported)"


def _cloudformation_grants(call: Call, op: str, what: str) -> bool:
    """``aws cloudformation deploy|create-stack|update-stack|create-change-set|create-stack-set|update-stack-set`` with an IAM or macro capability (or
    its request from ``--cli-input-json|yaml``): destructive (privilege-grant) when the template grants admin-like
    access or runs what FlyBot cannot see (:func:`cloudformation_grants`), or when FlyBot cannot read it: a
    ``--template-url`` (in S3), ``--use-previous-template`` (the stack's own), none given, one only known when it
    runs, or a file the recipe book does not report as granting nothing (settings.py ``_aws_document``, question
    ``document template FILE``: read in the workspace, up to its size limit). ``deploy --template-file`` names a
    path; the others take ``--template-body`` text or ``file://PATH``."""
    words = call.args
    if any((w.value or w.src).startswith(("--cli-input-json", "--cli-input-yaml")) for w in words):
        _grants(call, "privilege-grant", f"{what} takes its template and capabilities from --cli-input-json/yaml")
        return True
    capabilities: list[str | None] = []
    for index, word in enumerate(words):
        name, eq, attached = (word.value or "").partition("=")
        if word.value is None and word.src.startswith("--capabilities="):
            capabilities.append(None)
        elif name == "--capabilities" and eq:
            capabilities.append(attached)
        elif name == "--capabilities":
            for value in words[index + 1 :]:
                if value.value is not None and value.value.startswith("-"):
                    break
                capabilities.append(value.value)
    if not any(c is None or c in _CFN_CAPABILITIES for c in capabilities):
        return False
    given = [c or "a capability only known when it runs" for c in capabilities]
    label = f"{what} --capabilities {' '.join(given)[:80]}"
    flags = {(w.value or "").partition("=")[0] for w in words}
    if "--template-url" in flags or "--use-previous-template" in flags:
        _grants(call, "privilege-grant", f"{label} deploys a template FlyBot cannot read (S3 or the stack's own)")
        return True
    if op == "deploy":
        templates = [None if v is None else "file://" + v for v in _option_values(words, "--template-file")]
    else:
        templates = _option_values(words, "--template-body")
    if not templates:
        _grants(call, "privilege-grant", f"{label} names no template FlyBot can read")
        return True
    reason: str | None
    for template in templates:
        if template is None:
            source, reason = "is", "only known when it runs"
        elif template.startswith(("file://", "fileb://")):
            source = template.partition("://")[2]
            lines = _aws_file_lines(call, "template", source)
            reason = next(
                (
                    line
                    for line in lines or ["could not be read (outside the workspace, missing, too big or not reported)"]
                    if line != AWS_CLOSED
                ),
                None,
            )
            if reason is not None and lines:
                reason = reason.removeprefix("template ")
        else:
            source, reason = "(inline)", cloudformation_grants(template)
        if reason is not None:
            _grants(call, "privilege-grant", f"{label}: its template {shorten(source, 80)} {reason}")
            return True
    return False


def _aws_security_change(call: Call, service: str, op: str, what: str) -> bool:
    """AWS CLI v2 (awscli.amazonaws.com/v2/documentation/api/latest/reference): ``iam attach-*-policy`` of an
    administrator policy, ``iam put-*-policy`` allowing every action, ``iam create|update-login-profile`` (a console
    password for a user), a public ACL or bucket policy, ``s3api put-public-access-block`` turning a block off,
    ``ec2 authorize-security-group-ingress|egress`` from anywhere, ``cloudtrail stop-logging``,
    ``config stop-configuration-recorder``. A value that decides it only known when it runs counts."""
    words = call.args
    if service == "iam" and op in ("attach-user-policy", "attach-role-policy", "attach-group-policy"):
        arns = _option_values(words, "--policy-arn")
        if any(a is None or a.rsplit("/", 1)[-1] in _AWS_ADMIN_POLICIES for a in arns):
            _grants(call, "privilege-grant", f"{what} attaches an administrator policy (full control of the account)")
            return True
    if op in _AWS_DOCUMENT_OPERATIONS and any(
        (w.value or w.src).startswith(("--cli-input-json", "--cli-input-yaml")) for w in words
    ):
        # the whole request, its policy document too, comes from that input (AWS CLI "--cli-input-json"): not read
        _grants(call, _AWS_DOCUMENT_OPERATIONS[op], f"{what} takes its policy document from --cli-input-json/yaml")
        return True
    if service == "iam" and op in ("put-user-policy", "put-role-policy", "put-group-policy"):
        docs = _option_values(words, "--policy-document")
        if any(_aws_opens(call, "iam", d) for d in docs):
            _grants(call, "privilege-grant", f"{what} allows every action (full control of the account)")
            return True
    if service == "cloudformation" and op in _CFN_DEPLOYS and _cloudformation_grants(call, op, what):
        return True
    if service == "iam" and op == "create-access-key":
        # iam create-access-key: "a new AWS secret access key and corresponding AWS access key ID", printed once
        _grants(
            call, "privilege-grant", f"{what} creates a long-lived access key for an IAM user and prints its secret"
        )
        _prints_credentials(call, what)
        return True
    if service == "iam" and op in ("create-login-profile", "update-login-profile"):
        _grants(call, "privilege-grant", f"{what} gives an IAM user a console password (a new way in)")
        return True
    if _to_everyone(
        [
            Word(v, v or "")
            for v in _option_values(
                words,
                "--acl",
                "--grant-read",
                "--grant-full-control",
                "--grant-read-acp",
                "--grant-write",
                "--grant-write-acp",
            )
        ]
    ):
        _grants(call, "makes-public", f"{what} gives everyone access to the bucket or objects")
        return True
    if op in ("put-bucket-acl", "put-object-acl") and any(
        _aws_opens(call, "acl", a) for a in _option_values(words, "--access-control-policy")
    ):
        _grants(call, "makes-public", f"{what} gives everyone access to the bucket or objects")
        return True
    if op == "put-bucket-policy" and any(_aws_opens(call, "policy", p) for p in _option_values(words, "--policy")):
        _grants(call, "makes-public", f"{what} gives everyone access to the bucket")
        return True
    if op == "put-public-access-block" and any(
        _aws_opens(call, "block", c) for c in _option_values(words, "--public-access-block-configuration")
    ):
        _grants(call, "makes-public", f"{what} turns off the guard against public buckets")
        return True
    if (
        service == "ec2"
        and op.startswith(("authorize-security-group-", "create-network-acl-entry", "replace-network-acl-entry"))
        and _to_everyone(words)
    ):
        _grants(call, "makes-public", f"{what} opens the network to the whole internet")
        return True
    if (service, op) in (("cloudtrail", "stop-logging"), ("config", "stop-configuration-recorder")):
        _grants(call, "audit-off", f"{what} stops the account's audit record")
        return True
    return False


#: Basic roles that own a project or folder (IAM "Basic roles": roles/owner "full access to most resources",
#: roles/editor "permissions to create, modify, and delete"), or that let the holder grant itself any role.
_GCP_ADMIN_ROLES = frozenset({
    "roles/owner", "roles/editor", "roles/resourcemanager.projectIamAdmin", "roles/iam.securityAdmin",
    "roles/resourcemanager.organizationAdmin",
})  # fmt: skip


def _gcloud_security_change(call: Call, values: list[str | None]) -> bool:
    """gcloud (cloud.google.com/sdk/gcloud/reference): ``add-iam-policy-binding`` of an owner or IAM-admin role or
    to ``allUsers``/``allAuthenticatedUsers``; ``compute firewall-rules create|update`` from ``0.0.0.0/0``."""
    words = call.args
    if "add-iam-policy-binding" in values:
        roles = _option_values(words, "--role")
        members = [Word(m, m or "") for m in _option_values(words, "--member")]
        if any(r is None or r in _GCP_ADMIN_ROLES for r in roles):
            _grants(call, "privilege-grant", "gcloud add-iam-policy-binding grants an owner or IAM-admin role")
            return True
        if _to_everyone(members):
            _grants(call, "makes-public", "gcloud add-iam-policy-binding gives everyone access")
            return True
    if values[:2] == ["compute", "firewall-rules"] and values[2:3] in (["create"], ["update"]):
        ranges = [Word(r, r or "") for r in _option_values(words, "--source-ranges")]
        if _to_everyone(ranges):
            _grants(call, "makes-public", "gcloud compute firewall-rules opens the network to the whole internet")
            return True
    return False


#: Azure built-in roles that own a scope or can assign roles (learn.microsoft.com/azure/role-based-access-control
#: /built-in-roles: Owner "full access to manage all resources, including the ability to assign roles", Contributor
#: "full access to manage all resources", User Access Administrator, Role Based Access Control Administrator).
_AZ_ADMIN_ROLES = frozenset(
    {"owner", "contributor", "user access administrator", "role based access control administrator"}
)


def _az_security_change(call: Call, values: list[str | None]) -> bool:
    """az (learn.microsoft.com/cli/azure): ``role assignment create`` of an owner role; ``storage container
    set-permission|create --public-access blob|container``, ``storage account create|update
    --allow-blob-public-access true``; ``network nsg rule create|update`` from anywhere."""
    words = call.args
    if values[:3] == ["role", "assignment", "create"]:
        roles = _option_values(words, "--role")
        if any(
            r is None
            or r.strip().lower() in _AZ_ADMIN_ROLES
            or r.strip()
            .lower()
            .endswith(("8e3af657-a8ff-443c-a75c-2fe8c4bcb635", "b24988ac-6180-42a0-ab88-20f7382dd24c"))
            for r in roles
        ):
            _grants(call, "privilege-grant", "az role assignment create grants an owner role")
            return True
    if values[:2] == ["storage", "container"] and any(
        a is None or a.lower() in ("blob", "container") for a in _option_values(words, "--public-access")
    ):
        _grants(call, "makes-public", "az storage container gives everyone read access")
        return True
    if values[:2] == ["storage", "account"] and any(
        a is None or a.lower() == "true" for a in _option_values(words, "--allow-blob-public-access")
    ):
        _grants(call, "makes-public", "az storage account allows public containers")
        return True
    if values[:3] == ["network", "nsg", "rule"] and values[3:4] in (["create"], ["update"]):
        prefixes = _option_values(words, "--source-address-prefixes", "--source-address-prefix")
        if any(p is None or p.strip().lower() in ("*", "0.0.0.0/0", "::/0", "internet", "any") for p in prefixes):
            _grants(call, "makes-public", "az network nsg rule opens the network to the whole internet")
            return True
    return False


#: Repository and organisation permissions that administer (GitHub REST "Add a repository collaborator":
#: ``permission`` admin, maintain; "Set organization membership": ``role=admin``).
_FORGE_ADMIN = frozenset({"admin", "maintain"})


#: REST endpoints that add account or repository access (GitHub REST: "Create a public SSH key for the
#: authenticated user" ``user/keys``, ``user/gpg_keys``, ``user/ssh_signing_keys``, "Create a deploy key"
#: ``repos/O/R/keys``) or a webhook (``repos/O/R/hooks``, ``orgs/O/hooks``; GitLab ``projects/ID/hooks``,
#: ``user/keys``, ``projects/ID/deploy_keys``).
_FORGE_ACCESS_ENDPOINTS = re.compile(r"(?:^|/)(?:keys|gpg_keys|ssh_signing_keys|deploy_keys|hooks)(?:/|$)")


def _forge_api_grant(call: Call, what: str, endpoint: str, texts: list[str]) -> bool:
    """``gh api``/``glab api`` (GitHub REST docs): adding a collaborator or member with an admin role, and making a
    repository public (``visibility=public``, ``private=false``: as ``gh repo edit --visibility public``)."""
    if all((m or "").upper() in _READ_METHODS for m in _option_values(call.args, "-X", "--method")) and any(
        w.value in ("-X", "--method") or (w.value or "").startswith(("-X", "--method=")) for w in call.args
    ):
        return False  # gh api -X GET sends the fields as query parameters: a read
    fields = {t.partition("=")[0].strip().lower(): t.partition("=")[2].strip().lower() for t in texts}
    path = endpoint.strip("/").lower()
    if ("/collaborators/" in path or "/memberships/" in path or "/members/" in path) and (
        fields.get("permission") in _FORGE_ADMIN
        or fields.get("role") in _FORGE_ADMIN | {"owner"}
        or fields.get("access_level") in ("40", "50")  # GitLab "Roles and permissions": 40 Maintainer, 50 Owner
    ):
        _grants(call, "privilege-grant", f"{what} {endpoint} gives an account admin rights")
        return True
    methods = [(m or "").upper() for m in _option_values(call.args, "-X", "--method")]
    writes = (
        bool(texts)
        or any(m not in _READ_METHODS for m in methods)
        or any((w.value or "") in ("--input",) or (w.value or "").startswith("--input=") for w in call.args)
    )
    if writes and "DELETE" not in methods and _FORGE_ACCESS_ENDPOINTS.search(path):
        _grants(
            call,
            "privilege-grant",
            f"{what} {endpoint} adds a key that signs in as the account or repository, or a webhook that sends every "
            "event (pushes, pull requests) to a URL",
        )
        return True
    if fields.get("visibility") == "public" or fields.get("private") == "false":
        _grants(
            call, "makes-public", f"{what} {endpoint} makes the repository public (as gh repo edit --visibility public)"
        )
        return True
    return False


#: netlify api METHOD (Netlify CLI "api": "Run any Netlify API method"; the methods are the Netlify API's
#: operation ids, ``listSites``, ``getSite``, ``deleteSite``, ``purgeCache``...): the word its name starts with.
_NETLIFY_VERB = re.compile(r"^[a-z]+")


def netlify_api(base: Handler) -> Handler:
    """``netlify api METHOD``: a method named for reading (``list``, ``get``...) reads, one named for deleting
    (``delete``, ``purge``, ``remove``) deletes, any other changes the account (``createSite``, ``updateSite``,
    ``lockDeploy``)."""

    def handler(call: Call) -> None:
        base(call)
        operands = _operands(call.args, frozenset({"-d", "--data", "--auth", "--filter"}))
        if not operands or operands[0].value != "api" or len(operands) < 2:
            return
        method = operands[1].value
        if method is None:
            destructive(call, "dynamic-argument", "The netlify api method is only known when it runs.")
            return
        match = _NETLIFY_VERB.match(method)
        level = _verb_level(match.group(0)) if match else None
        what = f"{call.name} api {method}"
        if level == "delete":
            _deletes(call, what)
        elif level != "read":
            _changes(call, what)

    handler.__name__ = "netlify_api"
    return handler


#: The ansible modules that only answer (ansible.builtin.ping: "A trivial test module, this module always returns
#: pong on successful contact") and the one that gathers facts (ansible.builtin.setup), whose facts hold the
#: environment of the user it runs as (ansible_env): for localhost or -c local, this one's, secrets too.
_ANSIBLE_PING = frozenset({"ping", "ansible.builtin.ping"})
_ANSIBLE_SETUP = frozenset({"setup", "ansible.builtin.setup"})
#: setup's arguments that only choose which facts are gathered or printed (ansible.builtin.setup: filter,
#: gather_subset, gather_timeout; fact_path names a directory whose executable .fact files it runs).
_ANSIBLE_SETUP_ARGS = re.compile(r"(?:(?:filter|gather_subset|gather_timeout)=\S+\s*)+")


def ansible_module(base: Handler) -> Handler:
    """ansible(1) (ansible-core 2.17) ``-m MODULE``/``--module-name`` and ``-a ARGS``/``--args``: the module run on
    every matched host (the command module when none is named, ``-a`` its command line). ping with no arguments only
    answers; setup with only the arguments of :data:`_ANSIBLE_SETUP_ARGS` prints the hosts' facts, the environment
    among them (secret-read); any other module, arguments or a short cluster holding ``-m`` or ``-a`` changes or runs
    programs there (or here, for localhost and ``-c local``): refused."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        if not any(w.value in ("--version", "-h", "--help") for w in words):
            _project_outside(call)  # ansible.cfg of the directory it runs in names plugin and module paths
            _ansible_cfg(call)
        module: str | None = "command"
        args: str | None = ""
        for index, word in enumerate(words):
            value = word.value
            if value is None:
                refuse(call, f"ansible {shorten(word.src, 40)} (a word only known when it runs)")
                return
            following = words[index + 1].value if index + 1 < len(words) else None
            if value in ("-m", "--module-name"):
                module = following
            elif value.startswith("--module-name="):
                module = value.partition("=")[2]
            elif value in ("-a", "--args"):
                args = following
            elif value.startswith("--args="):
                args = value.partition("=")[2]
            elif value.startswith("-m"):
                module = value[2:]
            elif value.startswith("-a"):
                args = value[2:]
            elif value.startswith("-") and not value.startswith("--") and set(value[1:]) & {"m", "a"}:
                module = None  # a cluster holding -m or -a (-vm ping): its value is hard to place
        if any(w.value in ("--version", "-h", "--help") for w in words):
            return  # ansible(1): --version "show program's version number, config file location ... and exit"
        if (module in _ANSIBLE_PING and args == "") or any(w.value == "--list-hosts" for w in words):
            return  # --list-hosts: "outputs a list of matching hosts; does not execute anything else"
        if module in _ANSIBLE_SETUP and (args == "" or (args and _ANSIBLE_SETUP_ARGS.fullmatch(args.strip()))):
            call.flag(
                R.NETWORK,
                "secret-read",
                "ansible -m setup prints the hosts' facts, the environment of the user it runs as among them "
                "(ansible_env: this machine's for localhost): its output goes to the model.",
            )
            return
        refuse(
            call, f"ansible -m {module or '?'} -a {shorten(args or '', 40)} (a module that may change or run programs)"
        )

    handler.__name__ = "ansible_module"
    return handler


#: adb's options before the subcommand that take a value (adb --help: -s SERIAL, -t ID, -H HOST, -P PORT, -L SOCKET).
_ADB_VALUES = frozenset({"-s", "-t", "-H", "-P", "-L"})
#: Characters the device's shell reads as syntax (sh(1): separators, pipes, redirections, expansions, quoting):
#: adb joins the words after ``shell`` with spaces and hands the line to that shell.
_ADB_SYNTAX = re.compile(r"[;&|<>$`\\\"'(){}#!\n]")
#: dumpsys services whose one further operand names the package to report on (dumpsys(1) on Android 14).
_ADB_DUMPSYS_PACKAGE = frozenset({"meminfo", "package", "gfxinfo", "activity"})
#: ``dumpsys activity`` dump options (``adb shell dumpsys activity -h``, "Activity manager dump options", Android
#: 14): each prints the activity manager's state of that kind.
_ADB_ACTIVITY_DUMPS = frozenset(
    {
        "top",
        "activities",
        "recents",
        "services",
        "processes",
        "broadcasts",
        "intents",
        "providers",
        "lastanr",
        "starter",
    }
)
_ADB_PM_LISTS = frozenset(
    {"packages", "features", "users", "libraries", "permissions", "permission-groups", "instrumentation"}
)
_ADB_PM_FLAGS = frozenset({"-f", "-d", "-e", "-s", "-3", "-i", "-u", "-U", "-a", "-g"})
_ADB_PACKAGE = re.compile(r"[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)+")
_ADB_PLAIN = re.compile(r"[A-Za-z0-9_.:-]+")


def _adb_device_use(tokens: list[str]) -> str | None:
    """``read`` or ``change`` for a device command line whose effect its words tell, else None. Android's shell
    tools (developer.android.com/tools/adb, "Issue shell commands", Android 14): getprop NAME prints a property;
    dumpsys SERVICE dumps a service's state (dumpsys activity top|activities|recents... too; further words may act: ``battery set``, ``deviceidle force-idle``,
    ``jobscheduler run``, ``batterystats --reset``); pm list/path print packages; ls, ps, df, id, uname, uptime
    print; wm size/density and settings get/list without a value print; screencap without a file prints the
    screen (exec-out); am start/force-stop and input change the device's state."""
    name, rest = tokens[0], tokens[1:]
    if name == "getprop" and len(rest) <= 1 and all(_ADB_PLAIN.fullmatch(t) for t in rest):
        return "read"
    if name == "dumpsys":
        if len(rest) <= 1 and all(_ADB_PLAIN.fullmatch(t) for t in rest):
            return "read"
        if len(rest) == 2 and rest[0] in _ADB_DUMPSYS_PACKAGE and _ADB_PACKAGE.fullmatch(rest[1]):
            return "read"
        if len(rest) == 2 and rest[0] == "activity" and rest[1] in _ADB_ACTIVITY_DUMPS:
            return "read"
        return None
    if name == "pm" and rest[:1] == ["list"] and len(rest) >= 2 and rest[1] in _ADB_PM_LISTS:
        operands = [t for t in rest[2:] if t not in _ADB_PM_FLAGS]
        return "read" if len(operands) <= 1 and all(_ADB_PLAIN.fullmatch(t) for t in operands) else None
    if name == "pm" and len(rest) == 2 and rest[0] == "path" and _ADB_PACKAGE.fullmatch(rest[1]):
        return "read"
    if name in ("ls", "ps", "df", "id", "uname", "uptime"):
        return "read"
    if name == "wm" and len(rest) == 1 and rest[0] in ("size", "density"):
        return "read"
    if name == "settings" and ((len(rest) == 3 and rest[0] == "get") or (len(rest) == 2 and rest[0] == "list")):
        return "read"
    if name == "screencap" and rest in ([], ["-p"]):
        return "read"
    if name == "am" and rest[:1] in (["start"], ["force-stop"]):
        return "change"
    if name == "input" and rest:
        return "change"
    return None


#: The words after which a project tool only prints its version or help, loading no project.
_PRINTS_ONLY = frozenset({"--version", "-v", "-V", "-h", "--help", "version", "help"})


def _project_outside(call: Call) -> None:
    """Destructive (``project-outside-workspace``) when ``call`` runs from a directory outside the workspace or one
    only known when it runs: the project it loads there is code FlyBot does not read (kit.py ``build_or_test``)."""
    state = call.g.state
    if state.remote:
        return
    inside = state.root.rstrip("/") + "/"
    outside = sorted(cwd for cwd in state.cwds if cwd != state.root and not cwd.startswith(inside))
    if state.cwds and not outside:
        return
    where = (
        f"in {shorten(outside[0], 60)}, outside the workspace" if outside else "in a directory only known when it runs"
    )
    destructive(
        call,
        "project-outside-workspace",
        f"{call.name} runs {where}: it loads the project there, code FlyBot does not read.",
    )


def project_here(base: Handler) -> Handler:
    """A tool that loads the project of the directory it runs in (its manifest, configuration, plugins or app: code)
    whatever its grade (a deploy, a query, a server): run from a directory outside the workspace or one only known
    when it runs (``cd /tmp/x && cdk synth``) it runs that directory's code, as a build there does: destructive
    (:func:`_project_outside`). A use whose first word only prints the version or help loads nothing."""

    def handler(call: Call) -> None:
        base(call)
        if not call.args or call.args[0].value not in _PRINTS_ONLY:
            _project_outside(call)

    handler.__name__ = "project_here"
    return handler


def adb_shell(base: Handler) -> Handler:
    """``adb shell COMMAND`` and ``adb exec-out COMMAND`` (adb --help, platform-tools 35) run COMMAND on the device
    through its shell: a command line of :func:`_adb_device_use` with no shell syntax keeps the catalogue's grade
    (remote: a read of another machine) or changes the device (``change``); an interactive shell (no command), a
    word only known when it runs and any other command line run programs the classifier does not grade."""

    def handler(call: Call) -> None:
        base(call)
        words = call.args
        index = 0
        while index < len(words) and (words[index].value or "").startswith("-"):
            index += 2 if words[index].value in _ADB_VALUES else 1
        if index >= len(words) or words[index].value not in ("shell", "exec-out"):
            return
        sub = words[index].value
        index += 1
        if sub == "shell":
            while index < len(words) and (words[index].value or "").startswith("-"):
                index += 2 if words[index].value == "-e" else 1
        tokens: list[str] = []
        for word in words[index:]:
            if word.value is None or _ADB_SYNTAX.search(word.value):
                destructive(
                    call, "runs-program", f"adb {sub} {shorten(word.src, 60)}: a device shell line it cannot read."
                )
                return
            tokens.extend(word.value.split())
        use = _adb_device_use(tokens) if tokens else None
        if use == "change":
            call.flag(R.SYSTEM, "remote-control-plane", f"adb {sub} {tokens[0]} changes state on the device.")
        elif use is None:
            what = " ".join(tokens) if tokens else "(an interactive shell)"
            destructive(call, "runs-program", f"adb {sub} {shorten(what, 60)} runs programs on the device.")

    handler.__name__ = "adb_shell"
    return handler


_VAULT_ID_OPTIONS = ("--vault-id", "--new-vault-id")


def _ansible_cfg(call: Call) -> None:
    """The ``ansible.cfg`` of the directory an Ansible command runs in (Ansible Configuration Settings: read from the
    current directory when ``ANSIBLE_CONFIG`` is not set) naming a vault password script, plugin, module, role or
    inventory path outside the workspace, or ssh options that run a program (settings.py ``_ansible_cfg``, read by
    the adapter and sent): Ansible runs or loads that code at start, ``--syntax-check`` and ``ansible-inventory``
    too (vault password files are read when the command starts): destructive (``project-outside-workspace``). A use
    that only prints the version or help reads none."""
    if any(w.value in ("--version", "-h", "--help") for w in call.args):
        return
    from .projects import settings_lines

    lines = settings_lines(call, "ansible", call.name, "")
    if lines:
        first = lines[0]
        destructive(
            call,
            "project-outside-workspace",
            f"{call.name} reads {shorten(first.source, 60)}: {shorten(first.command, 160)}; Ansible runs or loads "
            "code from there.",
        )


#: sops uses that make a new data key and encrypt it with the creation rule's keys (SOPS README: ``-e``/``encrypt``,
#: ``-r``/``rotate``, ``updatekeys``).
_SOPS_ENCRYPTS = frozenset({"-e", "--encrypt", "-r", "--rotate", "encrypt", "rotate", "updatekeys"})


def sops_key_services(base: Handler) -> Handler:
    """sops graded by its entry, then, when it encrypts (:data:`_SOPS_ENCRYPTS`), by the ``.sops.yaml`` it uses
    (settings.py ``_sops_key_services``, read by the adapter and sent): a creation rule naming AWS KMS, GCP KMS,
    Azure Key Vault or a Vault transit URI makes sops send the data key to that service: network (``network-egress``),
    never read_only. age and PGP recipients are encrypted to locally. Run outside the workspace or in a directory only
    known when it runs, the ``.sops.yaml`` it uses is not known: destructive (``recipe-unreadable``)."""

    def handler(call: Call) -> None:
        base(call)
        if not any(w.value in _SOPS_ENCRYPTS for w in call.args):
            return
        from .projects import _inside, settings_lines

        state = call.g.state
        if state.remote or not state.cwds or any(_inside(cwd, state.root) is None for cwd in state.cwds):
            destructive(
                call,
                "recipe-unreadable",
                "sops encrypts with the .sops.yaml of a directory outside the "
                "workspace or only known when it runs: the key services it names are not known.",
            )
            return
        lines = settings_lines(call, "sops", call.name, "")
        if lines:
            first = lines[0]
            call.flag(
                R.NETWORK,
                "network-egress",
                f"sops encrypts with {shorten(first.source, 60)}: {shorten(first.command, 160)}; the data key is "
                "sent to that key service.",
            )

    handler.__name__ = "sops_key_services"
    return handler


def ansible_settings(base: Handler) -> Handler:
    """An Ansible command graded by its entry, then by the ``ansible.cfg`` where it runs (:func:`_ansible_cfg`)."""

    def handler(call: Call) -> None:
        base(call)
        _ansible_cfg(call)

    return handler


def ansible_vault_ids(base: Handler) -> Handler:
    """ansible-vault(1) ``--vault-id`` and ``--new-vault-id`` take ``LABEL@SOURCE`` (or ``SOURCE``), where SOURCE is
    ``prompt`` or a password file, and "If the password file is executable, Ansible runs it" (Ansible, "Managing
    vault passwords"): a SOURCE outside the workspace, under ~ or only known when it runs is code from outside
    (``project-outside-workspace``), as ``--vault-password-file`` is. ``LABEL@prompt`` and a label alone
    (``--encrypt-vault-id``) keep the grade."""

    def handler(call: Call) -> None:
        base(call)
        _ansible_cfg(call)
        for name in _VAULT_ID_OPTIONS:
            for value in option_values(call.args, name):
                given = value.value
                source = None if given is None else given.rpartition("@")[2]
                if source in ("prompt", ""):
                    continue
                if source is None or source.startswith("~") or call.where(literal_word(source)) is not Where.WORKSPACE:
                    destructive(
                        call,
                        "project-outside-workspace",
                        f"{call.name} {name} {shorten(value.src, 60)} names a password file outside the workspace "
                        "(or only known when it runs): Ansible runs it when it is executable.",
                    )
                    return

    return handler


def iac_programs(call: Call, label: str, question: str) -> None:
    """The programs an infrastructure tool starts because the workspace's configuration names them (settings.py
    ``_iac_programs``, read by the adapter and sent): a Terraform ``data "external"`` program and a CDK ``cdk.json``
    ``app`` are graded as the commands they are; a helmfile with ``exec``, hooks or commands, a program whose words
    could not be read and a local module outside the workspace are destructive (``runs-program``); a place that could
    not be read is destructive (``recipe-unreadable``)."""
    import json
    import shlex

    from bot.risk.hidden import reveal

    from .projects import settings_lines

    lines = settings_lines(call, "iac", label, question)
    for line in lines or []:
        what = line.command
        source = reveal(line.source, multiline=False)
        if what.startswith("command ") and _CDK_INIT_APP.fullmatch(what[8:].strip()):
            continue  # the app cdk init writes: the project's own program, run as a build of it runs it
        if what.startswith("program [") or what.startswith("command "):
            text = shlex.join(json.loads(what[len("program ") :])) if what.startswith("program ") else what[8:]
            call.script(text, f"{label} (the program {source} names)")
            continue
        destructive(
            call,
            "runs-program",
            f"{label} reads {source}: {shorten(reveal(what, multiline=False), 120)}; it runs programs or code "
            "FlyBot does not grade.",
        )


#: A relative path below the directory cdk runs in (no ``..``, no shell syntax).
_CDK_PATH = r"(?!/|~)(?:(?!\.\./)[\w.-]+/)*[\w.-]+"
#: The ``app`` of the cdk.json that ``cdk init app`` writes for each language (aws-cdk init-templates:
#: TypeScript ``npx ts-node --prefer-ts-exts bin/NAME.ts``, JavaScript ``node bin/NAME.js``, Python ``python3
#: app.py``, Java ``mvn -e -q compile exec:java``, C# ``dotnet run -p src/NAME/NAME.csproj``, Go ``go mod download &&
#: go run NAME.go``): the project's own program, left at the command's grade; any other app is graded as the
#: command it is.
_CDK_INIT_APP = re.compile(
    rf"npx ts-node (?:--prefer-ts-exts )?{_CDK_PATH}\.ts|node {_CDK_PATH}\.js|python3? {_CDK_PATH}\.py"
    rf"|mvn -e -q compile exec:java|dotnet run -p {_CDK_PATH}\.csproj|go mod download && go run {_CDK_PATH}\.go"
)


#: cdk commands that synthesize the app (AWS CDK Toolkit: synth, diff, list, deploy and watch run cdk.json's app).
_CDK_SYNTHESIZES = frozenset({"synth", "synthesize", "diff", "list", "ls", "deploy", "watch", "metadata", "import"})


def cdk_app(base: Handler) -> Handler:
    """cdk (:func:`project_here`, and a command that synthesizes, :data:`_CDK_SYNTHESIZES`, runs cdk.json's ``app``:
    :func:`iac_programs`)."""
    here = project_here(base)

    def handler(call: Call) -> None:
        here(call)
        first = next((w.value for w in call.args if not (w.value or "-").startswith("-")), None)
        if first in _CDK_SYNTHESIZES:
            iac_programs(call, f"cdk {first}", "cdk")

    handler.__name__ = "cdk_app"
    return handler


def helmfile_programs(base: Handler) -> Handler:
    """helmfile: the helmfile.yaml (``-f``/``--file``, else helmfile.yaml, helmfile.yaml.gotmpl or helmfile.d) of
    every command but ``init`` and version/help is rendered, its ``exec`` template calls and hooks run
    (:func:`iac_programs`)."""

    def handler(call: Call) -> None:
        base(call)
        values = [w.value for w in call.args]
        if any(v in ("-h", "--help", "-v", "--version", "init") for v in values):
            return
        given = next((literal_word(v) for w in option_values(call.args, "--file") for v in [w.value] if v), None)
        at = next((i for i, v in enumerate(values) if v == "-f"), None)
        if at is not None and at + 1 < len(values):
            given = literal_word(values[at + 1] or "")
        name = given.value if given is not None and given.value else ""
        iac_programs(call, "helmfile", f"helmfile {name}".strip())

    handler.__name__ = "helmfile_programs"
    return handler
