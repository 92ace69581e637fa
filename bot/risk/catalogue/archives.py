"""Archivers beyond tar, zip and gzip (programs/archive.py, programs/files.py): 7-Zip, RAR, ar, atool.

Listing and testing read; adding writes the archive named first; extracting writes where it runs (or ``-o``),
and at the workspace root may plant git's or an agent's control files (``unpack``: destructive there).
Switches that delete the sources after archiving (7-Zip ``-sdel``) delete.
"""

from __future__ import annotations

_SEVEN = (
    "-o*=out -t* -m* -p* -r -r- -r0 -y -x* -i* -v* -so -si -sdel:delete -w*=out -bb* -bs* -bt -ba -aoa -aos -aou "
    "-aot -ao* -mhe* -mx* -scs* -slt -sni -sns* -snl -snh -spf:unknown -spf2:unknown -ssw -stl -stx* -an -ai* -ax* "
    "-u* -l -sccUTF-8 -sccWIN -sccDOS -scrc* -bd -h --help"
)

CATALOGUE: dict[str, object] = {
    "7z 7za 7zr 7zz": {
        "source": "7z(1) (7-Zip 24): commands a, d, e, l, t, u, x, rn, h, i and -switches",
        "options": _SEVEN,
        "guard": "archive:seven_reads",
        "commands": {
            "a u d rn": {"grade": "read", "operands": "first-out"},
            "x e": {"grade": "unpack"},
            "l t h i b": {"grade": "read"},
        },
    },
    "unrar": {
        "source": "unrar(1) (UnRAR 7)",
        "options": "-o+ -o- -or -y -p* -r -ad -ap* -x* -n* -inul -idq -kb -ierr -c- -cfg- -ow -op*=out -v",
        "commands": {"x e": {"grade": "unpack", "operands": "last-out"}, "l lb lt lta v vb vt vta t p": "read"},
    },
    "rar": {
        "source": "rar(1) (RAR 7)",
        "open": True,
        # -ilog[NAME]: "Log errors to file" NAME (without one, rar.log under the home directory)
        "options": "-df:delete -dr:delete -m* -p* -r -ep* -hp* -v* -ilog:home -ilog*=out",
        "commands": {
            "a m u f c ch cw k rc rn rr rv s": {"grade": "read", "operands": "first-out"},
            "m": {"grade": "delete", "operands": "first-out"},
            "d": {"grade": "read", "operands": "first-out"},
            "x e": "unpack",
            "l lb lt v vb vt t p": "read",
        },
    },
    "ar": {
        "source": "ar(1) (GNU binutils 2.43): the first letters are the operation, then the archive",
        "commands": {
            "t tv": "read",
            "x xv xo": "unpack",
            "r rc rcs rs rcsv rv q qc cr crs cru ru rcu d dv s m": {"grade": "read", "operands": "first-out"},
        },
    },
    "als": {"source": "atool(1) (atool 0.39): als lists archives", "grade": "read", "open": True},
    "aunpack": {
        "source": "atool(1) (atool 0.39): aunpack extracts into the current directory or -X DIR",
        "grade": "unpack",
        "open": True,
        "options": "-X=out --extract-to=out",
    },
    "apack": {
        "source": "atool(1) (atool 0.39): apack ARCHIVE FILES...",
        "grade": "read",
        "open": True,
        "operands": "first-out",
    },
}
