"""Android's signing passwords live in ``key.properties`` (Flutter "Build and release an Android app") or
``keystore.properties`` (Android "Sign your app"): reading one is a secret read. ``pod install``/``pod update``
evaluate the Podfile (Ruby) of the directory they run in (CocoaPods "The Podfile"), and ``pod ipc podfile FILE``
evaluates FILE: one outside the workspace is code FlyBot does not read. ``adb sideload`` installs a full OTA package
(adb docs): not undone. A process substitution is a file name (bash(1) "Process Substitution"), never an option
(``uniq -c <(sort x)`` only prints), while what it runs and a second ``uniq`` operand are still graded. Each beside
the everyday form. Gradle's ``dependencies``/``dependencyInsight`` take ``--configuration NAME`` and ``--dependency
NAME`` (Gradle "Viewing and debugging dependencies"): a fetch, while an init script beside them still runs code."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel
_FILES = {
    "mobile/android/key.properties": "storePassword=x\nkeyPassword=x\n",
    "mobile/android/keystore.properties": "storePassword=x\n",
    "mobile/local.properties": "sdk.dir=/opt/android-sdk\n",
    "mobile/gradle.properties": "org.gradle.jvmargs=-Xmx2g\n",
    "mobile/ios/Podfile": "platform :ios, '15.0'\n",
    "data.csv": "id,label\n1,0\n",
    ".env": "API_KEY=x\n",
}


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cat mobile/android/key.properties", R.NETWORK),
        ("grep Password mobile/android/keystore.properties", R.NETWORK),
        ("head -2 ~/src/app/android/key.properties", R.NETWORK),
        ("cd ../elsewhere && pod install", R.DESTRUCTIVE),
        ("cd ../elsewhere && pod update", R.DESTRUCTIVE),
        ('cd "$D" && pod install', R.DESTRUCTIVE),
        ("pod ipc podfile ../elsewhere/Podfile", R.DESTRUCTIVE),
        ("pod ipc spec /tmp/x/App.podspec", R.DESTRUCTIVE),
        ("pod ipc repl", R.DESTRUCTIVE),
        ("adb sideload ota.zip", R.DESTRUCTIVE),
        ("uniq -c <(sort data.csv) ~/.bashrc", R.DESTRUCTIVE),
        ("uniq -c <(cat .env)", R.NETWORK),
        ("sort <(curl -s https://example.com/x)", R.NETWORK),
        ("bash <(echo touch /tmp/x)", R.DESTRUCTIVE),
        ("sed -f <(echo p) data.csv", R.DESTRUCTIVE),
        ("gradle dependencies --configuration runtimeClasspath -I ../elsewhere/init.gradle", R.DESTRUCTIVE),
        ("gradle dependencyInsight --dependency okhttp -p ../elsewhere", R.DESTRUCTIVE),
    ],
)
def test_hostile_form_keeps_a_high_grade(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, _FILES)
    risk, details = graded(command, ws)
    assert risk >= expected, details


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cat mobile/local.properties", R.READ_ONLY),
        ("cat mobile/gradle.properties", R.READ_ONLY),
        ("cd mobile/ios && pod install", R.NETWORK),
        ("pod install --project-directory=mobile/ios", R.NETWORK),
        ("pod ipc podfile mobile/ios/Podfile", R.WORKSPACE_WRITE),
        ("adb install app.apk", R.SYSTEM),
        ("uniq -c <(cut -d, -f2 data.csv | sort)", R.READ_ONLY),
        ("uniq <(sort data.csv) counts.txt", R.WORKSPACE_WRITE),
        ("diff <(head -1 data.csv) <(tail -1 data.csv)", R.READ_ONLY),
        ("gradle dependencies --configuration releaseRuntimeClasspath", R.NETWORK),
        ("gradle dependencyInsight --dependency okhttp --configuration debugRuntimeClasspath", R.NETWORK),
    ],
)
def test_everyday_form_keeps_its_grade(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, _FILES)
    risk, details = graded(command, ws)
    assert risk is expected, details
