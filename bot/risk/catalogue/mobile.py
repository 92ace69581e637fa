"""Mobile development tools: adb, Xcode's xcrun and xcodebuild, Flutter and Dart.

A device or emulator is another machine: queries are ``remote``, installing or changing it ``change``, uninstalling,
clearing or wiping it ``destroy``, and a shell on it ``runs``. Builds and tests are ``build``.
"""

from __future__ import annotations

# flutter --help --verbose: --local-engine-src-path names the engine checkout whose build (--local-engine,
# --local-engine-host, --local-web-sdk) runs instead of the SDK's engine; --packages the package configuration that
# maps package names to directories whose code is compiled in. flutter test [FILES|DIRS] runs the test files given
# (flutter test --help: "Run Flutter unit tests for the current project"; a file or directory operand selects the
# tests), flutter run|build -t/--target FILE "The main entry-point file of the application": code there runs, so a
# path outside the workspace is a project FlyBot does not read. The other operands (build's apk, appbundle, web...)
# are words inside the workspace.
_FLUTTER_BUILD = {
    "grade": "build",
    "open": True,
    "operands": "project",
    "options": "--local-engine-src-path=project --local-engine=:unknown --local-engine-host=:unknown "
    "--local-web-sdk=:unknown --packages=project -t=project --target=project",
}

