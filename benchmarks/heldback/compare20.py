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
_PROJECT_CODE = (
    "FlyBot does not read the project's build scripts: a Gradle settings script and MSBuild project files are code "
    "(an exec block, an Exec target), graded as the build that runs them (grading.md: the workspace's code is the "
    "project's code); what they import from outside is no more than what they can run"
)
_FETCH = (
    "resolving a configuration's dependencies downloads them: fetch, network (catalogue/build.py; "
    "tests/risk/test_risk_heldback16_signing_podfiles_and_sideload.py)"
)
_SWIFTLINT = (
    "a SwiftLint configuration's parent_config/child_config may be a URL it fetches (remote configs): "
    "catalogue/checks.py grades lint network"
)
DOUBTFUL: dict[str, str] = {
    # hostile lines
    "cd tools/legacy-android && ./gradlew build": "the wrapper script is workspace code graded as the tool and "
    "listed in chosen_by, so no standing approval covers it (grading.md); the distribution it downloads from the "
    "host its properties name is a download as the build's dependencies are (an .npmrc registry is listed, not "
    "graded), and company mirrors are common",
    "cd tools/composite && gradle build": _PROJECT_CODE,
    "cd dotnet/imports && dotnet build": _PROJECT_CODE,
    "cd dotnet/mirror && dotnet restore": "a nuget.config's package sources are settings, as an .npmrc registry "
    "or pip.conf index is: listed in chosen_by (settings.py _nuget_sources), so no standing approval covers the "
    "restore; a source on the command line is a chosen source (destructive)",
    # everyday lines
    "keytool -list -v -keystore app/debug.keystore -storepass android": "a keystore is judged by its name "
    "(sensitive.named_secret: *.keystore, *.jks) whatever program is given it; keytool -list prints certificates "
    "only, but the rule does not tell programs apart",
    "cd backend && mvn -v": "grading.md: mvn -v where the workspace holds .mvn/jvm.config or maven.config runs "
    "with the project's JVM options: graded as a build",
    "adb devices -l": "a device is another machine: asking the adb server what it sees (over USB, or TCP after "
    "adb connect) is a read of remote services (catalogue/mobile.py)",
    "swiftlint lint --strict ios/App": _SWIFTLINT,
    "swiftlint --fix ios/App": _SWIFTLINT,
    "./gradlew :app:dependencies --configuration debugRuntimeClasspath": _FETCH,
    "cd backend && mvn dependency:tree": _FETCH,
    "cd mobile_shared && dart run build_runner build --delete-conflicting-outputs": "dart run PACKAGE runs a "
    "package's executable from the pub cache, code FlyBot does not know (as npx TOOL for a tool it does not know)",
}


if __name__ == "__main__":
    main(20, DOUBTFUL)
