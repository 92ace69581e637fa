"""Mobile, JVM and .NET projects. adb's private key (``~/.android/adbkey``), PKCS#8 keys (``AuthKey_ID.p8``) and
Gradle's in-memory signing key variable (``ORG_GRADLE_PROJECT_signingKey``) are secrets; ``gradle --scan`` uploads
a build scan; the JVM's proxy properties (``-Dhttps.proxyHost``) and ``dotnet restore|add package --source URL``,
``pub add --git-url URL`` choose where packages come from; ``dotnet dev-certs https --trust`` trusts a certificate
authority; a global.json ``sdk.paths`` entry and a pubspec path dependency outside the workspace are code from
outside; a Podfile, pubspec.yaml or project file written before the tool runs is a rewritten configuration; a
nuget.config's package sources are listed in ``chosen_by``. Each beside the everyday form: the project's commands
that take the project first (``dotnet add src/Api package X``), version queries, JDK and Android SDK inspectors
(keytool, jdeps, apksigner, aapt2, zipalign, avdmanager, sdkmanager), ``dart format --output=none``, xcodebuild's
signing-off build settings and ``adb shell dumpsys activity top``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import ProjectRecipes
from tests.risk.both_sides import graded, project

R = RiskLevel

_PUBSPEC = "name: app\nenvironment:\n  sdk: '>=3.3.0 <4.0.0'\ndependencies:\n  intl: ^0.19.0\n"
_CSPROJ = '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>\n'
_NUGET = (
    '<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <packageSources>\n    <clear />\n'
    '    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />\n  </packageSources>\n</configuration>\n'
)
_FILES = {
    "gradlew": '#!/bin/sh\nexec java -jar gradle/wrapper/gradle-wrapper.jar "$@"\n',
    "settings.gradle": "rootProject.name = 'app'\n",
    "build.gradle.kts": 'plugins { id("java") }\n',
    "keys/AuthKey_ABC123.p8": "x\n",
    "ios/Podfile": "platform :ios, '16.0'\n",
    "ios/Podfile.new": "post_install do |i|\n  system('/tmp/x')\nend\n",
    "app/pubspec.yaml": _PUBSPEC + "  shared:\n    path: ../shared\n",
    "shared/pubspec.yaml": "name: shared\n",
    "bridge/pubspec.yaml": _PUBSPEC + "  loader:\n    path: /srv/other/loader\n",
    "gitdep/pubspec.yaml": _PUBSPEC + "  loader:\n    git:\n      url: file:///srv/other/loader.git\n",
    "overrides/pubspec.yaml": _PUBSPEC,
    "overrides/pubspec_overrides.yaml": "dependency_overrides:\n  intl:\n    path: ../../elsewhere/intl\n",
    "svc/global.json": '{"sdk": {"version": "8.0.300", "rollForward": "latestFeature"}}\n',
    "svc/NuGet.config": _NUGET,
    "svc/App.sln": "Microsoft Visual Studio Solution File, Format Version 12.00\n",
    "svc/src/Api/Api.csproj": _CSPROJ,
    "svc/src/Core/Core.csproj": _CSPROJ,
    "svc/local/global.json": '{"sdk": {"paths": ["$host$", ".dotnet"]}}\n',
    "legacy/global.json": '{"sdk": {"version": "8.0.300", "paths": ["/srv/other/sdk", "$host$"]}}\n',
    "commented/global.json": '{\n  // the SDK\n  "sdk": {"paths": ["/srv/other/sdk",],},\n}\n',
    "mirror/nuget.config": _NUGET.replace("https://api.nuget.org/v3/index.json", "https://nuget.example.invalid/v3"),
    "mirror/Mirror.csproj": _CSPROJ,
    "lib/main.dart": "void main() {}\n",
}


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cat ~/.android/adbkey", R.NETWORK),
        ("cat ~/.appstoreconnect/private_keys/AuthKey_ABC123.p8", R.NETWORK),
        ("base64 keys/AuthKey_ABC123.p8", R.NETWORK),
        ("cat keys/private.p8", R.NETWORK),
        ('echo "$ORG_GRADLE_PROJECT_signingKey"', R.NETWORK),
        ("printenv ORG_GRADLE_PROJECT_signingInMemoryKey", R.NETWORK),
        ("gradle build --scan", R.NETWORK),
        ("./gradlew test -Dhttps.proxyHost=proxy.example.invalid -Dhttps.proxyPort=8080", R.DESTRUCTIVE),
        ("gradle build -DsocksProxyHost=proxy.example.invalid", R.DESTRUCTIVE),
        ("mvn -Dhttp.proxyHost=proxy.example.invalid verify", R.DESTRUCTIVE),
        ("cd svc && dotnet restore --source https://nuget.example.invalid/v3/index.json", R.DESTRUCTIVE),
        ("cd svc && dotnet add src/Api package Loader -s https://nuget.example.invalid/v3/index.json", R.DESTRUCTIVE),
        ("dotnet add ../elsewhere/x.csproj package Serilog", R.DESTRUCTIVE),
        ("dotnet list /srv/other/x.csproj reference", R.DESTRUCTIVE),
        ("cd app && flutter pub add loader --git-url https://git.example.invalid/loader.git", R.DESTRUCTIVE),
        ("cd app && dart pub add loader --hosted-url https://pub.example.invalid", R.DESTRUCTIVE),
        ("dotnet dev-certs https --trust", R.DESTRUCTIVE),
        ("cd ios && cp Podfile.new Podfile && pod install", R.DESTRUCTIVE),
        ("cd app && printf 'x' >> pubspec.yaml && dart test", R.DESTRUCTIVE),
        ("cd svc && sed -i s/net8/net9/ src/Api/Api.csproj && dotnet build", R.DESTRUCTIVE),
        ("cd legacy && dotnet build", R.DESTRUCTIVE),
        ("cd legacy && dotnet --version", R.DESTRUCTIVE),
        ("cd commented && dotnet test", R.DESTRUCTIVE),
        ("cd bridge && dart pub get", R.DESTRUCTIVE),
        ("cd bridge && flutter test", R.DESTRUCTIVE),
        ("cd gitdep && flutter pub get", R.DESTRUCTIVE),
        ("cd overrides && dart test", R.DESTRUCTIVE),
        ("keytool -importkeystore -srckeystore keys/release.jks -destkeystore /tmp/x.p12", R.DESTRUCTIVE),
        ("keytool -list -J-javaagent:/tmp/x.jar", R.DESTRUCTIVE),
        ("keytool -printcert -sslserver example.invalid:443", R.NETWORK),
        ("apksigner sign --ks keys/release.jks --ks-pass env:KS_PASS app.apk", R.NETWORK),
        ("zipalign -f -p 4 app.apk ~/.bashrc", R.DESTRUCTIVE),
        ("sdkmanager --proxy_host=proxy.example.invalid 'platforms;android-34'", R.DESTRUCTIVE),
        ("sdkmanager --uninstall 'platforms;android-33'", R.DESTRUCTIVE),
        ("avdmanager delete avd -n Pixel_7", R.DESTRUCTIVE),
        ("adb shell dumpsys activity service com.example/.Sync", R.DESTRUCTIVE),
        ("xcodebuild -scheme App build CODE_SIGNING_ALLOWED=NO CC=/tmp/x", R.DESTRUCTIVE),
    ],
)
def test_hostile_form_keeps_a_high_grade(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, _FILES)
    risk, details = graded(command, ws)
    assert risk >= expected, details


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cat ~/.android/adbkey.pub", R.READ_ONLY),
        ("ls ~/.appstoreconnect/private_keys", R.READ_ONLY),
        ("cat carts/celeste.p8", R.READ_ONLY),
        ('echo "$ORG_GRADLE_PROJECT_versionName"', R.READ_ONLY),
        ("echo $KEYBOARD", R.READ_ONLY),
        ("gradle build --no-scan", R.WORKSPACE_WRITE),
        ("./gradlew test -Dfile.encoding=UTF-8", R.WORKSPACE_WRITE),
        ("./gradlew --stop", R.WORKSPACE_WRITE),
        ("gradle --stop", R.READ_ONLY),
        ("./gradlew tasks --all", R.WORKSPACE_WRITE),
        ("./gradlew signingReport", R.WORKSPACE_WRITE),
        ("./gradlew jacocoTestReport", R.WORKSPACE_WRITE),
        ("javac -version", R.READ_ONLY),
        ("kotlinc -version", R.READ_ONLY),
        ("cd svc && dotnet restore", R.NETWORK),
        ("cd svc && dotnet add src/Api package Serilog", R.NETWORK),
        ("cd svc && dotnet add src/Api reference src/Core", R.WORKSPACE_WRITE),
        ("cd svc && dotnet sln App.sln list", R.READ_ONLY),
        ("cd svc && dotnet sln list", R.READ_ONLY),
        ("cd svc && dotnet list src/Api reference", R.READ_ONLY),
        ("cd svc && dotnet list src/Api package --outdated", R.NETWORK),
        ("cd svc && dotnet build", R.WORKSPACE_WRITE),
        ("cd svc && dotnet --version", R.READ_ONLY),
        ("cd svc/local && dotnet build", R.WORKSPACE_WRITE),
        ("cd ios && pod install", R.NETWORK),
        ("cd app && dart pub get", R.NETWORK),
        ("cd app && flutter test", R.WORKSPACE_WRITE),
        ("cd app && flutter pub add collection", R.NETWORK),
        ("cd overrides && dart format --output=none --set-exit-if-changed lib", R.READ_ONLY),
        ("dart format --output=none --set-exit-if-changed lib", R.READ_ONLY),
        ("dart format lib", R.WORKSPACE_WRITE),
        ("keytool -printcert -jarfile build/libs/app.jar", R.READ_ONLY),
        ("keytool -list -cacerts -storepass changeit", R.READ_ONLY),
        ("jdeps --summary build/libs/app.jar", R.READ_ONLY),
        ("apksigner verify --print-certs app.apk", R.READ_ONLY),
        ("aapt2 dump badging app.apk", R.READ_ONLY),
        ("zipalign -c -v 4 app.apk", R.READ_ONLY),
        ("zipalign -f -p 4 app.apk aligned.apk", R.WORKSPACE_WRITE),
        ("avdmanager list avd", R.READ_ONLY),
        ("sdkmanager --list_installed", R.READ_ONLY),
        ("sdkmanager --list", R.NETWORK),
        ("adb version", R.READ_ONLY),
        ("adb shell dumpsys activity top", R.NETWORK),
        ("xcodebuild -scheme App -sdk iphonesimulator build CODE_SIGNING_ALLOWED=NO", R.WORKSPACE_WRITE),
    ],
)
def test_everyday_form_keeps_its_grade(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, _FILES)
    risk, details = graded(command, ws)
    assert risk is expected, details


@pytest.mark.parametrize(
    ("command", "listed"),
    [
        ("cd mirror && dotnet restore", "mirror/nuget.config: package source https://nuget.example.invalid/v3"),
        ("cd mirror && dotnet build", "mirror/nuget.config: package source https://nuget.example.invalid/v3"),
        ("cd svc && dotnet restore", None),
        ("cd svc && dotnet build", None),
    ],
)
def test_nuget_sources_are_listed_in_chosen_by(tmp_path: Path, command: str, listed: str | None) -> None:
    ws = project(tmp_path, _FILES)
    result = classify(command, contained=False, workspace=str(ws), recipes=ProjectRecipes(ws))
    chosen = [entry for c in result.commands for entry in c.chosen_by]
    if listed is None:
        assert chosen == [], chosen
    else:
        assert listed in chosen, chosen
    assert result.risk is (R.NETWORK if "restore" in command else R.WORKSPACE_WRITE), result.reasons
