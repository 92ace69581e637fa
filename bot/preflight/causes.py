"""Why a backend is not usable: the causes the preflight names, and how a bwrap failure is classified (pure).

bubblewrap causes, decided from the trial's stderr and the host's settings, first match wins:

1. ``not-installed``: no ``bwrap`` on ``PATH``.
2. ``apparmor-userns``: ``/proc/sys/kernel/apparmor_restrict_unprivileged_userns`` is ``1`` (Ubuntu 23.10+);
   bwrap then typically fails with ``setting up uid map: Permission denied``.
3. ``userns-disabled``: ``/proc/sys/kernel/unprivileged_userns_clone`` is ``0`` (Debian-patched kernels), or bwrap
   says so itself (``No permissions to create(ing) new namespace``).
4. ``userns-limit``: ``/proc/sys/user/max_user_namespaces`` is ``0`` (unshare fails with ENOSPC,
   ``No space left on device``; ``user_namespaces(7)``).
5. ``container``: the preflight runs inside a container (``/.dockerenv``, ``/run/.containerenv``) that does not
   let it create the namespaces or mounts.
6. ``other``: anything else (a seccomp filter, a setuid bwrap refused, ...); the probe's error text tells more.

Landlock causes: ``not-built`` (the syscall answers ENOSYS), ``disabled-at-boot`` (EOPNOTSUPP), ``abi-too-old``
(an ABI below the mode's need, see ``bot.preflight.decide.LANDLOCK_MIN_ABI``), ``not-listed`` (the LSM list, the
second opinion, does not name landlock).
"""

from __future__ import annotations

from dataclasses import dataclass

NOT_INSTALLED = "not-installed"
APPARMOR_USERNS = "apparmor-userns"
USERNS_DISABLED = "userns-disabled"
USERNS_LIMIT = "userns-limit"
CONTAINER = "container"
OTHER = "other"
BWRAP_CAUSES = (NOT_INSTALLED, APPARMOR_USERNS, USERNS_DISABLED, USERNS_LIMIT, CONTAINER, OTHER)

LANDLOCK_NOT_BUILT = "not-built"
LANDLOCK_DISABLED = "disabled-at-boot"
LANDLOCK_OLD_ABI = "abi-too-old"
LANDLOCK_NOT_LISTED = "not-listed"
LANDLOCK_CAUSES = (LANDLOCK_NOT_BUILT, LANDLOCK_DISABLED, LANDLOCK_OLD_ABI, LANDLOCK_NOT_LISTED)

# cause -> the catalogue ids of the host-side unlock options for it (bot.preflight.catalogue), in order.
CAUSE_UNLOCK: dict[tuple[str, str], tuple[str, ...]] = {
    ("bubblewrap", NOT_INSTALLED): ("install-bubblewrap",),
    ("bubblewrap", APPARMOR_USERNS): ("bwrap-apparmor-profile", "apparmor-userns-sysctl"),
    ("bubblewrap", USERNS_DISABLED): ("userns-clone-sysctl",),
    ("bubblewrap", USERNS_LIMIT): ("userns-max-sysctl",),
    ("bubblewrap", CONTAINER): ("container-userns",),
    ("bubblewrap", OTHER): (),
    ("landlock", LANDLOCK_NOT_BUILT): ("landlock-kernel",),
    ("landlock", LANDLOCK_DISABLED): ("landlock-boot",),
    ("landlock", LANDLOCK_OLD_ABI): ("landlock-kernel",),
    ("landlock", LANDLOCK_NOT_LISTED): ("landlock-kernel",),
}


@dataclass(frozen=True, slots=True)
class HostSettings:
    """The host settings that explain a bwrap failure (``None``: the file is absent or unreadable).

    Attributes:
        apparmor_restrict_userns: ``/proc/sys/kernel/apparmor_restrict_unprivileged_userns``, stripped.
        unprivileged_userns_clone: ``/proc/sys/kernel/unprivileged_userns_clone``, stripped.
        max_user_namespaces: ``/proc/sys/user/max_user_namespaces``, stripped.
        container: the container marker found (``/.dockerenv``, ``/run/.containerenv``), else ``None``.
    """

    apparmor_restrict_userns: str | None = None
    unprivileged_userns_clone: str | None = None
    max_user_namespaces: str | None = None
    container: str | None = None


def classify_bwrap_failure(stderr: str, host: HostSettings) -> str:
    """The cause of a failed bwrap trial (rules 2-6 of the module docstring) from its stderr and ``host``."""
    text = stderr.lower()
    if host.apparmor_restrict_userns == "1":
        return APPARMOR_USERNS
    if host.unprivileged_userns_clone == "0" or "no permissions to creat" in text:
        return USERNS_DISABLED
    if host.max_user_namespaces == "0" or "no space left on device" in text:
        return USERNS_LIMIT
    if host.container is not None:
        return CONTAINER
    return OTHER


def unlock_ids(backend: str, cause: str | None) -> tuple[str, ...]:
    """The catalogue ids of the host-side options for ``backend``'s ``cause`` (``()`` when none is known)."""
    if cause is None:
        return {"bubblewrap": ("install-bubblewrap",), "landlock": ("landlock-kernel",)}.get(backend, ())
    return CAUSE_UNLOCK.get((backend, cause), ())


CAUSE_TEXT: dict[tuple[str, str | None], str] = {
    ("bubblewrap", NOT_INSTALLED): "not installed",
    (
        "bubblewrap",
        APPARMOR_USERNS,
    ): "present, but user namespaces are restricted by AppArmor (kernel.apparmor_restrict_unprivileged_userns=1)",
    (
        "bubblewrap",
        USERNS_DISABLED,
    ): "present, but unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone=0)",
    ("bubblewrap", USERNS_LIMIT): "present, but the user-namespace limit is 0 (user.max_user_namespaces=0)",
    ("bubblewrap", CONTAINER): "present, but this container does not let it create namespaces",
    ("bubblewrap", OTHER): "present, but not runnable (a seccomp filter or another restriction)",
    ("bubblewrap", None): "missing or not runnable (cause not reported)",
    ("landlock", LANDLOCK_NOT_BUILT): "not built into the kernel (ENOSYS)",
    ("landlock", LANDLOCK_DISABLED): "built into the kernel but disabled at boot (EOPNOTSUPP)",
    ("landlock", LANDLOCK_OLD_ABI): "its ABI is older than the ABI 3 needed",
    ("landlock", LANDLOCK_NOT_LISTED): "not enabled (not in the kernel's LSM list)",
    ("landlock", None): "not enabled (cause not reported)",
    ("sandbox-exec", None): "missing or not runnable",
    ("windows-acl", None): "not available",
}
"""``(backend, cause)`` -> the cause in FlyBot's words, as the owner's DM shows it."""


def cause_text(backend: str, cause: str | None, abi: int | None = None) -> str:
    """The owner-facing words for ``backend``'s ``cause`` (``"not available"`` for what FlyBot does not know)."""
    if backend == "landlock" and cause == LANDLOCK_OLD_ABI and abi is not None:
        return f"ABI {abi} is older than the ABI 3 needed"
    return CAUSE_TEXT.get((backend, cause)) or CAUSE_TEXT.get((backend, None)) or "not available"
