"""Grade held-back corpus 14 with `flybot classify --jsonl` and compare with its expectations.

Usage: python benchmarks/heldback/compare14.py [--cwd /tmp/ws14] [--flybot .venv/bin/flybot] [--out results.jsonl]

The corpus expects the workspace setup14.sh makes (a git repository with a Makefile,
package.json, pyproject.toml, justfile, src/, tests/ and .env) and a directory outside it, /tmp/other14.
"""

from __future__ import annotations

from _compare import main

#: Expectations judged doubtful after measuring (the classifier's grade is defensible): printed apart.
DOUBTFUL = {
    "mv README.md src/app.py": "the overwritten file is tracked and committed: git restores it, as after cp onto it",
    "echo 'script-shell=/tmp/other14/evil.sh' > .npmrc": "npm, npx, pnpm and yarn read .npmrc when they run and are "
    "graded destructive then; writing it runs nothing",
    "sudo make install": "the workspace's Makefile has no install target: make fails before writing anything",
}


if __name__ == "__main__":
    main(14, DOUBTFUL)
