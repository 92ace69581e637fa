"""Grade held-back corpus 20 with `flybot classify --jsonl` and compare with its expectations.

Usage: python benchmarks/heldback/compare20.py [--cwd /tmp/ws20] [--flybot .venv/bin/flybot] [--out results.jsonl]

The corpus expects the workspace setup20.sh makes (a git repository of a mobile and JVM/.NET project: an Android app
with the Gradle wrapper, build.gradle.kts, settings.gradle, gradle.properties and a version catalogue; a Kotlin
Maven service with mvnw and .mvn/maven.config, .mvn/jvm.config; an iOS app with a Podfile, fastlane, an Xcode
project stub and a Swift package; a Flutter/Dart package; a .NET service with csproj files, Directory.Build.props,
global.json, NuGet.config and a dotnet-tools.json manifest) and a directory outside it, /tmp/other20.
"""

from __future__ import annotations

from _compare import main

#: Expectations judged doubtful after measuring (the classifier's grade is defensible): printed apart.
DOUBTFUL: dict[str, str] = {}


if __name__ == "__main__":
    main(20, DOUBTFUL)
