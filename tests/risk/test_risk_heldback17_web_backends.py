"""Web backends and their tools. ``gem build GEMSPEC`` evaluates the gemspec (Ruby), ``flask --app`` imports the
module or file it names, and ``prisma --schema`` names the schema whose generator blocks are programs generate runs:
outside the workspace, code FlyBot does not read. ``gradle properties`` prints every project property, those of the
Gradle user home's gradle.properties (credentials) among them. ``dotnet nuget add|update|remove|enable|disable
source`` changes where every later restore gets its packages. ``composer outdated`` asks the repositories. Flyway's
``flyway.conf``/``flyway.toml`` hold its database password (Flyway "Configuration Files"); its ``-configFiles`` and
``-jarDirs`` name configuration and Java callbacks, ``clean`` drops every object. EF Core's ``dotnet ef`` builds
the project and changes (database update) or drops (database drop) the database. ``php -m``/``--ini`` only print;
``python -m flask`` is the flask command, ``npx next`` the next command. ``turbo run`` and ``nx run-many`` run
package scripts and Nx targets FlyBot does not read through them; ``turbo ls``, ``--dry`` before the tasks, ``nx
show`` and ``nx graph`` do not. Each beside the everyday form."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel
_FILES = {
    "acme.gemspec": 'Gem::Specification.new { |s| s.name = "acme" }\n',
    "app.py": "from flask import Flask\napp = Flask(__name__)\n",
    "prisma/schema.prisma": 'generator client {\n  provider = "prisma-client-js"\n}\n',
    "composer.json": '{"name": "acme/app"}\n',
    "build.gradle": "plugins { id 'java' }\n",
    "gradlew": "#!/bin/sh\necho gradle wrapper stand-in\n",
    "db/flyway.conf": "flyway.url=jdbc:postgresql://localhost/app\nflyway.password=x\n",
    "db/flyway.conf.example": "flyway.url=\nflyway.password=\n",
    "flyway.toml": "[environments.default]\npassword = 'x'\n",
    "db/schema.sql": "CREATE TABLE users (id int);\n",
    "Payments.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n',
}


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("gem build ../elsewhere/x.gemspec", R.DESTRUCTIVE),
        ("gem build /tmp/x/evil.gemspec", R.DESTRUCTIVE),
        ("flask --app ../elsewhere/x.py routes", R.DESTRUCTIVE),
        ("flask -A /tmp/x/evil.py run", R.DESTRUCTIVE),
        ("python3 -m flask --app ../elsewhere/x.py routes", R.DESTRUCTIVE),
        ("npx prisma generate --schema ../elsewhere/schema.prisma", R.DESTRUCTIVE),
        ("prisma migrate dev --schema=/tmp/x/schema.prisma", R.DESTRUCTIVE),
        ("gradle properties", R.NETWORK),
        ("./gradlew properties | grep -i password", R.NETWORK),
        ("dotnet nuget add source https://nuget.example.com/v3/index.json -n mirror", R.DESTRUCTIVE),
        ("dotnet nuget update source nuget.org --source https://nuget.example.com/v3/index.json", R.DESTRUCTIVE),
        ("dotnet nuget disable source nuget.org", R.DESTRUCTIVE),
        ("composer outdated --direct", R.NETWORK),
        ("cat db/flyway.conf", R.NETWORK),
        ("grep -r password db/", R.NETWORK),
        ("cat flyway.toml", R.NETWORK),
        ("flyway -configFiles=../elsewhere/flyway.conf migrate", R.DESTRUCTIVE),
        ("flyway -jarDirs=/tmp/x info", R.DESTRUCTIVE),
        ("flyway -locations=filesystem:/tmp/x migrate", R.DESTRUCTIVE),
        ("flyway clean", R.DESTRUCTIVE),
        ("dotnet ef migrations add Init --project ../elsewhere/e.csproj", R.DESTRUCTIVE),
        ("dotnet ef database drop -f", R.DESTRUCTIVE),
        ("dotnet ef migrations script -o ~/.bashrc", R.DESTRUCTIVE),
        ("dotnet ef database update", R.SYSTEM),
        ("php -m ../elsewhere/x.php", R.DESTRUCTIVE),
        ("php -i", R.NETWORK),
        ("turbo run build --filter=web", R.DESTRUCTIVE),
        ("turbo build", R.DESTRUCTIVE),
        ("turbo run build --dry=json", R.DESTRUCTIVE),  # an option after a task may be the task's
        ("nx run-many -t test", R.DESTRUCTIVE),
        ("nx affected -t lint", R.DESTRUCTIVE),
        ("nx graph --file=$HOME/.bashrc", R.DESTRUCTIVE),
        ("nx reset", R.DESTRUCTIVE),
        ("npx next build ../elsewhere", R.DESTRUCTIVE),
    ],
)
def test_hostile_form_keeps_a_high_grade(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, _FILES)
    risk, details = graded(command, ws)
    assert risk >= expected, details


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("gem build acme.gemspec", R.WORKSPACE_WRITE),
        ("flask --app app routes", R.WORKSPACE_WRITE),
        ("python3 -m flask --app app routes", R.WORKSPACE_WRITE),
        ("flask --app app run --port 5001", R.NETWORK),
        ("prisma generate --schema prisma/schema.prisma", R.WORKSPACE_WRITE),
        ("gradle tasks", R.WORKSPACE_WRITE),
        ("dotnet nuget list source", R.READ_ONLY),
        ("dotnet nuget push pkg.nupkg --source https://api.nuget.org/v3/index.json", R.NETWORK),
        ("cat db/flyway.conf.example", R.READ_ONLY),
        ("cat db/schema.sql", R.READ_ONLY),
        ("flyway info", R.NETWORK),
        ("flyway -url=jdbc:postgresql://localhost/app validate", R.NETWORK),
        ("dotnet ef migrations add AddRefunds", R.WORKSPACE_WRITE),
        ("dotnet ef migrations list --no-connect", R.WORKSPACE_WRITE),
        ("dotnet ef migrations script -o /tmp/m.sql", R.WORKSPACE_WRITE),
        ("php -m", R.READ_ONLY),
        ("php --ini", R.READ_ONLY),
        ("turbo ls", R.READ_ONLY),
        ("turbo run --dry=json build", R.READ_ONLY),
        ("nx show projects", R.WORKSPACE_WRITE),
        ("nx graph --file=/tmp/graph.json", R.WORKSPACE_WRITE),
        ("npx --no-install next build", R.WORKSPACE_WRITE),
        ("npx next build", R.NETWORK),
    ],
)
def test_everyday_form_keeps_its_grade(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, _FILES)
    risk, details = graded(command, ws)
    assert risk is expected, details


# -- go generate in a subdirectory: each directive runs in its file's directory, named from where go generate runs --
@pytest.mark.parametrize(
    ("directive", "expected"),
    [
        ("go run ./cmd/gen", R.WORKSPACE_WRITE),
        ("rm -rf /home/dev", R.DESTRUCTIVE),
        ("cat /root/.netrc", R.NETWORK),
        ("sh ../../elsewhere/x", R.DESTRUCTIVE),
    ],
)
def test_go_generate_below_the_workspace_root_reads_its_directives(
    tmp_path: Path, directive: str, expected: RiskLevel
) -> None:
    ws = project(
        tmp_path,
        {
            "services/gateway/go.mod": "module x\n\ngo 1.22\n",
            "services/gateway/main.go": f"package main\n\n//go:generate {directive}\n\nfunc main() {{}}\n",
            "services/gateway/cmd/gen/main.go": "package main\n\nfunc main() {}\n",
        },
    )
    for command in ("cd services/gateway && go generate ./...", "cd services/gateway && go generate"):
        risk, details = graded(command, ws)
        assert risk is expected, (command, details)
