"""Code a command runs indirectly: environment variables that choose programs or configuration, catalogue rows,
options that run programs, build and test tools pointed outside the workspace, and tool configuration written
before a command that reads it. Each dangerous form with its benign neighbour."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import ProjectRecipes

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE

WORKSPACE = Path("/home/dev/project")

#: (command, the least grade it must get on the host)
AT_LEAST: list[tuple[str, RiskLevel]] = [
    # --- environment names that choose programs or configuration
    ("HOME=/tmp/h git status", DES),
    ("XDG_CONFIG_HOME=/tmp/h git status", DES),
    ("XDG_DATA_HOME=/tmp/h git status", DES),
    ("HOME=/tmp/h; git status", DES),
    ("HGRCPATH=/opt/x hg status", DES),
    ("JAVA_TOOL_OPTIONS=-javaagent:/opt/x.jar java -version", DES),
    ("_JAVA_OPTIONS=-javaagent:/opt/x.jar java -version", DES),
    ("JDK_JAVA_OPTIONS=-javaagent:/opt/x.jar java -version", DES),
    ("MAVEN_OPTS=-javaagent:/opt/x.jar mvn test", DES),
    ("GRADLE_OPTS=-javaagent:/opt/x.jar gradle build", DES),
    ("RUSTC_WRAPPER=/opt/x cargo check", DES),
    ("CARGO_BUILD_RUSTC_WRAPPER=/opt/x cargo check", DES),
    ("RUSTC=/opt/x cargo build", DES),
    ("RUSTFLAGS='-C linker=/opt/x' cargo build", DES),
    ("GOFLAGS=-toolexec=/opt/x go build", DES),
    ("CC=/opt/x go build", DES),
    ("CC=/opt/x cmake -S . -B build", DES),
    ("CXX=/opt/x meson setup build", DES),
    ("LD=/opt/x cargo build", DES),
    ("PYTEST_ADDOPTS='-p evil' pytest", DES),
    ("PYTEST_PLUGINS=evil pytest", DES),
    ("PYTHONPATH=/opt/x pytest", DES),
    ("BUNDLE_GEMFILE=/opt/Gemfile bundle list", DES),
    ("VAGRANT_CWD=/opt/x vagrant status", DES),
    ("CARGO_TARGET_DIR=/srv/t cargo build", DES),
    ("GOTOOLCHAIN=go1.99.0 go version", DES),
    ("env JAVA_TOOL_OPTIONS=-javaagent:/opt/x.jar java -version", DES),
    ("export HOME=/tmp/h; git status", DES),
    ("export SOME_TOOL_CONFIG=/opt/x; git status", DES),
    ("FOO=1; export FOO; ls", DES),
    ("declare -x SOME_TOOL_CONFIG=/opt/x; git status", DES),
    ("SOME_TOOL_CONFIG=/opt/x make -n", DES),
    # --- catalogue rows: the grade the manual gives
    ("semanage module -r mymodule", SYS),
    ("semanage module -e mymodule", SYS),
    ("composer config --global secure-http false", SYS),
    ("composer config -g github-oauth.github.com T", SYS),
    ("composer config secure-http false", WW),
    ("vercel project rm x", DES),
    ("vercel env pull .env", NET),
    ("cargo login TOKEN", SYS),
    ("npm login", SYS),
    ("mix archive.install hex phx_new", SYS),
    ("flyctl secrets unset K", DES),
    ("heroku config:unset K", DES),
    ("doctl registry garbage-collection start -f", DES),
    ("gh repo sync --force", DES),
    ("svn cleanup --remove-unversioned", DES),
    ("cmake --build build --target install", SYS),
    ("ninja -C build install", SYS),
    ("gradle tasks", WW),
    ("swift package describe", WW),
    ("bazel query //...", WW),
    ("bundle list", WW),
    ("vagrant status", WW),
    ("go list -m all", NET),
    ("git gc --prune=now", DES),
    # --- options that run programs
    ("go vet -vettool=/opt/x ./...", DES),
    ("clang-tidy a.c -- -fplugin=/opt/x.so", DES),
    ("clang-tidy a.c -- -Xclang -load -Xclang /opt/x.so", DES),
    ("clang-tidy a.c --extra-arg=-fplugin=/opt/x.so", DES),
    ("cmake -DCMAKE_C_COMPILER_LAUNCHER=/opt/x -S . -B build", DES),
    ("cmake -D CMAKE_C_COMPILER=/opt/x -S . -B build", DES),
    ("meson setup --native-file /opt/x.ini build", DES),
    ("meson setup --cross-file ~/x.ini build", DES),
    ("mypy --install-types --non-interactive .", SYS),
    ("pytest -p evil", DES),
    ("pylint --load-plugins=evil src", DES),
    # --- build and test tools pointed outside the workspace
    ("cargo build --manifest-path /opt/o/Cargo.toml", DES),
    ("cargo test --manifest-path ~/o/Cargo.toml", DES),
    ("gradle -p /opt/other build", DES),
    ("mvn -f /opt/other/pom.xml test", DES),
    ("swift build --package-path /opt/o", DES),
    ("dotnet build /opt/o/x.csproj", DES),
    ("go build -C /opt/o", DES),
    ("go test /opt/o/...", DES),
    ("go run ~/o/main.go", DES),
    ("cmake -S /opt/src -B build", DES),
    ("cmake --build /opt/build", DES),
    ("ninja -f /opt/build.ninja", DES),
    ("zig build --build-root /opt/o", DES),
    ("cabal build --project-file=/opt/cabal.project", DES),
    ("bazel build --override_repository=x=/opt/x //...", DES),
    ("pytest /opt/o/tests", DES),
    ("pytest -c /opt/evil.ini", DES),
    ("jest --config /opt/x.js", DES),
    ("jest --rootDir ~/o", DES),
    ("vitest --root /opt/other run", DES),
    ("prettier --plugin /opt/x.js --check .", DES),
    ("prettier --config ~/x.js --check .", DES),
    ("pylint --rcfile ~/x.rc src", DES),
    ("mypy --config-file /opt/x.ini src", DES),
    ("eslint -c /tmp/evil.config.js .", DES),
    ("deno lint --config /opt/x.json", DES),
    ("mix format --dot-formatter ~/x.exs", DES),
    ("phpunit -c /opt/phpunit.xml", DES),
    ("rspec /opt/o/spec", DES),
    ("bundle exec --gemfile=/opt/Gemfile rspec", DES),
    ("bun --cwd /opt/o test", DES),
    ("deno test /opt/o/", DES),
    ("tsc -p /opt/other", DES),
    ("jest --coverageDirectory /etc/cov", DES),
    ("meson compile -C /opt/b", DES),
    ("ctest --test-dir /opt/b", DES),
    ("dotnet run --project /opt/o/x.csproj", DES),
    ("uv run --project /opt/o pytest", DES),
    ("cargo run --manifest-path /opt/o/Cargo.toml -- x", DES),
    ("hg -R /opt/o log", DES),
    ("hg --cwd ~/o status", DES),
    ("composer --working-dir=/opt/other install", DES),
    ("cargo +/opt/tc build", DES),
    ("cargo +nightly --version", NET),
    ("rustup toolchain link evil /opt/tc", DES),
    # --- GNU tar's abbreviated long options, and ones it does not have
    ("tar --remove-f -cf x.tar src", DES),
    ("tar --recursive-u -xf x.tar", DES),
    ("tar --absolute-n -xf x.tar", DES),
    ("tar --totally-bogus -cf x.tar src", DES),
    ("git log --outp=/etc/x", DES),
    ("git diff --outp /etc/x", DES),
    ("yarn workspaces foreach run build", DES),
    ("gradle -v clean", DES),
    ("pnpm store prune", SYS),
    ("cargo uninstall ripgrep", DES),
    # --- tool configuration written before a program that reads it, and control files
    ("mkdir -p /tmp/r/.git && printf '[diff]\\nexternal=/tmp/e\\n' > /tmp/r/.git/config && git -C /tmp/r diff", DES),
    ("printf x > /tmp/r/.git/config", DES),
    ("printf '[hooks]\\npre-status = rm -rf ~\\n' > .hg/hgrc", DES),
    ("echo x >> .jj/repo/config.toml", DES),
    ("echo 'yarnPath: ./evil.js' > .yarnrc.yml && yarn --version", DES),
    ("printf '[toolchain]\\npath = \"/opt/tc\"\\n' > rust-toolchain.toml; cargo --version", DES),
    ("echo 'toolchain go1.99.0' >> go.mod && go version", DES),
    ("echo 'system(\"rm -rf ~\")' > Gemfile && bundle list", DES),
    ("echo x > Vagrantfile && vagrant status", DES),
    ("echo x > build.gradle && gradle tasks", DES),
    ("echo x > Package.swift && swift package describe", DES),
    ("echo x > pom.xml && mvn -v", DES),
    ("echo 'script-shell=/opt/x' > .npmrc && npm ls", DES),
    ("echo '[build]' > .cargo/config.toml && cargo --version", DES),
]

#: (command, the grade it keeps on the host)
STAYS: list[tuple[str, RiskLevel]] = [
    ("LANG=C git status", RO),
    ("LC_ALL=C TZ=UTC ls", RO),
    ("GOOS=linux GOARCH=arm64 CGO_ENABLED=0 go build ./...", WW),
    ("RUST_LOG=debug RUST_BACKTRACE=1 cargo test", WW),
    ("export CI=true; git status", RO),
    ("export FOO=1", RO),
    ("export FOO=1; echo $FOO", RO),
    ("X=1; echo $X", RO),
    ("declare -i n=1; git status", RO),
    ("typeset -x LANG=C; git status", RO),
    ('git log | while IFS= read -r line; do echo "$line"; done', RO),
    ("GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b git commit -m x", WW),
    ("semanage module -l", RO),
    ("composer validate --no-plugins", RO),
    ("vercel project ls", NET),
    ("flyctl secrets list", NET),
    ("gh repo sync", SYS),
    ("svn cleanup", WW),
    ("cmake --build build --target app", WW),
    ("ninja -C build", WW),
    ("go list ./...", RO),
    ("git gc", WW),
    ("go vet ./...", WW),
    ("clang-tidy a.c -- -std=c11 -Iinclude", RO),
    ("cmake -DCMAKE_BUILD_TYPE=Release -S . -B build", WW),
    ("meson setup --native-file native.ini build", WW),
    ("pytest -p no:cacheprovider tests", WW),
    ("pytest --junitxml /tmp/r.xml tests", WW),
    ("cargo build --manifest-path sub/Cargo.toml", WW),
    ("cargo build --target-dir /tmp/t", WW),
    ("gradle -p sub build", WW),
    ("mvn -f sub/pom.xml test", WW),
    ("go test ./...", WW),
    ("go build -o /tmp/app .", WW),
    ("cmake -S . -B build", WW),
    ("pytest tests/test_x.py", WW),
    ("jest --config jest.config.js", WW),
    ("rspec spec/x_spec.rb", WW),
    ("dotnet build app.csproj", WW),
    ("deno test tests/", WW),
    ("black --check /etc", RO),
    ("eslint src/", WW),
    ("hg log", RO),
    ("hg -R sub log", RO),
    ("cargo build", WW),
    ("tar -czf x.tgz --exclude=.git src", WW),
    ("tar --create --gzip --file x.tgz src", WW),
    ("tar -xzf x.tgz -C third_party src/a.c", WW),
    ("tar --list --file=x.tar", RO),
    ("echo x > /tmp/r/notes.txt", WW),
    ("echo x > README.md && git status", WW),
    ("echo x > Gemfile && git status", WW),
    ("echo x > .hg/store/data", WW),
    ("git log --output=out.txt", WW),
    ("git log --oneline", RO),
    # version and info queries
    ("gradle -v", RO),
    ("mvn -v", RO),
    ("rustc --print sysroot", RO),
    ("gem env", RO),
    ("yarn workspaces list", RO),
    ("pnpm store status", RO),
    ("cargo run -- /etc/hosts", WW),
    ("go run . /etc/hosts", WW),
    ("jest --coverageDirectory /tmp/cov", WW),
    ("meson compile -C build", WW),
    ("ctest --test-dir build", WW),
    ("dotnet run --project src/App", WW),
    ("cargo install ripgrep", SYS),
]


def test_version_queries_name_the_toolchain_files_that_choose_what_runs(tmp_path: Path) -> None:
    (tmp_path / "rust-toolchain.toml").write_text('[toolchain]\npath = "/opt/tc"\n')
    (tmp_path / "go.mod").write_text("module x\n\ngo 1.21\ntoolchain go1.99.0\n")
    (tmp_path / ".yarnrc.yml").write_text("yarnPath: ./evil.js\n")
    for command, found in (
        ("cargo --version", "rust-toolchain.toml"),
        ("go version", "go.mod"),
        ("go env", "go.mod"),
        ("yarn --version", ".yarnrc.yml"),
    ):
        assessment = classify(command, contained=False, workspace=tmp_path, recipes=ProjectRecipes(tmp_path))
        assert any(found in chosen for chosen in assessment.commands[0].chosen_by), command


@pytest.mark.parametrize(("command", "least"), AT_LEAST, ids=[c for c, _ in AT_LEAST])
def test_indirect_code_is_graded_at_least(command: str, least: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk >= least


@pytest.mark.parametrize(("command", "grade"), STAYS, ids=[c for c, _ in STAYS])
def test_benign_neighbours_keep_their_grade(command: str, grade: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == grade


def test_toolchain_and_cargo_settings_above_the_workspace_count_as_the_workspace_s(tmp_path: Path) -> None:
    """cargo, rustup and go search the directories above the one they run in, past the workspace: a toolchain file
    or configuration there chooses what runs as one in the workspace does."""
    workspace = tmp_path / "parent" / "ws"
    workspace.mkdir(parents=True)
    plain = classify("cargo --version", contained=False, workspace=workspace, recipes=ProjectRecipes(workspace))
    assert plain.commands[0].chosen_by == ()
    (tmp_path / "rust-toolchain.toml").write_text('[toolchain]\npath = "/opt/tc"\n')
    (tmp_path / "parent" / "rust-toolchain").write_text("/opt/tc\n")
    (tmp_path / "parent" / ".cargo").mkdir()
    (tmp_path / "parent" / ".cargo" / "config.toml").write_text('[build]\nrustc = "/opt/evil"\n')
    (tmp_path / "go.work").write_text("go 1.22\n\nuse ./evil\n")
    (tmp_path / "parent" / "go.mod").write_text("module x\n\ngo 1.21\ntoolchain go1.99.0\n")
    for command, found in (
        ("cargo --version", str(tmp_path / "rust-toolchain.toml")),
        ("cargo --version", str(tmp_path / "parent" / "rust-toolchain")),
        ("cargo --version", str(tmp_path / "parent" / ".cargo" / "config.toml")),
        ("go version", str(tmp_path / "go.work")),
        ("go version", str(tmp_path / "parent" / "go.mod")),
    ):
        assessment = classify(command, contained=False, workspace=workspace, recipes=ProjectRecipes(workspace))
        assert any(found in chosen for chosen in assessment.commands[0].chosen_by), (command, found)
