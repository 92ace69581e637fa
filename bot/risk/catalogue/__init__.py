"""The program catalogue: programs described as data, one module per family (format: bot/risk/README.md).

Each family module holds ``CATALOGUE``, a mapping from program names (several names separated by spaces share an
entry) to the entry; programs/catalogue.py compiles an entry into a handler when the program is first looked up.
Nothing here is imported while grading a command whose programs are all in the core table (table.py): the index
below is read on the first lookup of a name the core table does not hold.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

__all__ = ["FAMILIES", "index"]

#: The family modules of this package. A new family is a new module and one name here.
FAMILIES = (
    "build", "packages", "checks", "vcs", "containers", "cloud", "databases", "crypto", "media", "archives", "mobile",
    "system", "monitors", "devtools", "versions", "embedded", "hpc",
)  # fmt: skip


def family(name: str) -> Mapping[str, Mapping[str, object]]:
    """The ``CATALOGUE`` of the family module ``name``."""
    catalogue: Mapping[str, Mapping[str, object]] = importlib.import_module(f"{__name__}.{name}").CATALOGUE
    return catalogue


def index() -> dict[str, tuple[str, str]]:
    """Every catalogued program name -> (family, the entry's key). A name in two entries is an error."""
    found: dict[str, tuple[str, str]] = {}
    for module in FAMILIES:
        for key in family(module):
            for name in key.split():
                if name in found:
                    raise ValueError(f"catalogue: {name} is in {found[name]} and in {(module, key)}")
                found[name] = (module, key)
    return found
