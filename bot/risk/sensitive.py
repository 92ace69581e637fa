"""Paths and variables whose change or disclosure is worse than an ordinary write or read.

Two lists, each judged on a word's text (its literal value, or for a word only partly known its source with quotes
removed and ``$HOME``/``${HOME}`` read as ``~``):

* **Protected paths** (:func:`protected_path`): a write there changes how the host boots, authenticates or runs
  programs, so on the host it is ``destructive`` (grader.py ``Grader.write``), whatever the write (create, append,
  replace). System trees (FHS 3.0, "The Root Filesystem" and "/usr", "/var"): ``/`` itself, ``/bin``, ``/boot``,
  ``/etc``, ``/lib*``, ``/root``, ``/sbin``, ``/usr`` (also ``/usr/local``: programs on every user's PATH), ``/var``
  (the temp areas of paths.py excepted), ``/run`` (file-hierarchy(7): "/var/run/ A compatibility symlink pointing to
  /run/": the daemons' sockets, such as the Docker engine's, runtime units and ``/run/nologin``), ``/sys``, ``/proc``,
  ``/home`` itself; macOS ``/System``, ``/Library``,
  ``/private/etc``, ``/private/var``. Login and credential files of any home (``~``, ``~user``, ``/home/user``,
  ``/root``): ``.ssh`` (sshd(8) AUTHORIZED_KEYS FILE FORMAT), shell start-up files (bash(1) INVOCATION: ``.bashrc``,
  ``.bash_profile``, ``.bash_login``, ``.profile``, ``.bash_logout``; zsh(1) STARTUP/SHUTDOWN FILES: ``.zshenv``,
  ``.zprofile``, ``.zshrc``, ``.zlogin``, ``.zlogout``), X session, other shells' and readline's start-up files
  (:data:`_SESSION_START`: ``.xprofile``, ``.xsessionrc``, ``.xinitrc``, ``.cshrc``, ``.bashrc.d``, ``.tmux.conf``...), ``.gnupg``, ``.config/autostart``,
  ``.config/systemd`` (systemd.unit(5) user unit search path), ``.pam_environment``, ``.gitconfig`` (git-config(1):
  ``core.pager``, ``core.hooksPath``), ``.bash_aliases`` (read by Debian's ``.bashrc``), ``bin`` (on Debian's PATH
  by ``.profile``), ``.cargo/config.toml``, ``.cargo/config`` (The Cargo Book, "Configuration": runners, build
  scripts' environment) and ``.cargo/bin`` (on the PATH), ``go/bin`` (go help install: GOBIN defaults to
  ``$HOME/go/bin``, put on the PATH by Go's install instructions), Claude Code's ``.claude`` and ``.claude.json`` (settings,
  hooks, MCP servers), Codex's ``.codex`` (config.toml, hooks) and Gemini CLI's ``.gemini`` (settings.json, hooks),
  Cursor's ``.cursor``, Cline's ``.cline`` and Copilot CLI's ``.copilot`` (their hooks, FlyBot's own user-level hook
  among them, and MCP servers), Gradle's ``.gradle/init.d``, ``init.gradle(.kts)`` and ``gradle.properties`` (init
  scripts and JVM options every build runs), R's ``.Rprofile``, irb's ``.irbrc`` and pry's ``.pryrc`` (run at start),
  a ``.pth`` file, ``sitecustomize.py`` or ``usercustomize.py`` in any ``site-packages`` directory (Python's
  ``site`` module runs them at every start),
  Neovim's ``.local/share/nvim/site`` (nvim's ``:help 'runtimepath'``: ``stdpath("data")/site``, its ``plugin/``
  files and ``pack/*/start`` packages sourced at every start; its ``~/.config/nvim`` is below ``.config``),
  the home directory itself and ``.local``, ``.local/state``, ``.local/share`` as a whole (unpacking, syncing or cloning into them replaces those
  files), everything below ``.config`` (XDG config home: git's ``config``, editors' and shells' start-up files) and
  ``.local/bin`` (on the PATH), the other start-up files, extension trees and PATH directories of
  :data:`_SESSION_START`, :data:`_HOME_PROTECTED_PAIRS` and :data:`_HOME_PLACES` (``.cargo/env``, ``.vscode``,
  ``.terraform.d``, ``.volta``, ``.local/share/systemd/user``, the user's ``site-packages``, each with its
  source there) and the directories above those places and pairs (``~/.yarn``, ``~/.local/share/systemd``: an
  archive unpacked or a repository cloned there writes into them), Homebrew's ``/opt/homebrew``, and the credential files below;
  FlyBot's own state directory and store files (:func:`flybot_state`), whoever writes them (sqlite3, cp, ln, tar).
* **Credential files** (:func:`credential_path`): reading one prints a secret, and a command's output goes to the
  model provider, so it is at least ``network`` (never downgraded: the output leaves wherever the command ran).
  ssh private keys and the whole ``.ssh`` directory except ``*.pub``, ``known_hosts``, ``config`` and
  ``authorized_keys`` (ssh(1) FILES); ``/etc/ssh/ssh_host_*_key`` (sshd(8) FILES); ``~/.aws/credentials``,
  ``~/.aws/config`` (it takes the same ``aws_access_key_id``/``aws_secret_access_key`` settings, and
  ``credential_process`` commands and SSO sessions) and the AWS CLI caches ``~/.aws/sso``, ``~/.aws/cli`` (AWS CLI user guide, "Configuration and credential file settings");
  ``~/.config/gcloud`` (gcloud topic configurations); ``~/.kube/config`` (kubectl: "Organizing cluster access");
  ``~/.azure``; ``.netrc``/``_netrc`` (netrc(5)); ``.pgpass`` (PostgreSQL "The Password File");
  ``~/.docker/config.json`` (docker login); ``.npmrc`` (npmrc(5): auth tokens); ``.pypirc``; ``.git-credentials``
  (git-credential-store(1)); ``~/.config/gh/hosts.yml`` (gh auth); ``.cargo/credentials(.toml)`` (The Cargo Book,
  "Credentials"); ``.terraform.d/credentials.tfrc.json``; ``.vault-token``; ``.gnupg`` (private keys);
  ``/etc/shadow``, ``/etc/gshadow`` and their ``-`` backups (shadow(5)), Debian's daily copies
  ``/var/backups/shadow.bak``, ``gshadow.bak`` (the ``passwd`` package's ``/etc/cron.daily/passwd``), BSD's
  ``/etc/master.passwd`` and ``/etc/spwd.db`` (master.passwd(5)), the sudo policy ``/etc/sudoers`` and
  ``/etc/sudoers.d`` (sudoers(5)); ``/proc/PID/environ``, ``/proc/self/environ``
  (proc(5): the process's environment); ``/etc/ssl/private`` (Debian's private TLS keys, update-ca-certificates(8));
  ``/run/secrets``, ``/var/run/secrets`` (Kubernetes service-account tokens, "Configure Service Accounts for Pods";
  Docker secrets); ``/run/credentials``, ``/var/run/credentials`` (systemd.exec(5) "Credentials"); a backup, swap
  or auto-save copy of any credential file by its name (:func:`backed_up`: ``.netrc~``, ``id_rsa.bak``,
  ``..netrc.swp``); ``~/.claude/.credentials.json`` (Claude Code "Identity and Access Management");
  ``~/.codex/auth.json`` (OpenAI Codex CLI authentication); ``~/.gem/credentials`` (RubyGems "API keys");
  ``~/.config/hub`` (hub(1) CONFIGURATION); ``~/.config/git/credentials`` (git-credential-store(1) FILES); git's
  global and system configuration ``~/.gitconfig``, ``~/.config/git/config``, ``/etc/gitconfig`` (git-config(1)
  FILES; ``http.<url>.extraHeader`` carries an ``Authorization`` header, ``url.<base>.insteadOf`` a URL with a
  token, ``credential.helper`` an inline ``!f() { echo password=...; }`` helper: gitcredentials(7)), as a
  repository's ``.git/config`` is;
  ``~/.password-store`` (pass(1)); ``~/.oci`` (OCI CLI config and API keys); ``~/.m2/settings.xml`` (Maven
  "Password Encryption": server passwords); ``~/.gradle/gradle.properties`` (Gradle "Build Environment":
  credentials in properties); ``~/.config/op`` (1Password CLI); ``~/.s3cfg`` (s3cmd), ``~/.boto`` (gsutil/boto),
  ``~/.terraformrc`` (Terraform CLI config: ``credentials`` blocks), ``~/.env``, ``~/.config/rclone/rclone.conf``
  (rclone config); shell and REPL histories (``~/.bash_history``, ``~/.zsh_history``, ``~/.python_history``,
  ``~/.psql_history``, ``~/.mysql_history``, ``~/.node_repl_history``, ``~/.sqlite_history``,
  ``~/.rediscli_history``, ``~/.local/share/fish/fish_history``: passwords typed on command lines);
  ``~/.local/share/keyrings`` (GNOME Keyring); FlyBot's own state (:func:`flybot_state`: its store, standing approvals,
  local mode's token and chat); browser profiles (the tree and each profile directory) and their ``logins.json``, ``key4.db``, ``cookies.sqlite``,
  ``Login Data`` and ``Cookies`` (Firefox, Chrome, Chromium, Brave), and their history, sessions and page storage
  (``History``, ``Sessions``, ``Local Storage``, ``Session Storage``, ``Web Data``; Firefox's ``places.sqlite``,
  ``sessionstore*``, ``webappsstore.sqlite``, ``storage``): visited URLs carry login keys and page storage holds
  page credentials (FlyBot's local page's among them); ``/etc/kubernetes/*.conf`` and
  ``/etc/kubernetes/pki`` (kubeadm), ``/var/lib/kubelet/pki``; ``/etc/letsencrypt/keys`` and ``privkey*`` under
  ``/etc/letsencrypt/live|archive`` (certbot "Where are my certificates?"); ``private`` below ``/etc/pki`` (Red
  Hat's TLS keys); ``/etc/wireguard`` (wg-quick(8)); ``/etc/NetworkManager/system-connections``
  (nm-settings-keyfile(5)); ``/etc/mysql/debian.cnf``, ``/etc/krb5.keytab``, ``/etc/security/opasswd``;
  repository and service passwords and tokens: ``~/.sbt/credentials`` and ``~/.ivy2/.credentials`` (sbt
  "Publishing": credentials), ``~/.nuget/NuGet/NuGet.Config`` and ``~/.config/NuGet/NuGet.Config`` (NuGet
  "nuget.config reference": ``packageSourceCredentials``, ``ClearTextPassword``, ``apikeys``), ``~/.msmtprc``
  (msmtp(1) ``password``), ``~/.fetchmailrc`` (fetchmail(1) ``password``), ``~/.muttrc``, ``~/.mutt/muttrc``,
  ``~/.config/mutt/muttrc`` (muttrc(5) ``imap_pass``, ``smtp_pass``), ``~/.config/hut/config`` (hut(1): the
  SourceHut access token), ``~/.config/fish/fish_history`` (fish's history before 2.3), ``~/.purple/accounts.xml`` (Pidgin
  "Plaintext passwords"), ``~/.config/filezilla/sitemanager.xml`` and ``recentservers.xml``, ``~/.dockercfg``
  (Docker's legacy auth file), ``~/.dbt/profiles.yml`` (dbt "Connection profiles"), ``~/.snowsql/config`` (SnowSQL
  "Configuring SnowSQL": ``password``), ``~/.config/stripe/config.toml`` (Stripe CLI ``login``),
  ``~/.twilio-cli/config.json``, ``~/.supabase/access-token``, ``~/.heroku/credentials``, ``~/.config/atuin/key``
  (atuin's sync key), ``~/.Renviron`` (R reads it at start, ``?Startup``; usethis "Managing Git(Hub) Credentials":
  ``GITHUB_PAT`` kept there), ``~/.julia/servers`` (Julia Pkg server tokens, ``SERVER/auth.toml``: PkgAuthentication.jl),
  ``~/.nextflow/secrets`` (Nextflow "Secrets": ``store.json``), ``~/.config/Slack`` (the desktop client's cookies), ``/var/lib/tailscale/tailscaled.state``
  (tailscaled(8): the node's keys), ``~/.config/aichat`` and ``~/.config/io.datasette.llm/keys.json`` (model API
  keys), ``~/.config/age`` (age identities), VS Code's and its forks' ``User/globalStorage/state.vscdb``
  (SecretStorage); histories ``~/.local/share/atuin``, ``~/.irb_history``, ``~/.Rhistory``,
  ``~/.ipython/*/history.sqlite``, ``~/.julia/logs/repl_history.jl``; Thunderbird's profiles (as Firefox's); on
  macOS ``~/Library/Keychains``, ``~/Library/Cookies``, ``~/Library/Messages``, Safari's ``~/Library/Safari``, and
  below ``~/Library/Application Support`` the browsers' profiles (Firefox, Google Chrome, Chromium, Brave, Edge)
  and Slack's. Also: the other Chromium-based browsers' profiles below ``~/.config`` (:data:`_CONFIG_BROWSERS`:
  Edge, Vivaldi, Opera, Chrome beta and unstable) and on macOS (Vivaldi, Arc, Opera, Edge and Chrome channels),
  Firefox forks' (``~/.librewolf``, ``~/.waterfox``, ``~/.zen``, ``~/.floorp``); the session stores of any program
  below ``~/.config`` or ``~/Library/Application Support`` (:data:`_APP_SESSION_FILES`: Chromium's "User Data
  Directory" ``Cookies``, ``Login Data``, ``Local Storage``... that Electron programs such as Discord, Element and
  Teams keep); Telegram Desktop's ``tdata``;
  mail and IRC passwords: ``~/.mbsyncrc`` (mbsync(1) ``Pass``), ``~/.offlineimaprc`` (OfflineIMAP
  ``remotepass``), aerc-accounts(5), himalaya's ``config.toml``, irssi's ``config``, HexChat's ``servlist.conf``,
  WeeChat's ``sec.conf``; ``~/.wgetrc`` (wget(1) "Startup File": ``password``, ``http_password``), ``~/.curlrc``
  (curl(1) ``--config``: ``user``, ``header``), nix.conf(5) ``access-tokens`` (``~/.config/nix/nix.conf``) and
  its ``netrc-file`` (``~/.config/nix/netrc``, ``/etc/nix/netrc``), Poetry's ``auth.toml``, PDM's ``config.toml``,
  bunfig's ``~/.bunfig.toml`` (scopes' tokens); OpenStack's ``clouds.yaml`` and ``secure.yaml``, Scaleway,
  Exoscale, Vultr, ``~/.ovh.conf``, Argo CD, Travis CI, Expo, s3fs(1) (``~/.passwd-s3fs``, ``/etc/passwd-s3fs``),
  ``/etc/samba/credentials`` (mount.cifs(8) ``credentials=``), sssd-secrets(5), MinIO's ``~/.config/mc``, Borg's
  ``keys``, Remmina's profiles; Lima's ``_config/user`` and Vagrant's ``private_key`` (VM ssh keys), JetBrains'
  ``c.kdbx``/``c.pwd``; each with its source beside it. Paths
  through ``/proc/PID/root`` and ``/proc/PID/task/TID`` count as the path they reach (proc(5)). Only paths outside
  the workspace count (a workspace file is the agent's own), unless the workspace is, or holds, the home directory
  or system tree the path lies in (:func:`workspace_credential`, :func:`workspace_protected`: a session started in
  ``/root``, ``/home``, ``/etc`` or ``/``). A glob (``~/.s*/id_rsa``, ``~/.*/credentials``, ``/etc/ssl/private/*``) counts
  when it may match one of these: :func:`credential_path` matches it, component by component (fnmatch), against
  each of them; an expansion in a word only partly known (``/proc/$$/environ``) counts as ``*`` there.
  A file of a tool not listed here is judged by its name (:func:`_home_dot_secret`): below a hidden directory of a
  home, a data file (no extension, ``.json``, ``.yaml``, ``.toml``, ``.txt``...) named ``credentials``, ``token``,
  ``secret``, ``password``, ``creds`` or ``apikey``, alone or as a part (``~/.config/openai/credentials``,
  ``~/.foo/api-token``, ``~/.local/share/x/secrets.json``; not ``token.rs`` or ``tokenizer.json``).
  Build, package, CI and cluster tools' credential files are one further group, :data:`_TOOL_CREDENTIALS` and
  :data:`_TOOL_CREDENTIAL_TREES` (NuGet, Maven's master password, sbt/Ivy, Helm's registry login, sentry-cli,
  CircleCI, JFrog, CVS, tea, talosctl, influx, Snowflake CLI, GitLab Runner, k3s and RKE2), each with its manual.
* **Secret variables** (:func:`secret_variable`): a name with ``SECRET``, ``TOKEN``, ``PASSWORD``/``PASSWD``,
  ``PASSPHRASE``, ``API_KEY``/``APIKEY``, ``PRIVATE_KEY``, ``ACCESS_KEY``, ``CREDENTIAL``, ``AUTH``, ``COOKIE``,
  ``JWT``, ``BEARER`` or ``WEBHOOK`` in it, or ending in ``_KEY`` (or ``Key`` after a lower-case word: Gradle's
  ``ORG_GRADLE_PROJECT_signingKey``, "Signing Plugin", in-memory keys), ``PASS`` (``PGPASS``), ``PWD`` (``MYSQL_PWD``;
  not ``PWD``/``OLDPWD``), ``_SK`` (``STRIPE_SK``), ``DSN`` (Sentry's ``SENTRY_DSN``, database DSNs), or a connection URL
  that carries a password by convention (``DATABASE_URL``, ``*_DATABASE_URL``, ``REDIS_URL``, ``MONGO(DB)_URI``/
  ``_URL``, ``POSTGRES(QL)_URL``, ``MYSQL_URL``, ``AMQP_URL``, ``RABBITMQ_URL``, ``BROKER_URL``, ``*_DB_URL``;
  Heroku "Config Vars", 12factor "Config"; ``*CONN*_STR*``), any case: printing its value (``echo $GITHUB_TOKEN``,
  ``printenv AWS_SECRET_ACCESS_KEY``, ``echo $DATABASE_URL``) sends the secret to the model provider. An indirect
  expansion ``${!name}`` (bash(1) "Parameter Expansion") may print any variable, so it counts as one.
* **Environment files** (:func:`env_file`), wherever they are, the workspace included: ``.env``, ``.env.NAME``
  (``.env.local``, ``.env.production``), ``NAME.env``, direnv's ``.envrc`` and ``.envrc.NAME`` (``.envrc.local``, sourced by
  direnv-stdlib(1) ``source_env_if_exists``) hold the project's secrets by
  convention (12factor "Config"; dotenv's README: "Never commit .env"; direnv(1) ``.envrc``), so printing one sends
  them to the model provider. Templates committed for others to copy hold none: a name with an ``example``,
  ``sample``, ``template`` or ``dist`` part (``.env.example``, ``.env.local.sample``, ``example.env``).
"""

from __future__ import annotations

import os
import posixpath
import re
from contextvars import ContextVar, Token
from fnmatch import fnmatchcase
from fnmatch import translate as fnmatch_translate
from functools import lru_cache

from bot.risk.regex import Regex
from bot.state_home import default_state_dir

__all__ = [
    "brace_alternatives",
    "config_subdirectory",
    "place_above",
    "credential_path",
    "env_file",
    "flybot_state",
    "included_secret",
    "own_state",
    "own_state_paths",
    "set_own_state",
    "own_state_digests",
    "add_own_state_digests",
    "glob_names_credential",
    "holds_anchor",
    "may_hold_credential",
    "may_name_secret",
    "GIT_CONFIG_SECRET",
    "add_own_state",
    "reported_state",
    "named_secret",
    "path_text",
    "protected_path",
    "read_path_text",
    "suffix_credential",
    "secret_expansions",
    "secret_setting",
    "secret_variable",
    "workspace_credential",
    "workspace_holds_credential",
    "workspace_protected",
]

