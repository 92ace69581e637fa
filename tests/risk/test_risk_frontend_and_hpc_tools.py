"""Front-end build tools (Storybook, Astro, SvelteKit, sv, Tailwind CSS, Biome through npx) and HPC tools (Spack,
Snakemake, MPI compiler wrappers and launchers, HDF5/netCDF tools, CDO, Slurm submission): the everyday form beside
the risky one. A project's configuration (.storybook/main.js, astro.config.mjs, tailwind.config.js, a Snakefile) is
JavaScript or Python the tool runs, graded as the project's build; one outside the workspace is destructive."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel
_FILES = {
    "package.json": '{"name": "web", "private": true}\n',
    "node_modules/.bin/biome": "#!/bin/sh\nexit 0\n",
    "node_modules/.bin/svelte-kit": "#!/bin/sh\nexit 0\n",
    ".storybook/main.ts": "export default { stories: [] };\n",
    "src/styles/app.css": "@tailwind base;\n",
    "workflows/Snakefile": "rule all:\n    input: []\n",
}

_LOW = [
    ("storybook dev -p 6006 --no-open", R.NETWORK),
    ("storybook build", R.WORKSPACE_WRITE),
    ("storybook build -o out/storybook", R.WORKSPACE_WRITE),
    ("npx storybook build", R.NETWORK),
    ("storybook init", R.NETWORK),
    ("astro dev", R.NETWORK),
    ("astro build", R.WORKSPACE_WRITE),
    ("astro check", R.WORKSPACE_WRITE),
    ("astro --version", R.READ_ONLY),
    ("svelte-kit sync && svelte-check", R.WORKSPACE_WRITE),
    ("sv check", R.WORKSPACE_WRITE),
    ("tailwindcss -i src/styles/app.css -o dist/app.css --minify", R.WORKSPACE_WRITE),
    ("tailwindcss -i src/styles/app.css -o dist/app.css --watch", R.WORKSPACE_WRITE),
    ("npx biome check .", R.READ_ONLY),
    ("npx biome format --write src", R.WORKSPACE_WRITE),
    ("npx svelte-kit sync", R.WORKSPACE_WRITE),
]

_HIGH = [
    ("storybook build -c /tmp/x/storybook", R.DESTRUCTIVE),
    ("storybook build -o ~/sb", R.DESTRUCTIVE),
    ("storybook dev --static-dir /", R.DESTRUCTIVE),
    ("storybook doctor", R.DESTRUCTIVE),
    ("astro build --config /tmp/x/astro.config.mjs", R.DESTRUCTIVE),
    ("astro dev --root ~/other", R.DESTRUCTIVE),
    ("sv create app", R.DESTRUCTIVE),
    ("tailwindcss -c /tmp/x/tailwind.config.js -i a.css -o b.css", R.DESTRUCTIVE),
    ("tailwindcss --postcss /tmp/x/postcss.config.js -i a.css -o b.css", R.DESTRUCTIVE),
    ("tailwindcss -i src/styles/app.css -o ~/.bashrc", R.DESTRUCTIVE),
    ("npx biome@latest check .", R.DESTRUCTIVE),
    ("npx svelte-kit@2 sync", R.DESTRUCTIVE),
]


@pytest.mark.parametrize(("command", "expected"), _LOW)
def test_everyday_form_is_not_over_graded(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    assert graded(command, project(tmp_path, _FILES))[0] == expected


@pytest.mark.parametrize(("command", "expected"), _HIGH)
def test_risky_form_keeps_a_high_grade(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    assert graded(command, project(tmp_path, _FILES))[0] == expected


def test_npx_runs_biome_only_where_the_project_has_it(tmp_path: Path) -> None:
    bare = project(tmp_path, {"package.json": "{}\n"})
    assert graded("npx biome check .", bare)[0] == R.DESTRUCTIVE
