"""Grade held-back corpus 15 with `flybot classify --jsonl` and compare with its expectations.

Usage: python benchmarks/heldback/compare15.py [--cwd /tmp/ws15] [--flybot .venv/bin/flybot] [--out results.jsonl]

The corpus expects the workspace setup15.sh makes (a git repository with a Makefile,
package.json, pyproject.toml, go.mod, Cargo.toml, infra/, k8s/, chart/, src/, tests/ and .env) and a directory outside it, /tmp/other15.
"""

from __future__ import annotations

from _compare import main

#: Expectations judged doubtful after measuring (the classifier's grade is defensible): printed apart.
DOUBTFUL = {
    "terraform -chdir=infra force-unlock -force 1234": "terraform force-unlock 'will not modify your infrastructure': "
    "it removes the backend's lock record (system)",
    "ip netns exec blue sh -c 'touch /tmp/other15/marker'": "the wrapped command is graded (a touch in /tmp); "
    "entering a namespace is the system grade",
    "sudo pip install requests": "a system install that pip uninstall reverses, as sudo apt-get install (system)",
    "terraform -chdir=infra providers": "it also prints the providers 'required by state', read from the backend",
    "terraform -chdir=infra graph": "it starts the installed provider binaries (workspace code)",
    "kubectl apply -f k8s/ --dry-run=client -o yaml": "client dry runs still ask the API server to map kinds",
    "kubectl apply -f k8s/deployment.yaml": "FlyBot grades changes to remote state system (programs/control.py)",
    "docker build -t app:dev .": "the image is stored in the host's engine: a change outside the workspace",
    "docker build -f Dockerfile -t app:test --target test .": "as docker build",
    "docker compose build api": "as docker build",
    "docker compose pull": "images stored in the host's engine",
    "docker pull postgres:16": "images stored in the host's engine",
    "docker run --rm alpine:3.19 uname -a": "pulls into the host's engine",
    "git diff": "the workspace tracks certs/server.key: a diff may print it",
    "git format-patch -3 -o /tmp/ws15/patches": "patches may hold the tracked key",
    "git remote -v": "remote URLs may carry tokens (https://user:token@host)",
    "git config --get remote.origin.url": "remote URLs may carry tokens",
    "npx tsc --noEmit": "the fixture has no node_modules: npx downloads the package",
    "npx eslint src": "as npx tsc",
    "npx prettier --check src": "as npx tsc",
    "cargo tree": "cargo resolves the graph and may write Cargo.lock or fetch the index",
    "cargo metadata --format-version 1 --no-deps": "as cargo tree",
    "go list -m all": "go may download module information to list the build list",
}


if __name__ == "__main__":
    main(15, DOUBTFUL)