_SYSTEM_TREES = (
    "/bin", "/boot", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/root", "/sbin", "/usr", "/var", "/run", "/sys",
    "/proc", "/System", "/Library", "/private/etc", "/private/var",
)  # fmt: skip
_NOT_PROTECTED = ("/var/tmp", "/var/folders", "/private/var/tmp", "/private/var/folders")
_HOME_PROTECTED = frozenset({
    ".ssh", ".bashrc", ".bash_profile", ".bash_login", ".profile", ".bash_logout", ".zshenv", ".zprofile", ".zshrc",
    ".zlogin", ".zlogout", ".gnupg", ".pam_environment", ".gitconfig", ".bash_aliases", "bin", ".claude",
    ".claude.json", ".codex", ".gemini", ".cursor", ".cline", ".copilot", ".Rprofile", ".irbrc", ".pryrc",
})  # fmt: skip
#: Start-up files of X sessions (Xsession(5): ``.xsessionrc``, ``.xsession``, ``.xprofile`` read by display
#: managers; xinit(1): ``.xinitrc``, ``.xserverrc``), of other shells (csh(1) ``.login``, ``.cshrc``, ``.tcshrc``;
#: ksh(1), mksh(1) ``.kshrc``, ``.mkshrc``), the directories Fedora's and others' ``.bashrc``/``.profile`` source
#: (``.bashrc.d``, ``.profile.d``), readline's ``.inputrc`` (its macros type commands into the shell), the
#: version managers and frameworks a shell start-up file sources or whose shims run on every call (``.nvm``,
#: ``.sdkman``, ``.oh-my-zsh``, ``.zsh``, ``.pyenv``, ``.rbenv``, ``.bun``, ``.deno``, ``.rustup``), and the start-up
#: files of IPython (``profile_*/startup``), KDE (``Autostart``), vim, gdb, lldb (lldb(1) CONFIGURATION FILES:
#: ``~/.lldbinit``, its commands run at every start, ``platform shell`` and ``script`` among them) and psql (each
#: runs commands), tmux
#: (tmux(1): ``~/.tmux.conf`` is read when the server starts; ``run-shell``, ``if-shell`` and hooks run shell
#: commands), GNU screen (screen(1) ``~/.screenrc``: ``exec`` and ``screen`` run programs), vi's ``.exrc`` and gvim's
#: ``.gvimrc`` (ex ``!`` commands), vim's user runtime directory ``.vim`` (vim's ``:help 'runtimepath'`` and
#: ``:help packages``: every ``plugin/*.vim``, ``ftplugin/``, ``after/`` file and ``pack/*/start/*`` package below it
#: is sourced at start) and Emacs (``.emacs``, ``.emacs.d/init.el``: Lisp run at start).
_SESSION_START = frozenset({
    ".xprofile", ".xsession", ".xsessionrc", ".xinitrc", ".xserverrc", ".login", ".cshrc", ".tcshrc", ".kshrc",
    ".mkshrc", ".bashrc.d", ".profile.d", ".inputrc", ".nvm", ".sdkman", ".oh-my-zsh", ".zsh", ".pyenv", ".rbenv",
    ".bun", ".deno", ".rustup", ".ipython", ".kde", ".vimrc", ".vim", ".gdbinit", ".lldbinit", ".psqlrc", ".tmux.conf",
    ".screenrc", ".exrc", ".gvimrc", ".emacs", ".emacs.d",
    *(
        # shell start-up code sourced by .bashrc/.profile/.zshrc or by a framework they load: rustup's ``~/.cargo/env``
        # is a pair below; fzf's install script (``~/.fzf.bash``, ``~/.fzf.zsh``); bash-completion's README ("it
        # sources ~/.bash_completion"); ghcup's ``~/.ghcup/env``; asdf's ``~/.asdf/asdf.sh``; powerlevel10k's
        # ``~/.p10k.zsh``; zimfw's ``~/.zimrc``; zinit's ``~/.zinit``; antigen's ``~/.antigen``; bash-it's
        # ``~/.bash_it``; the ``~/.zfunc`` directory users put on ``fpath``; xonsh's ``~/.xonshrc``
        ".fzf.bash", ".fzf.zsh", ".bash_completion", ".ghcup", ".asdf", ".p10k.zsh", ".zimrc", ".zinit", ".antigen",
        ".bash_it", ".zfunc", ".xonshrc",
        # FreeBSD's sh(1): the skeleton ``.profile`` sets ``ENV=$HOME/.shrc``, read by every interactive shell
        ".shrc",
        # tools' start-up code: the ``mvn`` script sources ``~/.mavenrc`` (Maven "Configuring Maven":
        # MAVEN_OPTS there); sbt's global settings and plugins (sbt docs "Global Settings": ``~/.sbt/1.0/global.sbt``,
        # ``~/.sbt/1.0/plugins``); pdb(1) ``.pdbrc``; sqlite3's ``~/.sqliterc`` (``.shell`` runs a program);
        # mongosh's ``~/.mongoshrc.js``; GHCi's ``~/.ghci``; Guile's ``~/.guile``; SBCL's ``~/.sbclrc``; CLISP's
        # ``~/.clisprc.lisp``; perl5db's ``~/.perldb``; Octave's ``~/.octaverc``; WezTerm's ``~/.wezterm.lua``;
        # Bun's ``~/.bunfig.toml`` (``preload`` scripts); less(1) ``~/.lesskey`` (LESSOPEN); Jupyter's
        # ``~/.jupyter`` (``jupyter_server_config.py`` is Python run at start); Doom Emacs' ``~/.doom.d`` and
        # Spacemacs' ``~/.spacemacs`` (Lisp run at start, as ``.emacs.d``); Atom's ``~/.atom`` (``init.coffee``,
        # packages)
        ".mavenrc", ".sbt", ".pdbrc", ".sqliterc", ".mongoshrc.js", ".ghci", ".guile", ".sbclrc", ".clisprc.lisp",
        ".perldb", ".octaverc", ".wezterm.lua", ".bunfig.toml", ".lesskey", ".jupyter", ".doom.d", ".spacemacs",
        ".atom",
        # configuration every later download or install follows: RubyGems' ``~/.gemrc`` (``:sources:``), curl(1)
        # ``~/.curlrc`` and wget(1) ``~/.wgetrc`` (proxy and options of every call), Ansible's ``~/.ansible.cfg``
        # (``vault_password_file`` runs a script when executable, plugin paths)
        ".gemrc", ".curlrc", ".wgetrc", ".ansible.cfg",
        # editors' extension trees, whose extensions run at every start: VS Code ("Extension Marketplace": "installed
        # in a per user extensions folder ... ~/.vscode/extensions"), its Remote server (``~/.vscode-server``),
        # Insiders, VSCodium (``~/.vscode-oss``), Windsurf (``~/.windsurf``), Cursor's server (``~/.cursor-server``)
        ".vscode", ".vscode-server", ".vscode-insiders", ".vscode-oss", ".windsurf", ".cursor-server",
        # Terraform's implied local mirror (CLI configuration, "Implied Local Mirror Directories":
        # ``~/.terraform.d/plugins``): ``terraform init`` takes provider binaries from there
        ".terraform.d",
        # Node's global folders (Node.js "Modules: Loading from the global folders": ``$HOME/.node_modules``,
        # ``$HOME/.node_libraries``): ``require`` falls back to them
        ".node_modules", ".node_libraries",
        # directories package managers put first on the PATH: Volta (``~/.volta/bin``), krew (``~/.krew/bin``,
        # "Installing": add it to PATH), npm's "Resolving EACCES permissions errors" (``~/.npm-global/bin``),
        # Nix's profile (``~/.nix-profile/bin``), Homebrew on Linux (``/home/linuxbrew/.linuxbrew/bin``)
        ".volta", ".krew", ".npm-global", ".nix-profile", ".linuxbrew",
    ),
})  # fmt: skip
_HOME_PROTECTED_PAIRS = frozenset({
    (".config", "autostart"), (".config", "systemd"), (".cargo", "config.toml"), (".cargo", "config"),
    (".cargo", "bin"), ("go", "bin"), (".gradle", "init.d"), (".gradle", "init.gradle"), (".gradle", "init.gradle.kts"),
    (".gradle", "gradle.properties"),
    # rustup's ``~/.cargo/env``, sourced by ``~/.profile`` and ``~/.bashrc`` after rustup-init
    (".cargo", "env"),
    # PATH directories: Yarn classic's global bin (``yarn global bin``: ``~/.yarn/bin``), ``dotnet tool install -g``
    # (``~/.dotnet/tools``, put on the PATH by the SDK's first run), cabal's ``~/.cabal/bin``
    (".yarn", "bin"), (".dotnet", "tools"), (".cabal", "bin"),
    # docker CLI plugins ("docker CLI plugins": every ``docker-*`` in ``~/.docker/cli-plugins`` is run for its
    # metadata at each ``docker`` call), Julia's ``~/.julia/config/startup.jl`` (Julia manual, "The startup.jl
    # file"), npx's package cache (``~/.npm/_npx``: the packages ``npx NAME`` runs without downloading), macOS
    # login agents (launchd.plist(5): ``~/Library/LaunchAgents``)
    (".docker", "cli-plugins"), (".julia", "config"), (".npm", "_npx"), ("Library", "LaunchAgents"),
})  # fmt: skip
#: Places deeper in a home whose files run later (each matched by component, ``*`` a glob of one component):
#: systemd's user unit search path holds ``$XDG_DATA_HOME/systemd/user`` (systemd.unit(5) "User Unit Search Path",
#: its ``*.wants`` links enable units); the user's Python site (site(7), "site.USER_SITE":
#: ``~/.local/lib/pythonX.Y/site-packages``, every package there runs at its ``import``); npm's global modules with a
#: ``~/.local`` prefix; lazy.nvim's plugin tree (``stdpath("data")/lazy``, loaded at start); mise's shims and tools
#: (``~/.local/share/mise``, its ``shims`` on the PATH); pnpm's home (``PNPM_HOME``, ``~/.local/share/pnpm``, on the
#: PATH); Jupyter's kernel specs (``kernel.json``'s ``argv`` is the program started); bash-completion's user
#: completions (``~/.local/share/bash-completion/completions``, sourced at the first TAB); zinit's plugins; fish's
#: vendor directories (``vendor_conf.d`` sourced at start, ``vendor_functions.d`` autoloaded); direnv's allow list
#: (``~/.local/share/direnv/allow``: writing it is ``direnv allow``); pre-commit's hook repositories
#: (``~/.cache/pre-commit``: the hooks it runs); Firefox's ``user.js`` (below).
_HOME_PLACES: tuple[tuple[str, ...], ...] = (
    (".local", "share", "systemd", "user"),
    (".local", "lib", "python*", "site-packages"),
    (".local", "lib", "node_modules"),
    (".local", "share", "nvim", "lazy"),
    (".local", "share", "mise"),
    (".local", "share", "pnpm"),
    (".local", "share", "jupyter", "kernels"),
    (".local", "share", "bash-completion"),
    (".local", "share", "zinit"),
    (".local", "share", "fish", "vendor_conf.d"),
    (".local", "share", "fish", "vendor_functions.d"),
    (".local", "share", "direnv", "allow"),
    (".cache", "pre-commit"),
    # Firefox's ``user.js`` in a profile ("A brief guide to Mozilla preferences": read at every start, its prefs
    # replace the user's, a proxy or an update URL among them)
    (".mozilla", "firefox", "*", "user.js"),
)
#: Places outside a home on the PATH before the system's: Homebrew's prefix on Apple silicon (Homebrew "Installation":
#: ``/opt/homebrew``, its ``bin`` first on the PATH, ``etc/profile.d`` sourced by its shell environment).
_PATH_TREES = ("/opt/homebrew",)
#: Files Python's ``site`` module runs at every interpreter start from a ``site-packages`` (or Debian's
#: ``dist-packages``) directory: a ``.pth`` file's ``import`` lines, ``sitecustomize.py``, ``usercustomize.py``.
_SITE_STARTUP = frozenset({"sitecustomize.py", "usercustomize.py"})


def site_startup(text: str) -> bool:
    """True when the path ``text`` is a file Python runs at every start (:data:`_SITE_STARTUP`, a ``.pth`` file)
    directly in a ``site-packages`` or ``dist-packages`` directory; names are compared case-insensitively (a file
    system that ignores case, macOS's and Windows' by default, opens ``x.PTH`` as ``x.pth``)."""
    parts = [p for p in text.casefold().split("/") if p not in ("", ".")]
    if len(parts) < 2 or parts[-2] not in ("site-packages", "dist-packages"):
        return False
    return parts[-1].endswith(".pth") or parts[-1] in _SITE_STARTUP


_SSH_PUBLIC = frozenset(
    {"known_hosts", "known_hosts.old", "known_hosts2", "config", "authorized_keys", "authorized_keys2"}
)
#: Credential files directly in a home. Among them: mbsync(1) (``~/.mbsyncrc``: ``Pass``), OfflineIMAP's
#: offlineimap.conf (``remotepass``), wget(1) "Startup File" (``~/.wgetrc``: ``password``, ``http_password``),
#: curl(1) ``--config`` (``~/.curlrc``: ``user = name:pass``, ``header``), Bun "bunfig.toml" (``~/.bunfig.toml``:
#: ``install.scopes`` tokens), python-ovh's README (``~/.ovh.conf``: application secret and consumer key), s3fs(1)
#: AUTHENTICATION (``~/.passwd-s3fs``: access keys).
_HOME_FILES = frozenset({
    ".netrc", "_netrc", ".pgpass", ".npmrc", ".pypirc", ".git-credentials", ".vault-token", ".s3cfg", ".boto",
    ".terraformrc", ".env", ".bash_history", ".zsh_history", ".python_history", ".psql_history", ".mysql_history",
    ".node_repl_history", ".sqlite_history", ".rediscli_history", ".my.cnf", ".yarnrc.yml", ".databrickscfg",
    ".claude.json", ".zhistory", ".histfile", ".sh_history", ".msmtprc", ".fetchmailrc", ".dockercfg", ".irb_history",
    ".Rhistory", ".wakatime.cfg", ".aider.conf.yml", ".muttrc", ".Renviron", ".mbsyncrc", ".offlineimaprc", ".wgetrc",
    ".curlrc", ".bunfig.toml", ".ovh.conf", ".passwd-s3fs",
})  # fmt: skip
_HOME_SECRET_DIRS = frozenset({".gnupg", ".azure", ".oci", ".password-store"})
#: Shell start-up files directly in a home, where API keys and tokens are commonly exported (bash(1) INVOCATION:
#: ``.bash_profile``, ``.bash_login``, ``.profile``, ``.bashrc``; zsh(1) STARTUP/SHUTDOWN FILES: ``.zshenv``,
#: ``.zprofile``, ``.zshrc``, ``.zlogin``; ksh(1), mksh(1), csh(1), tcsh(1) and FreeBSD sh(1) start-up files;
#: pam_env.conf(5): ``~/.pam_environment``). Below ``~/.config``: fish's ``config.fish`` (fish "Configuration files")
#: and systemd's ``environment.d`` (environment.d(5): the user manager's environment).
_SHELL_START_SECRETS = frozenset({
    ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshenv", ".zprofile", ".zshrc", ".zlogin", ".kshrc",
    ".mkshrc", ".cshrc", ".tcshrc", ".shrc", ".pam_environment",
})  # fmt: skip
_SHELL_START_WHAT = "a shell's start-up settings, where API keys and tokens are often exported"

