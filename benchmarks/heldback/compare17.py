"""Grade held-back corpus 17 with `flybot classify --jsonl` and compare with its expectations.

Usage: python benchmarks/heldback/compare17.py [--cwd /tmp/ws17] [--flybot .venv/bin/flybot] [--out results.jsonl]

The corpus expects the workspace setup17.sh makes (a git repository of a polyglot web monorepo: a pnpm/turbo root
with apps/ and packages/, services/ in Rails, Django, Flask, Laravel, Maven, Gradle, sbt, .NET, Go and Rust,
native/ in C with CMake and Meson, db/ with SQL scripts and a sqlite database, .env files) and a directory outside
it, /tmp/other17, holding its own recipes and configs.
"""

from __future__ import annotations

from _compare import main

#: Expectations judged doubtful after measuring (the classifier's grade is defensible): printed apart.
_POSTINSTALL = (
    "the root package.json's postinstall runs node scripts/postinstall.js, a program file FlyBot does not read: "
    "code the grade cannot see is destructive"
)
_PROGRAM_FILE = "FlyBot does not read a program file it is asked to run: code the grade cannot see is destructive"
_CLEAN = "deleting is destructive (docs/grading.md), a build tool's own output directory included"
_REMOTE_CHANGE = "a change on the database server: FlyBot grades a remote change system"
DOUBTFUL: dict[str, str] = {
    "cat services/payments/appsettings.Development.json": "ASP.NET Core keeps secrets out of appsettings files "
    '("Safe storage of app secrets": user secrets, appsettings.Secrets.json); FlyBot names secret files by the '
    "names secrets are kept under, not by what a configuration happens to hold",
    "cd native && meson install -C builddir": "as make install: an install into the build's prefix is a host-wide "
    "change, undone by removing it (system)",
    "sudo cmake --install native/build": "as sudo make install: system",
    "git diff": "the workspace tracks .npmrc (where a registry token is kept) and config/master.key: git diff may "
    "print them",
    "git diff HEAD~1 -- services/rails": "as git diff: services/rails tracks config/master.key",
    "git remote -v": "a remote URL may carry a token (https://USER:TOKEN@HOST)",
    "npm install": _POSTINSTALL,
    "npm ci": _POSTINSTALL,
    "npm install --save-dev vitest@1.6.0": _POSTINSTALL,
    "npm i -D @types/node": _POSTINSTALL,
    "pnpm install": _POSTINSTALL,
    "pnpm install --frozen-lockfile": _POSTINSTALL,
    "yarn install --immutable": _POSTINSTALL,
    "bun install": _POSTINSTALL,
    "node scripts/check.js": _PROGRAM_FILE,
    "bash scripts/check.sh": _PROGRAM_FILE,
    "sh scripts/upload-logs.sh": _PROGRAM_FILE,
    "cd services/billing && mvn clean verify": _CLEAN,
    "cd services/ledger && ./gradlew clean": _CLEAN,
    "cd services/payments && dotnet clean": _CLEAN,
    "cd services/worker && cargo clean": _CLEAN,
    "cd services/analytics && sbt clean": _CLEAN,
    "cd services/rails && bundle check": "bundler evaluates the Gemfile (Ruby, the project's code)",
    "cd services/rails && bundle list": "bundler evaluates the Gemfile (Ruby, the project's code)",
    "cd services/rails && bundle info rails": "bundler evaluates the Gemfile (Ruby, the project's code)",
    "cd services/laravel && composer validate --strict": "Composer loads the installed plugins on every command",
    "cd services/laravel && composer show --tree": "Composer loads the installed plugins on every command",
    "cd services/django && ruff check shop tests": "ruff writes .ruff_cache in the workspace",
    "cd services/django && mypy shop": "mypy writes .mypy_cache in the workspace",
    "cd services/gateway && go vet ./...": "go vet builds the packages (cgo runs the C compiler)",
    "cd services/payments && dotnet ef database update": _REMOTE_CHANGE,
    "createdb acme_test": _REMOTE_CHANGE,
    "npx prisma migrate dev --name add_orders": _REMOTE_CHANGE,
    "flyway -configFiles=db/flyway.conf migrate": _REMOTE_CHANGE,
    "docker build -t acme/web:dev -f Dockerfile .": "the Docker daemon (root) builds the image: system",
    "brew services start redis": "brew services start registers a service that starts at every login: persistence",
    "cd services/gateway && go mod graph | head": "go mod graph downloads the modules missing from the cache",
    "npx prisma validate": "prisma validate only reads the schema; npx runs the workspace's own prisma, graded as "
    "prisma (as npx vitest is)",
}


if __name__ == "__main__":
    main(17, DOUBTFUL)