CATALOGUE: dict[str, object] = {
    "adb": {
        "source": "adb (Android Debug Bridge) docs (developer.android.com/tools/adb) (platform-tools 35)",
        "options": "-s= -d -e -t= -H= -P= -L= -a -h --help --version",
        "guard": "cloud:adb_shell",
        "commands": {
            "bugreport": {"grade": "remote", "open": True, "operands": "out"},
            "devices get-state get-serialno get-devpath version help logcat features host-features": {
                "grade": "remote",
                "open": True,
                "options": "-c:destroy --clear:destroy -f=out --file=out",
            },
            "pull": {"grade": "remote", "open": True, "operands": "last-out"},
            "backup": {"grade": "remote", "open": True, "options": "-f=out"},
            "install install-multiple install-multi-package push reboot root unroot remount forward "
            "reverse restore tcpip usb disable-verity enable-verity wait-for-device emu": {
                "grade": "change",
                "open": True,
            },
            # sideload OTAPACKAGE installs a full OTA package (a new system image) from recovery: not undone
            "uninstall sideload": {"grade": "destroy", "open": True},
            # a device command line the guard reads (programs/cloud.py adb_shell) keeps this grade; the rest runs
            "shell exec-out": {"grade": "remote", "open": True},
            "exec-in": "runs",
            "connect disconnect pair mdns": {"grade": "network", "open": True},
            "start-server kill-server reconnect": "system",
        },
    },
    # fastlane LANE runs the lane of the project's Fastfile, Ruby whose actions sign, build, run tests and upload
    # (to the App Store, Google Play, Firebase...): a program the classifier cannot see, as a script; lanes and
    # list evaluate the Fastfile (and the plugins its Pluginfile loads) and print its lanes: the project's code, a
    # build; action NAME and actions print the built-in actions' documentation
    "fastlane": {
        "source": "fastlane docs (docs.fastlane.tools) (fastlane 2.22x): fastlane [lane], lanes, list, actions, "
        "action, run, init, env",
        "grade": "runs",
        "else": "runs",
        "options": "--version --verbose -h --help",
        "when": {"--version -h --help": "read"},
        "commands": {
            "lanes list": {"grade": "build", "options": "-j --json"},
            "actions action": {"grade": "build", "open": True},
        },
    },
    "xcrun": {
        "source": "xcrun(1) (Xcode 16); simctl (xcrun simctl help)",
        "options": "--find=:read -f=:read --show-sdk-path --show-sdk-version --show-sdk-platform-path "
        "--show-toolchain-path --sdk= --toolchain= -v --verbose -l --log -n --no-cache -k --kill-cache "
        "-h --help --version",
        "grade": "read",
        "else": "runs",
        "commands": {
            "simctl": {
                "commands": {
                    "list help getenv": {"grade": "read", "open": True},
                    "boot shutdown install launch terminate openurl create clone rename addmedia push pbcopy status_bar "
                    "privacy keychain ui location": {"grade": "system", "open": True},
                    "erase delete uninstall": {"grade": "delete", "open": True},
                    "spawn": "runs",
                    "io diagnose": {"grade": "read", "open": True, "operands": "last-out"},
                }
            },
            "notarytool altool": {"grade": "publish", "open": True},
            "stapler": {"grade": "write", "open": True, "operands": "out"},  # staple rewrites the bundle given
        },
    },
    # xcodebuild's options are whole single-dash words; a BUILD_SETTING=VALUE operand (CC=..., a tool it runs) is
    # not listed, so it is refused as an unknown action
    "xcodebuild": {
        "source": "xcodebuild(1) (Xcode 16)",
        "grade": "build",
        "open": True,
        "clusters": False,
        "options": "-list:read -showsdks:read -version:read -showBuildSettings:read -showdestinations:read "
        "-showTestPlans:read -exportArchive -archivePath=out -exportPath=out -derivedDataPath=out -resultBundlePath=out "
        "-xcconfig=:unknown -scheme= -target= -configuration= -destination= -destination-timeout= -sdk= -arch= "
        "-testPlan= -only-testing=* -skip-testing=* -only-testing= -skip-testing= -jobs= -project=project "
        "-workspace=project -xctestrun=project -toolchain=:unknown -exportOptionsPlist=in -testLanguage= "
        "-testRegion= -enableCodeCoverage= -parallel-testing-enabled= -maximum-parallel-testing-workers= "
        "-test-iterations= -clonedSourcePackagesDirPath=out -packageCachePath=out -skipPackagePluginValidation:unknown "
        "-skipMacroValidation:unknown -resolvePackageDependencies:fetch",
        # xcodebuild(1): -list, -showsdks, -showBuildSettings, -showdestinations, -showTestPlans and -version each
        # "Does not initiate a build" (they only print)
        "when": {"-list -showsdks -version -showBuildSettings -showdestinations -showTestPlans": "read"},
        "many": True,
        "commands": {
            "build test archive analyze build-for-testing test-without-building docbuild": "build",
            "clean": "delete",
            "install": "system",
        },
    },
    "flutter": {
        "source": "Flutter CLI reference (docs.flutter.dev/reference/flutter-cli) (Flutter 3.24)",
        "options": "-h --help -v --verbose --version -d= --device-id= --suppress-analytics --no-version-check "
        "--local-engine-src-path=project --local-engine=:unknown --local-engine-host=:unknown "
        "--local-web-sdk=:unknown --packages=project",
        "commands": {
            "run test build analyze format gen-l10n assemble": _FLUTTER_BUILD,
            "create": {"grade": "fetch", "open": True, "operands": "out"},
            "doctor": {"grade": "network", "open": True},
            "devices help": {"grade": "read", "open": True},
            # flutter emulators --launch ID starts an emulator; --create makes one under ~/.android
            "emulators": {"grade": "read", "open": True, "options": "--launch=:system --create:home"},
            "logs screenshot": {"grade": "remote", "open": True, "options": "-o=out --out=out"},
            "install": {"grade": "change", "open": True},
            "attach": "runs",
            "clean": {"grade": "delete", "open": True},
            "channel upgrade downgrade precache": {"grade": "install", "open": True},
            "config": {"grade": "home", "open": True},
            "pub": {
                "commands": {
                    "get add remove upgrade downgrade outdated deps": {"grade": "fetch", "open": True},
                    # pub cache add|repair fetch into the system cache; clean "Clears the global PUB_CACHE"
                    "cache": {
                        "commands": {
                            "add repair": {"grade": "fetch", "open": True},
                            "clean": {"grade": "delete", "open": True},
                            "list": "read",
                        }
                    },
                    "publish": {"grade": "publish", "open": True},
                    "run global": "runs",
                }
            },
        },
    },
    "dart": {
        "source": "dart tool reference (dart.dev/tools/dart-tool) (Dart 3.5)",
        "options": "-h --help -v --verbose --version --disable-analytics --enable-analytics",
        "else": "runs",
        "commands": {
            # dart test|compile|analyze --packages=PATH: "Get package locations from the specified file", each a
            # directory whose code is compiled in; their operands are the files or directories they test, compile
            # or analyse (dart test [files or directories...], dart compile exe <dart entry point>, dart analyze
            # [<DIRECTORY>], whose analysis_options.yaml names analyzer plugins): a path outside the workspace is
            # code FlyBot does not read
            "analyze test compile format fix doc": {
                "grade": "build",
                "open": True,
                "operands": "project",
                "options": "-o=out --output=out --packages=project",
            },
            "create": {"grade": "fetch", "open": True, "operands": "out"},
            "run": "runs",
            "info": {"grade": "read", "open": True},
            "pub": {
                "commands": {
                    "get add remove upgrade downgrade outdated deps": {"grade": "fetch", "open": True},
                    # pub cache add|repair fetch into the system cache; clean "Clears the global PUB_CACHE"
                    "cache": {
                        "commands": {
                            "add repair": {"grade": "fetch", "open": True},
                            "clean": {"grade": "delete", "open": True},
                            "list": "read",
                        }
                    },
                    "publish": {"grade": "publish", "open": True},
                    "run global": "runs",
                }
            },
        },
    },
    "bundletool": {
        "source": "bundletool (developer.android.com/tools/bundletool) (bundletool 1.17)",
        "commands": {
            # --aapt2 PATH, --adb PATH: the aapt2 and adb programs run
            "build-apks build-bundle": {
                "grade": "build",
                "open": True,
                "options": "--output=out --aapt2=interpreter",
            },
            "dump validate get-size version help": {"grade": "read", "open": True},
            "get-device-spec": {"grade": "remote", "open": True, "options": "--output=out --adb=interpreter"},
            "install-apks install-multi-apks": {"grade": "change", "open": True, "options": "--adb=interpreter"},
            "extract-apks": {"grade": "read", "open": True, "options": "--output-dir=out"},
        },
    },
    "pod": {
        "source": "CocoaPods command line reference (guides.cocoapods.org/terminal/commands.html) (CocoaPods 1.16): "
        "install and update read the Podfile (Ruby it evaluates), download the pods (their prepare_command and the "
        "Podfile's hooks run as an install does) into Pods/ and rewrite the Xcode project; repo add/add-cdn adds a "
        "spec source every later install reads; trunk push publishes a pod",
        "options": "-h --help --version --verbose --silent --no-ansi --allow-root",
        "commands": {
            "install update": {
                "grade": "fetch",
                "open": True,
                "options": "--project-directory=project --repo-update --deployment --clean-install",
            },
            "outdated search list": {"grade": "network", "open": True},
            # pod spec create writes a podspec, edit opens it in the editor, lint evaluates and builds the podspec
            # named (Ruby), cat and which print one from the spec repos
            "spec": {
                "commands": {
                    "cat which": {"grade": "network", "open": True},
                    "create": {"grade": "write", "open": True},
                    "lint": {"grade": "fetch", "open": True, "operands": "project"},
                    "edit": "runs",
                }
            },
            "lib": {
                "commands": {"lint": {"grade": "fetch", "open": True}, "create": {"grade": "fetch", "open": True}},
            },
            "init": {"grade": "write", "open": True},
            # pod ipc podfile|podfile-json|spec FILE "Converts a Podfile/podspec to YAML/JSON": it evaluates the Ruby
            # file; ipc repl "listens from commands from stdin"
            "ipc": {
                "commands": {
                    "podfile podfile-json spec": {"grade": "build", "operands": "project"},
                    "list update-search-index": {"grade": "write", "open": True},
                    "repl": "runs",
                },
            },
            "env": {"grade": "read", "open": True},
            "deintegrate": {"grade": "delete", "open": True},
            "cache": {
                "commands": {"list": {"grade": "read", "open": True}, "clean": {"grade": "delete", "open": True}}
            },
            "repo": {
                "commands": {
                    "list": {"grade": "read", "open": True},
                    "update": {"grade": "install", "open": True},
                    "add add-cdn push": "source",
                    "remove": "delete",
                    "lint": {"grade": "network", "open": True},
                },
            },
            "setup": {"grade": "install", "open": True},
            "trunk": {
                "commands": {
                    "push": {"grade": "publish", "open": True},
                    "info me": {"grade": "remote", "open": True},
                    "register add-owner remove-owner deprecate delete": "change",
                },
            },
            "try plugins": "runs",
        },
    },
    "carthage": {
        "source": "Carthage README and carthage help (Carthage 0.40): update, bootstrap and checkout fetch the "
        "Cartfile's dependencies (git) into Carthage/ and build them; --use-submodules adds them as git submodules",
        "options": "-h --help --version",
        "commands": {
            "update bootstrap checkout fetch": {
                "grade": "fetch",
                "options": "--project-directory=project --platform= --use-xcframeworks --no-use-binaries "
                "--cache-builds --use-ssh --use-netrc --use-submodules:unknown --toolchain=:unknown "
                "--derived-data=out --log-path=out --new-resolver --verbose --configuration= --no-build "
                "--no-checkout --color=",
            },
            "build archive copy-frameworks": {
                "grade": "build",
                "options": "--project-directory=project --platform= --use-xcframeworks --cache-builds "
                "--toolchain=:unknown --derived-data=out --log-path=out --verbose --configuration= --color= "
                "--output=out",
            },
            "outdated": {"grade": "network", "options": "--project-directory=project --use-ssh --verbose --color="},
            "validate version help": {"grade": "read", "open": True},
        },
    },
}