#: Credential files and directories named by two components (``.claude/.credentials.json``); a ``None`` second
#: component means the whole directory.
_SECRET_PAIRS: dict[tuple[str, str | None], str] = {
    (".claude", ".credentials.json"): "a Claude Code login",
    (".codex", "auth.json"): "an OpenAI Codex login",
    (".gem", "credentials"): "a RubyGems API key",
    (".m2", "settings.xml"): "Maven server passwords",
    (".gradle", "gradle.properties"): "Gradle credentials",
    # adb docs ("Connect to your device using Wi-Fi", "adb keys"): adb keeps the RSA private key a device trusts for
    # USB debugging in ~/.android/adbkey (adbkey.pub is its public half)
    (".android", "adbkey"): "adb's private key (the devices that trust it)",
    (".pip", "pip.conf"): "package index passwords",
    (".composer", "auth.json"): "Composer credentials",
    (".bundle", "config"): "Bundler credentials",
    (".pulumi", "credentials.json"): "Pulumi access tokens",
    (".fly", "config.yml"): "a Fly.io token",
    (".huggingface", "token"): "a Hugging Face token",
    (".kaggle", "kaggle.json"): "a Kaggle API key",
    (".snowflake", "connections.toml"): "Snowflake credentials",
    (".age", "key.txt"): "an age private key",
    (".ansible", "vault_pass"): "an Ansible Vault password",
    (".gemini", "oauth_creds.json"): "a Gemini CLI login",
    (".wrangler", None): "Cloudflare tokens",
    (".ngrok2", "ngrok.yml"): "an ngrok authtoken",
    (".mc", "config.json"): "MinIO access keys",
    (".tsh", None): "Teleport keys and certificates",
    (".cloudflared", None): "Cloudflare tunnel credentials and the origin certificate's token",
    (".netlify", "config.json"): "a Netlify token",
    (".ethereum", "keystore"): "Ethereum wallet keys",
    (".bitcoin", "wallet.dat"): "a Bitcoin wallet",
    (".sbt", "credentials"): "sbt repository passwords",
    (".ivy2", ".credentials"): "Ivy repository passwords",
    (".nuget", "NuGet"): "NuGet feed passwords and API keys",
    (".purple", "accounts.xml"): "Pidgin account passwords",
    (".dbt", "profiles.yml"): "database passwords",
    (".snowsql", "config"): "Snowflake passwords",
    (".twilio-cli", "config.json"): "Twilio API keys",
    (".supabase", "access-token"): "a Supabase access token",
    (".heroku", "credentials"): "a Heroku API key",
    (".railway", "config.json"): "a Railway token",
    (".render", "config.yaml"): "a Render API key",
    (".stripe", "config.toml"): "Stripe API keys",
    (".doppler", None): "a Doppler token",
    (".infisical", "infisical-config.json"): "an Infisical login",
    (".jira.d", "config.yml"): "a Jira token",
    (".cursor", "mcp.json"): "MCP servers' API keys",
    (".continue", "config.json"): "model providers' API keys",
    (".electrum", "wallets"): "a Bitcoin wallet",
    (".mutt", "muttrc"): "mail passwords (imap_pass, smtp_pass)",
    # Julia Pkg server authentication (PkgAuthentication.jl; JuliaHub.jl "Authentication"): access_token and
    # refresh_token in ~/.julia/servers/SERVER/auth.toml
    (".julia", "servers"): "a Julia package server token",
    # Nextflow "Secrets": the local provider "stores key-value pairs in a local JSON file", $NXF_HOME/secrets/store.json
    (".nextflow", "secrets"): "Nextflow secrets",
    # irssi's "Startup HOWTO" (~/.irssi/config: server passwords, SASL passwords, nickserv autosendcmd)
    (".irssi", "config"): "IRC passwords",
    # WeeChat "Secured data" (sec.conf: the secured data, its passphrase key among them); WeeChat before 3.2
    # kept it in ~/.weechat
    (".weechat", "sec.conf"): "IRC passwords (WeeChat's secured data)",
    # The Travis CLI's README, "travis login": the access token is kept in ~/.travis/config.yml
    (".travis", "config.yml"): "a Travis CI token",
    # expo-cli "expo login": the session (sessionSecret) is kept in ~/.expo/state.json
    (".expo", "state.json"): "an Expo session",
}
_GLOBAL_GIT_CONFIG = (
    "git's global configuration (an http.extraHeader, a url.insteadOf URL or an inline credential helper there may "
    "carry a token)"
)
_CONFIG_SECRETS: dict[tuple[str, ...], str] = {
    ("gcloud",): "Google Cloud credentials",
    ("gh", "hosts.yml"): "a GitHub token",
    ("hub",): "a GitHub token",
    ("git", "credentials"): "git passwords",
    ("git", "config"): _GLOBAL_GIT_CONFIG,
    ("op",): "1Password CLI sessions",
    ("rclone", "rclone.conf"): "cloud storage credentials",
    ("github-copilot",): "a GitHub Copilot token",
    ("fish", "config.fish"): _SHELL_START_WHAT,
    ("environment.d",): "the user session's environment variables (environment.d), secrets among them",
    ("pip", "pip.conf"): "package index passwords",
    ("composer", "auth.json"): "Composer credentials",
    ("doctl",): "a DigitalOcean token",
    (".wrangler",): "Cloudflare tokens",
    ("helm", "repositories.yaml"): "chart repository passwords",
    ("sops",): "SOPS decryption keys",
    ("glab-cli",): "a GitLab token",
    ("hut", "config"): "a SourceHut token",
    ("mutt", "muttrc"): "mail passwords (imap_pass, smtp_pass)",
    ("fish", "fish_history"): "a shell history",  # fish before 2.3 kept it under ~/.config
    ("ngrok",): "an ngrok authtoken",
    ("hcloud",): "a Hetzner Cloud token",
    ("solana", "id.json"): "a Solana wallet key",
    ("NuGet", "NuGet.Config"): "NuGet feed passwords and API keys",
    ("filezilla", "sitemanager.xml"): "FTP passwords",
    ("filezilla", "recentservers.xml"): "FTP passwords",
    ("stripe", "config.toml"): "Stripe API keys",
    ("atuin", "key"): "the key of atuin's synced shell history",
    ("Slack",): "Slack's session cookies and page storage",
    ("netlify", "config.json"): "a Netlify token",
    ("railway", "config.json"): "a Railway token",
    ("doppler",): "a Doppler token",
    ("Claude", "claude_desktop_config.json"): "MCP servers' API keys",
    ("discord", "Local Storage"): "a Discord token",
    ("Signal", "config.json"): "Signal's database key",
    # aichat's README "Configuration" (config.yaml: the model clients' api_key); llm "API key management"
    # (io.datasette.llm/keys.json); age(1) (an identity file, key.txt by age-keygen -o, kept under ~/.config/age);
    # VS Code API "SecretStorage" (extension secrets, GitHub and Microsoft logins among them, in the global
    # state.vscdb, only as strong as the desktop keyring: plain obfuscation without one), and its forks'
    ("aichat",): "model providers' API keys",
    ("io.datasette.llm", "keys.json"): "model providers' API keys",
    ("age",): "age private keys",
    ("Code", "User", "globalStorage", "state.vscdb"): "VS Code's stored secrets (extension logins)",
    ("VSCodium", "User", "globalStorage", "state.vscdb"): "VS Code's stored secrets (extension logins)",
    ("Cursor", "User", "globalStorage", "state.vscdb"): "VS Code's stored secrets (extension logins)",
    # mail and IRC passwords in clear: aerc-accounts(5) (accounts.conf: source/outgoing URLs with passwords, the
    # file must be mode 600), himalaya's README (config.toml: backend passwords or password commands), HexChat
    # "Network list" (servlist.conf: server, NickServ and SASL passwords), WeeChat "Secured data" (sec.conf)
    ("aerc", "accounts.conf"): "mail passwords",
    ("himalaya", "config.toml"): "mail passwords",
    ("hexchat", "servlist.conf"): "IRC passwords",
    ("weechat", "sec.conf"): "IRC passwords (WeeChat's secured data)",
    # nix.conf(5): "access-tokens": tokens for GitHub, GitLab and other hosts; "netrc-file": HTTP credentials
    ("nix", "nix.conf"): "Nix access tokens",
    ("nix", "netrc"): "passwords (netrc format)",
    # Poetry "Repositories", "Configuring credentials": without a keyring, http-basic credentials are kept in
    # auth.toml in the config directory; PDM "Configure the repository secrets for upload": repository passwords in
    # its config.toml
    ("pypoetry", "auth.toml"): "package index passwords",
    ("pdm", "config.toml"): "package index passwords",
    # OpenStack "Configuring os-client-config" (clouds.yaml: auth with passwords or application credentials;
    # secure.yaml: "the secrets" split from it); scw "Config file" (config.yaml: secret_key), exoscale CLI
    # (exoscale.toml: API secret), vultr-cli's README (vultr-cli.yaml: api-key), argocd login (config: the
    # session tokens), MinIO client "mc" (config.json: access and secret keys), Borg "borg key export" (keyfile
    # mode keeps the repository keys in ~/.config/borg/keys), Remmina's FAQ (*.remmina profiles: passwords,
    # encrypted with remmina.pref's secret beside them)
    ("openstack", "clouds.yaml"): "OpenStack passwords",
    ("openstack", "secure.yaml"): "OpenStack passwords",
    ("scw", "config.yaml"): "Scaleway secret keys",
    ("exoscale", "exoscale.toml"): "Exoscale API secrets",
    ("vultr-cli.yaml",): "a Vultr API key",
    ("argocd", "config"): "Argo CD session tokens",
    ("mc", "config.json"): "MinIO access keys",
    ("borg", "keys"): "Borg repository keys",
    ("remmina",): "remote desktop passwords and their key",
}
#: Files below ``~/.local/share`` (XDG data home) that hold secrets.
_SHARE_SECRETS: dict[tuple[str, ...], str] = {
    ("keyrings",): "the desktop keyring",
    ("fish", "fish_history"): "a shell history",
    ("atuin",): "a shell history",
    # Telegram Desktop keeps the account's session (its authorization keys) in tdata (TelegramDesktop's
    # "Portable version" notes: copying tdata moves the logged-in session)
    ("TelegramDesktop", "tdata"): "a Telegram session",
    ("remmina",): "remote desktop passwords and their key",
}
#: REPL histories below a home's dot directory (IPython "Command history": ``history.sqlite`` in each profile;
#: Julia's REPL ``logs/repl_history.jl``): passwords typed at the prompt.
_DOT_DIR_HISTORIES: dict[tuple[str, str], str] = {
    (".ipython", "history.sqlite"): "a REPL history",
    (".julia", "repl_history.jl"): "a REPL history",
}
#: Secrets below a macOS home's ``Library`` (Apple "File System Programming Guide": ``Application Support``,
#: ``Keychains``, ``Cookies``): the keychains (security(1)), Safari's and the system's cookies, Messages' and
#: Safari's history; under ``Application Support`` the browsers' profile trees (Firefox's ``Profiles``, Chrome's
#: ``Google/Chrome``, ``Chromium``, Brave's ``BraveSoftware``, Edge's ``Microsoft Edge``) and Slack's, as under
#: ``~/.mozilla`` and ``~/.config`` on Linux.
_LIBRARY_SECRETS: dict[tuple[str, ...], str] = {
    ("Keychains",): "the macOS keychains (saved passwords and keys)",
    ("Cookies",): "session cookies",
    ("Messages",): "the Messages history",
    ("Safari",): "a browser's history and page storage",
    ("Containers", "com.apple.Safari"): "a browser's history, cookies and page storage",
    ("Application Support", "Slack"): "Slack's session cookies and page storage",
    ("Application Support", "pypoetry", "auth.toml"): "package index passwords",
}
#: Browser profile trees below ``~/Library/Application Support``, with the depth of a profile directory.
_LIBRARY_BROWSERS: dict[tuple[str, ...], int] = {
    ("Firefox",): 2, ("Google", "Chrome"): 1, ("Chromium",): 1, ("BraveSoftware",): 2, ("Microsoft Edge",): 1,
    ("Thunderbird",): 2, ("Google", "Chrome Beta"): 1, ("Google", "Chrome Canary"): 1, ("Microsoft Edge Beta",): 1,
    ("Microsoft Edge Dev",): 1, ("Vivaldi",): 1, ("Arc", "User Data"): 1, ("com.operasoftware.Opera",): 0,
    ("librewolf",): 2, ("Waterfox",): 2, ("zen",): 2,
}  # fmt: skip
#: Browser profile trees and the files in them that hold saved passwords or session cookies.
#: Firefox forks keep Firefox's profile layout in their own dot directory (LibreWolf "FAQ": ``~/.librewolf``;
#: Waterfox ``~/.waterfox``, Zen ``~/.zen``, Floorp ``~/.floorp``), a profile directly below it.
_BROWSER_TREES = frozenset({
    ".mozilla", "google-chrome", "chromium", "BraveSoftware", ".thunderbird", ".librewolf", ".waterfox", ".zen",
    ".floorp",
})  # fmt: skip
#: Chromium-based browsers' profile trees directly below ``~/.config`` (each keeps its profiles as Chrome does:
#: Edge's ``microsoft-edge``, Vivaldi's ``vivaldi``, Opera's ``opera``, Chrome's beta and unstable channels).
_CONFIG_BROWSERS = frozenset({
    "microsoft-edge", "microsoft-edge-beta", "microsoft-edge-dev", "vivaldi", "vivaldi-snapshot", "opera",
    "opera-beta", "opera-developer", "google-chrome-beta", "google-chrome-unstable",
})  # fmt: skip
#: The session stores an Electron or Chromium program keeps in its directory below ``~/.config`` (Chromium "User
#: Data Directory": ``Cookies``, ``Login Data``, ``Local Storage``, ``Session Storage``, ``Web Data``,
#: ``IndexedDB``): Discord, Element, Teams, Obsidian, Postman and the like keep their logins there.
_APP_SESSION_FILES = frozenset({"Cookies", "Login Data", "Local Storage", "Session Storage", "Web Data", "IndexedDB"})
_BROWSER_FILES = frozenset({
    "logins.json", "key4.db", "cookies.sqlite", "Login Data", "Cookies", "History", "Local Storage", "Session Storage",
    "Sessions", "Current Session", "Last Session", "Web Data", "places.sqlite", "webappsstore.sqlite",
    "formhistory.sqlite", "sessionstore.jsonlz4", "sessionstore-backups", "storage",
})  # fmt: skip
#: Absolute files that hold secrets: kubeadm's kubeconfigs (kubeadm(8) "Implementation details"), Debian's MySQL
#: maintenance password, the Kerberos host keytab (krb5.conf(5)), old password hashes (pam_pwhistory(8)); the BSD
#: and macOS password hashes (master.passwd(5): ``/etc/master.passwd``, its database ``/etc/spwd.db``); the sudo
#: policy (sudoers(5): ``/etc/sudoers`` and the ``@includedir /etc/sudoers.d`` files, mode 0440, readable by root
#: only; it names who may run what as root without a password).
_SECRET_FILES: dict[str, str] = {
    "/etc/master.passwd": "the password hashes",
    "/etc/spwd.db": "the password hashes",
    "/etc/sudoers": "the sudo policy (who may run what as root, without a password too)",
    "/etc/mysql/debian.cnf": "the MySQL maintenance password",
    "/etc/krb5.keytab": "the host's Kerberos keys",
    "/etc/security/opasswd": "old password hashes",
    "/var/lib/tailscale/tailscaled.state": "the Tailscale node's private keys",
    # environment(5), pam_env.conf(5): every login's environment variables, proxy passwords and tokens among them
    "/etc/environment": "every login's environment variables, secrets among them",
}
_SECRET_PATTERNS: tuple[tuple[Regex, str], ...] = (
    (Regex(r"^/etc/kubernetes/[^/]+\.conf$"), "Kubernetes cluster credentials"),
    (Regex(r"^/etc/letsencrypt/(?:live|archive)/.+/privkey[^/]*$"), "a TLS private key"),
    (Regex(r"^/etc/pki/(?:.+/)?private(?:/|$)"), "private TLS keys"),
    (  # block devices (devices.txt: sd, hd, vd, xvd, nvme, mmcblk, dm, md, loop; udev's /dev/disk and mapper)
        Regex(r"^/dev/(?:[shv]d[a-z]|xvd[a-z]|nvme\d|mmcblk\d|dm-\d|md\d|loop\d|mapper/|disk/|sg\d)"),
        "a whole disk: every file on it, secrets included",
    ),
    (Regex(r"^/(?:dev/(?:k?mem|port)|proc/kcore)$"), "the machine's memory: every secret in use"),
    (Regex(r"^/proc/[^/]+/(?:task/[^/]+/)?mem$"), "a process's memory: the secrets it holds"),
)
#: Absolute trees whose every file is a secret.
_SECRET_TREES: dict[str, str] = {
    "/etc/sudoers.d": "the sudo policy (who may run what as root, without a password too)",
    "/etc/flybot": "FlyBot's own settings (its Slack signing secret and tokens)",
    "/etc/ssl/private": "private TLS keys",
    "/run/secrets": "service-account tokens or container secrets",
    "/var/run/secrets": "service-account tokens or container secrets",
    # systemd.exec(5) "Credentials": LoadCredential=/SetCredential= place a service's secrets in
    # /run/credentials/UNIT/ ($CREDENTIALS_DIRECTORY); /var/run is /run (file-hierarchy(7))
    "/run/credentials": "a service's credentials (systemd LoadCredential)",
    "/var/run/credentials": "a service's credentials (systemd LoadCredential)",
    "/etc/kubernetes/pki": "Kubernetes cluster keys",
    "/var/lib/kubelet/pki": "the kubelet's client keys",
    "/etc/letsencrypt/keys": "TLS private keys",
    "/etc/wireguard": "WireGuard private keys",
    "/etc/NetworkManager/system-connections": "network passwords",
}
#: One example path per credential shape above, for matching globs: a glob that fnmatches one of these
#: component by component (a glob longer than the example is matched on the example's length, then the rest is
#: judged by :func:`credential_path` itself).
_EXAMPLES: tuple[tuple[str, ...], ...] = tuple(tuple(p.split("/")) for p in (
    "~/.ssh/id_rsa", "~/.aws/credentials", "~/.aws/config", "~/.aws/sso", "~/.aws/cli", "~/.config/gcloud", "~/.config/gh/hosts.yml",
    "~/.config/hub", "~/.config/git/credentials", "~/.config/op", "~/.kube/config", "~/.docker/config.json",
    "~/.cargo/credentials", "~/.cargo/credentials.toml", "~/.terraform.d/credentials.tfrc.json", "~/.gnupg",
    "~/.azure", "~/.oci", "~/.password-store", "~/.netrc", "~/_netrc", "~/.pgpass", "~/.npmrc", "~/.pypirc",
    "~/.git-credentials", "~/.vault-token", "~/.claude/.credentials.json", "~/.codex/auth.json",
    "~/.gem/credentials", "~/.m2/settings.xml", "~/.gradle/gradle.properties", "/etc/shadow", "/etc/gshadow",
    "/etc/shadow-", "/etc/gshadow-", "/var/backups/shadow.bak", "/var/backups/gshadow.bak", "/etc/ssh/ssh_host_rsa_key", "/etc/ssl/private", "/run/secrets",
    "/var/run/secrets", "/proc/1/environ", "/proc/self/environ", "~/.s3cfg", "~/.boto", "~/.terraformrc", "~/.env",
    "~/.bash_history", "~/.zsh_history", "~/.python_history", "~/.psql_history", "~/.mysql_history",
    "~/.node_repl_history", "~/.sqlite_history", "~/.rediscli_history", "~/.config/rclone/rclone.conf",
    "~/.local/share/keyrings", "~/.local/share/fish/fish_history", "~/.mozilla/firefox/p/logins.json",
    "~/.mozilla/firefox/p/key4.db", "~/.mozilla/firefox/p/cookies.sqlite", "~/.config/google-chrome/Default/Login Data",
    "~/.config/google-chrome/Default/Cookies", "~/.config/chromium/Default/Login Data",
    "~/.local/state/flybot/flybot.db", "~/.local/state/flybot/local.json",
    "~/.config/chromium/Default/Cookies", "~/.config/chromium/Default/History",
    "~/.config/chromium/Default/Local Storage", "~/.config/chromium/Default/Session Storage",
    "~/.config/chromium/Default/Sessions", "~/.config/google-chrome/Default/History",
    "~/.config/google-chrome/Default/Local Storage", "~/.config/google-chrome/Default/Session Storage",
    "~/.mozilla/firefox/p/places.sqlite", "~/.mozilla/firefox/p/sessionstore.jsonlz4",
    "~/.mozilla/firefox/p/sessionstore-backups", "~/.mozilla/firefox/p/webappsstore.sqlite",
    "~/.mozilla/firefox/p/storage", "/etc/kubernetes/admin.conf", "/etc/kubernetes/pki",
    "/var/lib/kubelet/pki", "/etc/letsencrypt/keys", "/etc/letsencrypt/live/d/privkey.pem",
    "/etc/letsencrypt/archive/d/privkey1.pem", "/etc/pki/tls/private", "/etc/wireguard",
    "/etc/NetworkManager/system-connections", "/etc/mysql/debian.cnf", "/etc/krb5.keytab", "/etc/security/opasswd",
    "/etc/master.passwd", "/etc/spwd.db", "/etc/sudoers", "/etc/sudoers.d/x",
    "~/.my.cnf", "~/.yarnrc.yml", "~/.databrickscfg", "~/.claude.json", "~/.pip/pip.conf", "~/.composer/auth.json",
    "~/.bundle/config", "~/.pulumi/credentials.json", "~/.fly/config.yml", "~/.huggingface/token",
    "~/.kaggle/kaggle.json", "~/.snowflake/connections.toml", "~/.age/key.txt", "~/.ansible/vault_pass",
    "~/.gemini/oauth_creds.json", "~/.wrangler", "~/.config/github-copilot", "~/.config/pip/pip.conf",
    "~/.config/composer/auth.json", "~/.config/doctl", "~/.config/.wrangler", "~/.config/helm/repositories.yaml",
    "~/.config/sops", "/etc/flybot/flybot.env", "~/.cache/huggingface/token", "~/.config/glab-cli",
    "~/.config/ngrok", "~/.config/hcloud", "~/.config/solana/id.json", "~/.ngrok2/ngrok.yml", "~/.mc/config.json",
    "~/.tsh", "~/.cloudflared", "~/.netlify/config.json", "~/.ethereum/keystore", "~/.bitcoin/wallet.dat",
    "~/.zhistory", "~/.histfile", "~/.sh_history", "~/.sbt/credentials", "~/.ivy2/.credentials",
    "~/.nuget/NuGet/NuGet.Config", "~/.config/NuGet/NuGet.Config", "~/.msmtprc", "~/.fetchmailrc", "~/.muttrc",
    "~/.mutt/muttrc", "~/.config/mutt/muttrc", "~/.config/hut/config", "~/.config/fish/fish_history",
    "~/.purple/accounts.xml", "~/.config/filezilla/sitemanager.xml", "~/.config/filezilla/recentservers.xml",
    "~/.thunderbird/p/logins.json", "~/.thunderbird/p/key4.db", "~/.dockercfg", "~/.dbt/profiles.yml",
    "~/.snowsql/config", "~/.config/stripe/config.toml", "~/.twilio-cli/config.json", "~/.supabase/access-token",
    "~/.heroku/credentials", "~/.config/atuin/key", "~/.local/share/atuin", "~/.irb_history", "~/.Rhistory",
    "~/.ipython/profile_default/history.sqlite", "~/.julia/logs/repl_history.jl", "~/.config/Slack",
    "/var/lib/tailscale/tailscaled.state", "~/Library/Keychains", "~/Library/Cookies", "~/Library/Messages",
    "~/Library/Safari", "~/Library/Containers/com.apple.Safari", "~/Library/Application Support/Slack",
    "~/Library/Application Support/Firefox/Profiles/p/logins.json",
    "~/Library/Application Support/Firefox/Profiles/p/key4.db",
    "~/Library/Application Support/Google/Chrome/Default/Login Data",
    "~/Library/Application Support/Google/Chrome/Default/Cookies",
    "~/Library/Application Support/Chromium/Default/Login Data",
    "~/Library/Application Support/BraveSoftware/Brave-Browser/Default/Login Data",
    "~/Library/Application Support/Microsoft Edge/Default/Login Data",
    "~/.wakatime.cfg", "~/.aider.conf.yml", "~/.railway/config.json", "~/.render/config.yaml", "~/.stripe/config.toml",
    "~/.doppler", "~/.infisical/infisical-config.json", "~/.jira.d/config.yml", "~/.cursor/mcp.json",
    "~/.continue/config.json", "~/.electrum/wallets", "~/.Renviron", "~/.julia/servers/pkg.julialang.org/auth.toml",
    "~/.nextflow/secrets/store.json", "~/.config/netlify/config.json", "~/.config/railway/config.json",
    "~/.config/doppler", "~/.config/Claude/claude_desktop_config.json", "~/.config/discord/Local Storage",
    "~/.config/Signal/config.json", "~/.mbsyncrc", "~/.offlineimaprc", "~/.wgetrc", "~/.curlrc", "~/.bunfig.toml",
    "~/.ovh.conf", "~/.passwd-s3fs", "~/.irssi/config", "~/.weechat/sec.conf", "~/.travis/config.yml",
    "~/.expo/state.json", "~/.config/aerc/accounts.conf", "~/.config/himalaya/config.toml",
    "~/.config/hexchat/servlist.conf", "~/.config/weechat/sec.conf", "~/.config/nix/nix.conf", "~/.config/nix/netrc",
    "~/.config/pypoetry/auth.toml", "~/.config/pdm/config.toml", "~/.config/openstack/clouds.yaml",
    "~/.config/openstack/secure.yaml", "~/.config/scw/config.yaml", "~/.config/exoscale/exoscale.toml",
    "~/.config/vultr-cli.yaml", "~/.config/argocd/config", "~/.config/mc/config.json", "~/.config/borg/keys",
    "~/.config/remmina", "~/.local/share/remmina", "~/.local/share/TelegramDesktop/tdata",
    "~/Library/Application Support/pypoetry/auth.toml", "~/.librewolf/p/cookies.sqlite", "~/.waterfox/p/logins.json",
    "~/.zen/p/cookies.sqlite", "~/.floorp/p/logins.json", "~/.config/microsoft-edge/Default/Cookies",
    "~/.config/microsoft-edge/Default/Login Data", "~/.config/vivaldi/Default/Cookies", "~/.config/opera/Cookies",
    "~/.config/google-chrome-beta/Default/Cookies", "~/.config/google-chrome-unstable/Default/Login Data",
    "~/.config/discord/Cookies", "~/.config/Element/Local Storage", "~/.config/teams-for-linux/Cookies",
    "~/Library/Application Support/Vivaldi/Default/Cookies",
    "~/Library/Application Support/Arc/User Data/Default/Cookies",
    "~/Library/Application Support/com.operasoftware.Opera/Cookies", "~/Library/Application Support/discord/Cookies",
))  # fmt: skip
_GLOB = Regex(r"[*?\[]")
#: shadow(5) and gshadow(5) with their ``-`` backups, and Debian's daily copies of them (the ``passwd`` package's
#: ``/etc/cron.daily/passwd``: ``/var/backups/shadow.bak``, ``gshadow.bak``, mode 0600 as the originals).
_SHADOW = frozenset({
    "/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-", "/var/backups/shadow.bak",
    "/var/backups/gshadow.bak",
})  # fmt: skip
_HOME_VAR = Regex(r"^\$(?:HOME\b|\{HOME\})")
_ENVIRON = Regex(r"^/proc/[^/]+/environ$")
_HOST_KEY = Regex(r"^/etc/ssh/ssh_host_[^/]*key$")

