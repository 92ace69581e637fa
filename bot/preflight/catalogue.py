"""FlyBot's own catalogue of unlock options: the only source of host instructions an owner is shown.

Pure data and lookups, no I/O. An option is keyed by its stable ``id``; its human phrase is the same on every OS,
its exact host command may depend on the OS family read from os-release (``ID`` then ``ID_LIKE`` words):
``debian``, ``ubuntu``, ``fedora`` (also RHEL/CentOS), ``arch`` (and ``alpine``, ``suse`` for the install).
Whatever text or command a Bot sends along with an option id is never shown as FlyBot's advice; the DM looks the id
up here.

Sources of the commands:

- bubblewrap's package name is ``bubblewrap`` in Debian, Ubuntu, Fedora and Arch;
- the AppArmor profile for bwrap is the one Ubuntu documents for programs that need unprivileged user
  namespaces under ``kernel.apparmor_restrict_unprivileged_userns=1`` (Ubuntu 23.10 release notes,
  "Restricted unprivileged user namespaces"): an unconfined profile for ``/usr/bin/bwrap`` with the
  ``userns`` rule, loaded with ``apparmor_parser -r``;
- ``kernel.unprivileged_userns_clone`` is the switch of Debian-patched kernels (and Arch's linux-hardened);
  ``user.max_user_namespaces`` is the upstream limit (0 disables user namespaces: ``user_namespaces(7)``);
- Landlock's boot switch is the ``lsm=`` kernel parameter (kernel docs, Documentation/userspace-api/landlock.rst,
  "Boot time configuration"); Fedora changes kernel parameters with ``grubby``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.preflight.model import UnlockOption

OS_FAMILIES = ("debian", "ubuntu", "fedora", "arch", "alpine", "suse")
_FAMILY_WORDS: dict[str, str] = {
    "debian": "debian",
    "ubuntu": "ubuntu",
    "fedora": "fedora",
    "rhel": "fedora",
    "centos": "fedora",
    "rocky": "fedora",
    "almalinux": "fedora",
    "arch": "arch",
    "manjaro": "arch",
    "endeavouros": "arch",
    "alpine": "alpine",
    "suse": "suse",
    "opensuse": "suse",
    "sles": "suse",
}

APPARMOR_PROFILE_COMMAND = (
    "printf 'abi <abi/4.0>,\\ninclude <tunables/global>\\nprofile bwrap /usr/bin/bwrap flags=(unconfined) "
    "{\\n  userns,\\n}\\n' | sudo tee /etc/apparmor.d/bwrap && sudo apparmor_parser -r /etc/apparmor.d/bwrap"
)
USERNS_WARNING = (
    "this lets every program on the host create user namespaces, which widens the kernel's attack surface "
    "for all local users; it lasts until reboot unless also written to /etc/sysctl.d"
)


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """One unlock option as FlyBot words it.

    Attributes:
        id: the stable id (``install-bubblewrap``, ``bwrap-apparmor-profile``, ...).
        text: the phrase, the same on every OS (also what the one-line report prints).
        commands: OS family -> the exact host command; ``"*"`` is the command for any OS.
        warning: what the command opens up, when it weakens the host (shown next to it).
        fallback: what to do when no command is known for the host's OS.
        aliases: older phrases of the same option (accepted when parsing a line).
    """

    id: str
    text: str
    commands: Mapping[str, str] = field(default_factory=dict)
    warning: str | None = None
    fallback: str | None = None
    aliases: tuple[str, ...] = ()

    def command_for(self, family: str | None) -> str | None:
        """The command for OS ``family`` (``None``: unknown OS), else the any-OS command, else ``None``."""
        if family is not None and family in self.commands:
            return self.commands[family]
        return self.commands.get("*")

    def option(self, family: str | None) -> UnlockOption:
        """This entry as an :class:`UnlockOption` for a host of OS ``family``."""
        return UnlockOption(self.id, self.text, self.command_for(family))


_APT = "sudo apt-get install -y bubblewrap"
CATALOGUE: dict[str, CatalogueEntry] = {
    entry.id: entry
    for entry in (
        CatalogueEntry("approve-turn", "approve danger-full-access for this turn"),
        CatalogueEntry("approve-bot", "approve danger-full-access for the Bot"),
        CatalogueEntry("change-file-policy", "change the session file policy to danger-full-access"),
        CatalogueEntry(
            "install-bubblewrap",
            "install bubblewrap on the host",
            commands={
                "debian": _APT,
                "ubuntu": _APT,
                "fedora": "sudo dnf install -y bubblewrap",
                "arch": "sudo pacman -S --noconfirm bubblewrap",
                "alpine": "sudo apk add bubblewrap",
                "suse": "sudo zypper install -y bubblewrap",
            },
            fallback="install the bubblewrap package with the host's package manager",
        ),
        CatalogueEntry(
            "bwrap-apparmor-profile",
            "give bubblewrap an AppArmor profile that allows user namespaces",
            commands={"*": APPARMOR_PROFILE_COMMAND},
            fallback="write an AppArmor profile for /usr/bin/bwrap with the userns rule and load it with apparmor_parser",
        ),
        CatalogueEntry(
            "apparmor-userns-sysctl",
            "lift AppArmor's user-namespace restriction for every program (weakens the host)",
            commands={"*": "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"},
            warning=USERNS_WARNING,
        ),
        CatalogueEntry(
            "userns-clone-sysctl",
            "allow unprivileged user namespaces (weakens the host)",
            commands={"*": "sudo sysctl -w kernel.unprivileged_userns_clone=1"},
            warning=USERNS_WARNING,
        ),
        CatalogueEntry(
            "userns-max-sysctl",
            "raise the user-namespace limit above 0 (weakens the host)",
            commands={"*": "sudo sysctl -w user.max_user_namespaces=15000"},
            warning=USERNS_WARNING,
        ),
        CatalogueEntry(
            "container-userns",
            "start the session's container so that it may create user namespaces",
            fallback="restart the container with user namespaces allowed (for Docker: --security-opt "
            "seccomp=unconfined --security-opt apparmor=unconfined), or run the session outside it",
        ),
        CatalogueEntry(
            "landlock-kernel",
            "run a kernel with Landlock ABI 3 or later (Linux 6.2+)",
            fallback="boot a distribution kernel from Linux 6.2 on (built with CONFIG_SECURITY_LANDLOCK=y)",
            aliases=("run a Landlock-enforcing kernel",),
        ),
        CatalogueEntry(
            "landlock-boot",
            "enable Landlock at boot (add landlock to the kernel's lsm= parameter)",
            commands={
                "fedora": 'sudo grubby --update-kernel=ALL --args="lsm=landlock,$(cat /sys/kernel/security/lsm)"'
            },
            fallback="add landlock in front of the kernel's lsm= list in the boot loader's configuration, then reboot",
        ),
        CatalogueEntry("restore-sandbox-exec", "restore sandbox-exec (/usr/bin/sandbox-exec) on the host"),
    )
}
"""Every unlock option FlyBot knows, by id."""

APPROVAL_IDS = ("approve-turn", "approve-bot")
"""The options an owner takes by a click, not on the host."""


def os_family(os_release: Mapping[str, str]) -> str | None:
    """The OS family of parsed os-release fields (``ID`` first, then ``ID_LIKE`` words), or ``None``.

    ``{"ID": "ubuntu", "ID_LIKE": "debian"}`` -> ``"ubuntu"``; ``{"ID": "linuxmint", "ID_LIKE": "ubuntu debian"}``
    -> ``"ubuntu"``; ``{"ID": "rocky", "ID_LIKE": "rhel centos fedora"}`` -> ``"fedora"``.
    """
    words = [os_release.get("ID", ""), *os_release.get("ID_LIKE", "").split()]
    for word in words:
        family = family_of(word)
        if family is not None:
            return family
    return None


def family_of(os_id: str | None) -> str | None:
    """The OS family of a bare os-release ``ID`` word (``"ubuntu"``, ``"opensuse-leap"``), or ``None``."""
    if not os_id:
        return None
    word = os_id.lower()
    return _FAMILY_WORDS.get(word) or _FAMILY_WORDS.get(word.split("-")[0])


def option(option_id: str, family: str | None = None) -> UnlockOption:
    """The catalogue's option ``option_id`` for OS ``family``.

    Raises:
        KeyError: ``option_id`` is not in :data:`CATALOGUE` (a programming error in FlyBot).
    """
    return CATALOGUE[option_id].option(family)


def id_of_phrase(phrase: str) -> str | None:
    """The id whose phrase (or an older alias) is ``phrase``, or ``None``."""
    for entry in CATALOGUE.values():
        if phrase == entry.text or phrase in entry.aliases:
            return entry.id
    return None


def family_from_commands(options: Iterable[tuple[str, str | None]]) -> str | None:
    """The OS family implied by ``(id, command)`` pairs whose command is exactly one of the catalogue's own
    per-OS commands for that id (e.g. ``install-bubblewrap`` with ``sudo dnf install -y bubblewrap`` -> ``fedora``);
    ``None`` when none matches. Only FlyBot's own text can match, so a Bot cannot smuggle a command this way."""
    for option_id, command in options:
        entry = CATALOGUE.get(option_id)
        if entry is None or not command:
            continue
        for family, known in entry.commands.items():
            if family != "*" and known == command:
                return family
    return None
