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
        "guard": "hostwide:adb_reverse",  # the device shell (programs/cloud.py adb_shell), and adb reverse
        "commands": {
            "bugreport": {"grade": "remote", "open": True, "operands": "out"},
            # adb version and help print the client's own version and usage (no device is asked)
            "version help": {"grade": "read", "open": True},
            "devices get-state get-serialno get-devpath logcat features host-features": {
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
            # build settings given as operands that name no program (Xcode "Build settings reference": "Code
            # Signing Allowed", "Code Signing Required", "Code Signing Identity" empty, "Build Active Architecture
            # Only", "Enable Index-While-Building Functionality"): signing off, architectures, indexing off
            "CODE_SIGNING_ALLOWED=NO CODE_SIGNING_REQUIRED=NO CODE_SIGN_IDENTITY= ONLY_ACTIVE_ARCH=YES "
            "ONLY_ACTIVE_ARCH=NO COMPILER_INDEX_STORE_ENABLE=NO": "build",
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
                    # dart pub add NAME --git-url URL | --hosted-url URL (dart.dev "dart pub add"): a package from
                    # a source the command names
                    "get add remove upgrade downgrade outdated deps": {
                        "grade": "fetch",
                        "open": True,
                        "urls": "chosen",
                    },
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
            "analyze test compile fix doc": {
                "grade": "build",
                "open": True,
                "operands": "project",
                "options": "-o=out --output=out --packages=project",
            },
            # dart format --help: -o, --output=<mode> "Set where to write formatted output": write (the default:
            # "Overwrite formatted files on disk"), show ("Print code to terminal"), json, none ("Discard
            # output"); --set-exit-if-changed only sets the exit code
            "format": {
                "grade": "build",
                "open": True,
                "operands": "project",
                "options": "-o= --output= --set-exit-if-changed --packages=project",
                "when": {"-o=none --output=none -o=show --output=show -o=json --output=json": "read"},
            },
            "create": {"grade": "fetch", "open": True, "operands": "out"},
            "run": "runs",
            "info": {"grade": "read", "open": True},
            "pub": {
                "commands": {
                    # dart pub add NAME --git-url URL | --hosted-url URL (dart.dev "dart pub add"): a package from
                    # a source the command names
                    "get add remove upgrade downgrade outdated deps": {
                        "grade": "fetch",
                        "open": True,
                        "urls": "chosen",
                    },
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
    # keytool(1) (JDK 21): its commands are options; -list "prints ... the contents of the keystore entry" (the
    # certificates of key entries, never their private keys), -printcert, -printcertreq, -printcrl and -showinfo
    # print certificates, requests, CRLs and security information, -version the version; -sslserver HOST:PORT fetches
    # a server's certificate. Every other command writes, copies or deletes keystore entries (-importkeystore copies
    # the private keys out), and -J, -providerpath, -providerclass and -addprovider load code into its JVM: refused
    "keytool": {
        "source": "keytool(1) (JDK 21)",
        "grade": "unknown",
        "clusters": False,
        "options": "-list -printcert -printcertreq -printcrl -showinfo -version -help --help -v -rfc -keystore= "
        "-storepass= -storepass:env= -storetype= -alias= -file=in -jarfile=in -sslserver=:network -trustcacerts "
        "-cacerts -protected",
        "when": {"-list -printcert -printcertreq -printcrl -showinfo -version -help --help": "read"},
    },
    # jdeps(1) (JDK 21): analyses the class files and JARs given and prints their dependencies; --generate-module-info
    # and --dot-output write files; -J passes options to its JVM
    "jdeps": {
        "source": "jdeps(1) (JDK 21)",
        "grade": "read",
        "clusters": False,
        "options": "-s -summary --summary -v -verbose -cp= -classpath= --class-path= --module-path= "
        "--upgrade-module-path= --system= --add-modules= -m= --module= --multi-release= -R -recursive -q -quiet "
        "--ignore-missing-deps --print-module-deps --list-deps --list-reduced-deps --missing-deps -jdkinternals "
        "--jdk-internals -apionly --api-only -filter= -f= -p= -package= --package= -e= -regex= --regex= "
        "-include= -I --inverse --compile-time -dotoutput=out --dot-output=out --generate-module-info=out "
        "--generate-open-module=out -version --version -h --help -? --help-extra",
    },
    # apksigner (developer.android.com/tools/apksigner, build-tools 35): verify checks an APK's signatures and
    # prints its certificates; sign reads the keystore's private key (--ks, its password) and rewrites the APK;
    # rotate writes a signing lineage; lineage prints one
    "apksigner": {
        "source": "apksigner (developer.android.com/tools/apksigner) (build-tools 35)",
        "commands": {
            "verify": {
                "grade": "read",
                "options": "-v --verbose --print-certs --print-certs-pem --min-sdk-version= --max-sdk-version= "
                "-Werr --in=in",
            },
            "sign": {"grade": "secret", "open": True},
            "lineage": {"grade": "read", "options": "--in=in --print-certs -v --verbose"},
            "version help": "read",
        },
        "options": "--version -h --help",
    },
    # aapt2 (developer.android.com/tools/aapt2, build-tools 35): dump prints what an APK holds (badging,
    # permissions, resources, strings, xmltree, packagename, configurations, styleparents, overlayable), compile,
    # link and optimize build resources and APKs (-o)
    "aapt2 aapt": {
        "source": "AAPT2 (developer.android.com/tools/aapt2) (build-tools 35); aapt help",
        "commands": {
            "dump d": {"grade": "read", "open": True},
            "list l": {"grade": "read", "open": True},
            "compile link optimize convert package p": {"grade": "build", "open": True, "options": "-o=out"},
            "version v": "read",
        },
        "options": "-h --help",
    },
    # zipalign (developer.android.com/tools/zipalign): zipalign [-f] [-p] [-v] [-z] ALIGN IN OUT writes OUT;
    # -c "Check alignment only (does not modify file)"
    "zipalign": {
        "source": "zipalign (developer.android.com/tools/zipalign) (build-tools 35)",
        "grade": "build",
        "options": "-c -f -p -v -z -P=",
        "operands": "last-out",
        "when": {"-c": {"grade": "read", "operands": "none"}},
    },
    # avdmanager (developer.android.com/tools/avdmanager): list prints the virtual devices, targets and device
    # definitions; create avd and move avd write under ~/.android/avd; delete avd deletes one
    "avdmanager": {
        "source": "avdmanager (developer.android.com/tools/avdmanager) (cmdline-tools 12)",
        "options": "-s --silent -v --verbose --clear-cache -h --help",
        "commands": {
            "list": {"grade": "read", "open": True},
            "create move": {"grade": "home", "open": True},
            "delete": {"grade": "delete", "open": True},
        },
    },
    # sdkmanager (developer.android.com/tools/sdkmanager): PACKAGES and --update install into the SDK (downloads),
    # --list asks the SDK repository for what it offers, --list_installed prints what is installed, --uninstall
    # deletes, --licenses accepts licences into the SDK; --proxy_host names the host every download goes through
    "sdkmanager": {
        "source": "sdkmanager (developer.android.com/tools/sdkmanager) (cmdline-tools 12)",
        "grade": "install",
        "options": "--list --list_installed --install --uninstall --update --licenses --version --help --sdk_root= "
        "--channel= --include_obsolete --verbose --no_https --newer --offline --proxy=:chosen --proxy_host=:chosen "
        "--proxy_port= --package_file=in",
        "when": {
            "--list": "network",
            "--list_installed --version --help": "read",
            "--uninstall": "delete",
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
