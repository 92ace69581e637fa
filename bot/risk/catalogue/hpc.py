"""Scientific computing and HPC: Spack, Snakemake, MPI compiler wrappers and launchers, Slurm submission, the HDF5,
netCDF (netCDF-C, NCO) and CDO file tools.

Spack's package recipes are Python it imports from the configured repositories: installing runs their build code
and writes the install tree (``install``: system on the host); a repository, mirror or compiler added changes what
every later install runs (``source``); an environment (``-e``), configuration scope (``-C``) or inline setting
(``-c``) is configuration FlyBot does not read (unknown). A Snakefile is Python Snakemake runs: a dry run, lint or
graph evaluates it (the project's build) and a real run runs its rules' shell commands (``runs``). The MPI wrappers
are the C, C++ and Fortran compilers with MPI's flags (graded as gcc is); the launchers run the program given
(``wrap``); a remote host list, an exported variable or an MCA parameter (which may name the remote shell agent) is
unknown. The HDF5/netCDF tools print a file's contents or write the output file named.
"""

from __future__ import annotations

from .build import _CC_OPTIONS

#: MPI wrapper options (Open MPI mpicc(1) "--showme", MPICH mpicc(1) "-show", "-compile_info", "-link_info"): they
#: print the underlying compiler command and run nothing (-showme:compile, -showme:link... are graded as a compile); MPICH's -cc=/-cxx=/-fc= and -profile= choose the compiler
#: or a profiling library the wrapper runs or links.
_MPI_SHOW = "-showme --showme -show -compile_info -link_info"

_SPACK_INSTALL = (
    "-j= --jobs= -v --verbose --fresh --reuse --reuse-deps --fresh-roots --deprecated --only= -u= --until= "
    "-y --yes-to-all --keep-stage --keep-prefix --dont-restage --restage --use-cache --no-cache --cache-only "
    "--use-buildcache= --include-build-deps --show-log-on-error --source --test= --fail-fast --log-format= "
    "--log-file=out --add --no-add --clean --dirty -f=in --file=in --overwrite"
)

