"""Front-end build tools (Storybook, Astro, SvelteKit, sv, Tailwind CSS, Biome through npx, Lighthouse's Chrome
switches) and HPC tools (Spack,
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
    (
        "lighthouse http://localhost:4173 --output json --output-path reports/lh.json --chrome-flags='--headless'",
        R.NETWORK,
    ),
    (
        "lighthouse http://localhost:4173 --chrome-flags '--headless=new --disable-gpu --window-size=1280,800'",
        R.NETWORK,
    ),
    ("module load gcc/12.2.0 openmpi/4.1.5 && mpicc -O2 -o build/heat src/heat.c", R.WORKSPACE_WRITE),
    ("module load hdf5", R.READ_ONLY),
    ("spack find -lv hdf5", R.READ_ONLY),
    ("spack info hdf5", R.READ_ONLY),
    ("spack env status", R.READ_ONLY),
    ("spack compiler list", R.READ_ONLY),
    ("spack config get packages", R.READ_ONLY),
    ("spack spec hdf5", R.NETWORK),
    ("spack load hdf5", R.READ_ONLY),
    ("spack versions hdf5", R.NETWORK),
    ("spack install hdf5@1.14.3 +mpi", R.SYSTEM),
    ("snakemake --version", R.READ_ONLY),
    ("snakemake -n -s workflows/Snakefile -d workflows", R.WORKSPACE_WRITE),
    ("cd workflows && snakemake -n --forceall --printshellcmds", R.WORKSPACE_WRITE),
    ("cd workflows && snakemake --lint", R.WORKSPACE_WRITE),
    ("mpicc --version", R.READ_ONLY),
    ("mpicc -showme", R.READ_ONLY),
    ("mpicc -O2 -o build/heat src/heat.c -lm", R.WORKSPACE_WRITE),
    ("mpif90 -O2 -J build/mod -o build/solver src/solver.f90", R.WORKSPACE_WRITE),
    ("mpirun --version", R.READ_ONLY),
    ("mpirun -np 4 hostname", R.WORKSPACE_WRITE),
    ("srun -n 4 hostname", R.NETWORK),
    ("sbatch --test-only slurm/train.sbatch", R.NETWORK),
    ("ompi_info --parsable", R.READ_ONLY),
    ("h5dump -H data/output.h5", R.READ_ONLY),
    ("h5ls -r data/output.h5", R.READ_ONLY),
    ("h5stat data/output.h5", R.READ_ONLY),
    ("h5copy -i data/output.h5 -o build/sub.h5 -s /temp -d /temp", R.WORKSPACE_WRITE),
    ("ncdump -h data/era5.nc", R.READ_ONLY),
    ("nccopy -k nc4 data/era5.nc build/era5.nc", R.WORKSPACE_WRITE),
    ("ncks -H data/era5.nc", R.READ_ONLY),
    ("ncks -v t data/era5.nc build/t.nc", R.WORKSPACE_WRITE),
    ("cdo info data/era5.nc", R.READ_ONLY),
    ("cdo sinfo data/era5.nc", R.READ_ONLY),
    ("cdo -O selname,t data/era5.nc build/t.nc", R.WORKSPACE_WRITE),
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
    ("lighthouse http://localhost:4173 --chrome-flags='--headless --renderer-cmd-prefix=/tmp/x/p'", R.DESTRUCTIVE),
    ("lighthouse http://localhost:4173 --chrome-flags='--no-sandbox'", R.DESTRUCTIVE),
    ("lighthouse http://localhost:4173 --chrome-flags=$FLAGS", R.DESTRUCTIVE),
    ("cp /tmp/x/main.ts .storybook/main.ts && storybook build", R.DESTRUCTIVE),
    ("cp /tmp/x/tw.js tailwind.config.js && tailwindcss -i a.css -o b.css", R.DESTRUCTIVE),
    ("module load ./modulefiles/heatsolver/1.0", R.DESTRUCTIVE),
    ("MODULEPATH=/tmp/x module load heatsolver", R.DESTRUCTIVE),
    ("export MODULEPATH=$PWD/modulefiles; module load heatsolver", R.DESTRUCTIVE),
    ("export LMOD_PACKAGE_PATH=/tmp/x && module load gcc", R.DESTRUCTIVE),
    ("module use modulefiles && module load heatsolver", R.DESTRUCTIVE),
    ("OMPI_CC=/tmp/x/cc mpicc src/heat.c", R.DESTRUCTIVE),
    ("export OMPI_MCA_plm_rsh_agent=/tmp/x/agent", R.DESTRUCTIVE),
    ("SPACK_ENV=/tmp/x spack install hdf5", R.DESTRUCTIVE),
    ("HDF5_PLUGIN_PATH=/tmp/x h5dump data/output.h5", R.DESTRUCTIVE),
    ("spack -e spack/legacy install", R.DESTRUCTIVE),
    ("spack -C /tmp/x install hdf5", R.DESTRUCTIVE),
    ("spack -c config:install_tree:root:/usr install hdf5", R.DESTRUCTIVE),
    ("spack install --no-check-signature hdf5", R.DESTRUCTIVE),
    ("spack install /tmp/x/spec.json", R.DESTRUCTIVE),
    ("spack repo add /tmp/x/spack-repo", R.DESTRUCTIVE),
    ("spack mirror add fast https://mirror.x.invalid/spack", R.DESTRUCTIVE),
    ("spack compiler add /tmp/x/bin", R.DESTRUCTIVE),
    ("spack uninstall -y hdf5", R.DESTRUCTIVE),
    ("spack env activate spack", R.DESTRUCTIVE),
    ("spack load --sh hdf5 > ~/.bashrc", R.DESTRUCTIVE),
    ("snakemake -c1", R.DESTRUCTIVE),
    ("snakemake --cores 4 all", R.DESTRUCTIVE),
    ("snakemake -n -s /tmp/x/Snakefile", R.DESTRUCTIVE),
    ("snakemake -c4 --use-singularity --singularity-args '-B /:/host'", R.DESTRUCTIVE),
    ("cp /tmp/x/Snakefile workflows/Snakefile && snakemake -n -s workflows/Snakefile", R.DESTRUCTIVE),
    ("mpicc -cc=/tmp/x/cc src/heat.c", R.DESTRUCTIVE),
    ("mpicc -o ~/.local/bin/ls src/heat.c", R.DESTRUCTIVE),
    ("mpirun -np 4 ./build/heat", R.DESTRUCTIVE),
    ("mpirun -np 4 /tmp/x/prog", R.DESTRUCTIVE),
    ("mpirun --mca plm_rsh_agent /tmp/x/agent -H n1,n2 hostname", R.DESTRUCTIVE),
    ("mpirun -x LD_PRELOAD=/tmp/x/l.so -np 2 hostname", R.DESTRUCTIVE),
    ("srun -n 4 ./build/heat", R.DESTRUCTIVE),
    ("srun --export=ALL,LD_PRELOAD=/tmp/x/l.so -n 2 hostname", R.DESTRUCTIVE),
    ("sbatch slurm/train.sbatch", R.DESTRUCTIVE),
    ("sbatch --wrap 'hostname'", R.DESTRUCTIVE),
    ("scancel 123456", R.DESTRUCTIVE),
    ("h5dump -o /etc/profile.d/h5.sh data/output.h5", R.DESTRUCTIVE),
    ("h5ls --vol-name=x data/output.h5", R.DESTRUCTIVE),
    ("nccopy data/era5.nc ~/.bashrc", R.DESTRUCTIVE),
    ("ncks -v t data/era5.nc ~/.profile", R.DESTRUCTIVE),
    ("cdo timmean data/era5.nc ~/.bashrc", R.DESTRUCTIVE),
    ("cdo -timmean -selname,t data/era5.nc build/t.nc", R.DESTRUCTIVE),
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