#: Build, package, CI and cluster tools' credential files, as a path's last components wherever they lie (like
#: :func:`_credential_parts`: a home's ``.sbt/.credentials``); a component may be an fnmatch pattern. Sources:
#: NuGet "Common NuGet configurations" (the user-level ``NuGet/NuGet.Config`` under ``~/.nuget`` or ``~/.config``:
#: ``packageSourceCredentials``, ``ClearTextPassword``, ``apikeys``); Maven "Password Encryption"
#: (``settings-security.xml``: the master password that decrypts ``settings.xml``'s server passwords); sbt
#: "Publishing" (``Credentials(Path.userHome / ".sbt" / ".credentials")``, and Ivy's ``.ivy2/.credentials``);
#: helm_registry_login(1) (``$HELM_REGISTRY_CONFIG``, by default ``~/.config/helm/registry/config.json``);
#: sentry-cli "Configuration and Authentication" (``~/.sentryclirc`` ``[auth] token``); CircleCI CLI "circleci
#: setup" (``~/.circleci/cli.yml``: the API token); JFrog CLI "Configuration" (``~/.jfrog/jfrog-cli.conf.v*``:
#: servers' passwords and access tokens); the CVS manual "Password authentication client" (``~/.cvspass``:
#: passwords, only scrambled); tea(1) ``login add`` (``~/.config/tea/config.yml``: Gitea tokens); Talos
#: "talosconfig" (``~/.talos/config``: the cluster's admin client key); influx CLI "influx config"
#: (``~/.influxdbv2/configs``: tokens); Snowflake CLI "Configuring Snowflake CLI" (``~/.snowflake/config.toml``:
#: connection passwords); GitLab Runner "Advanced configuration" (``~/.gitlab-runner/config.toml`` when not run as
#: root: runner tokens). Service and login files of the same kind: Emacs "Auth Sources" (``~/.authinfo``, netrc
#: format), mysql_config_editor(1) (``~/.mylogin.cnf``: obfuscated, not encrypted, passwords), mount.cifs(8)
#: ``credentials=`` (``~/.smbcredentials`` by convention), firebase-tools (``~/.config/configstore/
#: firebase-tools.json``: refresh tokens), linode-cli "Configuration" (``~/.config/linode-cli``), scw "Config file"
#: (``~/.scw/config.yaml``: secret keys), aliyun CLI "Configure credentials" (``~/.aliyun/config.json``), IBM Cloud CLI
#: (``~/.bluemix/config.json``: IAM tokens), Bitwarden CLI "Config file location" (``Bitwarden CLI/data.json``: the
#: session's keys), yarn 1 "yarnrc" (``~/.yarnrc``: ``_authToken``), conda "Using the .condarc file" (channel URLs
#: with tokens), dockerd's ``containers/ID/config.v2.json`` (the container's environment, as ``docker inspect``),
#: cloud-init "Instance data" (``/var/lib/cloud/instance(s)/.../user-data.txt``: the instance's user data); histories
#: beside the shells' (passwords typed or searched for): vim's ``:help viminfo`` (``~/.viminfo``: command-line and
#: search history, registers), Neovim's ``:help shada`` (``~/.local/state/nvim/shada``), less(1) ``LESSHISTFILE``
#: (``~/.lesshst``), gdb "Command History" (``.gdb_history``), pry (``~/.pry_history``).
_TOOL_CREDENTIALS: tuple[tuple[tuple[str, ...], str], ...] = (
    ((".nuget", "NuGet", "[Nn]u[Gg]et.[Cc]onfig"), "NuGet feed passwords and API keys"),
    ((".config", "NuGet", "[Nn]u[Gg]et.[Cc]onfig"), "NuGet feed passwords and API keys"),
    ((".m2", "settings-security.xml"), "Maven's master password"),
    ((".sbt", ".credentials"), "sbt repository passwords"),
    ((".ivy2", ".credentials"), "Ivy repository passwords"),
    ((".config", "helm", "registry", "config.json"), "Helm's registry logins"),
    ((".sentryclirc",), "a Sentry token"),
    ((".circleci", "cli.yml"), "a CircleCI token"),
    ((".jfrog", "jfrog-cli.conf*"), "JFrog passwords and tokens"),
    ((".cvspass",), "CVS passwords"),
    ((".config", "tea", "config.yml"), "Gitea tokens"),
    ((".talos", "config"), "a Talos cluster's admin key"),
    ((".influxdbv2", "configs"), "InfluxDB tokens"),
    ((".snowflake", "config.toml"), "Snowflake passwords"),
    ((".gitlab-runner", "config.toml"), "GitLab runner tokens"),
    ((".authinfo",), "passwords (netrc format)"),
    ((".mylogin.cnf",), "MySQL login passwords"),
    ((".smbcredentials",), "an SMB password"),
    ((".config", "configstore", "firebase-tools.json"), "a Firebase login"),
    ((".config", "linode-cli"), "a Linode token"),
    ((".scw", "config.yaml"), "Scaleway secret keys"),
    ((".aliyun", "config.json"), "Alibaba Cloud access keys"),
    ((".bluemix", "config.json"), "IBM Cloud tokens"),
    (("Bitwarden CLI", "data.json"), "a Bitwarden session's keys"),
    ((".yarnrc",), "registry tokens"),
    ((".condarc",), "channel tokens"),
    (("containers", "*", "config.v2.json"), "a container's environment"),
    (("cloud", "instance", "user-data.txt*"), "an instance's user data"),
    (("cloud", "instances", "*", "user-data.txt*"), "an instance's user data"),
    ((".viminfo",), "an editor's command history"),
    (("nvim", "shada"), "an editor's command history"),
    (("nvim", "shada", "*"), "an editor's command history"),
    ((".lesshst",), "a pager's search history"),
    ((".gdb_history",), "a debugger's command history"),
    ((".pry_history",), "a REPL history"),
    (("krb5cc_*",), "a Kerberos ticket cache"),
    (("cloud", "instance", "scripts", "*"), "an instance's user-data scripts"),
    (("cloud", "instances", "*", "scripts", "*"), "an instance's user-data scripts"),
    # Lima "Internals" (``_config/user``: the private key of the ssh login to every instance; Colima keeps its
    # Lima home in ``~/.colima/_lima``), Vagrant "vagrant ssh-config" (``.vagrant/machines/NAME/PROVIDER/private_key``)
    (("[._]lima", "_config", "user"), "a VM's ssh private key"),
    ((".vagrant", "machines", "*", "*", "private_key"), "a VM's ssh private key"),
    # JetBrains "Passwords" settings: "In KeePass" keeps saved passwords in c.kdbx, its master key in c.pwd
    (("JetBrains", "*", "c.kdbx"), "an IDE's saved passwords"),
    (("JetBrains", "*", "c.pwd"), "the key of an IDE's saved passwords"),
)
#: Absolute credential files and trees of those tools: GitLab Runner "Advanced configuration"
#: (``/etc/gitlab-runner/config.toml`` when run as root); k3s "Cluster Access" (``/etc/rancher/k3s/k3s.yaml``: the
#: admin kubeconfig) and k3s server(1) "Cluster Options" (``/var/lib/rancher/k3s/server/token``, ``node-token``,
#: ``agent-token``: join tokens; ``server/tls``: the cluster's CA keys; ``server/cred``: its passwords); RKE2
#: "Cluster Access" and "Server Configuration" (the same under ``rke2``). Host services' password files:
#: wpa_supplicant.conf(5) (``psk``, ``password``), netplan(5) (Wi-Fi ``password``; its files are mode 600 for it),
#: sssd.conf(5) (``ldap_default_authtok``), ldap.conf's ``rootbinddn`` secret (Debian's ``/etc/ldap.secret``),
#: rsyncd.conf(5) ``secrets file``, pppd(8) ``chap-secrets``/``pap-secrets``, ipsec.secrets(5), Postfix
#: "SASL_README" (``sasl_passwd``), exim4's ``passwd.client`` (Debian's exim4-config), GitLab's
#: ``initial_root_password`` and ``gitlab-secrets.json`` (Omnibus "Reset the root password", "Backup ... secrets"),
#: Jenkins' ``secrets`` directory (``initialAdminPassword``, ``master.key``), pip's site-wide configuration (pip
#: "Configuration": ``/etc/pip.conf``, ``/etc/xdg/pip/pip.conf``; an ``index-url`` with a password).
_TOOL_CREDENTIAL_TREES: dict[str, str] = {
    "/etc/gitlab-runner/config.toml": "GitLab runner tokens",
    "/etc/rancher/k3s/k3s.yaml": "Kubernetes cluster credentials",
    "/var/lib/rancher/k3s/server/token": "a Kubernetes cluster's join token",
    "/var/lib/rancher/k3s/server/node-token": "a Kubernetes cluster's join token",
    "/var/lib/rancher/k3s/server/agent-token": "a Kubernetes cluster's join token",
    "/var/lib/rancher/k3s/server/tls": "Kubernetes cluster keys",
    "/var/lib/rancher/k3s/server/cred": "Kubernetes cluster passwords",
    "/etc/rancher/rke2/rke2.yaml": "Kubernetes cluster credentials",
    "/var/lib/rancher/rke2/server/token": "a Kubernetes cluster's join token",
    "/var/lib/rancher/rke2/server/node-token": "a Kubernetes cluster's join token",
    "/var/lib/rancher/rke2/server/agent-token": "a Kubernetes cluster's join token",
    "/var/lib/rancher/rke2/server/tls": "Kubernetes cluster keys",
    "/var/lib/rancher/rke2/server/cred": "Kubernetes cluster passwords",
    "/etc/wpa_supplicant": "Wi-Fi passwords",
    "/etc/netplan": "Wi-Fi passwords",
    "/etc/sssd/sssd.conf": "a directory bind password",
    "/etc/ldap.secret": "the LDAP admin password",
    "/etc/rsyncd.secrets": "rsync daemon passwords",
    "/etc/ppp/chap-secrets": "PPP passwords",
    "/etc/ppp/pap-secrets": "PPP passwords",
    "/etc/ipsec.secrets": "IPsec keys",
    "/etc/postfix/sasl_passwd": "mail relay passwords",
    "/etc/postfix/sasl_passwd.db": "mail relay passwords",
    "/etc/exim4/passwd.client": "mail relay passwords",
    "/etc/gitlab/initial_root_password": "GitLab's root password",
    "/etc/gitlab/gitlab-secrets.json": "GitLab's secrets",
    "/var/lib/jenkins/secrets": "Jenkins' admin password and keys",
    "/etc/pip.conf": "package index passwords",
    "/etc/xdg/pip/pip.conf": "package index passwords",
    "/etc/apt/auth.conf": "APT sources' logins",
    "/etc/apt/auth.conf.d": "APT sources' logins",
    "/etc/npmrc": "registry tokens",
    "/usr/etc/npmrc": "registry tokens",
    "/usr/local/etc/npmrc": "registry tokens",
    "/var/lib/waagent": "Azure provisioning data (admin password, custom data, certificates' keys)",
    "/var/lib/samba/private": "Samba's machine account password and keys",
    "/var/lib/jenkins/credentials.xml": "Jenkins' stored credentials",
    "/var/lib/zerotier-one/identity.secret": "a ZeroTier node's private key",
    "/etc/letsencrypt/accounts": "ACME account keys",
    # nix.conf(5) "netrc-file": "Default: /etc/nix/netrc" (HTTP credentials of the daemon's substituters)
    "/etc/nix/netrc": "passwords (netrc format)",
    # s3fs(1) AUTHENTICATION: "/etc/passwd-s3fs" (and the user's ~/.passwd-s3fs): the bucket's access keys
    "/etc/passwd-s3fs": "S3 access keys",
    # mount.cifs(8) "credentials=filename", kept at /etc/samba/credentials by the usual guides
    "/etc/samba/credentials": "an SMB password",
    # sssd-secrets(5): the secrets service's database, /var/lib/sss/secrets/secrets.ldb
    "/var/lib/sss/secrets": "SSSD's stored secrets",
}
#: Text every path of the two lists above contains (:func:`may_name_secret`).
_TOOL_CREDENTIAL_WORDS = (
    ".nuget", "NuGet", "nuget", ".m2", ".sbt", ".ivy2", "helm", ".sentryclirc", ".circleci", ".jfrog", ".cvspass",
    "tea/", ".talos", ".influxdbv2", ".snowflake", "gitlab-runner", "rancher", ".authinfo", ".mylogin", ".smbcred",
    "configstore", "linode", ".scw", ".aliyun", ".bluemix", "Bitwarden", ".yarnrc", ".condarc", "containers",
    "cloud/instance", "wpa_supplicant", "netplan", "sssd", "ldap.secret", "rsyncd", "ppp/", "ipsec", "sasl_passwd",
    "passwd.client", "gitlab", "jenkins", "pip.conf", ".viminfo", "shada", ".lesshst", "krb5cc", "apt/auth",
    "etc/npmrc", "waagent", "samba", "zerotier", "letsencrypt", "nix/netrc", "passwd-s3fs", "sss/secrets",
    "lima/_config", ".vagrant", "JetBrains",
)  # fmt: skip
#: One example path per entry of the two lists above, for matching globs (as :data:`_EXAMPLES`).
_TOOL_CREDENTIAL_EXAMPLES: tuple[tuple[str, ...], ...] = tuple(tuple(p.split("/")) for p in (
    "~/.nuget/NuGet/NuGet.Config", "~/.config/NuGet/NuGet.Config", "~/.m2/settings-security.xml",
    "~/.sbt/.credentials", "~/.ivy2/.credentials", "~/.config/helm/registry/config.json", "~/.sentryclirc",
    "~/.circleci/cli.yml", "~/.jfrog/jfrog-cli.conf.v6", "~/.cvspass", "~/.config/tea/config.yml", "~/.talos/config",
    "~/.influxdbv2/configs", "~/.snowflake/config.toml", "~/.gitlab-runner/config.toml", "~/.authinfo",
    "~/.mylogin.cnf", "~/.smbcredentials", "~/.config/configstore/firebase-tools.json", "~/.config/linode-cli",
    "~/.scw/config.yaml", "~/.aliyun/config.json", "~/.bluemix/config.json", "~/.config/Bitwarden CLI/data.json",
    "~/.yarnrc", "~/.condarc", "/var/lib/docker/containers/c/config.v2.json", "/var/lib/cloud/instance/user-data.txt",
    "/var/lib/cloud/instances/i/user-data.txt", "~/.viminfo", "~/.local/state/nvim/shada/main.shada", "~/.lesshst",
    "~/.gdb_history", "~/.pry_history", "/tmp/krb5cc_1000", "/var/lib/cloud/instance/scripts/part-001",
    "/var/lib/cloud/instances/i/scripts/part-001", "~/.lima/_config/user", "~/.colima/_lima/_config/user",
    "~/.vagrant/machines/default/virtualbox/private_key", "~/.config/JetBrains/IntelliJIdea2024.1/c.kdbx",
    "~/.config/JetBrains/IntelliJIdea2024.1/c.pwd", *_TOOL_CREDENTIAL_TREES,
))  # fmt: skip
#: Every example path, for matching globs.
_ALL_EXAMPLES = _EXAMPLES + _TOOL_CREDENTIAL_EXAMPLES


def may_name_credential_file(pattern: str | None) -> str | None:
    """What credential file a name pattern (find(1) ``-name``: a glob on the last component) may match, by the last
    component of every listed example (``credentials``, ``*.json`` matching ``config.json``), or None. A pattern
    only known when it runs may match any."""
    if pattern is None:
        return "a credential file (the name pattern is only known when it runs)"
    for example in _ALL_EXAMPLES:
        last = example[-1]
        if last and last != "~" and fnmatchcase(last, pattern):
            found = credential_path("/".join(example))
            return found or "a credential file"
    return None


@lru_cache(maxsize=4096)
def _tool_credential(path: str) -> str | None:
    """What secret the path ``path`` holds by :data:`_TOOL_CREDENTIALS` (its last components) or
    :data:`_TOOL_CREDENTIAL_TREES` (an absolute path, normalised, equal to one or below it), or None."""
    if path.startswith("/"):
        for tree, what in _TOOL_CREDENTIAL_TREES.items():
            if path == tree or path.startswith(tree + "/"):
                return what
    parts = [p for p in path.split("/") if p not in ("", ".")]
    for key, what in _TOOL_CREDENTIALS:
        tail = parts[-len(key) :]
        if len(tail) == len(key) and all(fnmatchcase(n, k) for n, k in zip(tail, key, strict=True)):
            return what
    return None