CATALOGUE: dict[str, object] = {
    "spack": {
        "source": "Spack documentation (spack.readthedocs.io): Basic Usage, Command Reference, Environments, "
        "Package Repositories, Mirrors (Spack 0.23)",
        "options": "-h --help -H --all-help -V --version -d --debug -v --verbose --color= --timestamp --stacktrace "
        "--backtrace -E --no-env -l --enable-locks -L --disable-locks -e=:unknown --env=:unknown -D=:unknown "
        "--env-dir=:unknown -C=:unknown --config-scope=:unknown -c=:unknown --config=:unknown -k:unknown "
        "--insecure:unknown",
        "when": {"-h --help -H --all-help -V --version": "read"},
        "commands": {
            "find list info arch providers dependencies dependents graph location": {
                "grade": "read",
                "else": "read",
                "open": True,
                "options": "--update=out",
            },
            "compiler compilers": {
                "grade": "read",
                "commands": {"list ls info": {"grade": "read", "else": "read"}, "find add": "source"},
            },
            "compilers": {"grade": "read"},
            "config": {"commands": {"get blame list": {"grade": "read", "else": "read"}}},
            "env": {"commands": {"status st list ls": {"grade": "read"}}},
            "mirror repo": {
                "commands": {"list ls": {"grade": "read"}, "add remove rm set-url set": {"grade": "source"}},
            },
            # the first concretization may bootstrap clingo from Spack's binary mirror (Spack "Bootstrapping")
            "spec solve": {"grade": "network", "else": "network", "open": True},
            "versions checksum": {"grade": "network", "else": "network", "open": True},
            "install": {"grade": "install", "else": "install", "options": _SPACK_INSTALL, "unsafe": ". /"},
            "uninstall gc clean": {"grade": "delete", "else": "delete", "open": True},
            # load puts installed packages of the install tree on the shell's paths (as module load); an environment
            # (env activate) is configuration FlyBot does not read, so stays unrecognised
            "load unload": {
                "grade": "read",
                "else": "read",
                "options": "--sh --csh --fish --bat --pwsh --first --only= --list -a --all",
            },
        },
    },
    "snakemake": {
        "source": "Snakemake command line interface (snakemake.readthedocs.io/en/stable/executing/cli.html) "
        "(Snakemake 8): -n/--dry-run, --lint, --dag, --rulegraph, --summary and --list evaluate the Snakefile and "
        "run no job",
        "grade": "runs",
        "options": "-n --dry-run --dryrun -s=project --snakefile=project -d=project --directory=project -c= "
        "--cores= -j= --jobs= -p --printshellcmds -F --forceall -f --force -R= --forcerun= -k --keep-going "
        "--rerun-incomplete --ri -q --quiet -r --reason --lint --dag --rulegraph --filegraph --summary -S -D "
        "--detailed-summary -l --list --list-rules --lt --list-target-rules --configfile=project "
        "--configfiles=project --config= -C= --use-conda --use-singularity --use-apptainer --software-deployment-method= "
        "--sdm= -v --version -h --help",
        "when": {
            "-n --dry-run --dryrun --lint --dag --rulegraph --filegraph --summary -S -D --detailed-summary -l "
            "--list --list-rules --lt --list-target-rules": "build",
            "-v --version -h --help": "read",
        },
    },
    "mpicc mpicxx mpic++ mpiCC mpif77 mpif90 mpifort": {
        "source": "Open MPI mpicc(1) (Open MPI 5.0) and MPICH mpicc(1) (MPICH 4.2): the compiler wrappers run the "
        "underlying C, C++ or Fortran compiler (gcc(1), gfortran(1)) with MPI's flags",
        "grade": "build",
        "options": _CC_OPTIONS
        + " --version -J=out -showme* --showme* "
        + _MPI_SHOW
        + " -cc=:unknown -cxx=:unknown -fc=:unknown "
        "-f77=:unknown -f90=:unknown -profile=:unknown",
        "when": {"--version " + _MPI_SHOW: "read"},
        "guard": "build:cc_includes",
    },
    "mpirun mpiexec": {
        "source": "Open MPI mpirun(1) (Open MPI 5.0) and MPICH mpiexec(1) (MPICH 4.2): runs the program given as "
        "its operands in the processes it starts",
        "grade": "wrap",
        "clusters": False,
        "options": "-n= -np= --np= -c= -N= --npernode= -npernode= -ppn= --map-by= --bind-to= --rank-by= "
        "--report-bindings --oversubscribe --use-hwthread-cpus --display-map --display= --tag-output "
        "--timestamp-output --output-filename=out --merge-stderr-to-stdout --allow-run-as-root -q --quiet -v "
        "--verbose -x=:unknown -genv=:unknown -env=:unknown -genvall -H=:unknown --host=:unknown -host=:unknown "
        "-hosts=:unknown --hostfile=:unknown -hostfile=:unknown -f=:unknown --machinefile=:unknown "
        "-machinefile=:unknown --mca=:unknown -mca=:unknown --gmca=:unknown --prefix=:unknown -launcher=:unknown "
        "-bootstrap=:unknown -bootstrap-exec=:unknown --wdir=project -wdir=project --version -V --help -h",
        "when": {"--version -V --help -h": "read"},
    },
    "ompi_info": {
        "source": "ompi_info(1) (Open MPI 5.0): prints the Open MPI installation's configuration and MCA parameters",
        "grade": "read",
        "open": True,
    },
    "srun": {
        "source": "srun(1) (Slurm 24.05): runs the program given as a job step on the nodes the controller allocates",
        "grade": "wrap",
        "guard": "system:slurm_step",
        "options": "-n= --ntasks= -N= --nodes= -c= --cpus-per-task= -p= --partition= -t= --time= --mem= "
        "--mem-per-cpu= -G= --gpus= --gres= --ntasks-per-node= -A= --account= -q= --qos= -J= --job-name= -C= "
        "--constraint= -w= --nodelist= --reservation= --exclusive --overlap -l --label -u --unbuffered --mpi= "
        "--cpu-bind= --gpus-per-task= -o=out --output=out -e=out --error=out -D=project --chdir=project "
        "--export=:unknown --prolog=:unknown --epilog=:unknown --task-prolog=:unknown --task-epilog=:unknown "
        "--bcast=:unknown",
    },
    "sbatch": {
        "source": "sbatch(1) (Slurm 24.05): submits a batch script that later runs on the cluster; --test-only "
        '"Validate the batch script and return an estimate of when a job would be scheduled to run": nothing is '
        "submitted",
        "grade": "runs",
        "open": True,
        "options": "--test-only",
        "when": {"--test-only": "network"},
    },
    "scancel": {
        "source": "scancel(1) (Slurm 24.05): signals or cancels jobs on the controller; a cancelled job's work is lost",
        "grade": "destroy",
        "open": True,
    },
    "h5dump": {
        "source": "h5dump(1) (HDF5 1.14): prints an HDF5 file's contents; -o/--output writes the data and -O/--ddl "
        "the DDL to the file named; --vol-*/--vfd-* load a connector plugin",
        "grade": "read",
        "open": True,
        "options": "-o=out --output=out -O=out --ddl=out --vol-*:unknown --vfd-*:unknown",
    },
    "h5ls h5stat h5diff": {
        "source": "h5ls(1), h5stat(1), h5diff(1) (HDF5 1.14): print an HDF5 file's objects, statistics or "
        "differences; --vol-*/--vfd-* load a connector plugin",
        "grade": "read",
        "open": True,
        "options": "--vol-*:unknown --vfd-*:unknown",
    },
    "h5copy": {
        "source": "h5copy(1) (HDF5 1.14): copies an object from the -i file into the -o file",
        "grade": "read",
        "open": True,
        "options": "-i=in --input=in -o=out --output=out",
    },
    "ncdump": {
        "source": "ncdump(1) (netCDF-C 4.9): prints a netCDF file (header with -h, coordinates with -c) as CDL",
        "grade": "read",
        "open": True,
    },
    "nccopy": {
        "source": "nccopy(1) (netCDF-C 4.9): nccopy [options] infile outfile",
        "grade": "read",
        "open": True,
        "operands": "last-out",
    },
    "ncks": {
        "source": "ncks(1) (NCO 5.2): ncks [options] in.nc [out.nc]: prints, or writes the extracted data to out.nc "
        "(or -o); -l names where remote files are stored",
        "grade": "read",
        "operands": "last-out",
        "options": "-H -m -M -h -a -C -c -O -A -q -Q -P -r -F -3 -4 -5 -6 -7 -v= -x -d= -g= --grp= -s= -L= "
        "--cdl --json --jsn --xml --trd --hdn --no_hst --hst -D= --version -o=out --output=out --fl_out=out "
        "-p=in -l=out",
    },
    "cdo": {
        "source": "cdo(1), CDO User Guide (Climate Data Operators 2.4): cdo [options] operator ifiles ofile; the "
        "information operators print, every other operator writes the last file named",
        "else": "read",
        "operands": "last-out",
        "options": "-O -f= -z= -P= -s -v -V -h --help -L -b= -r -R -t= -k= -a -p= -Q --no_history --sortname",
        "when": {"-V -h --help": "read"},
        "commands": {
            "info infon sinfo sinfon griddes zaxisdes vardes partab codetab showname showcode showlevel showdate "
            "showtime showtimestamp showformat showattribute ntime nvar nlevel ndate nmon nyear npar ngrids "
            "nzaxis diff diffn diffv": {"grade": "read", "else": "read"},
        },
    },
}
