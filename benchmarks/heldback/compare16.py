"""Grade held-back corpus 16 with `flybot classify --jsonl` and compare with its expectations.

Usage: python benchmarks/heldback/compare16.py [--cwd /tmp/ws16] [--flybot .venv/bin/flybot] [--out results.jsonl]

The corpus expects the workspace setup16.sh makes (a git repository of a Python ML project: pyproject.toml,
requirements.txt, notebooks/, data/, src/, tests/, Makefile, .env, Dockerfile, dvc.yaml, and a mobile/ app with
gradlew and a Podfile) and a directory outside it, /tmp/other16.
"""

from __future__ import annotations

from _compare import main

#: Expectations judged doubtful after measuring (the classifier's grade is defensible): printed apart.
DOUBTFUL: dict[str, str] = {
    "cd mobile && ./gradlew tasks && cat local.properties": "Android Studio writes local.properties for sdk.dir; "
    "it is no documented secret file (key.properties and keystore.properties are)",
    "adb root && adb remount": "a change on the device (an emulator or a userdebug build), which adb unroot and a "
    "reboot undo: remote-control-plane system",
    "chmod -R 777 data": "permissions of workspace files only: a write in the workspace",
    "python -m pip install -r requirements.txt": "FlyBot grades a pip install network (package-install): into the "
    "project's virtualenv, the workspace",
    "pip install -e .": "as pip install -r",
    "python -m pip install 'scikit-learn==1.4.2'": "as pip install -r",
    "poetry install": "poetry installs into the project's virtualenv: network (package-install)",
    "cd mobile && ./gradlew tasks": "FlyBot grades the project's own build workspace_write (build-or-test)",
    "cd mobile && ./gradlew test": "as ./gradlew tasks",
    "cd mobile && ./gradlew assembleDebug": "as ./gradlew tasks",
    "cd mobile && ./gradlew lint": "as ./gradlew tasks",
    "cd mobile && ./gradlew --version": "as ./gradlew tasks",
    "cd mobile && flutter build apk --debug": "as ./gradlew tasks",
    "flutter doctor -v": "flutter doctor checks that network resources are reachable",
    "adb devices -l": "adb talks to another machine (the device): remote-control-plane",
    "adb logcat -d -s ReactNativeJS": "as adb devices",
    "cd mobile/ios && pod lib lint --quick": "pod lib lint fetches the pod's dependencies",
    "ruff check src tests": "ruff writes .ruff_cache in the workspace",
    "env | grep -i conda": "env prints every variable, secrets among them; grep's pattern is not read as a filter",
    "unzip -o /tmp/dataset.zip -d data/raw": "an archive FlyBot does not read may hold .git or agent control files",
}


if __name__ == "__main__":
    main(16, DOUBTFUL)