#: Words a secret variable's name contains (matched case-insensitively); also a name ending in ``PAT`` (GitHub
#: "personal access tokens", a usual Actions secret name), MongoDB Atlas' connection string (``ATLAS_URI``: the
#: password in the URI), the proxy variables (curl(1) ``-x``: "user:password@" in the proxy URL that ``http_proxy``,
#: ``HTTPS_PROXY``, ``ALL_PROXY`` hold) and git's ``GIT_CONFIG_VALUE_<n>`` (git-config(1) ENVIRONMENT: configuration
#: values, an ``http.extraHeader`` token among them).
_SECRET_NAME = Regex(
    r"SECRET|TOKEN|PASSW(?:OR)?D|PASSPHRASE|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|CREDENTIAL|AUTH|COOKIE"
    r"|(?:^|_)KEY$|(?-i:[a-z0-9]Key)$|PASS$|DSN$|(?<!^)(?<!^OLD)PWD$|JWT|BEARER|WEBHOOK|(?:^|_)SK$|(?:^|_)DATABASE_URL$|(?:^|_)DB_UR[LI]$|CONN[A-Z_]*STR"
    r"|^(?:REDIS|MONGO(?:DB)?|POSTGRES(?:QL)?|PG|MYSQL|AMQP|RABBITMQ|BROKER|CELERY_BROKER|ATLAS)_UR[LI]$"
    r"|(?:^|_)PAT$|^(?:HTTPS?|ALL|FTP)_PROXY$|^GIT_CONFIG_VALUE_[0-9]+$",
    re.IGNORECASE,
)
#: Text any name of a credential file above contains (a simple command naming none of these and no glob after a path
#: character names no credential file). Plain substrings, looked up through :data:`_SECRET_WORDS_BY_START`, not one
#: regular expression: this check runs on every command, and compiling an alternation this long costs more than a
#: whole command's grading (about 24 M instructions, where a hook's whole run is about 100 M).
_SECRET_PATH_WORDS = (
    ".ssh", ".aws", ".kube", ".azure", ".netrc", ".pgpass", ".docker", ".npmrc", ".pypirc", ".git-credentials",
    ".config/", ".cargo", ".terraform.d", ".vault-token", ".gnupg", ".claude", ".codex", ".gem", ".m2", ".gradle",
    ".oci", ".password-store", ".s3cfg", ".boto", ".terraformrc", ".env", ".local/", ".mozilla", "chromium",
    "google-chrome", "BraveSoftware", "flybot", "_history", "_netrc", "shadow", "environ", "ssh_host_", "printenv",
    "ssl/private", "run/secrets", "kubernetes", "kubelet", "letsencrypt", "pki/", "wireguard", "NetworkManager",
    "debian.cnf", "keytab", "opasswd", ".my.cnf", ".yarnrc", ".databrickscfg", ".pip/", ".composer", ".bundle/",
    ".pulumi", ".fly/", ".huggingface", ".kaggle", ".snowflake", ".age/", ".ansible", ".gemini", ".wrangler", "/dev/sd",
    "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/nvme", "/dev/mmcblk", "/dev/dm-", "/dev/md", "/dev/loop", "/dev/mapper",
    "/dev/disk", "/dev/sg", "/dev/mem", "/dev/kmem", "/dev/port", "kcore", "/mem", "huggingface/token", ".key", ".p12", ".p8", "adbkey", ".pfx", ".jks",
    ".keystore", ".ppk", ".pem", "id_", "deploy", "tfstate", "kubeconfig", "credential", "account", "client_secret",
    "auth.json", ".htpasswd", ".ngrok2", ".mc/", ".tsh", ".cloudflared", ".netlify", ".ethereum", ".bitcoin",
    "zhistory", "histfile", ".dev.vars", ".sbt", ".ivy2", ".nuget", "NuGet", ".msmtprc", ".fetchmailrc", ".purple",
    ".thunderbird", ".dockercfg", ".dbt", ".snowsql", ".twilio-cli", ".supabase", ".heroku", "Rhistory", ".ipython",
    "repl_history", "tailscale", "Library/", "secrets", "Secrets", "tfvars", "local.settings", ".git/",
    "sudoers", "master.passwd", "spwd.db", "oken", "OKEN", "ecret", "ECRET", "assword", "ASSWORD", "redential",
    "REDENTIAL", "creds", "CREDS", "pikey", "PIKEY", ".railway", ".render", ".stripe", ".doppler", ".infisical",
    ".jira.d", ".cursor", ".continue", ".electrum", ".wakatime", ".aider", "Renviron", ".julia/servers", "Account", "ACCOUNT", "adminsdk",
    "key.json", "Key.json", "KEY.json", "keys.json", "keyfile", "sa.json", "SA.json", "vault_pass", "vault-pass", "VAULT_PASS",
    "muttrc", "hut/", "key.properties", "keystore.properties", "flyway.conf", "flyway.toml", "wp-config",
    "LocalSettings", "config/parameters.yml", "config.local", "gitconfig", ".librewolf", ".waterfox", ".zen", ".floorp",
    "TelegramDesktop", "remmina", ".mbsyncrc", ".offlineimaprc", ".wgetrc", ".curlrc", ".bunfig", ".ovh.conf",
    ".passwd-s3fs", ".irssi", ".weechat", ".travis", ".expo", ".bash_profile", ".bash_login", ".profile", ".zshenv",
    ".zprofile", ".zlogin", "shrc",
)  # fmt: skip
_SECRET_VARIABLE_TEXT = Regex(
    r"\$\{?!|\$\{?[A-Za-z_]*(?:SECRET|TOKEN|PASS|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|CREDENTIAL|AUTH|COOKIE|KEY|DSN|"
    r"_UR[LI]|CONN|PWD|JWT|BEARER|WEBHOOK|SK\b|PAT\b|PROXY|CONFIG_VALUE)",
    re.IGNORECASE,
)


def _words_by_start(words: tuple[str, ...]) -> dict[str, list[str]]:
    """``words`` (each at least three characters long) by their first three characters, in their order."""
    if min(map(len, words)) < 3:
        raise ValueError(f"a secret word shorter than three characters: {min(words, key=len)!r}")
    found: dict[str, list[str]] = {}
    for word in dict.fromkeys(words):
        found.setdefault(word[:3], []).append(word)
    return found


#: :data:`_SECRET_PATH_WORDS`, :data:`_TOOL_CREDENTIAL_WORDS` and the openings of a name spelt in parts
#: (:func:`read_path_text`: ``$(echo ``, ``$(printf ``), by their first three characters.
_SECRET_WORDS_BY_START = _words_by_start((*_SECRET_PATH_WORDS, *_TOOL_CREDENTIAL_WORDS, "$(echo ", "$(printf "))


def _holds_secret_word(text: str) -> bool:
    """Whether ``text`` contains a word of :data:`_SECRET_WORDS_BY_START`, in one pass: the three characters at each
    position are looked up, and only the words starting with them are compared there."""
    starting = _SECRET_WORDS_BY_START.get
    for i in range(len(text) - 2):
        words = starting(text[i : i + 3])
        if words is not None:
            for word in words:
                if text.startswith(word, i):
                    return True
    return False


def may_name_secret(text: str) -> bool:
    """A cheap pre-check on a simple command's text (a few microseconds): something in it may name a credential file
    or expand a secret variable, so its words are looked at one by one. It may say yes for text naming none (that
    costs the word-by-word look), never no for text naming one."""
    return (
        _holds_secret_word(text)  # a credential file's name, or a name spelt in parts (read_path_text)
        or ".env" in text.lower()  # env_file: .ENV is .env where the file system ignores case
        or (any(c in text for c in "*?[{") and any(c in text for c in "~/."))  # a glob that may match one
        or ("$" in text and _SECRET_VARIABLE_TEXT.search(text) is not None)
        or ("$" in text and any(name in text for name in _SPELT_VARIABLES))  # ${HOME%/}, $XDG_CONFIG_HOME, $PWD
        or ("$" in text and any(name in text for name in _CREDENTIAL_PLACES))  # $KUBECONFIG
        or (("'" in text or '"' in text) and may_name_secret(text.replace("'", "").replace('"', "")))  # .n''etrc
    )


#: Variables whose expansion read_path_text spells out: ``${HOME<op>...}``, the XDG base directories, ``$PWD``
#: and ``$OLDPWD`` (and the tools' credential places, :data:`_CREDENTIAL_PLACES`).
_SPELT_VARIABLES = ("{HOME", "XDG_", "PWD")


