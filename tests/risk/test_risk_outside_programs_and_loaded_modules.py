"""Options of build tools, test runners and compilers that name a program to run, a toolchain, a plugin or a module
loaded before the code (zig --test-cmd, swift --toolchain, mvn -Djvm, node --test --import, phpunit -d
auto_prepend_file...): a path from outside the workspace asks; the usual spellings (a package name, a release
flag, a path in the workspace) keep the build's grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

R = RiskLevel
WORKSPACE = Path("/home/dev/project")


@pytest.mark.parametrize(("script", "risk"), [
    # zig build-exe --help: --zig-lib-dir, --test-cmd, --test-runner
    ("zig build --zig-lib-dir /tmp/x", R.DESTRUCTIVE),
    ("zig build-exe main.zig --zig-lib-dir /tmp/x", R.DESTRUCTIVE),
    ("zig test x.zig --test-cmd /tmp/x", R.DESTRUCTIVE),
    ("zig test x.zig --test-runner /tmp/x.zig", R.DESTRUCTIVE),
    ("zig build test", R.WORKSPACE_WRITE),
    ("zig test src/main.zig", R.WORKSPACE_WRITE),
    # swift build --help: the toolchain and SDK whose compilers run; -X* flags pass through to them
    ("swift build --toolchain /tmp/x", R.DESTRUCTIVE),
    ("swift test --sdk /tmp/x", R.DESTRUCTIVE),
    ("swift build --destination /tmp/d.json", R.DESTRUCTIVE),
    ("swift build -Xswiftc -load-plugin-executable -Xswiftc /tmp/x", R.DESTRUCTIVE),
    ("swift build -Xlinker -fuse-ld=/tmp/x", R.DESTRUCTIVE),
    ("swift build -c release", R.WORKSPACE_WRITE),
    ("swift test --parallel", R.WORKSPACE_WRITE),
    ("swift build --scratch-path .build-ci", R.WORKSPACE_WRITE),
    # sbt global base (global plugins), surefire's jvm and argLine
    ("sbt -Dsbt.global.base=/tmp/x test", R.DESTRUCTIVE),
    ("sbt -Dsbt.boot.directory=/tmp/b compile", R.DESTRUCTIVE),
    ("sbt -Dsbt.log.noformat=true test", R.WORKSPACE_WRITE),
    ("mvn test -Djvm=/tmp/java", R.DESTRUCTIVE),
    ("mvn test -DargLine=-javaagent:/tmp/x.jar", R.DESTRUCTIVE),
    ("mvn test -Dtest=FooTest", R.WORKSPACE_WRITE),
    ("mvn -DskipTests package", R.WORKSPACE_WRITE),
    # compilers' and bundlers' plugins, presets and configurations
    ("scalac -Xplugin:/tmp/x.jar x.scala", R.DESTRUCTIVE),
    ("scalac -d out x.scala", R.WORKSPACE_WRITE),
    ("babel --presets /tmp/x src", R.DESTRUCTIVE),
    ("babel --presets @babel/preset-env src -d lib", R.WORKSPACE_WRITE),
    ("next build /tmp/x", R.DESTRUCTIVE),
    ("next build", R.WORKSPACE_WRITE),
    ("rollup -c /tmp/x.js", R.DESTRUCTIVE),
    ("rollup -c", R.WORKSPACE_WRITE),
    ("rollup -c rollup.config.mjs", R.WORKSPACE_WRITE),
    ("rollup src/main.js -o out.js", R.WORKSPACE_WRITE),
])  # fmt: skip
def test_toolchains_and_plugins_from_outside(script: str, risk: RiskLevel) -> None:
    verdict = classify(script, contained=False, workspace=WORKSPACE)
    assert verdict.risk is risk, (script, verdict.reasons)


@pytest.mark.parametrize(("script", "risk"), [
    # Mocha: -n/--node-option passes node flags (require=, import=, loader=); node's own --loader/--import
    ("mocha --node-option require=/tmp/x.js", R.DESTRUCTIVE),
    ("mocha -n require=/tmp/x.js", R.DESTRUCTIVE),
    ("mocha --loader=/tmp/x.mjs", R.DESTRUCTIVE),
    ("mocha --import=/tmp/x.mjs", R.DESTRUCTIVE),
    ("mocha --import=tsx", R.WORKSPACE_WRITE),
    ("mocha -r ts-node/register", R.WORKSPACE_WRITE),
    # node --test: modules loaded before the tests
    ("node --test --require /tmp/x.js", R.DESTRUCTIVE),
    ("node --test --import=/tmp/x.mjs", R.DESTRUCTIVE),
    ("node --test --test-reporter /tmp/r.mjs", R.DESTRUCTIVE),
    ("node --test --env-file ~/.x", R.DESTRUCTIVE),
    ("node --test --import tsx", R.WORKSPACE_WRITE),
    ("node --test --test-reporter spec", R.WORKSPACE_WRITE),
    ("node --test --require ./setup.js", R.WORKSPACE_WRITE),
    # bun test --preload (-r, --require, --import)
    ("bun test --preload /tmp/x.ts", R.DESTRUCTIVE),
    ("bun test -r /tmp/x.ts", R.DESTRUCTIVE),
    ("bun test --preload ./setup.ts", R.WORKSPACE_WRITE),
    # jest --transform JSON names transformer modules
    ("""jest --transform '{"x":"/tmp/x.js"}'""", R.DESTRUCTIVE),
    ("""jest --transform '{"^.+\\\\.ts$":"ts-jest"}'""", R.WORKSPACE_WRITE),
    # eslint formatter and parser modules, prettier 2's plugin directory, tsc -b projects
    ("eslint -f /tmp/x.js .", R.DESTRUCTIVE),
    ("eslint --format=/tmp/x.js .", R.DESTRUCTIVE),
    ("eslint --parser /tmp/x.js .", R.DESTRUCTIVE),
    ("eslint -f json .", R.WORKSPACE_WRITE),
    ("prettier --plugin-search-dir /tmp --check .", R.DESTRUCTIVE),
    ("prettier --check .", R.WORKSPACE_WRITE),
    ("tsc --build /tmp/x", R.DESTRUCTIVE),
    ("tsc -b", R.WORKSPACE_WRITE),
    ("tsc --build tsconfig.json", R.WORKSPACE_WRITE),
])  # fmt: skip
def test_modules_loaded_before_the_tests(script: str, risk: RiskLevel) -> None:
    verdict = classify(script, contained=False, workspace=WORKSPACE)
    assert verdict.risk is risk, (script, verdict.reasons)


@pytest.mark.parametrize(("script", "risk"), [
    # go tool link: -extld/-extar name the linker programs, through -ldflags
    ("go build -ldflags=-extld=/tmp/x .", R.DESTRUCTIVE),
    ("go build -ldflags '-linkmode external -extld /tmp/x' .", R.DESTRUCTIVE),
    ("go build -ldflags='-s -w' .", R.WORKSPACE_WRITE),
    ("go build -ldflags '-X main.version=1' .", R.WORKSPACE_WRITE),
    # flutter's local engine, dart's package configuration
    ("flutter test --local-engine-src-path=/tmp/x", R.DESTRUCTIVE),
    ("flutter build apk --local-engine=host_debug", R.DESTRUCTIVE),
    ("flutter --local-engine-src-path=/tmp/x test", R.DESTRUCTIVE),
    ("flutter test", R.WORKSPACE_WRITE),
    ("dart test --packages=/tmp/x", R.DESTRUCTIVE),
    ("dart compile exe bin/main.dart --packages=/tmp/x", R.DESTRUCTIVE),
    ("dart test --packages=.dart_tool/package_config.json", R.WORKSPACE_WRITE),
    # bundle install --gemfile: Ruby Bundler evaluates
    ("bundle install --gemfile /tmp/Gemfile", R.DESTRUCTIVE),
    ("bundle update --gemfile=/tmp/Gemfile", R.DESTRUCTIVE),
    ("bundle install --gemfile Gemfile", R.SYSTEM),  # gems under ~, as bundle install
    # phpunit/pest -d: php.ini directives
    ("phpunit -d auto_prepend_file=/tmp/x", R.DESTRUCTIVE),
    ("pest -dextension=/tmp/x.so", R.DESTRUCTIVE),
    ("phpunit -d include_path=/tmp", R.DESTRUCTIVE),
    ("phpunit -d memory_limit=-1", R.WORKSPACE_WRITE),
    ("phpunit -d xdebug.mode=coverage tests", R.WORKSPACE_WRITE),
    ("rspec spec/models", R.WORKSPACE_WRITE),
])  # fmt: skip
def test_linkers_engines_packages_and_ini_files(script: str, risk: RiskLevel) -> None:
    verdict = classify(script, contained=False, workspace=WORKSPACE)
    assert verdict.risk is risk, (script, verdict.reasons)


@pytest.mark.parametrize(("script", "risk"), [
    # dotnet's MSBuild property switch: tool paths and imported targets are programs and code of the caller's choosing
    ("dotnet build -p:CscToolPath=/tmp/x", R.DESTRUCTIVE),
    ("dotnet build -property:CscToolExe=/tmp/x", R.DESTRUCTIVE),
    ("dotnet test --property:CustomAfterMicrosoftCommonTargets=/tmp/x.targets", R.DESTRUCTIVE),
    ("dotnet build '-p:Version=1.0;VSTestConsolePath=/tmp/x'", R.DESTRUCTIVE),
    ("dotnet build -p:OutputPath=/etc/x", R.DESTRUCTIVE),  # a write there
    ("dotnet build -p:Configuration=Release", R.WORKSPACE_WRITE),
    ("dotnet build '-p:Version=1.2.3;configuration=Release'", R.WORKSPACE_WRITE),
    ("dotnet test -p:CollectCoverage=true -p:CoverletOutputFormat=cobertura", R.WORKSPACE_WRITE),
    ("dotnet build -p:OutputPath=bin/ci", R.WORKSPACE_WRITE),
    ("dotnet build -c Release", R.WORKSPACE_WRITE),
    # MSBuild takes its switches with / too: /p: is -p: (its property list), never a path outside the workspace
    ("dotnet build /p:Configuration=Release", R.WORKSPACE_WRITE),
    ("dotnet build /P:Configuration=Release", R.WORKSPACE_WRITE),
    ("dotnet build '/property:Configuration=Release;Platform=x64'", R.WORKSPACE_WRITE),
    ("dotnet build /t:Build /v:m /m /nologo /restore", R.WORKSPACE_WRITE),
    ("dotnet build /m:4 /maxcpucount /nr:false /verbosity:minimal /target:Rebuild", R.WORKSPACE_WRITE),
    ("dotnet msbuild /t:Pack /p:Configuration=Release", R.WORKSPACE_WRITE),
    ("dotnet test /p:CollectCoverage=true", R.WORKSPACE_WRITE),
    ("dotnet build /p:OutputPath=bin/ci", R.WORKSPACE_WRITE),
    ("dotnet build /p:CscToolPath=/tmp/x", R.DESTRUCTIVE),
    ("dotnet publish /p:CscToolPath=/tmp/x", R.DESTRUCTIVE),
    ("dotnet pack /property:CustomBeforeMicrosoftCommonTargets=/tmp/x.targets", R.DESTRUCTIVE),
    ("dotnet publish /p:PublishDir=/etc/x", R.DESTRUCTIVE),  # a write there
    ("dotnet build /tmp/other/x.csproj", R.DESTRUCTIVE),  # a project outside
    ("dotnet build /bl:/tmp/x.binlog", R.DESTRUCTIVE),  # not in the list: a path
    ("dotnet build -- /p:Configuration=Release", R.DESTRUCTIVE),  # after --: a path
])  # fmt: skip
def test_msbuild_properties_naming_programs(script: str, risk: RiskLevel) -> None:
    verdict = classify(script, contained=False, workspace=WORKSPACE)
    assert verdict.risk is risk, (script, verdict.reasons)


@pytest.mark.parametrize(("script", "risk"), [
    # cargo rustc|rustdoc -- FLAGS go to the compiler: codegen options naming programs, -Z, rustdoc's test builders
    ("cargo rustc -- -C linker=/tmp/x", R.DESTRUCTIVE),
    ("cargo rustc -- -Clink-arg=-fuse-ld=/tmp/x", R.DESTRUCTIVE),
    ("cargo rustc -- -Z codegen-backend=/tmp/x.so", R.DESTRUCTIVE),
    ("cargo rustdoc -- --test-builder /tmp/x", R.DESTRUCTIVE),
    ("cargo rustdoc -- --runtool=/tmp/x", R.DESTRUCTIVE),
    ("cargo rustc --release -- -C opt-level=3 -D warnings", R.WORKSPACE_WRITE),
    ("cargo rustc --lib -- --emit asm", R.WORKSPACE_WRITE),
    ("cargo rustdoc -- --document-private-items", R.WORKSPACE_WRITE),
    # bazel: an environment that chooses the programs actions run, the JVM and shell it uses
    ("bazel build --action_env=PATH=/tmp //...", R.DESTRUCTIVE),
    ("bazel build --action_env PATH=/tmp //...", R.DESTRUCTIVE),
    ("bazel test --test_env=LD_PRELOAD=/tmp/x.so //...", R.DESTRUCTIVE),
    ("bazel --server_javabase=/tmp/jdk build //...", R.DESTRUCTIVE),
    ("bazel build --shell_executable=/tmp/x //...", R.DESTRUCTIVE),
    ("bazel build --action_env=PATH //...", R.WORKSPACE_WRITE),  # the caller's own PATH
    ("bazel test --test_env=FOO=1 //...", R.WORKSPACE_WRITE),
    ("bazel build //...", R.WORKSPACE_WRITE),
    # cabal test --test-wrapper, zig build's library places, deno's import map, jest's module map, node URLs
    ("cabal test --test-wrapper=/tmp/x", R.DESTRUCTIVE),
    ("cabal test", R.WORKSPACE_WRITE),
    ("zig build --sysroot /tmp/x", R.DESTRUCTIVE),
    ("zig build --search-prefix /tmp/x", R.DESTRUCTIVE),
    ("zig build -Doptimize=ReleaseFast", R.WORKSPACE_WRITE),
    ("deno test --import-map=/tmp/x.json", R.DESTRUCTIVE),
    ("deno test --import-map=import_map.json", R.WORKSPACE_WRITE),
    ("""jest --moduleNameMapper '{"x":"/tmp/x.js"}'""", R.DESTRUCTIVE),
    ("""jest --moduleNameMapper '{"^@/(.*)$":"<rootDir>/src/$1"}'""", R.WORKSPACE_WRITE),
    ("node --test --import=file:///tmp/x.mjs", R.DESTRUCTIVE),
    ("node --test --import 'data:text/javascript,x'", R.DESTRUCTIVE),
    ("node --test --require ./t/setup.js", R.WORKSPACE_WRITE),
])  # fmt: skip
def test_compiler_flags_environments_and_maps(script: str, risk: RiskLevel) -> None:
    verdict = classify(script, contained=False, workspace=WORKSPACE)
    assert verdict.risk is risk, (script, verdict.reasons)