_EXPANSION = Regex(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
#: ``${!name}``: indirect expansion of the variable whose name ``$name`` holds (not ``${!prefix*}``/``${!a[@]}``,
#: which list names).
_INDIRECT = Regex(r"\$\{!([A-Za-z_][A-Za-z0-9_]*)\}")
#: An expansion inside a partly known word: ``$name``, ``${...}``, ``$(...)``, ``$$`` and other special parameters.
_ANY_EXPANSION = Regex(r"\$(?:\{[^}]*\}|\([^)]*\)|[A-Za-z_][A-Za-z0-9_]*|[$#?!*@0-9-])|`[^`]*`")


def path_text(value: str | None, src: str) -> str:
    """The path a word names, as far as it is known: its value; for a word only partly known, its source with quotes
    removed when it starts with ``$HOME``/``${HOME}`` (read as ``~``), else "" (not known)."""
    if value is not None:
        return value
    text = src.replace('"', "").replace("'", "")
    return _HOME_VAR.sub("~", text) if _HOME_VAR.match(text) else ""


#: A command substitution that only prints literal text: ``$(echo TEXT)``, ``$(printf TEXT)`` (no option, no
#: expansion, no ``%`` or ``\`` escape in TEXT).
_ECHO_SUBSTITUTION = Regex(r"\$\((?:echo|printf)\s+([^-()$`;|&<>%\\\s][^()$`;|&<>%\\\s]*)\s*\)")


#: ``$(printf FORMAT WORD)`` whose FORMAT holds one ``%s`` and no other ``%`` or ``\\`` (bash(1) printf: the word
#: takes the place of ``%s``), quotes already removed.
_PRINTF_ONE = Regex(r"\$\(printf\s+([^\s%\\()]*%s[^\s%\\()]*)\s+([^\s()`;|&<>]+)\s*\)")
#: ``${HOME<op>...}`` at the start of a word (bash(1) "Parameter Expansion"): with ``:-``, ``-``, ``:=``, ``=``,
#: ``:?`` or ``?`` a set, non-empty HOME is returned unchanged, as it is by the operators of :data:`_HOME_SAME`
#: (a trailing ``/`` removed, an empty pattern, offset 0, a change of case: the home directory or no directory) and
#: by ``/P/P``; the other operators (``%PATTERN``, ``#PATTERN``, ``/P/R``, ``:N``, ``@``, ``:+``) may change it.
_HOME_OPERATOR = Regex(r"^\$\{HOME([^}A-Za-z0-9_][^}]*)\}")
_HOME_KEEPS = (":-", ":=", ":?", "-", "=", "?")
_HOME_SAME = frozenset({"%/", "%%/", "%", "%%", "#", "##", ":0", ",", ",,", "^", "^^", "~", "~~"})


def _keeps_home(op: str) -> bool:
    """True when ``${HOME<op>}`` is the home directory (see :data:`_HOME_OPERATOR`)."""
    if op.startswith(_HOME_KEEPS) or op in _HOME_SAME:
        return True
    pattern, slash, replacement = op[1:].partition("/")
    return op.startswith("/") and bool(slash) and pattern == replacement


#: What a home directory changed by an operator may be, as globs: the home itself, or any directory one or two
#: levels below ``/`` (``${HOME%/*}`` is ``/home``; ``..`` after it is resolved).
_ANY_HOME = "{~,/*,/*/*}"
#: XDG Base Directory Specification: the default of each base directory, used when a word starts with it.
_XDG_DEFAULTS = {
    "XDG_CONFIG_HOME": "~/.config",
    "XDG_DATA_HOME": "~/.local/share",
    "XDG_STATE_HOME": "~/.local/state",
    "XDG_CACHE_HOME": "~/.cache",
}
_XDG_VAR = Regex(r"^\$(?:\{(XDG_[A-Z_]+)(?:[^}A-Za-z0-9_][^}]*)?\}|(XDG_[A-Z_]+)\b)")
#: Variables that tell a tool where its credentials are, read as the place the tool uses without them: kubectl's
#: ``KUBECONFIG`` (kubectl config --help), curl's ``NETRC`` (curl(1) ``--netrc``), libpq's ``PGPASSFILE``
#: (PostgreSQL "The Password File"), docker's ``DOCKER_CONFIG`` (docker(1) ENVIRONMENT), gpg's ``GNUPGHOME``
#: (gpg(1) ENVIRONMENT), cargo's ``CARGO_HOME`` (The Cargo Book "Environment variables"), gcloud's
#: ``CLOUDSDK_CONFIG``, az's ``AZURE_CONFIG_DIR``, gh's ``GH_CONFIG_DIR`` (gh help environment), the AWS CLI's
#: ``AWS_CONFIG_FILE``, npm's ``NPM_CONFIG_USERCONFIG`` (npm-config(7)), rclone's ``RCLONE_CONFIG``, Terraform's
#: ``TF_CLI_CONFIG_FILE``, Composer's ``COMPOSER_HOME``, Gradle's ``GRADLE_USER_HOME``, Helm's
#: ``HELM_CONFIG_HOME``. ``cat "$KUBECONFIG"`` reads ``~/.kube/config`` wherever the variable puts it.
_CREDENTIAL_PLACES = {
    "KUBECONFIG": "~/.kube/config",
    "NETRC": "~/.netrc",
    "PGPASSFILE": "~/.pgpass",
    "DOCKER_CONFIG": "~/.docker",
    "GNUPGHOME": "~/.gnupg",
    "CARGO_HOME": "~/.cargo",
    "CLOUDSDK_CONFIG": "~/.config/gcloud",
    "AZURE_CONFIG_DIR": "~/.azure",
    "GH_CONFIG_DIR": "~/.config/gh",
    "AWS_CONFIG_FILE": "~/.aws/config",
    "NPM_CONFIG_USERCONFIG": "~/.npmrc",
    "RCLONE_CONFIG": "~/.config/rclone/rclone.conf",
    "TF_CLI_CONFIG_FILE": "~/.terraformrc",
    "COMPOSER_HOME": "~/.config/composer",
    "GRADLE_USER_HOME": "~/.gradle",
    "HELM_CONFIG_HOME": "~/.config/helm",
}
_CREDENTIAL_PLACE_VAR = Regex(
    r"^\$(?:\{(" + "|".join(_CREDENTIAL_PLACES) + r")(?:[:]?[-=?][^}]*)?\}|(" + "|".join(_CREDENTIAL_PLACES) + r")\b)"
)
#: ``$OLDPWD`` or ``$PWD``/``$OLDPWD`` with an operator (``${PWD%/*}``) at the start of a word: a directory only
#: known when it runs, read as any directory up to three levels below ``/`` (``..`` after it is resolved). A plain
#: ``$PWD`` is the tracked directory (Grader.read_paths).
_SOME_DIRECTORY = Regex(r"^\$(?:OLDPWD\b|\{OLDPWD[^}]*\}|\{PWD[^}A-Za-z0-9_][^}]*\})")
_ANY_DIRECTORY = "{/*,/*/*,/*/*/*}"
#: A ``$(printf ...)`` with any other format at the start of a word: text only known when it runs, read as a
#: home directory or a path below one, or a directory up to two levels below ``/``.
_SOME_PRINTF = Regex(r"^\$\(printf\s[^()]*\)")
_ANY_TEXT = "{~,~/*,/*,/*/*}"


def _spelt_start(text: str) -> str:
    """``text`` (quotes removed) with an expansion at its start that names a known place spelt out as a glob:
    ``$HOME``/``${HOME}`` is ``~``, ``${HOME<op>...}`` ``~`` or :data:`_ANY_HOME`, an XDG base directory its default,
    a tool's credential place (:data:`_CREDENTIAL_PLACES`: ``$KUBECONFIG``) its default, ``$OLDPWD`` or an operator
    on ``$PWD`` :data:`_ANY_DIRECTORY`, another ``$(printf ...)`` :data:`_ANY_TEXT`
    (those three only with a path below them: alone, a changed HOME is read as ``~``, the others name nothing
    known)."""
    match = _HOME_OPERATOR.match(text)
    if match is not None:
        below = text[match.end() :].startswith("/")
        return ("~" if _keeps_home(match.group(1)) or not below else _ANY_HOME) + text[match.end() :]
    match = _XDG_VAR.match(text)
    if match is not None:
        default = _XDG_DEFAULTS.get(match.group(1) or match.group(2) or "")
        if default is not None:
            return default + text[match.end() :]
    match = _CREDENTIAL_PLACE_VAR.match(text)
    if match is not None:
        return _CREDENTIAL_PLACES[match.group(1) or match.group(2)] + text[match.end() :]
    # a directory or text only known when it runs names something known only with a path below it
    for pattern, spelt in ((_SOME_DIRECTORY, _ANY_DIRECTORY), (_SOME_PRINTF, _ANY_TEXT)):
        match = pattern.match(text)
        if match is not None and text[match.end() :].startswith("/"):
            return spelt + text[match.end() :]
    return _HOME_VAR.sub("~", text)


def read_path_text(value: str | None, src: str) -> str:
    """The paths a word may name when read, as a glob: its value; for a word only partly known, its source with
    quotes removed, ``$(echo TEXT)``/``$(printf TEXT)`` read as TEXT (``$(printf %s WORD)`` as WORD), an expansion
    at its start spelt out by :func:`_spelt_start` (``$HOME``, ``${HOME%/}``, ``$XDG_CONFIG_HOME``, ``$OLDPWD``)
    and every other expansion read as ``*`` (``/proc/$$/environ`` is ``/proc/*/environ``). A word whose first part
    is another expansion names a path below any directory when a literal path follows it (``$(realpath ~)/.netrc``,
    ``$X/.ssh/id_rsa`` are ``*/.netrc``, ``*/.ssh/id_rsa``: the expansion may be any directory, a home or ``/etc``
    among them), and nothing known ("") otherwise (``$X``, ``$X.txt``)."""
    if value is not None:
        return value
    text = src.replace('"', "").replace("'", "")
    text = _PRINTF_ONE.sub(lambda m: m.group(1).replace("%s", m.group(2), 1), text)  # $(printf %s "$HOME")
    text = _spelt_start(text)
    text = _ECHO_SUBSTITUTION.sub(lambda m: m.group(1).strip(), text)  # $(echo .en)v is .env
    if text.startswith(("$", "`")):
        starred = _ANY_EXPANSION.sub("*", text)
        rest = starred.lstrip("*")
        return starred if rest.startswith("/") and rest.strip("/*") else ""
    return _ANY_EXPANSION.sub("*", text)


_BRACE_LIMIT = 64


def brace_alternatives(text: str) -> list[str]:
    """The words bash's brace expansion makes of ``text`` (bash(1) "Brace Expansion": ``pre{a,b}post`` is
    ``preapost prebpost``, nested braces too; a sequence ``{x..y}`` is read as ``*``). Braces without a top-level
    comma stay as written. More than 64 results: every brace group is read as ``*`` instead."""
    if "{" not in text:
        return [text]
    found: list[str] = []
    pending = [text]
    while pending:
        current = pending.pop()
        group = _first_brace_group(current)
        if group is None:
            found.append(current)
        else:
            start, end, choices = group
            pending.extend(current[:start] + choice + current[end + 1 :] for choice in reversed(choices))
        if len(found) + len(pending) > _BRACE_LIMIT:
            return [re.sub(r"\{[^{}]*\}", "*", text)]
    return found


def _first_brace_group(text: str) -> tuple[int, int, list[str]] | None:
    """The first brace group bash expands in ``text``: its start, its closing brace and its alternatives."""
    start = text.find("{")
    while start != -1:
        depth = 0
        commas: list[int] = []
        for index in range(start, len(text)):
            char = text[index]
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    inner = text[start + 1 : index]
                    if commas:
                        bounds = [start, *commas, index]
                        return start, index, [text[a + 1 : b] for a, b in zip(bounds, bounds[1:], strict=False)]
                    if ".." in inner:
                        return start, index, ["*"]
                    break
            elif char == "," and depth == 1:
                commas.append(index)
        start = text.find("{", start + 1)
    return None


def _home_rest(path: str) -> list[str] | None:
    """The components after a home directory (``~``, ``~user``, ``/home/user``, ``/root``, ``/Users/user``), or None;
    ``..`` is resolved first (``~/x/../.ssh`` is ``~/.ssh``)."""
    if ".." in path and path.startswith(("~", "/")):
        tilde = path.startswith("~")
        path = posixpath.normpath(path)
        if tilde and not path.startswith("~"):
            path = "~"  # ``~/..`` and above: the home directory's parent, judged as the home itself
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if path.startswith("~"):
        return parts[1:]
    if path.startswith("/") and len(parts) >= 2 and parts[0].casefold() in ("home", "users"):
        return parts[2:]
    if path.startswith("/") and parts[:1] and parts[0].casefold() == "root":
        return parts[1:]
    return None


#: The names :func:`protected_path` compares with, case-folded: a file system that ignores case (macOS's APFS and
#: HFS+, Windows' NTFS by default) opens ``~/.BASHRC`` as ``~/.bashrc`` and ``/ETC/hosts`` as ``/etc/hosts``.
_HOME_START_FOLDED = frozenset(name.casefold() for name in _HOME_PROTECTED | _HOME_FILES | _SESSION_START)
_HOME_PAIRS_FOLDED = frozenset((a.casefold(), b.casefold()) for a, b in _HOME_PROTECTED_PAIRS)
_PAIR_HEADS_FOLDED = frozenset(a for a, _ in _HOME_PAIRS_FOLDED) - {".config"}  # .config: protected whole
_SYSTEM_TREES_FOLDED = tuple(tree.casefold() for tree in _SYSTEM_TREES)
_NOT_PROTECTED_FOLDED = tuple(path.casefold() for path in _NOT_PROTECTED)


_FLYBOT_STATE = "FlyBot's own state (its store and local mode's files) decides what is approved"
#: FlyBot's store files (``flybot.db`` and SQLite's ``-wal``, ``-shm``, ``-journal`` and FlyBot's ``-changes``).
_FLYBOT_DB = Regex(r"^flybot\.db(?:[-.].*)?$")


@lru_cache(maxsize=8)
def _state_home_parts(xdg: str | None, home: str | None) -> tuple[str, ...]:
    """The components of :func:`bot.state_home.default_state_dir` for these ``XDG_STATE_HOME`` and ``HOME`` values."""
    env = {k: v for k, v in (("XDG_STATE_HOME", xdg), ("HOME", home)) if v is not None}
    path = posixpath.normpath(default_state_dir(env))
    return tuple(p for p in path.split("/") if p)


#: The state directory and store file this process's settings name (``FLYBOT_STATE_DIR``, the SQLite file of
#: ``FLYBOT_DATABASE_URL``), absolute and normalised: set by the server at start (:func:`set_own_state`).
_OWN_STATE: tuple[str, ...] = ()


def set_own_state(paths: tuple[str, ...]) -> None:
    """Name the state directory and store file FlyBot's settings use (absolute paths; others are left out), so that
    :func:`own_state` (and :func:`flybot_state`) knows them wherever they are, the temp area and the workspace
    included. The server calls it at start with its settings' ``state_dir`` and SQLite store path."""
    global _OWN_STATE
    _OWN_STATE = tuple(sorted({posixpath.normpath(p) for p in paths if p.startswith("/") and "\x00" not in p}))


def add_own_state(paths: tuple[str, ...] | list[str]) -> None:
    """Add ``paths`` (absolute; others are left out) to the state directories and store files :func:`own_state`
    knows, keeping those already named: an agent adapter adds its own state directory and the locations the server's
    program-rules answer names (bot/hooks/gate.py), which only ever protects more."""
    set_own_state((*_OWN_STATE, *paths))


def own_state_paths() -> tuple[str, ...]:
    """The state directories and store files :func:`set_own_state` and :func:`add_own_state` named."""
    return _OWN_STATE


#: The server's state directories and store files as digests (:func:`own_state_digests`): salt -> digests.
_OWN_DIGESTS: dict[str, frozenset[str]] = {}


def own_state_digests(salt: str, paths: tuple[str, ...] | list[str]) -> list[str]:
    """The SHA-256 digests (hex) of ``salt``, a NUL and each absolute path of ``paths``, normalised: what the
    server's program-rules answer gives the adapters in place of its state paths (bot/api/program_rules.py), so
    that they can tell FlyBot's own state (:func:`own_state`) without learning where it is."""
    import hashlib

    normal = sorted({posixpath.normpath(p) for p in paths if p.startswith("/") and "\x00" not in p})
    return [hashlib.sha256(f"{salt}\x00{p}".encode()).hexdigest() for p in normal]


def add_own_state_digests(salt: str, digests: tuple[str, ...] | list[str]) -> None:
    """Add state directories and store files :func:`own_state` knows by their digests (:func:`own_state_digests`
    with ``salt``): an agent adapter adds those of the server's program-rules answer (bot/hooks/gate.py)."""
    _OWN_DIGESTS[salt] = _OWN_DIGESTS.get(salt, frozenset()) | frozenset(digests)


def _digest_match(path: str) -> bool:
    """True when ``path`` (absolute, normalised) or a prefix of it ending before a ``/`` or ``-`` has a digest
    :func:`add_own_state_digests` named: the same test as for the paths named in full."""
    import hashlib

    candidates = {path, *(path[:i] for i, c in enumerate(path) if c in "/-" and i > 0)}
    return any(
        hashlib.sha256(f"{salt}\x00{c}".encode()).hexdigest() in digests
        for salt, digests in _OWN_DIGESTS.items()
        for c in candidates
    )


#: The state directories and store files the agent adapter whose request is being graded reported as its own
#: (bot/api/models.py ``EscalationIn.state_paths``), for this grading only (:class:`reported_state`): a hook whose
#: ``FLYBOT_STATE_DIR`` is not the server's keeps its token, its copy of the program rules and local mode's files
#: there, and the server grades a write there as the adapter does. Raise-only: a path named here is only protected
#: more.
_REPORTED_STATE: ContextVar[tuple[str, ...]] = ContextVar("reported_state", default=())


class reported_state:  # noqa: N801 - used as a context manager, like contextlib's
    """``with reported_state(paths):`` the adapter's own state directories and store files (absolute; others are
    left out) are FlyBot's own state to :func:`own_state` in this context (a thread or task grading one request)."""

    __slots__ = ("paths", "token")

    def __init__(self, paths: tuple[str, ...] | list[str]) -> None:
        self.paths = tuple(sorted({posixpath.normpath(p) for p in paths if p.startswith("/") and "\x00" not in p}))
        self.token: Token[tuple[str, ...]] | None = None

    def __enter__(self) -> None:
        self.token = _REPORTED_STATE.set(self.paths)

    def __exit__(self, *_: object) -> None:
        if self.token is not None:
            _REPORTED_STATE.reset(self.token)


def own_state(text: str) -> bool:
    """True when the absolute path ``text`` is the state directory FlyBot's settings name or in it, or its store
    file or one of the store's companions (SQLite's ``-wal``, ``-shm``, ``-journal`` and FlyBot's ``-changes``):
    :func:`set_own_state`, or named by digest (:func:`add_own_state_digests`). Writing there writes escalations'
    decisions and standing approvals; reading it reads local mode's token and chat."""
    reported = _REPORTED_STATE.get()
    if not (_OWN_STATE or _OWN_DIGESTS or reported) or not text.startswith("/"):
        return False
    path = posixpath.normpath(text)
    if path.startswith("//"):
        path = "/" + path.lstrip("/")
    if any(path == own or path.startswith((own + "/", own + "-")) for own in (*_OWN_STATE, *reported)):
        return True
    return bool(_OWN_DIGESTS) and _digest_match(path)


def flybot_state(text: str) -> bool:
    """True when the path ``text`` is FlyBot's state directory or in it, or one of its store files: any home's
    ``.local/state/flybot`` (bot/state_home.py's default), the state directory this process resolves
    (``$XDG_STATE_HOME/flybot``), the state directory and store its settings name (:func:`own_state`), or a file
    named ``flybot.db``/``flybot.db-*`` anywhere. Whoever writes there
    writes escalations' decisions and standing approvals; whoever reads it reads local mode's token and chat."""
    if not text:
        return False
    if own_state(text):
        return True
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if parts and _FLYBOT_DB.match(parts[-1]):
        return True
    rest = _home_rest(text)
    if rest is not None and len(rest) >= 3 and [p.lower() for p in rest[:3]] == [".local", "state", "flybot"]:
        return True
    if text.startswith("/"):
        own = _state_home_parts(os.environ.get("XDG_STATE_HOME"), os.environ.get("HOME"))
        normal = [p for p in posixpath.normpath(text).split("/") if p]
        return tuple(normal[: len(own)]) == own
    return False


def config_subdirectory(text: str) -> bool:
    """True when ``text`` is below ``~/.config`` and only the rule for all of ``.config`` protects it (not
    ``autostart``, ``systemd``, a credential path or FlyBot's state): an empty directory made there configures
    nothing, as programs read the files in it (grader: ``mkdir`` there is a write outside, ``system``)."""
    rest = _home_rest(text)
    if rest is None or len(rest) < 2 or rest[0] != ".config":
        return False
    if (rest[0], rest[1]) in _HOME_PROTECTED_PAIRS or credential_path(text) is not None:
        return False
    return not flybot_state(text) and not site_startup(text)


def protected_path(text: str) -> str | None:
    """Why a write to the path ``text`` changes the system or a login (see the module docstring), or None."""
    if not text:
        return None
    if flybot_state(text):
        return _FLYBOT_STATE
    if site_startup(text):
        return "Python runs a .pth file's import lines and sitecustomize.py in site-packages at every start"
    rest = _home_rest(text)
    if rest is not None:
        folded = [part.casefold() for part in rest]  # names compared case-insensitively (_HOME_START_FOLDED)
        if folded and folded[0] in _HOME_START_FOLDED:
            return f"{rest[0]} in a home directory holds logins, keys or start-up code"
        if len(folded) >= 2 and (folded[0], folded[1]) in _HOME_PAIRS_FOLDED:
            return f"{rest[0]}/{rest[1]} holds programs or settings that start programs later"
        if len(folded) == 1 and folded[0] in _PAIR_HEADS_FOLDED:
            inner = sorted(b for a, b in _HOME_PROTECTED_PAIRS if a.casefold() == folded[0])
            return (
                f"writing into ~/{rest[0]} (unpacking, syncing, cloning there) may write its {', '.join(inner)}, "
                "which hold programs or settings that start programs later"
            )
        if folded[:4] == [".local", "share", "nvim", "site"]:
            return "~/.local/share/nvim/site is on Neovim's runtimepath: its plugins and packages run at every start"
        place = home_place(rest)
        if place is not None:
            where = "/".join(["~", *rest])
            if place_above(text):
                return f"writing into {where} (unpacking, syncing, cloning there) may write ~/{place}, whose programs, plugins or start-up code run later"
            return f"~/{place} holds programs, plugins or start-up code that run later"
        if not rest or folded in ([".local"], [".local", "state"], [".local", "share"]):
            where = "/".join(["~", *rest])
            return f"writing into {where} (unpacking, syncing, cloning there) may replace the shell's, ssh's or git's start-up files"
        if folded[0] == ".config" or folded[:2] == [".local", "bin"]:
            return f"{'/'.join(rest[:2])} holds programs' configuration or programs on the PATH, which run later"
        if rest and credential_path(text) is not None:
            return "it holds credentials"
        if text.startswith("~"):
            return None
    if not text.startswith("/"):
        return None
    path = posixpath.normpath(text)
    if path.startswith("//"):
        path = "/" + path.lstrip("/")
    lowered = path.casefold()
    if lowered in ("/", "/home", "/users"):
        return f"{path} holds the whole system" if path == "/" else f"{path} holds every user's files"
    for temp in _NOT_PROTECTED_FOLDED:
        if lowered == temp or lowered.startswith(temp + "/"):
            return None
    for tree, shown in zip(_SYSTEM_TREES_FOLDED, _SYSTEM_TREES, strict=True):
        if lowered == tree or lowered.startswith(tree + "/"):
            return f"{shown} is a system directory"
    for tree in _PATH_TREES:
        if lowered == tree or lowered.startswith(tree + "/"):
            return f"{tree} holds programs on the PATH and start-up files"
    return None


def home_place(rest: list[str]) -> str | None:
    """The place of :data:`_HOME_PLACES` (shown as its components joined) that the home-relative components
    ``rest`` lie in, or the one they are a directory above (``.local/share/systemd``: unpacking, syncing or cloning
    into it writes ``user/`` too); None otherwise. Names are compared case-insensitively."""
    folded = [part.casefold() for part in rest]
    for place in _HOME_PLACES:
        size = min(len(folded), len(place))
        if size < 2 or not all(fnmatchcase(folded[i], place[i]) for i in range(size)):
            continue
        return "/".join(rest[: len(place)]) if len(folded) >= len(place) else "/".join(place)
    return None


def place_above(text: str) -> bool:
    """True when ``text`` is only a directory above a place of :data:`_HOME_PLACES` (``~/.local/share/systemd``) or
    of :data:`_HOME_PROTECTED_PAIRS` (``~/.yarn``), not in it: an empty directory made there (``mkdir``) runs
    nothing, as programs read the files below it."""
    rest = _home_rest(text)
    if rest is None:
        return False
    folded = [part.casefold() for part in rest]
    if len(folded) == 1 and folded[0] in _PAIR_HEADS_FOLDED and folded[0] not in _HOME_START_FOLDED:
        return True
    if home_place(rest) is None:
        return False
    return not any(
        len(folded) >= len(place) and all(fnmatchcase(folded[i], place[i]) for i in range(len(place)))
        for place in _HOME_PLACES
    )


#: ``/proc/PID/root`` is that process's root directory and ``/proc/PID/task/TID`` one of its threads (proc(5)):
#: ``/proc/self/root/etc/shadow`` is ``/etc/shadow``, ``/proc/1/task/1/environ`` is ``/proc/1/environ``.
_PROC_ROOT = Regex(r"^/+proc/+[^/]+/+root(?=/|$)")
_PROC_TASK = Regex(r"^(/+proc/+[^/]+)/+task/+[^/]+(?=/|$)")


def _through_proc(text: str) -> str:
    """``text`` with ``/proc/PID/root`` prefixes and ``/task/TID`` thread directories taken out (proc(5))."""
    for _ in range(8):
        rooted = _PROC_ROOT.sub("", text)
        if rooted == text:
            break
        text = rooted or "/"
    return _PROC_TASK.sub(r"\1", text)


#: Credentials their own tools keep in the temp area, which FlyBot otherwise treats as the agent's scratch space:
#: krb5.conf(5) ``default_ccache_name``, klist(1): the default ticket cache is ``FILE:/tmp/krb5cc_%{uid}`` (kinit
#: may add a suffix), a usable ticket-granting ticket.
_TEMP_CREDENTIAL = Regex(r"^krb5cc_[^/]*$")


def temp_credential(path: str) -> str | None:
    """What secret a path in the temp area holds although the agent did not write it (:data:`_TEMP_CREDENTIAL`)."""
    return "a Kerberos ticket cache" if _TEMP_CREDENTIAL.match(path.rstrip("/").rpartition("/")[2]) else None


def credential_path(text: str) -> str | None:
    """What secret the path ``text`` holds (see the module docstring), or None. Globs count as the files they may
    match (``~/.ssh/*``, ``~/.s*/id_rsa``, ``/etc/ssl/private/*.key``); a path through ``/proc/PID/root`` or
    ``/proc/PID/task/TID`` counts as the path it reaches."""
    if not text:
        return None
    if "proc" in text:
        text = _through_proc(text)
    found = _literal_credential(text)
    if found is None:
        original = backed_up(text)
        if original is not None:
            found = credential_path(original)
            return None if found is None else f"{found} (a backup or swap copy)"
    if found is not None or _GLOB.search(text) is None:
        return found
    return _glob_credential(text)


#: What editors and package managers add to a file's name for a copy of it: Emacs and Vim backups (``NAME~``; Emacs
#: "Backup Names", Vim 'backupext'), Vim's swap files (``.NAME.swp``, ``.swo``: Vim ":help swap-file"), Emacs'
#: auto-save files (``#NAME#``), dpkg's and rpm's kept configuration (``.dpkg-old``, ``.dpkg-dist``,
#: ``.rpmsave``, ``.rpmnew``) and the usual hand-made copies (``.bak``, ``.orig``, ``.old``, ``.save``,
#: ``.backup``). The copy holds what the file held.
_BACKUP = Regex(
    r"^(?:\.(?P<swap>.+)\.sw[a-p]|#(?P<auto>.+)#|(?P<name>.+?)(?:~|\.(?:bak|orig|old|save|backup|dpkg-old|dpkg-dist|rpmsave|rpmnew)))$"
)


def backed_up(text: str) -> str | None:
    """The path of the file ``text`` is a backup, swap or auto-save copy of (:data:`_BACKUP`: ``~/.netrc~`` is
    ``~/.netrc``, ``~/..netrc.swp`` is ``~/.netrc``, ``id_rsa.bak`` is ``id_rsa``), or None when its name is not
    such a copy's."""
    head, slash, name = text.rstrip("/").rpartition("/")
    found = _BACKUP.match(name)
    if found is None:
        return None
    original = found.group("swap") or found.group("auto") or found.group("name")
    if not original:
        return None
    return f"{head}{slash}{original}"


def _anchored(text: str) -> list[str] | None:
    """``text`` as components from its anchor: ``["~", ...]`` for any home directory (``~``, ``~user``,
    ``/home/user``, ``/root``), ``["", ...]`` for other absolute paths, None for a relative path."""
    rest = _home_rest(text)
    if rest is not None:
        return ["~", *rest]
    if not text.startswith("/"):
        return None
    return ["", *(p for p in text.split("/") if p not in ("", "."))]


def _glob_credential(text: str) -> str | None:
    """What secret a glob may match: an example of :data:`_EXAMPLES` it matches component by component."""
    parts = _anchored(text)
    if parts is None:
        return None
    for example in _ALL_EXAMPLES:
        if len(parts) < len(example) or parts[0] != example[0]:
            continue
        if all(fnmatchcase(name, pattern) for name, pattern in zip(example[1:], parts[1:], strict=False)):
            found = _literal_credential("/".join((*example, *parts[len(example) :])))
            if found is not None:
                return found
    return None


def _literal_credential(text: str) -> str | None:
    """What secret the path ``text`` holds, judged on its text as written (``*`` only where the list says so)."""
    if flybot_state(text):
        return "FlyBot's own state (its store, standing approvals, local mode's token and chat)"
    path = text
    if path.startswith("/"):
        path = posixpath.normpath(path)
        if path.startswith("//"):
            path = "/" + path.lstrip("/")
        if path in _SHADOW:
            return "the password hashes"
        if _ENVIRON.match(path):
            return "a process's environment"
        if _HOST_KEY.match(path):
            return "the host's ssh private key"
        if path in _SECRET_FILES:
            return _SECRET_FILES[path]
        for pattern, what in _SECRET_PATTERNS:
            if pattern.match(path):
                return what
        for tree, what in _SECRET_TREES.items():
            if path == tree or path.startswith(tree + "/"):
                return what
    found = _tool_credential(path)
    if found is not None:
        return found
    return _credential_parts([p for p in path.split("/") if p not in ("", ".")]) or _home_dot_secret(text)


#: Words of a file's name that say it holds a secret (:func:`_home_dot_secret`), compared case-insensitively.
_SECRET_FILE_WORDS = frozenset(
    {"credential", "credentials", "creds", "token", "tokens", "secret", "secrets", "password", "passwords", "apikey"}
)
#: Extensions of a data file a secret is kept in (none at all counts too); source code (``token.rs``,
#: ``secrets.py``) and archives are not among them.
_SECRET_FILE_EXTENSIONS = frozenset(
    {"json", "yaml", "yml", "toml", "txt", "conf", "cfg", "ini", "xml", "properties", "env", "dat", "db"}
)
_NAME_WORDS = Regex(r"[._\-]+")


def _home_dot_secret(text: str) -> str | None:
    """A file of a tool this module does not list whose name says it holds a secret: below a hidden directory of a
    home (``~/.config/openai/credentials``, ``~/.foo/auth/token.json``, ``~/.local/share/x/api-token``), a name
    whose words (split at ``.``, ``_``, ``-``) include one of :data:`_SECRET_FILE_WORDS` and whose extension, if
    any, is one of :data:`_SECRET_FILE_EXTENSIONS` (a data file, not ``token.rs`` in a package cache). Tools keep
    their logins there by convention (XDG Base Directory Specification: ``$XDG_CONFIG_HOME`` defaults to
    ``~/.config``, ``$XDG_DATA_HOME`` to ``~/.local/share``; the AWS, Cargo, RubyGems, Heroku and Google Cloud CLIs
    all name theirs ``credentials``), so an unlisted one is judged by its name. None otherwise."""
    rest = _home_rest(text)
    if rest is None or len(rest) < 2 or not rest[0].startswith("."):
        return None
    name = rest[-1].casefold()
    stem, dot, extension = name.rpartition(".")
    if dot and stem and extension not in _SECRET_FILE_EXTENSIONS and extension not in _SECRET_FILE_WORDS:
        return None
    if any(word in _SECRET_FILE_WORDS for word in _NAME_WORDS.compiled().split(name)):
        return "credentials (its name says so)"
    return None


def _credential_parts(parts: list[str], *, browsers: bool = True) -> str | None:
    """What secret a path whose components are ``parts`` holds by the credential names of the module docstring
    (``.ssh/id_rsa``, ``.aws/credentials``, ``.npmrc``), wherever those components lie; browser profile trees and a
    macOS ``Library`` only with ``browsers`` (a project's ``chromium/`` is source code, a home's is a profile)."""
    for index, part in enumerate(parts):
        following = parts[index + 1 :]
        if part == ".ssh":
            if not following or not (following[-1].endswith(".pub") or following[-1] in _SSH_PUBLIC):
                return "ssh private keys"
        elif part == ".aws" and (not following or following[0] in ("credentials", "config", "sso", "cli")):
            return "AWS credentials"
        elif part == ".config" and any(tuple(following[: len(key)]) == key for key in _CONFIG_SECRETS):
            return next(what for key, what in _CONFIG_SECRETS.items() if tuple(following[: len(key)]) == key)
        elif (
            browsers
            and part == ".config"
            and following
            and following[0] in _CONFIG_BROWSERS
            and (len(following) <= 2 or any(name in _BROWSER_FILES for name in following[1:]))
        ):  # the tree or a profile directory, as for Chrome's
            return "a browser's saved passwords, cookies, history or page storage"
        elif browsers and part == ".config" and any(name in _APP_SESSION_FILES for name in following[1:]):
            return "a program's session cookies or page storage (its logins)"
        elif (part, following[0] if following else None) in _SECRET_PAIRS:
            return _SECRET_PAIRS[(part, following[0] if following else None)]
        elif (part, None) in _SECRET_PAIRS:  # the whole directory
            return _SECRET_PAIRS[(part, None)]
        elif (
            part == ".local"
            and following[:1] == ["share"]
            and any(tuple(following[1 : 1 + len(key)]) == key for key in _SHARE_SECRETS)
        ):
            return next(what for key, what in _SHARE_SECRETS.items() if tuple(following[1 : 1 + len(key)]) == key)
        elif (
            browsers
            and part in _BROWSER_TREES
            and (
                len(following) <= (2 if part == ".mozilla" else 1) or any(name in _BROWSER_FILES for name in following)
            )
        ):  # the tree or a profile directory (``chromium/Default``, ``.mozilla/firefox/p``) holds them all
            return "a browser's saved passwords, cookies, history or page storage"
        elif (part, following[-1] if following else "") in _DOT_DIR_HISTORIES:
            return _DOT_DIR_HISTORIES[(part, following[-1])]
        elif browsers and part == "Library" and following:  # a home's (a project's Library/ is Unity's cache)
            found = _library_secret(following)
            if found is not None:
                return found
        elif (part == ".gitconfig" and not following) or (part == "etc" and following == ["gitconfig"]):
            return _GLOBAL_GIT_CONFIG
        elif part == ".cache" and following[:2] == ["huggingface", "token"]:
            return "a Hugging Face token"
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
        elif part in _SHELL_START_SECRETS and not following:
            return _SHELL_START_WHAT
    return None


def _library_secret(following: list[str]) -> str | None:
    """What secret a path below a macOS ``Library`` directory (``following``: the components after it) holds by
    :data:`_LIBRARY_SECRETS` and :data:`_LIBRARY_BROWSERS`, or None."""
    for key, what in _LIBRARY_SECRETS.items():
        if tuple(following[: len(key)]) == key:
            return what
    if following[0] != "Application Support":
        return None
    below = following[1:]
    for key, depth in _LIBRARY_BROWSERS.items():
        if tuple(below[: len(key)]) == key:
            rest = below[len(key) :]
            if len(rest) <= depth or any(name in _BROWSER_FILES for name in rest):
                return "a browser's saved passwords, cookies, history or page storage"
    if any(name in _APP_SESSION_FILES for name in below[1:]):  # an Electron program's, as below ~/.config
        return "a program's session cookies or page storage (its logins)"
    return None


def suffix_credential(text: str) -> str | None:
    """What secret a path ``*/TAIL`` may hold: the literal components TAIL below a directory only known when it runs
    (sensitive.read_path_text: ``$(realpath ~)/.netrc``, ``$(dirname /etc/x)/shadow``), when TAIL, put below the
    directories that lead to it in an example of :data:`_ALL_EXAMPLES`, is a credential file or lies in one
    (``/etc/shadow``, ``~/.netrc``, ``~/.aws/credentials``). The components TAIL shares with the example must be two
    or more, a dot name (``.netrc``) or the password hashes' names (``shadow``): a lone everyday name (``config``,
    ``token``, ``History``) says nothing of where it lies. None otherwise."""
    if not text.startswith("*/"):
        return None
    parts = [p for p in text[2:].split("/") if p not in ("", ".")]
    if not parts or any(_GLOB.search(p) for p in parts):
        return None
    for example in _ALL_EXAMPLES:
        body = example[1:]
        for start in range(len(body)):
            run = body[start:]
            if tuple(parts[: len(run)]) != run:
                continue
            if len(run) < 2 and not run[0].startswith(".") and posixpath.join("/etc", run[0]) not in _SHADOW:
                continue
            found = credential_path("/".join((*example[: 1 + start], *parts)))
            if found is not None:
                return found
    return None


#: The most components of a glob :func:`glob_names_credential` matches (a longer glob is judged on its last ones).
_GLOB_PARTS = 16


@lru_cache(maxsize=1)
def _example_runs() -> dict[str, list[tuple[tuple[str, ...], str | None]]]:
    """Every run of trailing components of each example of :data:`_EXAMPLES` (``.aws/credentials``,
    ``credentials``), by its first component, with the anchor a whole example's path starts with (``~``, ``""`` for
    ``/``; None for a run that is not the whole example)."""
    runs: dict[str, list[tuple[tuple[str, ...], str | None]]] = {}
    for example in _ALL_EXAMPLES:
        body = example[1:]
        for first in range(len(body)):
            runs.setdefault(body[first], []).append((body[first:], example[0] if first == 0 else None))
    return runs


@lru_cache(maxsize=1024)
def _component(pattern: str) -> re.Pattern[str]:
    return re.compile(fnmatch_translate(pattern))


@lru_cache(maxsize=4096)
def glob_names_credential(text: str) -> str | None:
    """What secret a glob ``text`` read where any file may be a symbolic link may name: from any of its components
    on, its components match the last components of a credential path of :data:`_EXAMPLES` (fnmatch), and the path
    they name that way is a credential file by its own name (``.en?`` names ``.env``, ``*/credentials`` names
    ``.aws/credentials``, ``x*/.ssh/id_*`` names ``.ssh/id_rsa``, ``*/shadow`` names ``/etc/shadow``). A name's
    leading dot is matched by a glob's ``*`` or ``?`` in a directory part (a link to ``~/.aws`` may be called
    anything) but, as bash does, not in the last part. None for a glob that names none (``?``, ``*.py``,
    ``src/*.json``), or for text holding no glob."""
    if _GLOB.search(text) is None:
        return None
    parts = [p for p in text.split("/") if p not in ("", ".")][-_GLOB_PARTS:]
    runs = _example_runs()
    for start in range(len(parts)):
        rest = parts[start:]
        head = rest[0]
        firsts = (
            [name for name in runs if _glob_matches(name, head, last=len(rest) == 1)]
            if _GLOB.search(head)
            else ([head] if head in runs else [])
        )
        for first in firsts:
            for run, anchor in runs[first]:
                pairs = list(zip(run, rest, strict=False))
                if not all(_glob_matches(name, pattern, last=index == len(rest) - 1)
                           for index, (name, pattern) in enumerate(pairs[1:], start=1)):  # fmt: skip
                    continue
                named = [*run[: len(pairs)], *rest[len(pairs) :]]
                found = _literal_credential("/".join(named if anchor is None else [anchor, *named]))
                if found is not None:
                    return found
    return None


def _glob_matches(name: str, pattern: str, *, last: bool) -> bool:
    """True when the file name ``name`` matches the glob component ``pattern``; in the last component a leading dot
    must be matched by a dot (bash(1) "Pathname Expansion")."""
    if last and name.startswith(".") and not pattern.startswith("."):
        return False
    return _component(pattern).match(name) is not None


def may_hold_credential(text: str) -> str | None:
    """What secret a directory ``text`` (a glob, like :func:`credential_path`) may hold somewhere below it: a
    credential path itself, one of :data:`_EXAMPLES` below it (``~``, ``~/.config``, ``/etc``, ``/proc``), or every
    home's files (``/``, ``/home``, ``/Users``); None otherwise."""
    found = credential_path(text)
    if found is not None:
        return found
    parts = _anchored(text)
    if parts is None:
        return None
    if parts == [""] or parts in (["", "home"], ["", "Users"]):
        return "every home directory's credentials"
    for example in _ALL_EXAMPLES:
        if len(parts) <= len(example) and parts[0] == example[0]:
            if all(fnmatchcase(name, pattern) for name, pattern in zip(example[1:], parts[1:], strict=False)):
                return _literal_credential("/".join(example))
    return None


#: Configuration keys whose value is a credential though their name says no secret: git's
#: ``http.extraHeader`` (git-config(1): "Authorization: Bearer ..."), pip's index URLs (pip "Configuration": a
#: private index's URL carries its user and password).
_SECRET_SETTINGS = frozenset({"extraheader", "index-url", "extra-index-url", "index_url", "extra_index_url"})


#: Trees below a home directory that hold downloaded packages, toolchains and caches, not the person's own
#: projects: cargo's registry and git checkouts and rustup's toolchains (The Cargo Book, "Cargo Home"), Go's module
#: cache (``go help gopath``: GOPATH/pkg/mod), Maven's local repository, Gradle's caches and wrappers, npm's cache,
#: the XDG cache (``~/.cache``), pip's user site (``~/.local/lib``), pyenv, nvm, rbenv, RubyGems, conda.
_PACKAGE_TREES = (
    (".cargo", "registry"), (".cargo", "git"), (".rustup",), ("go", "pkg"), (".m2", "repository"),
    (".gradle", "caches"), (".gradle", "wrapper"), (".npm",), (".cache",), (".local", "lib"), (".pyenv",), (".nvm",),
    (".rbenv",), (".gem",), (".conda",), ("miniconda3",), ("anaconda3",), (".vscode", "extensions"),
)  # fmt: skip
#: Directory names that hold installed packages wherever they are (Python's ``site-packages``/``dist-packages``,
#: npm's ``node_modules``).
_PACKAGE_DIRECTORIES = frozenset({"site-packages", "dist-packages", "node_modules"})
#: Trees outside a home that hold deployed applications, their configuration and mounted data (FHS 3.0: ``/srv``
#: "Data for services provided by this system", ``/opt`` add-on application packages, ``/mnt`` and ``/media``
#: mount points; ``/var/www`` web roots; macOS ``/Volumes``).
_SHARED_TREES = ("/srv", "/opt", "/var/www", "/mnt", "/media", "/Volumes")
#: Why a recursive read of such a tree may print a secret.
PROJECT_SECRETS = (
    "another project's secret files (.env files, keys), which FlyBot does not look for outside the workspace"
)


def may_hold_project_secrets(text: str) -> str | None:
    """What secret a recursive read of the directory ``text`` outside the workspace may print when it is neither a
    credential directory nor one of :func:`may_hold_credential`'s trees: a directory below a home directory
    (``~/other-project``: another project's ``.env``) other than :data:`_PACKAGE_TREES`, or one of
    :data:`_SHARED_TREES`, unless a part of its path is one of :data:`_PACKAGE_DIRECTORIES`; None otherwise (system
    trees such as ``/usr/include``, package caches)."""
    rest = _home_rest(text)
    if rest is None:
        path = posixpath.normpath(text) if text.startswith("/") else ""
        if not any(path == tree or path.startswith(tree + "/") for tree in _SHARED_TREES):
            return None
        rest = path.split("/")
    elif not rest or any(tuple(rest[: len(tree)]) == tree for tree in _PACKAGE_TREES):
        return None
    if any(part in _PACKAGE_DIRECTORIES for part in rest):
        return None
    return PROJECT_SECRETS


def secret_setting(key: str) -> bool:
    """True when a tool's configuration key ``key`` (``//registry.npmjs.org/:_authToken``, ``credential.helper``,
    ``global.index-url``) names a credential: its last part (after ``.``, ``:`` or ``/``) is a secret by name
    (:func:`secret_variable`, ``-`` read as ``_``) or one of :data:`_SECRET_SETTINGS`."""
    last = re.split(r"[.:/]", key)[-1]
    return last.lower() in _SECRET_SETTINGS or secret_variable(last.replace("-", "_"))


#: Name parts that make an environment file a template (dotenv's ``.env.example``, ``.env.sample``; Symfony's
#: ``.env.dist``; ``.env.template``): it is committed for others to copy and holds no secret.
_ENV_TEMPLATES = frozenset({"example", "sample", "template", "dist"})
#: One name per shape of environment file (:func:`env_file`), for matching a glob's last component.
_ENV_EXAMPLES = (".env", ".env.local", "prod.env", ".envrc", ".envrc.local")


def env_file(text: str) -> str | None:
    """What an environment file ``text`` (a path, or a glob that may name one by its last component: ``.env*``,
    ``*.env``) holds: "the project's secrets (an environment file)" for ``.env``, ``.env.NAME``, ``NAME.env`` and
    ``.envrc``; None for a template (a name part ``example``, ``sample``, ``template`` or ``dist``), for any other
    name, and for a glob whose last component does not spell ``env`` (``*``, ``?*`` name any file: not judged here).
    A name in another case (``.ENV``, ``.Env.local``) is the same file where the file system ignores case."""
    name = text.rstrip("/").rsplit("/", 1)[-1]
    if _GLOB.search(name) is None:
        name = name.lower()  # .ENV is .env on a file system that ignores case (macOS's APFS, Windows' NTFS)
    if "env" not in name:
        return None
    if _GLOB.search(name) is not None:
        if not any(_glob_matches(example, name, last=True) for example in _ENV_EXAMPLES):
            return None
    elif not (
        name in (".env", ".envrc") or name.startswith((".env.", ".envrc.")) or (name.endswith(".env") and len(name) > 4)
    ):
        return None
    parts = name.split(".")
    if _ENV_TEMPLATES.intersection(parts) and _GLOB.search(name) is None:
        return None
    return "the project's secrets (an environment file)"


#: Private keys by their file's extension: PEM keys (``server.key``, Rails' ``config/master.key``), PKCS#12 bundles
#: (``.p12``, ``.pfx``: a private key with its certificate), Java keystores (``.jks``, ``.keystore``), PuTTY keys
#: (``.ppk``). PKCS#8 keys (``.p8``: Apple's App Store Connect API and APNs keys, ``AuthKey_KEYID.p8``, App Store
#: Connect "Creating API Keys for App Store Connect API": "download the private key") count when the name says key
#: or private (PICO-8's cartridges are ``.p8`` files too).
_KEY_EXTENSIONS = frozenset({"key", "p12", "pfx", "jks", "keystore", "ppk"})
#: Name parts that make a ``.pem`` file a certificate or a public key (public by design): ``cert.pem``,
#: ``ca.pem``, ``fullchain.pem``, ``chain.pem``, ``ca-bundle.pem``, ``public.pem``, ``cacert.pem``.
_PUBLIC_PEM = Regex(
    r"(?:^|[-_.])(?:cert|certs|certificate|crt|ca|cacert|chain|fullchain|bundle|pub|public|root)(?:[-_.]|$)"
)
#: ssh's default private key names (ssh-keygen(1) FILES) and deploy keys (``deploy_key``, ``github-deploy-key``).
_PRIVATE_KEY_NAME = Regex(r"^id_(?:rsa|dsa|ecdsa|ed25519|xmss)(?:_sk)?$|deploy[-_]key$")
#: Files that hold secrets by their whole name.
_SECRET_NAMES: tuple[tuple[Regex, str], ...] = (
    (Regex(r"\.tfstate(?:\.backup)?$"), "Terraform state (its resources' secrets in clear)"),
    (Regex(r"^kubeconfig(?:\.ya?ml)?$|\.kubeconfig$"), "Kubernetes credentials"),
    (Regex(r"^(?:.*[-_.])?credentials?\.json$"), "service credentials"),
    # Firebase Admin SDK setup names the key serviceAccountKey.json and generates PROJECT-firebase-adminsdk-*.json
    (
        Regex(r"service[-_]?account.*\.json$|^client_secrets?.*\.json$", re.IGNORECASE),
        "a service account's or OAuth client's key",
    ),
    (Regex(r"firebase-adminsdk.*\.json$", re.IGNORECASE), "a Firebase service account's key"),
    # gcloud iam service-accounts keys create KEY_FILE writes a JSON key; the names projects give it by convention:
    # gcp-key.json, gcloud-key.json, google-key.json, PROJECT-sa.json, sa-key.json, keyfile.json
    (
        Regex(
            r"(?:^|[-_.])(?:gcp|gcloud|google|gcs|gke|bigquery|bq)[-_]?(?:sa[-_]?)?key(?:file)?s?\.json$"
            r"|(?:^|[-_.])sa(?:[-_]?key)?\.json$|^keyfile\.json$",
            re.IGNORECASE,
        ),
        "a Google Cloud service account's key",
    ),
    # Google API client quickstarts before 2021 (Python "Quickstart": "The file token.pickle stores the user's access
    # and refresh tokens"); their token.json successor is left out: projects keep fixtures under that name
    (Regex(r"^token\.pickle$"), "an OAuth access and refresh token"),
    # Ansible "Managing vault passwords": --vault-password-file ~/.vault_pass.txt, the password in clear
    (Regex(r"^\.?vault[-_]pass(?:word)?(?:\.txt)?$", re.IGNORECASE), "an Ansible Vault password"),
    # Kubernetes "Pull an Image from a Private Registry": a docker-registry Secret's key file, registry passwords
    (Regex(r"^\.dockerconfigjson$"), "registry credentials"),
    (Regex(r"^auth\.json$"), "Composer credentials"),
    (Regex(r"^\.htpasswd$"), "password hashes"),
    (Regex(r"^\.dev\.vars(?:\.(?!example$|sample$|template$|dist$)[^.]+)?$"), "Wrangler's local secrets"),
    (Regex(r"^(?:.*[-_.])?secrets\.(?:json|toml)$", re.IGNORECASE), "the project's secrets"),
    # Rails before 5.2 kept its secrets in clear in config/secrets.yml (Rails Guides, "Securing Rails Applications",
    # Custom Credentials: credentials.yml.enc replaced it); credentials.yml/.yaml is the same file by its other name
    # (Rails' decrypted credentials, secure_credentials' plain per-environment file)
    (Regex(r"^(?:.*[-_.])?(?:secrets\.yml|credentials\.ya?ml)$", re.IGNORECASE), "the project's secrets"),
    (Regex(r"^terraform\.tfvars$|\.auto\.tfvars$|\.tfvars\.json$"), "Terraform variables (secrets among them)"),
    (Regex(r"^local\.settings\.json$"), "Azure Functions' local secrets"),
    (Regex(r"^\.secrets(?:\..+)?$"), "the project's secrets"),
    # Android "Sign your app" (Remove signing information from your build files): keystore.properties holds
    # storePassword and keyPassword; Flutter "Build and release an Android app" names the same file key.properties
    (Regex(r"^(?:key|keystore)\.properties$"), "an Android app's signing passwords"),
    # Flyway "Configuration Files" (flyway.conf) and "TOML Configuration File" (flyway.toml): the settings Flyway
    # reads, its database user and password (flyway.password, [environments.NAME] password) among them
    (Regex(r"^flyway\.(?:conf|toml)$"), "Flyway's database password"),
    # WordPress "Editing wp-config.php": DB_PASSWORD and the authentication keys and salts; MediaWiki "Manual:
    # LocalSettings.php": $wgDBpassword, $wgSecretKey
    (Regex(r"^wp-config\.php$"), "WordPress' database password and keys"),
    (Regex(r"^LocalSettings\.php$"), "MediaWiki's database password and secret key"),
)
#: Name parts of an encrypted file or a template, which hold no secret in clear: SOPS's ``secrets.enc.yaml``,
#: gpg(1)'s ``.gpg``/``.asc``, age(1)'s ``.age``, Rails' ``.enc`` (:func:`_named`; the names above that say only
#: "secrets", not the older ``.tfstate``/``credentials`` rules).
_NOT_IN_CLEAR = frozenset({"enc", "sops", "gpg", "asc", "age", "example", "sample", "template", "dist"})
#: What the rules above from ``secrets.json`` on hold (checked against :data:`_NOT_IN_CLEAR`).
_CLEAR_ONLY = frozenset({
    "the project's secrets", "Terraform variables (secrets among them)", "Azure Functions' local secrets",
})  # fmt: skip
#: One name per shape :func:`named_secret` knows, with the text a glob must spell to name it (``*.key`` names
#: ``server.key``; ``*``, ``*.json`` name any file and are not judged here).
_NAMED_EXAMPLES = (
    ("server.key", "key"), ("cert.p12", "p12"), ("cert.pfx", "pfx"), ("app.jks", "jks"), ("app.keystore", "keystore"),
    ("key.ppk", "ppk"), ("AuthKey_X.p8", "p8"), ("server.pem", "pem"), ("id_rsa", "id_"), ("id_ed25519", "id_"), ("deploy_key", "deploy"),
    ("terraform.tfstate", "tfstate"), ("kubeconfig", "kubeconfig"), ("gcp-credentials.json", "credential"),
    ("service-account.json", "account"), (".npmrc", "npmrc"), (".pypirc", "pypirc"), (".netrc", "netrc"),
    (".git-credentials", "credential"), (".dev.vars", ".dev"), ("secrets.json", "secrets"),
    ("appsettings.Secrets.json", "Secrets"), ("secrets.toml", "secrets"), (".secrets", "secrets"),
    ("secrets.yml", "secrets"), ("credentials.yml", "credentials"), ("credentials.yaml", "credentials"),
    ("terraform.tfvars", "tfvars"), ("prod.auto.tfvars", "tfvars"), ("terraform.tfvars.json", "tfvars"),
    ("local.settings.json", "local.settings"), ("gcp-key.json", "key"), ("prod-sa.json", "sa"),
    ("token.pickle", "token"), (".vault_pass.txt", "vault"), ("key.properties", "key"),
    ("keystore.properties", "keystore"), ("flyway.conf", "flyway"), ("flyway.toml", "flyway"),
    ("wp-config.php", "wp-config"), ("LocalSettings.php", "LocalSettings"),
)  # fmt: skip


#: A repository's configuration files below ``.git`` (git-config(1) FILES: ``$GIT_DIR/config``,
#: ``$GIT_DIR/config.worktree``; a linked worktree's ``.git/worktrees/NAME/config.worktree``, a submodule's
#: ``.git/modules/NAME/config``): ``remote.NAME.url`` may carry a password or token in its user part
#: (git-clone(1) GIT URLS: ``https://USER:TOKEN@HOST/...``; GitLab CI clones with ``gitlab-ci-token:$CI_JOB_TOKEN``
#: in the URL, and actions/checkout keeps its token in ``http.*.extraheader`` there).
_GIT_CONFIGS = ("config", "config.worktree")
GIT_CONFIG_SECRET = "git's repository configuration (a remote URL or an http.extraHeader there may carry a token)"
#: DVC's local configuration, ``.dvc/config.local`` (DVC "dvc remote modify" ``--local``: "a Git-ignored local config
#: file ... useful when you need to specify private config options ... (credentials, private locations, etc.)"): the
#: remotes' access keys and passwords.
DVC_LOCAL_SECRET = "DVC's local configuration (its remotes' credentials)"


@lru_cache(maxsize=4096)
def named_secret(text: str) -> str | None:
    """What secret a file ``text`` holds by its name, wherever it is, the workspace included (as :func:`env_file`):
    the credential names of the module docstring found anywhere in the path (``.npmrc``, ``.netrc``, ``.pypirc``,
    ``.git-credentials``, ``.aws/credentials``, ``.ssh/id_rsa``; browser trees aside); private keys (ssh's
    ``id_rsa``/``id_ed25519``..., ``*deploy_key``; ``*.key``, ``*.p12``, ``*.pfx``, ``*.jks``, ``*.keystore``,
    ``*.ppk``; a ``*.p8`` whose name says key or private (``AuthKey_ID.p8``); a ``*.pem`` unless its name says certificate or public and not key: ``cert.pem``, ``ca.pem``,
    ``fullchain.pem`` are public, ``ca-key.pem`` and ``privkey.pem`` are not);
    Terraform state (``*.tfstate``: Terraform "Sensitive Data in State"); ``kubeconfig``; ``credentials.json``,
    ``*-credentials.json``, ``service-account*.json``, ``client_secret*.json``; Composer's ``auth.json``;
    ``.htpasswd``; Wrangler's ``.dev.vars`` (and ``.dev.vars.ENV``, not ``.example``); files of the project's
    secrets in clear: Rails' ``config/secrets.yml`` (before Rails 5.2, "Custom Credentials"; any ``*secrets.yml``)
    and a plain ``credentials.yml``/``.yaml``, .NET's
    ``secrets.json`` and ``appsettings.Secrets.json`` (ASP.NET Core "Safe storage of app secrets"), Streamlit's
    ``secrets.toml`` ("Secrets management"), Google Cloud service account keys by the names projects give them
    (``gcp-key.json``, ``*-sa.json``, ``sa-key.json``, ``keyfile.json``) and a quickstart's ``token.pickle``,
    Ansible's vault password file (``.vault_pass.txt``, ``vault-password``), any ``*secrets.json``/``*secrets.toml``, Terraform's automatically
    loaded variables ``terraform.tfvars``, ``*.auto.tfvars`` and ``*.tfvars.json`` (Terraform "Input Variables":
    variable definitions files), Azure Functions' ``local.settings.json`` ("Local settings file"), ``.secrets`` and
    ``.secrets.*`` (act's ``--secret-file`` default), Android's signing passwords ``key.properties`` and
    ``keystore.properties`` (Android "Sign your app", Flutter "Build and release an Android app"), Flyway's
    ``flyway.conf`` and ``flyway.toml`` (Flyway "Configuration Files": the database password), WordPress'
    ``wp-config.php``, MediaWiki's ``LocalSettings.php``, Symfony's ``config/parameters.yml`` (each a database
    password and the application's secret keys in clear), none of these when a name part says encrypted or template
    (``.enc``, ``.sops``, ``.gpg``, ``.asc``, ``.age``, ``.example``...). ``secrets.yaml`` is not among them: SOPS keeps encrypted files under that name. Public halves
    stay public (``id_rsa.pub``, ``*.crt``, ``*.csr``), and so does an encrypted file without its key
    (``credentials.yml.enc``). A repository's ``config`` or ``config.worktree`` below a ``.git`` directory
    (:data:`_GIT_CONFIGS`: a remote URL may carry a token), also as a glob (``.git/*``, ``.g*/conf*``), and DVC's
    ``.dvc/config.local`` (:data:`DVC_LOCAL_SECRET`). A glob counts by
    its last component when it spells what a name needs (``*.key``, ``id_*``); ``*`` and ``*.json`` do not. None
    otherwise."""
    parts = [p for p in text.rstrip("/").split("/") if p not in ("", ".", "..")]
    if not parts:
        return None
    name = parts[-1]
    if _GLOB.search(name) is None:
        original = backed_up(text)
        if original is not None:
            found = named_secret(original)
            if found is not None:
                return f"{found} (a backup or swap copy)"
    if (
        len(parts) >= 2
        and any(_glob_matches(".git", p, last=True) for p in parts[:-1])
        and any(_glob_matches(n, name, last=True) for n in _GIT_CONFIGS)
    ):
        return GIT_CONFIG_SECRET
    if (
        len(parts) >= 2
        and _glob_matches(".dvc", parts[-2], last=True)
        and _glob_matches("config.local", name, last=True)
    ):
        return DVC_LOCAL_SECRET
    if _GLOB.search(name) is not None:
        for example, marker in _NAMED_EXAMPLES:
            if marker in name and _glob_matches(example, name, last=True):
                return _named(example)
        return None
    if _GLOB.search(text) is None:
        found = _credential_parts(parts, browsers=False)
        if found is not None:
            return found
        if parts[-2:] == ["config", "secrets.yml"]:
            return "a Rails application's secrets (config/secrets.yml, in clear before Rails 5.2)"
        if parts[-2:] == ["config", "parameters.yml"]:  # Symfony 2-3 "Configuring the Database" (app/config/)
            return "a Symfony application's database password and secret (config/parameters.yml)"
    return _named(name)


def _named(name: str) -> str | None:
    """What secret the file name ``name`` (one component) holds by :func:`named_secret`'s name rules, or None."""
    extension = name.rsplit(".", 1)[-1].lower() if "." in name.lstrip(".") else ""
    lowered = name.lower()
    if (
        extension in _KEY_EXTENSIONS
        or (extension == "pem" and ("key" in lowered or "priv" in lowered or _PUBLIC_PEM.search(lowered) is None))
        or (extension == "p8" and ("key" in lowered or "priv" in lowered))
    ):
        return "a private key"
    if _PRIVATE_KEY_NAME.search(name) is not None:
        return "an ssh private key"
    for pattern, what in _SECRET_NAMES:
        if pattern.search(name) is not None:
            if what in _CLEAR_ONLY and _NOT_IN_CLEAR.intersection(lowered.split(".")):
                return None
            return what
    return _credential_parts([name], browsers=False)


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
            indirect = _INDIRECT.match(src, index)
            if indirect:
                names.append("{!" + indirect.group(1) + "}")
    return names


def _in_double(src: str, index: int) -> bool:
    """True when ``src[index]`` is inside double quotes (a ``'`` there is literal)."""
    inside = False
    for char in src[:index]:
        if char == '"':
            inside = not inside
    return inside


def _anchor(path: str) -> str | None:
    """The home directory (``/root``, ``/home/NAME``, ``/Users/NAME``) or system tree (:data:`_SYSTEM_TREES`) the
    absolute normalised ``path`` lies in, or None (the temp areas, ``/srv``, ``/opt``...)."""
    rest = _home_rest(path)
    if rest is not None:
        parts = [p for p in path.split("/") if p]
        return "/" + "/".join(parts[: len(parts) - len(rest)])
    for temp in _NOT_PROTECTED:
        if path == temp or path.startswith(temp + "/"):
            return None
    for tree in _SYSTEM_TREES:
        if path == tree or path.startswith(tree + "/"):
            return tree
    return None


def _holds(root: str, anchor: str, *, dot: bool = False) -> bool:
    """True when the workspace ``root`` is ``anchor`` or a directory above it; with ``dot``, also when it lies in one
    of the home's dot directories (``~/.ssh``, ``~/.aws``, ``~/.config``: where the home keeps its keys)."""
    if root == anchor or root == "/" or anchor.startswith(root + "/"):
        return True
    rest = _home_rest(root) if dot and root.startswith(anchor + "/") else None
    return rest is not None and bool(rest) and rest[0].startswith(".")


#: Home dot directories that hold keys, logins or programs on the PATH, never a project: a workspace in one of them
#: keeps their write rules (a config project such as ``~/.config/nvim`` is the agent's own).
_KEY_DIRS = frozenset({".ssh", ".gnupg", ".aws", ".kube", ".docker", ".local", ".azure", ".oci", ".password-store"})


def _in_key_dir(root: str, anchor: str) -> bool:
    rest = _home_rest(root) if root.startswith(anchor + "/") else None
    return rest is not None and bool(rest) and rest[0] in _KEY_DIRS


@lru_cache(maxsize=64)
def holds_anchor(root: str) -> bool:
    """True when the workspace ``root`` is, or holds, a home directory or a system tree (a session started in
    ``~``, ``/home``, ``/root``, ``/etc`` or ``/``): its relative paths may name login, system or credential files
    (:func:`workspace_protected`, :func:`workspace_credential`)."""
    if not root.startswith("/"):
        return False
    if root in ("/", "/home", "/Users", "/private"):
        return True
    anchor = _anchor(root)
    return (anchor is not None and _holds(root, anchor, dot=True)) or any(
        tree.startswith(root + "/") for tree in _SYSTEM_TREES
    )


def workspace_protected(path: str, root: str) -> str | None:
    """Why a write to ``path`` (absolute, normalised), which lies in the workspace ``root``, changes a login or the
    system, or None. When the workspace is, or holds, the home directory or system tree ``path`` lies in (a session
    started in ``/root``, ``/home/NAME``, ``/home``, ``/etc``), ``path`` is that home's or tree's file and is judged
    as :func:`protected_path` judges it (``.bashrc`` in ``/root`` is ``/root/.bashrc``); a project directory below a
    home or a system tree (``~/src/app``, ``/var/www/app``) is the agent's own."""
    anchor = _anchor(path)
    if anchor is None or not (_holds(root, anchor) or _in_key_dir(root, anchor)):
        return None
    if _home_rest(path) is not None:
        return protected_path("~/" + "/".join(_home_rest(path) or ())) if path != anchor else None
    return protected_path(path)


def workspace_credential(path: str, root: str) -> str | None:
    """What secret ``path`` (absolute, normalised), which lies in the workspace ``root``, holds, or None: judged as
    :func:`credential_path` judges it when the workspace is, or holds, the home directory or system tree it lies in
    (``.ssh/id_rsa`` in ``/root``) or lies in one of its dot directories (``id_rsa`` in ``~/.ssh``); a project's own
    files (``~/src/app/.env``) are the agent's."""
    anchor = _anchor(path)
    if anchor is None or not _holds(root, anchor, dot=True):
        return None
    return credential_path(path)


def workspace_holds_credential(path: str, root: str) -> str | None:
    """What secret a directory ``path`` (absolute, normalised) in the workspace ``root`` may hold below it (a
    recursive search from there), judged as :func:`may_hold_credential` judges it when the workspace is, or holds,
    the home directory or system tree it lies in, or it is ``/home`` or ``/Users``; None otherwise."""
    anchor = _anchor(path)
    if (anchor is not None and _holds(root, anchor)) or path in ("/home", "/Users"):
        return may_hold_credential(path)
    return None


#: Cloud instance metadata services, which hand any process on the machine its cloud credentials: AWS IMDS
#: (169.254.169.254, fd00:ec2::254; "Retrieve security credentials from instance metadata", the role's access
#: keys under ``/latest/meta-data/iam/security-credentials/``), the ECS task and EKS Pod Identity agents
#: (169.254.170.2, 169.254.170.23, fd00:ec2::23), Google Cloud (``metadata.google.internal``, ``metadata.goog``,
#: 169.254.169.254: ``.../service-accounts/default/token``), Azure IMDS (169.254.169.254:
#: ``/metadata/identity/oauth2/token``), Oracle Cloud, DigitalOcean and OpenStack (169.254.169.254) and Alibaba Cloud
#: (100.100.100.200: ``/latest/meta-data/ram/security-credentials/``).
METADATA_ADDRESSES = frozenset({(169, 254, 169, 254), (169, 254, 170, 2), (169, 254, 170, 23), (100, 100, 100, 200)})
METADATA_NAMES = frozenset({"metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal"})
#: A word that may spell an IPv4 address as inet_aton(3) reads it (curl, wget and the resolver take
#: ``2852039166``, ``0xa9fea9fe``, ``0251.0376.0251.0376`` and ``169.254.43518`` for 169.254.169.254).
_IPV4_SPELLING = Regex(r"(?<![\w.])(?:0x[0-9a-f]+|\d+)(?:\.(?:0x[0-9a-f]+|\d+)){0,3}\.?(?![\w])", re.IGNORECASE)
_METADATA_IPV6 = Regex(r"fd00:0*ec2:(?:0*:)*:?0*(?:254|23)(?![\w:])", re.IGNORECASE)
_METADATA_NAME = Regex(
    r"(?<![\w.-])(?:metadata\.google\.internal|metadata\.goog|instance-data(?:\.ec2\.internal)?)\.?(?![\w-])",
    re.IGNORECASE,
)


def _inet_aton(text: str) -> tuple[int, ...] | None:
    """The four bytes of ``text`` read as inet_aton(3) reads an IPv4 address (``a``, ``a.b``, ``a.b.c``,
    ``a.b.c.d``; each part decimal, octal with a leading ``0`` or hex with ``0x``), or None."""
    parts = text.rstrip(".").split(".")
    if not 1 <= len(parts) <= 4:
        return None
    numbers: list[int] = []
    for part in parts:
        try:
            if part[:2].lower() == "0x":
                numbers.append(int(part[2:] or "0", 16))
            elif len(part) > 1 and part.startswith("0"):
                numbers.append(int(part, 8))
            else:
                numbers.append(int(part, 10))
        except ValueError:
            return None
    *head, last = numbers
    rest = 4 - len(head)
    if any(n > 255 for n in head) or last >= 256**rest:
        return None
    return (*head, *last.to_bytes(rest, "big"))


def metadata_endpoint(text: str) -> str | None:
    """The cloud instance metadata service ``text`` names (:data:`METADATA_ADDRESSES`, :data:`METADATA_NAMES`, in
    any spelling the resolver takes: ``169.254.169.254``, ``2852039166``, ``0xa9fea9fe``, ``[fd00:ec2::254]``,
    ``metadata.google.internal.``), or None. A request to it can print the machine's cloud credentials."""
    found = _METADATA_NAME.search(text)
    if found is not None:
        return found.group(0)
    found = _METADATA_IPV6.search(text)
    if found is not None:
        return found.group(0)
    if not any(map(str.isdigit, text)):
        return None
    for match in _IPV4_SPELLING.finditer(text):
        if _inet_aton(match.group(0)) in METADATA_ADDRESSES:
            return match.group(0)
    return None


#: Directives that read a file into a C, C++ or Objective-C compile or an assembly (GCC "The C Preprocessor",
#: Include Operation: ``#include``, ``#include_next``, ``#import``; C23 and GCC 15 ``#embed``; GNU as ``.incbin``),
#: with the name between ``<>`` or ``""`` (a quote may be escaped, as in a shell word: ``\\"``).
_INCLUDE_DIRECTIVE = re.compile(
    r'#\s*(?:include(?:_next)?|import|embed)\s*\\?[<"]([^<>"\n\\]+)\\?[>"]|\.incbin\s+\\?"([^"\n\\]+)\\?"'
)
#: A computed include (``#include NAME``, its name a macro defined elsewhere: GCC "Computed Includes").
_COMPUTED_INCLUDE = re.compile(r"#\s*(?:include(?:_next)?|import|embed)\s+[A-Za-z_]")


def included_secret(text: str, *, computed: bool = False) -> tuple[str, str] | None:
    """The first file an include directive in ``text`` names (:data:`_INCLUDE_DIRECTIVE`) that holds a secret by
    its path or name (:func:`credential_path`, :func:`env_file`, :func:`named_secret`: ``/root/.ssh/id_rsa``,
    ``../../.env``, ``config/master.key``), as ``(name, what)``; None when none does. The compiler reads the file
    into the compile, and its diagnostics and ``-E`` output print its lines. ``computed``: when ``text`` also holds a
    computed include, any word in it naming a secret counts (the macro's value is spelt somewhere in it)."""
    names = [m.group(1) or m.group(2) for m in _INCLUDE_DIRECTIVE.finditer(text)]
    if computed and _COMPUTED_INCLUDE.search(text):
        names += re.findall(r"[^\s\"'<>]+", text)
    for name in names:
        name = name.strip()
        what = credential_path(name) or env_file(name) or named_secret(name) if name else None
        if what is not None:
            return name, what
    return None
