"""Compilers and build systems: C/C++, JVM, .NET, Swift, Rust, Haskell, Elixir, Zig (go, cargo, make: programs/build.py).

Compiling and building run the project's own code (build scripts, tests) and write build output: ``build``. Fetching
dependencies is ``fetch``; installing into a prefix or the user's home is ``install``/``home``/``system``; cleaning
deletes. Options that make a compiler run or load another program (``-wrapper``, ``-B``, ``-fplugin``, ``-Xlinker``,
``@file``) are ``unknown``.
"""

from __future__ import annotations

_CC_OPTIONS = (
    "-c -S -E -v -w -g -s -p -pg -pipe -shared -static -pthread -pie -no-pie -rdynamic -ansi -pedantic "
    "-pedantic-errors -M -MM -MD -MMD -MP -MG -P -C -CC -H -nostdlib -nostdinc -nostdinc++ -nodefaultlibs "
    "-nostartfiles -shared-libgcc -static-libgcc -static-libstdc++ -static-pie -undef -trigraphs -traditional "
    "-time -save-temps -dumpversion -dumpmachine -dumpspecs -print-* --coverage -fsyntax-only -W* -f* -m* -O* -g* "
    "-std=* --std=* -D*= -U*= -I*= -L*= -l*= -iquote= -isystem= -idirafter= -iprefix= -include= -imacros= "
    "-x= -o=out -MF=out -MT= -MQ= -T= -u= -e= -z= --param= --sysroot=* -isysroot= -flto* -march=* -mtune=* "
    "--target=* -target= -arch= -emit-llvm -Weverything -Wl,*:unknown -Wa,*:unknown -Wp,*:unknown "
    "-Xlinker=:unknown -Xassembler=:unknown -Xpreprocessor=:unknown -Xclang=:unknown -B*=:unknown "
    "-specs*:unknown -wrapper=:unknown -fplugin*:unknown -fpass-plugin*:unknown -load=:unknown @*:unknown "
    "-save-temps=* -fuse-ld=*:unknown --ld-path=*:unknown -o*=out -dM -dD -dN -dI -dU -Q --help=* "
    # -f options naming a file or directory written: gcc(1) "GCC Developer Options" -fdump-KIND-PASS=FILENAME,
    # -fopt-info-OPTIONS=FILENAME, "Instrumentation Options" -fprofile-note=PATH, "Diagnostic Message Formatting
    # Options" -fdiagnostics-add-output=SCHEME:file=PATH (and -set-output); clang(1) -ftime-trace=PATH,
    # -foptimization-record-file=FILE, -fmodules-cache-path=DIR, -fcrash-diagnostics-dir=DIR,
    # -fproc-stat-report=FILE; gcc(1) "C++ Modules" -fmodule-mapper=|PROGRAM runs PROGRAM as the module mapper
    "-fdump-*=pairs -fopt-info -fopt-info*=pairs -fdiagnostics-add-output=*:pairs -fdiagnostics-set-output=*:pairs "
    "-fprofile-note=*:out -ftime-trace=*:out -foptimization-record-file=*:out -fmodules-cache-path=*:out "
    "-fcrash-diagnostics-dir=*:out -fproc-stat-report=*:out -fmodule-mapper*:unknown"
)
_CC = {
    "source": "gcc(1) (GCC 14), Option Summary; clang(1) (Clang 18) command guide",
    "grade": "build",
    "options": _CC_OPTIONS,
    "guard": "build:cc_includes",  # a secret file an include directive names is read into the compile
}

_CMAKE_BUILD = "-S=project -B=out -G= -T= -A= -D*= -U*= -C=:unknown --preset= --preset=* --fresh -Wdev -Wno-dev -Werror=* -Wno-error=* --log-level=* --warn-uninitialized --toolchain=project --install-prefix="

_SWIFT_BUILD_OPTIONS = (
    "--scratch-path=out --build-path=out --toolchain=project --sdk=project --swift-sdks-path=project "
    "--destination=project -X*=:unknown "
    # swift test --help: "--xunit-output <xunit-output>  Path where the xUnit xml file should be generated."
    "--xunit-output=out"
)

#: The JVM's proxy properties (Java "Networking Properties": http.proxyHost, https.proxyHost, socksProxyHost), given
#: to Maven or Gradle with -D: every download of the build (its dependencies and plugins, the code it runs) goes
#: through a host the command names, which may serve other packages: a chosen source.
_JVM_PROXY = "-Dhttp.proxyHost*:chosen -Dhttps.proxyHost*:chosen -DsocksProxyHost*:chosen"

CATALOGUE: dict[str, object] = {
    # cross compilers are gcc under the target triplet's prefix (gcc(1) "Invoking GCC"; Arm GNU Toolchain,
    # Debian's gcc-aarch64-linux-gnu, avr-gcc, MinGW-w64): the same options
    "gcc g++ cc c++ clang clang++ c99 c89 gcc-12 gcc-13 gcc-14 g++-12 g++-13 g++-14 clang-17 clang-18 clang-19 "
    "arm-none-eabi-gcc arm-none-eabi-g++ aarch64-linux-gnu-gcc aarch64-linux-gnu-g++ arm-linux-gnueabihf-gcc arm-linux-gnueabihf-g++ riscv64-unknown-elf-gcc riscv64-unknown-elf-g++ riscv64-linux-gnu-gcc riscv64-linux-gnu-g++ avr-gcc avr-g++ x86_64-w64-mingw32-gcc x86_64-w64-mingw32-g++": _CC,
    "cpp": {
        "source": "cpp(1) (GCC 14): cpp [options] infile [[-o] outfile], the options of gcc -E",
        "grade": "build",
        "options": _CC_OPTIONS,
        "operands": "last-out",
        "guard": "build:cc_includes",
    },
    "cmake": {
        "source": "cmake(1) (CMake 3.30): Generate a Project Buildsystem, Build a Project, Install a Project, -E, -P",
        "guard": "build:cmake_native",  # cmake --build DIR -- ARGS: the native build tool's own options
        "grade": "build",
        "options": _CMAKE_BUILD
        + " --build=project -j= --parallel --parallel=* -t= --target= --config= --clean-first:build "
        "--verbose -v --install=project --prefix=out --component= --strip --open=:runs "
        "-E=:unknown -P=:runs --graphviz=out --system-information --help* --version -N -L -LA -LH -LAH "
        "--workflow --list-presets* --trace --trace-expand",
        # cmake(1) "Install a Project": --install DIR runs DIR's cmake_install.cmake (CMake code the configure step
        # wrote), which installs under CMAKE_INSTALL_PREFIX (/usr/local by default: system) or the --prefix given
        # (a write there, graded by where it lands)
        "when": {"--install": "system", "--prefix": "build"},
        # cache variables naming the programs run for every compile or link, or CMake code included before the
        # project's (cmake-variables(7): CMAKE_<LANG>_COMPILER, _COMPILER_LAUNCHER, _LINKER_LAUNCHER, _CLANG_TIDY,
        # _CPPCHECK, _CPPLINT, _INCLUDE_WHAT_YOU_USE, CMAKE_TOOLCHAIN_FILE, CMAKE_PROJECT_INCLUDE*,
        # CMAKE_MAKE_PROGRAM, CMAKE_LINKER, CMAKE_AR, CMAKE_CROSSCOMPILING_EMULATOR), given as -DVAR or -D VAR;
        # and the install target, which writes under CMAKE_INSTALL_PREFIX (/usr/local by default)
        "unsafe": " ".join(
            f"{d}CMAKE_{v}"
            for d in ("-D", "")
            for v in (
                "C_",
                "CXX_",
                "CUDA_",
                "Fortran_",
                "ASM",
                "OBJC",
                "HIP_",
                "ISPC_",
                "Swift_",
                "TOOLCHAIN_FILE",
                "PROJECT_",
                "MAKE_PROGRAM",
                "LINKER",
                "AR",
                "RANLIB",
                "CROSSCOMPILING_EMULATOR",
                "USER_MAKE_RULES",
                "LINK_WHAT_YOU_USE",
                "NM",
                "OBJCOPY",
                "OBJDUMP",
                "STRIP",
                "ADDR2LINE",
                "READELF",
                "DLLTOOL",
                "MT",
                "RC_COMPILER",
            )
        )
        + " install",
    },
    "ctest": {
        "source": "ctest(1) (CMake 3.30)",
        "grade": "build",
        "options": "--test-dir=project -C= --build-config= -j= --parallel --parallel=* -R= -E= -L= -LE= -I= --output-on-failure "
        "-V -VV --verbose --extra-verbose -N --show-only* --rerun-failed --stop-on-failure "
        "--timeout= --repeat= -O=out --output-log=out --preset= --preset=* -T=:unknown -S=:runs -D=:unknown "
        "--build-and-test:unknown --schedule-random --no-tests=* -Q --quiet --progress",
    },
    "ninja": {
        "source": "ninja manual (ninja-build.org/manual.html): running ninja, -t tools",
        "grade": "build",
        "options": "-C=project -f=project -j= -k= -l= -n -v --verbose --quiet -d= -w= --version -h -t=",
        # ninja manual, "Extra tools" (-t): they run after the manifest is loaded and before any build edge, so
        # none runs a rule's command; clean and cleandead delete outputs, recompact and restat rewrite ninja's own
        # logs, browse serves the graph over HTTP; another name is no tool (ninja stops: "unknown tool")
        "when": {
            "-t=targets -t=query -t=commands -t=deps -t=inputs -t=multi-inputs -t=rules -t=list -t=graph "
            "-t=missingdeps -t=compdb -t=path -t=urtle": "read",
            "-t=clean -t=cleandead": "delete",
            "-t=recompact -t=restat": "write",
            "-t=browse": "network",
        },
        "unsafe": "install",  # the install target writes under the install prefix (/usr/local by default)
    },
    "meson": {
        "source": "meson commands reference (mesonbuild.com/Commands.html) (meson 1.5)",
        "options": "-h --help -v --version",
        "commands": {
            # meson setup [builddir] [sourcedir]: meson takes whichever of the two holds a meson.build as the source
            # (the other, or the current directory, as the build directory; meson "Commands": setup, and
            # mesonbuild/msetup.py validate_core_dirs), so either operand may be a source directory whose
            # meson.build runs: a project outside the workspace, as --native-file and --cross-file are
            "setup": {
                "grade": "build",
                "operands": "project",
                "open": True,
                "options": "--wipe:delete --reconfigure -D*= --native-file=project --cross-file=project",
            },
            "configure": {"grade": "build", "open": True},
            "compile": {"grade": "build", "open": True, "options": "--clean:delete -C=project"},
            "test": {"grade": "build", "open": True, "options": "-C=project --wrapper=:runs --wrap=:runs --gdb:runs"},
            "introspect": {"grade": "read", "open": True},
            "install": {"grade": "system", "open": True, "options": "--destdir=out -C=project"},
            "dist": {"grade": "build", "open": True},
            "init": {"grade": "write", "open": True},
            "wrap": {"grade": "fetch", "open": True},
            "subprojects": {"grade": "fetch", "open": True},
            "devenv": {"grade": "wrap"},
        },
    },
    "bazel bazelisk": {
        "source": "bazel command-line reference (bazel.build/reference/command-line-reference) (Bazel 7)",
        # --server_javabase: "Path to a JVM used to execute Bazel itself"; --shell_executable: "Absolute path to the
        # shell executable for Bazel to use" (genrules and actions run through it)
        "open": True,
        "options": "--run_under*:runs --script_path*=out --output_base*=out --output_user_root*=out --bazelrc*:unknown "
        "--override_repository*:unknown --override_module*:unknown --registry*:unknown --server_javabase*:unknown "
        "--shell_executable*:unknown "
        # files and directories the build writes where the option says ("--profile=<a path>: If set, profile Bazel
        # and write data to the specified file"; "--execution_log_json_file", "--execution_log_binary_file",
        # "--execution_log_compact_file": "Log the executed spawns into this file"; "--build_event_json_file",
        # "--build_event_text_file", "--build_event_binary_file": "If non-empty, write a ... representation of the
        # build event protocol to that file"; "--disk_cache=<a path>: A path to a directory where Bazel can read and
        # write actions and action outputs"; "--repository_cache": where downloaded files are kept; "--explain":
        # "The explanation is written to the specified log file"; "--memory_profile", "--starlark_cpu_profile")
        "--profile=out --execution_log_json_file=out --execution_log_binary_file=out --execution_log_compact_file=out "
        "--build_event_json_file=out --build_event_text_file=out --build_event_binary_file=out --disk_cache=out "
        "--repository_cache=out --explain=out --memory_profile=out --starlark_cpu_profile=out",
        "commands": {
            "build test coverage fetch sync": "build",
            # queries evaluate the repository rules, which can run commands (Bazel "Repository rules": execute)
            "query cquery aquery info": "build",
            "version help": "read",
            # bazel run builds the target and runs its binary: one of the workspace's own labels (//pkg:target,
            # :target) runs the project's code, as cargo run does; any other (@repo//..., a word only known when it
            # runs) is refused by the guard (programs/build.py bazel_run)
            "run": "build",
            "clean": "delete",
            "shutdown": "build",
            "mod": "build",
        },
        "guard": "build:bazel_run",
    },
    "javac": {
        "source": "javac(1) (JDK 21)",
        "grade": "build",
        "options": "-d=out -s=out -h=out -cp= -classpath= --class-path= -sourcepath= --source-path= -p= "
        "--module-path= --release= -source= --source= -target= --target= -encoding= -g -g* -verbose "
        "-deprecation -nowarn -Werror -Xlint -parameters -proc* -implicit* --enable-preview "
        "-version --version -help --help -processor=:runs -processorpath=:runs --processor-path=:runs "
        "-J*:unknown -Xplugin*:runs @*:unknown -X* --add-modules= --module= -m=",
        # javac(1): --version/-version and --help/-help print and exit (no source file is read)
        "when": {"-version --version -help --help": "read"},
    },
    "java": {
        "source": "java(1) (JDK 21): java runs the class or JAR it is given; -version and -help print and exit",
        "grade": "runs",
        "open": True,
        "options": "-version --version -help --help -h -? -showversion",
        "when": {"-version --version -help --help -h -?": "read"},
    },
    "mvn mvnw": {
        # maven-surefire-plugin test goal: the user property jvm is "the jvm (or path to the java executable) to use
        # with the forking options", argLine the "Arbitrary JVM options" of the forked test JVM (-javaagent:JAR)
        "source": "Maven CLI options (maven.apache.org/ref/3.9.9/maven-embedder/cli.html); Build Lifecycle reference",
        "options": "-B --batch-mode -q --quiet -X --debug -e --errors -o --offline -U --update-snapshots -N "
        "--non-recursive -T= --threads= -P= --activate-profiles= -D*= -f=project --file=project -pl= --projects= "
        "-am --also-make -amd -fae -ff -fn --fail-at-end --fail-fast --fail-never -ntp "
        "--no-transfer-progress -v:read --version:read -V -s=:unknown --settings=:unknown -gs=:unknown "
        "--global-settings=:unknown -l=out --log-file=out -Dmaven.repo.local*:unknown -Dexec.*:runs -Djvm*:runs "
        "-DargLine*:unknown "
        # user properties naming a file or directory a goal writes: maven-dependency-plugin tree "outputFile: If
        # specified, this parameter will cause the dependency tree to be written to the path specified" (User
        # Property outputFile), list/resolve/build-classpath (mdep.outputFile), copy-dependencies outputDirectory;
        # maven-help-plugin effective-pom, effective-settings, describe, evaluate... "output: Optional parameter to
        # write the output of this help in a given file" (User Property output)
        "-DoutputFile=*:out -Dmdep.outputFile=*:out -DoutputDirectory=*:out -Doutput=*:out " + _JVM_PROXY,
        "many": True,
        "commands": {
            "validate compile test-compile test package verify process-resources process-classes generate-sources "
            "generate-resources process-test-resources test-compile integration-test pre-integration-test "
            "post-integration-test site": "build",
            "clean": "delete",
            "install": "home",
            "deploy": "publish",
            "dependency:tree dependency:list dependency:analyze dependency:resolve dependency:go-offline "
            "dependency:sources versions:display-dependency-updates versions:display-plugin-updates "
            "help:effective-pom help:describe help:active-profiles": "fetch",
            "dependency:copy-dependencies": "fetch",
            # maven-archetype-plugin generate: -DarchetypeCatalog (and 2.x -DarchetypeRepository) may be a URL
            # (Archetype Catalog reference: "read catalogs from filesystem/HTTP by providing the path/URL"); the
            # archetype's post-generate Groovy script runs, from a source the command chose
            "archetype:generate": {"grade": "fetch", "urls": "chosen"},
            # the project's own web application, built from the workspace and started (as cargo run is), serving
            # on a port other machines reach (as mix phx.server and vite): network; exec:java/exec:exec run the class
            # or program the POM or -Dexec.* names
            "spring-boot:run quarkus:dev jetty:run tomcat7:run": "network",
            "exec:java exec:exec": "runs",
            # plugin goals that check, format or report on the project's sources (Spotless Maven plugin README:
            # check "verifies", apply "formats"; maven-checkstyle-plugin, maven-pmd-plugin, spotbugs-maven-plugin,
            # jacoco-maven-plugin goal pages): the build's plugins and the project's configuration run
            "spotless:check spotless:apply checkstyle:check checkstyle:checkstyle pmd:check pmd:pmd pmd:cpd-check "
            "spotbugs:check spotbugs:spotbugs jacoco:report surefire:test": "build",
        },
    },
    "gradle gradlew": {
        "source": "Gradle command-line interface (docs.gradle.org/current/userguide/command_line_interface.html) (Gradle 8)",
        # Gradle looks for the settings file in the directories above to find the build's root (a Groovy/Kotlin script)
        "above": "settings.gradle settings.gradle.kts",
        "options": "--offline --refresh-dependencies --build-cache --no-build-cache --parallel --no-parallel "
        "--continue -q --quiet -i --info -d --debug -s --stacktrace -S --full-stacktrace --scan:publish --no-scan "
        "--no-daemon --daemon --console=* --warning-mode=* -x= --exclude-task= -p=project --project-dir=project "
        "-P*= -D*= --dry-run -m --rerun-tasks --status:read --stop:read --configuration-cache -v:read --version:read -? -h "
        "--help --max-workers=* --tests= -I=:runs --init-script=:runs -b=:unknown --build-file=:unknown "
        "-c=:unknown --settings-file=:unknown -g=:unknown --gradle-user-home=:unknown "
        # "Viewing and debugging dependencies": dependencies --configuration NAME, dependencyInsight --dependency NAME
        "--configuration= --dependency= "
        # "Listing tasks": tasks --all lists every task, --group NAME those of a group
        "--all --group= " + _JVM_PROXY,
        "many": True,
        # "Executing tasks in multi-project builds": a task path (:app:test, app:test) names a project's task
        "paths": True,
        "commands": {
            "build assemble check test compileJava compileKotlin classes jar bootJar war shadowJar javadoc lint "
            "assembleDebug assembleRelease bundleRelease testDebugUnitTest testReleaseUnitTest connectedCheck "
            "lintDebug spotlessCheck detekt ktlintCheck": "build",
            # Android Gradle plugin's signingReport prints each variant's signing configuration (the keystore's path,
            # alias and certificate fingerprints, "Sign your app"); JaCoCo's report and verification tasks ("The
            # JaCoCo Plugin"): they configure and run the project's build
            "signingReport jacocoTestReport jacocoTestCoverageVerification": "build",
            # run starts the project's own application (as cargo run does), bootRun its Spring Boot server (serving
            # on a port: network, as mvn spring-boot:run); installDebug installs on a device
            "run": "build",
            "bootRun": "network",
            "installDebug": "runs",
            "clean": "delete",
            "tasks projects components help model buildEnvironment": "build",  # they evaluate build.gradle
            # properties prints every project property ("Listing project properties"), those of gradle.properties
            # in the Gradle user home among them, where repository and signing credentials live ("Build
            # Environment": Gradle properties)
            "properties": "secret",
            "dependencies dependencyInsight dependencyUpdates": "fetch",
            "init wrapper": "write",
            "publish publishToMavenLocal uploadArchives": "publish",
            "spotlessApply ktlintFormat": "build",
        },
    },
    "ant": {
        "source": "Apache Ant manual: Running Apache Ant (ant.apache.org/manual/running.html)",
        "grade": "build",
        # -f/-file/-buildfile name the build file run (its <exec>, <java>, <script> tasks); -find/-s search for one
        # "towards the root of the filesystem" (ant -help), so one above the workspace may be run
        "options": "-f=project -file=project -buildfile=project -D*= -q -quiet -v -verbose -d -debug -k -keep-going "
        "-e -emacs -p -projecthelp -version -h -help -l=out -logfile=out -lib=:unknown -logger=:unknown "
        "-listener=:unknown -propertyfile=in -find:unknown -find=*:unknown -s:unknown -s=*:unknown",
    },
    "sbt": {
        # sbt reference "Global Settings" / "Command line reference": sbt.global.base is the directory of the global
        # plugins and settings loaded into every build, sbt.boot.directory and sbt.boot.properties the launcher's
        # jars and configuration (the sbt it starts); both default to directories under user.home (~/.sbt), so
        # -Duser.home=DIR (a JVM system property, as the sbt launcher passes -D) loads DIR/.sbt's plugins
        "source": "sbt reference manual: Command line reference (scala-sbt.org/1.x/docs/Command-Line-Reference.html); "
        'Getting Started "Running" (the build definition is loaded when sbt starts)',
        "options": "-Dsbt.global.base*:unknown -Dsbt.boot.directory*:unknown -Dsbt.boot.properties*:unknown "
        "-Duser.home=project "
        "-Dsbt.*= -batch --batch -client --client -v -debug -no-colors -J*:unknown -D*=",
        "grade": "build",
        "many": True,
        "commands": {
            "compile test Test/compile package reload update doc": "build",
            "clean": "delete",
            "run": "build",  # the project's main class, as cargo run runs the project's binary
            "console": "runs",
            "publish": "publish",
            "publishLocal": "home",
            # sbt loads the build definition (build.sbt, project/*.scala and its plugins) before any command
            "projects tasks about version help": "build",
            # tasks of sbt and its common plugins that compile, test, format or package the project (sbt reference
            # "Testing": testOnly, testQuick; sbt-assembly README; sbt-scalafmt "Task keys"; sbt-scoverage README)
            "testOnly testQuick Test/testOnly Test/test IntegrationTest/test assembly scalafmt scalafmtAll "
            "scalafmtCheck scalafmtCheckAll scalafmtSbt scalafmtSbtCheck coverage coverageReport "
            "coverageAggregate": "build",
        },
    },
    "kotlinc kotlinc-jvm kotlin-native kotlinc-native": {
        "source": "Kotlin compiler options (kotlinlang.org/docs/compiler-reference.html)",
        "grade": "build",
        "options": "-d=out -include-runtime -jvm-target= -cp= -classpath= -language-version= -api-version= "
        "-no-stdlib -no-reflect -nowarn -Werror -verbose -version -help -progressive -o=out "
        "-script:runs -Xplugin=*:runs -P=:unknown -X* -kotlin-home=",
        # kotlinc -help: -version "Display compiler version" and -help print (with no source the compiler exits)
        "when": {"-version -help": "read"},
    },
    "dotnet": {
        "source": "dotnet CLI reference (learn.microsoft.com/dotnet/core/tools) (.NET 8)",
        # MSBuild "Customize your build": Directory.Build.props/.targets are searched upward and imported
        "above": "Directory.Build.props Directory.Build.targets Directory.Packages.props",
        "guard": "build:dotnet_switches",  # -p:NAME=VALUE (tool paths, imported targets), logs, loggers, -e
        "options": "--info --list-sdks --list-runtimes --version -h --help -d --diagnostics",
        "grade": "read",
        "commands": {
            # the package sources of the workspace's nuget.config files are listed in chosen_by (settings.py
            # _nuget_sources): build, test, run, pack and publish restore first
            "build msbuild": {
                "grade": "build",
                "open": True,
                "options": "-o=out --output=out",
                "operands": "project",
                "settings": "dotnet",
            },
            "test": {
                "grade": "build",
                "open": True,
                "operands": "project",
                # dotnet test: "-l|--logger <LOGGER>", "trx;LogFileName=<file>": logger parameters are
                # KEY=VALUE pairs after ";" (LogFileName, LogFilePath of the JUnit logger), files it writes
                "options": "-o=out --output=out --results-directory=out -d=out --diag=out -l=pairs --logger=pairs",
                "settings": "dotnet",
            },
            "run watch": {"grade": "build", "open": True, "options": "--project=project", "settings": "dotnet"},
            "publish pack": {"grade": "build", "open": True, "options": "-o=out --output=out", "settings": "dotnet"},
            # dotnet restore -s|--source URL: "the URI of the NuGet package source to use", in place of the
            # NuGet.config's: packages (and the build targets they carry) from a source the command names
            "restore": {
                "grade": "fetch",
                "open": True,
                "options": "--packages=out",
                "urls": "chosen",
                "settings": "dotnet",
            },
            "clean": {"grade": "delete", "open": True},
            "new": {
                "grade": "read",
                "else": "write",
                "open": True,
                "options": "-o=out --output=out --install:install --uninstall:home",
                "commands": {
                    "list search details": "network",
                    # dotnet new install --nuget-source (--add-source): the template package from a feed the
                    # command names, its templates run their post-actions later
                    "install": {
                        "grade": "install",
                        "open": True,
                        "options": "--nuget-source=:chosen --add-source=:chosen",
                    },
                    "uninstall": "home",
                    "update": "install",
                },
            },
            "format": {"grade": "build", "open": True, "options": "--verify-no-changes", "operands": "project"},
            "add": {
                "commands": {
                    "package": {"grade": "fetch", "open": True, "urls": "chosen", "settings": "dotnet"},
                    "reference": {"grade": "write", "open": True},
                }
            },
            "remove": {"commands": {"package reference": {"grade": "write", "open": True}}},
            "list": {
                "open": True,
                "grade": "read",
                "commands": {
                    "package": {
                        "grade": "read",
                        "open": True,
                        "options": "--outdated:network --vulnerable:network --deprecated:network",
                    },
                    "reference": "read",
                },
            },
            # dotnet sln [SOLUTION] list prints the solution's projects; add, remove and migrate rewrite it (the
            # solution before the command is moved after it by programs/build.py dotnet_switches)
            "sln": {
                "grade": "write",
                "open": True,
                "commands": {
                    "list": {"grade": "read", "open": True},
                    "add remove migrate": {"grade": "write", "open": True},
                },
            },
            "tool": {
                "commands": {
                    # dotnet tool install --add-source URL|PATH: "Adds an additional NuGet package source to use
                    # during installation": the tool, a program later run, from a feed the command names
                    "install update": {
                        "grade": "install",
                        "open": True,
                        "options": "--tool-path=out --add-source=:chosen",
                        "urls": "chosen",
                    },
                    "uninstall": {"grade": "home", "open": True, "options": "--tool-path=out"},
                    "list": {"grade": "read", "open": True},
                    "search": {"grade": "network", "open": True},
                    "restore": {"grade": "fetch", "open": True, "settings": "dotnet"},
                    "run": "runs",
                }
            },
            "nuget": {
                "commands": {
                    "push": {"grade": "publish", "open": True},
                    "delete": {"grade": "destroy", "open": True},
                    "locals": {"grade": "read", "open": True, "options": "--clear:delete -c:delete"},
                    "verify": {"grade": "read", "open": True},
                    # dotnet nuget add|update|remove|enable|disable source: the package sources of the user's
                    # NuGet.Config (or --configfile), where every later restore gets its packages
                    # ("dotnet nuget add source", "Common NuGet configurations"); client-cert: a certificate
                    "add update remove enable disable": {
                        "commands": {
                            "source": {"grade": "source", "open": True, "options": "--configfile=out"},
                            "client-cert": {"grade": "home", "open": True, "options": "--configfile=out"},
                        }
                    },
                    "list": {"grade": "read", "open": True},
                }
            },
            "workload": {
                "commands": {
                    "install update repair restore": {"grade": "install", "open": True},
                    "uninstall": {"grade": "system", "open": True},
                    "list search": {"grade": "read", "open": True},
                }
            },
            "dev-certs": {
                "commands": {
                    # --export-path/-ep FILE writes the certificate (and with its key) there
                    "https": {
                        "grade": "home",
                        "open": True,
                        # --trust adds the certificate to the trusted root store (dotnet dev-certs: "Trust the
                        # certificate on the current platform"): a certificate authority every TLS client trusts
                        "options": "--clean:delete --trust:critical --check --export-path=out -ep=out",
                    }
                }
            },
            "user-secrets": {"open": True, "commands": {"list": "secret", "set init": "home", "remove clear": "home"}},
            "help": {"grade": "read", "open": True},
            # Entity Framework Core tools reference (learn.microsoft.com/ef/core/cli/dotnet) (EF Core 8): every
            # command but the bare ef builds the project and loads its startup assembly (the project's code);
            # database update applies migrations to the database, database drop deletes it, migrations list reads
            # which are applied (unless --no-connect), migrations remove deletes the last migration's files,
            # dbcontext scaffold reads a database's schema into new files
            "ef": {
                "grade": "read",
                "options": "-p=project --project=project -s=project --startup-project=project --framework= "
                "--configuration= --runtime= --msbuildprojectextensionspath=project --no-build --json -c= --context= "
                "-v --verbose --no-color --prefix-output -h --help",
                "commands": {
                    "database": {
                        "commands": {
                            "update": {"grade": "change", "open": True, "options": "--connection="},
                            "drop": {"grade": "destroy", "open": True, "options": "-f --force --dry-run"},
                        }
                    },
                    "migrations": {
                        "commands": {
                            "add": {"grade": "build", "open": True, "options": "-o=out --output-dir=out"},
                            "remove": {"grade": "delete", "open": True},
                            "list": {
                                "grade": "network",
                                "open": True,
                                "options": "--connection= --no-connect",
                                "when": {"--no-connect": "build"},
                            },
                            "script bundle has-pending-model-changes": {
                                "grade": "build",
                                "open": True,
                                "options": "-o=out --output=out",
                            },
                        }
                    },
                    "dbcontext": {
                        "commands": {
                            "info list optimize script": {
                                "grade": "build",
                                "open": True,
                                "options": "-o=out --output=out --output-dir=out",
                            },
                            "scaffold": {
                                "grade": "fetch",
                                "open": True,
                                "options": "-o=out --output-dir=out --context-dir=out",
                            },
                        }
                    },
                },
            },
        },
    },
    "swift": {
        # swift build --help: --toolchain, --sdk, --swift-sdks-path and --destination name the toolchain and SDK
        # whose compilers and linker it runs; -Xswiftc, -Xcc, -Xcxx, -Xlinker pass flags that can name programs
        # (-tools-directory, -load-plugin-executable, -fuse-ld=PATH), as swiftc's -Xfrontend
        "source": "Swift Package Manager usage (swift.org/documentation/package-manager; swift build/test/run/package --help, Swift 5.10)",
        "options": "--version:read -h --help --package-path=project",
        "commands": {
            # SwiftPM looks for Package.swift (Swift code it runs) in the directory it runs in and each one above
            # ("Could not find Package.swift in this directory or any of its parent directories")
            "build test run": {
                "grade": "build",
                "open": True,
                "options": _SWIFT_BUILD_OPTIONS,
                "above": "Package.swift",
            },
            "package": {
                "commands": {
                    "init": {"grade": "write", "open": True},
                    "resolve update": {"grade": "fetch", "open": True},
                    "show-dependencies describe dump-package": {"grade": "build", "open": True},  # Package.swift runs
                    "clean": {"grade": "delete", "open": True},
                    "reset purge-cache": {"grade": "delete", "open": True},
                    # swift package edit --help: "--path <path> Create or use the checkout at this path": the
                    # dependency is built from that checkout, its Package.swift evaluated (Swift code) from then on
                    "edit": {"grade": "write", "open": True, "options": "--path=project"},
                    "unedit": {"grade": "write", "open": True},
                }
            },
            "format": {"grade": "build", "open": True},
        },
    },
    "swiftc": {
        "source": "swiftc -help (Swift 5.10)",
        "grade": "build",
        "options": "-o=out -O -Onone -Osize -g -c -emit-executable -emit-library -emit-object -emit-module "
        "-module-name= -target= -sdk= -I*= -L*= -l*= -F*= -D*= -parse -typecheck -v -version "
        "-j= -swift-version= -parse-as-library -Xlinker=:unknown -Xcc=:unknown -Xfrontend=:unknown "
        "-load-plugin-library=:runs -load-plugin-executable=:runs -plugin-path=:runs",
    },
    "rustc": {
        "source": "rustc book: Command-line Arguments (doc.rust-lang.org/rustc/command-line-arguments.html)",
        "grade": "build",
        # --emit TYPE[=PATH],...: each PATH written; --extern NAME=PATH: a crate loaded from PATH (a proc-macro crate
        # is a library rustc loads and runs while compiling)
        "options": "-o=out --out-dir=out --emit=pairs --crate-type= --crate-name= --edition= -g -O --test "
        "--target= -L*= -l*= --cfg= --cap-lints= -W= -A= -D= -F= --explain=:read -v --verbose "
        "-V --version --print= --cfg=* -C*=:unknown -Z*=:unknown --extern=:unknown --sysroot=:unknown "
        "@*:unknown --check-cfg=",
        "when": {"--print -V --version": "read"},
    },
    "ghc": {
        "source": "GHC User's Guide: Using GHC, Flag reference (GHC 9.8)",
        "grade": "build",
        # GHC User's Guide "Template Haskell": splices run at compile time with full IO (runIO), so a source file
        # or a -i search directory (where imported modules are found) outside the workspace is code run from there
        "operands": "project",
        "guard": "build:ghc_search_path",
        "options": "-o=out -odir=out -hidir=out -outputdir=out -O -O0 -O1 -O2 -c -i*=project -W* -f* -X* -threaded "
        "-rtsopts* -package= -main-is= --make -e=:runs --interactive:runs -pgm*:unknown -opt*:unknown "
        "-plugin-package=:runs -fplugin=:runs -dynamic -static -v -v* --version --numeric-version",
    },
    "cabal": {
        "source": "Cabal user guide: cabal-install commands (cabal.readthedocs.io) (cabal 3.10)",
        # cabal.project "is searched for in the current directory and its parents": its packages (and their
        # Setup.hs, Template Haskell) are what cabal builds
        "above": "cabal.project",
        # cabal-install "Global configuration" / "Configuring builds": -w/--with-compiler, --with-hc-pkg and
        # --with-PROG name the compiler and the programs a build runs (a path: a program of the caller's choosing);
        # --ghc-options pass GHC flags, which can name programs too (-pgmL, -pgmF, -fplugin); --builddir is written
        "options": "-v* --verbose=* -j* --help --version --numeric-version --project-file=project "
        "--project-dir=project -w=interpreter --with-compiler=interpreter --with-hc-pkg=interpreter "
        "--with-*=interpreter --ghc-options=:unknown --ghc-option=:unknown --builddir=out --config-file=:unknown",
        "commands": {
            "build v2-build configure v2-configure test v2-test bench v2-bench haddock v2-haddock repl v2-repl "
            "freeze v2-freeze gen-bounds sdist v2-sdist": {
                "grade": "build",
                "open": True,
                # cabal test --help: "--test-wrapper=FILE Run test through a wrapper."
                "options": "--test-wrapper=interpreter",
            },
            "run v2-run exec v2-exec": "runs",
            "update v2-update": {"grade": "install", "open": True},
            "install v2-install": {"grade": "install", "open": True, "options": "--installdir=out"},
            "init": {"grade": "write", "open": True},
            "list info": {"grade": "read", "open": True},
            # cabal check: "Check the package for common mistakes" in its .cabal file; nothing is configured or built
            "check": {"grade": "read", "open": True},
            "clean v2-clean": {"grade": "delete", "open": True},
            "upload": {"grade": "publish", "open": True},
            "outdated": {"grade": "network", "open": True},
        },
    },
    "stack": {
        "source": "The Haskell Tool Stack: stack commands (docs.haskellstack.org) (stack 2.15)",
        # stack uses the stack.yaml of the directory it runs in or the nearest one above: its packages (and their
        # Setup.hs, Template Haskell) are what stack builds
        "above": "stack.yaml",
        # stack "Global flags": --with-gcc and --with-hpack name programs it runs, --ghc-options GHC flags (which
        # can name programs: -pgmL, -fplugin)
        "options": "--help --version --verbose --silent -j= --resolver= --snapshot= --stack-yaml=:unknown "
        "--work-dir=out --with-gcc=interpreter --with-hpack=interpreter --ghc-options=:unknown",
        "commands": {
            "build test bench haddock": {
                "grade": "build",
                "open": True,
                "options": "--copy-bins:home --exec=:runs --local-bin-path=out",
            },
            "setup update": {"grade": "install", "open": True},
            "install": {"grade": "install", "open": True},
            "new": {"grade": "fetch", "open": True},
            "init": {"grade": "write", "open": True},
            # stack run builds and runs the project's executable (as cargo run); exec and script run any program
            "run": {"grade": "build", "open": True},
            "exec runghc runhaskell ghc ghci repl eval script": "runs",
            "clean": {"grade": "delete", "open": True},
            "purge": {"grade": "delete", "open": True},
            "ls list path query ide templates": {"grade": "read", "open": True},
            "upload sdist": {"grade": "publish", "open": True},
        },
    },
    "mix": {
        "source": "Mix task reference (hexdocs.pm/mix/Mix.html; mix help TASK) (Elixir 1.17); in a project every "
        "task first evaluates its mix.exs (Mix.Project: the project's code, listing its aliases and tasks), so "
        "help and deps run workspace code as a build does",
        "options": "-v --version:read -h --help",
        "commands": {
            "compile format deps.compile escript.build release assets.deploy dialyzer credo docs phx.digest xref": {
                "grade": "build",
                "open": True,
                "options": "--check-formatted --dot-formatter=project",
            },
            # mix help test: "loads up test/test_helper.exs and then, requires all files matching the
            # test/**/*_test.exs pattern", or the files and directories given: each is code it runs (a path outside
            # the workspace is code from outside); -r/--require FILE (mix help run: "requires pattern before running
            # the command") likewise
            "test": {
                "grade": "build",
                "open": True,
                "operands": "project",
                "options": "-r=project --require=project --formatter= --include= --exclude= --only= --seed= "
                "--timeout= --max-cases= --max-failures= --max-requires= --partitions= --slowest= --export-coverage=",
            },
            "deps.get deps.update": {"grade": "fetch", "open": True},
            "local.hex local.rebar": {"grade": "install", "open": True},  # into ~/.mix
            # mix help archive.install: "mix archive.install archive.ez", "mix archive.install path/to/archive.ez":
            # a local archive (or, without one, the project's) is built or installed into ~/.mix; one outside the
            # workspace is code from there
            "archive.install": {"grade": "install", "open": True, "operands": "project"},
            "deps.clean clean": {"grade": "delete", "open": True},
            "deps deps.tree help": {"grade": "build", "open": True},
            # hexdocs.pm/hex/Mix.Tasks.Hex.Outdated: "Shows all Hex dependencies that have newer versions in the
            # registry"; Mix.Tasks.Hex.Info: "Prints Hex information" or, given a package, its registry entry
            "hex.outdated": {"grade": "network", "open": True},
            # Mix.Tasks.Hex.Info (hex 2): without a package it prints the system information with "when registry
            # was last updated", after Hex.start, which checks hex.pm for a newer Hex: network either way
            "hex.info": {"grade": "network", "else": "network", "open": True},
            "new phx.new": {"grade": "write", "open": True},
            "ecto.migrate ecto.create ecto.drop ecto.reset ecto.rollback": "runs",
            # mix help run: "--eval, -e - evaluates the given code", "--require, -r - executes the given
            # pattern/file", "--config, -c - loads the given configuration file"; it runs the project's code or the
            # script given
            "run": {
                "grade": "runs",
                "operands": "project",
                "options": "-e=:runs --eval=:runs -r=project --require=project -c=project --config=project "
                "-p --parallel --no-compile --no-deps-check --no-archives-check --no-elixir-version-check --no-halt "
                "--no-start --no-mix-exs --preload-modules",
            },
            # Phoenix's phx.server starts the project's endpoint (mix run --no-halt: its options); --open starts a
            # browser, -e/--eval runs the code given
            "phx.server": {
                "grade": "network",
                "options": "--open:runs -e=:runs --eval=:runs -r=project --require=project -c=project --config=project "
                "--no-compile --no-deps-check --no-archives-check --no-elixir-version-check --no-halt --no-start "
                "--preload-modules --parallel",
            },
            "hex.publish": {"grade": "publish", "open": True},
        },
    },
    "zig": {
        "source": "zig help (Zig 0.13 CLI): build, build-exe, run, test, init, fmt, cc",
        "options": "-h --help",
        "commands": {
            # zig build looks for build.zig (Zig code it compiles and runs) in the directory it runs in and each
            # one above
            "build": {
                "grade": "build",
                "open": True,
                "above": "build.zig",
                "options": "-p=out --prefix=out --build-file=:unknown --build-root=project "
                "--cache-dir=out --global-cache-dir=out --build-runner=:runs --zig-lib-dir=project --sysroot=project "
                "--search-prefix=project --libc=project",
            },
            # zig build-exe --help: "--zig-lib-dir [arg] Override path to Zig installation lib directory" (the
            # standard library and build runner compiled into what runs), "--test-cmd [arg] Specify test execution
            # command one arg at a time", "--test-runner [path] Specify a custom test runner"
            "build-exe build-lib build-obj": {
                "grade": "build",
                "open": True,
                "options": "-femit-bin=:out -femit-docs=:out --zig-lib-dir=project --test-cmd=:runs "
                "--test-runner=project",
            },
            # zig run --help: "Create executable and run immediately"; zig test: "Perform unit testing" (the tests
            # built are run): the source files given are code that runs, outside the workspace code FlyBot does not
            # read (the words after -- are the program's arguments, graded the same way: fail closed)
            "test run": {
                "grade": "build",
                "open": True,
                "operands": "project",
                "options": "-femit-bin=:out -femit-docs=:out --zig-lib-dir=project --test-cmd=:runs "
                "--test-runner=project",
            },
            "init init-exe init-lib": {"grade": "write", "open": True},
            # zig fmt rewrites the files given; --check lists the non-conforming ones and changes nothing
            "fmt": {
                "grade": "build",
                "open": True,
                "operands": "out",
                "options": "--check --stdin --ast-check --exclude=",
                "when": {"--check --stdin": {"grade": "read", "operands": "none"}},
            },
            "version env targets zen libc": "read",
            "fetch": {"grade": "fetch", "open": True},
            "cc c++": {"grade": "build", "options": _CC_OPTIONS},
            "ar ranlib objcopy dlltool lib rc translate-c": "unknown",
        },
    },
    "rails": {
        "source": "Rails command line guide (guides.rubyonrails.org/command_line.html) (Rails 7.2): commands load the app",
        "grade": "read",
        "options": "-h --help -v --version -e= --environment=",
        "commands": {
            "test t routes about stats notes assets:precompile assets:clean zeitwerk:check db:migrate:status "
            "time:zones initializers middleware": {"grade": "build", "open": True},
            # server runs the application and listens on a port (-b/--binding: an address other machines reach)
            "server s": {"grade": "network", "open": True},
            "generate g": {"grade": "build", "open": True},
            "destroy d": {"grade": "delete", "open": True},
            "new": {"grade": "fetch", "open": True, "operands": "first-out"},
            "console c dbconsole db runner r credentials:edit secrets:edit": "runs",
            "credentials:show": "secret",
            "db:migrate db:seed db:rollback db:create db:prepare": {
                "grade": "change",
                "open": True,
            },
            # the Active Record Migrations guide: "schema:load" loads db/schema.rb, whose create_table calls carry
            # force: :cascade (each table is dropped and created again: its rows are lost); db:setup creates the
            # database and loads the schema (an existing database keeps its tables only until that load);
            # db:seed:replant "truncates tables of each database ... and loads the seeds"; db:migrate:reset drops,
            # creates and migrates; db:truncate_all empties every table
            "db:drop db:reset db:purge db:schema:load db:structure:load db:setup db:seed:replant db:migrate:reset "
            "db:truncate_all": {"grade": "destroy", "open": True},
            "version": "read",
        },
    },
    # django-admin is manage.py without the project's settings chosen (Django docs, "django-admin and manage.py"):
    # a command that loads settings imports the module DJANGO_SETTINGS_MODULE names from the environment, which FlyBot
    # does not see, so only the commands that need none are graded here
    "django-admin": {
        "source": "Django docs, django-admin and manage.py (Django 5.0): startproject and startapp render a template "
        "into a new directory; every other command loads the settings module the environment names",
        "options": "-h --help --version:read",
        "commands": {
            "version": "read",
            "startproject startapp": {
                "grade": "build",
                "operands": "last-out",
                "options": "--template=:unknown -e= --extension= -n= --name= --exclude= -x= -v= --verbosity= "
                "--no-color --force-color",
            },
        },
    },
    "rake": {
        # rake(1): "If no Rakefile is found in the current directory, rake will search parent directories"
        "above": "Rakefile rakefile Rakefile.rb rakefile.rb",
        "source": "rake(1) and Rake's command line usage (ruby.github.io/rake) (Rake 13): runs the tasks of the "
        "project's Rakefile (Ruby code; with no task, the default one); -T/-D/-W/-P load it and list the tasks; "
        "-e/-p/-E run the Ruby code given, -r requires a library; in a Rails application the db: tasks are Rails' "
        "(Active Record Migrations guide: db:schema:load and db:setup drop and create the tables again)",
        "grade": "build",
        "options": "-h --help -V --version:read -T --tasks -D --describe -W --where -P --prereqs -n --dry-run "
        "-t --trace -q --quiet -s --silent -v --verbose -m --multitask -j= --jobs= -N --no-search "
        "-f=project --rakefile=project -C=project --directory=project -e=:runs --execute=:runs -p=:runs "
        "--execute-print=:runs -E=:runs --execute-continue=:runs -r=:runs --require=:runs -I=:unknown "
        "--libdir=:unknown -g:unknown --system:unknown -G --no-system -R=:unknown --rakelibdir=:unknown",
        "many": True,
        "commands": {
            "default test spec build assets:precompile assets:clean stats notes routes about": "build",
            "db:migrate db:seed db:rollback db:create db:prepare": "change",
            "db:drop db:reset db:purge db:schema:load db:structure:load db:setup db:seed:replant db:migrate:reset "
            "db:truncate_all": "destroy",
            "db:migrate:status db:version": "network",
            "clean clobber": "delete",
            "install release": "publish",
        },
    },
    "ng": {
        "source": "Angular CLI reference (angular.dev/cli) (Angular CLI 18)",
        "options": "-h --help",
        "commands": {
            "serve s test t e2e e lint extract-i18n run": {"grade": "build", "open": True},
            # angular.dev/cli/build: --output-path DIR; "--delete-output-path: Delete the output path before
            # building" (default true)
            "build b": {"grade": "build", "open": True, "options": "--output-path=emptied"},
            "generate g": {"grade": "build", "open": True},
            "new n add update": {"grade": "fetch", "open": True},
            "version v": "read",
            "config": {"grade": "read", "open": True, "options": "-g:home --global:home", "else": "write"},
            "analytics": {
                "commands": {"info": "read", "on off enable disable prompt": {"grade": "home", "open": True}}
            },
            "cache": {
                "commands": {
                    "info": "read",
                    "on off enable disable": {"grade": "home", "open": True},
                    "clean": "delete",
                }
            },
            "deploy": {"grade": "change", "open": True},
            "completion": {"grade": "home", "commands": {"script": "read"}},
        },
    },
    "react-native": {
        "source": "React Native CLI (github.com/react-native-community/cli docs/commands.md) (cli 14)",
        "options": "-h --help -v --version",
        "commands": {
            "start bundle": {"grade": "build", "open": True},
            "run-android run-ios": {"grade": "change", "open": True},
            "log-android log-ios": {"grade": "remote", "open": True},
            "init": {"grade": "fetch", "open": True},
            "info doctor": {"grade": "read", "open": True},
            # react-native config loads react-native.config.js, the project's JavaScript
            "config": {"grade": "build", "open": True},
        },
    },
    "hugo": {
        "source": "Hugo CLI (gohugo.io/commands) (Hugo 0.13x): without a command it builds the site into public/",
        "grade": "build",
        "options": "-d=out --destination=out -D --buildDrafts -E --buildExpired -F --buildFuture -s=in --source=in "
        "-b= --baseURL= --minify --gc --cleanDestinationDir:delete -e= --environment= -t= --theme= "
        # --config FILE: the site configuration (publishDir, security.exec.allow: the programs templates may run)
        "--config=project --logLevel= --quiet -v --verbose -h --help",
        "commands": {
            "server serve": {"grade": "build", "open": True},
            # hugo new site PATH makes the site's skeleton at PATH
            "new": {
                "grade": "write",
                "open": True,
                "else": "write",
                "commands": {"site": {"grade": "write", "open": True, "operands": "out"}, "theme content": "write"},
            },
            # hugo deploy (gohugo.io/commands/hugo_deploy): uploads publishDir to the configuration's deployment
            # target and deletes remote files not in it (--maxDeletes, default 256; -1: no limit); --dryRun only
            # reports the changes
            "deploy": {
                "grade": "destroy",
                "open": True,
                "options": "--dryRun --maxDeletes= --target= --confirm --force --invalidateCDN --workers=",
                "when": {"--dryRun": "remote"},
            },
            "mod": {
                "commands": {
                    "get tidy vendor init npm": {"grade": "fetch", "open": True},
                    "graph verify": "read",
                    "clean": "delete",
                }
            },
            "version env config list": {"grade": "read", "open": True},
            "gen": {"grade": "write", "open": True},
        },
    },
    "pio platformio": {
        "source": "PlatformIO Core CLI (docs.platformio.org/en/latest/core/userguide) (PlatformIO 6)",
        "options": "-h --help --version -c= --caller= --no-ansi",
        "commands": {
            "run test check ci": {
                "grade": "build",
                "open": True,
                # -O/--project-option sets a platformio.ini option for this run ("pio run" reference):
                # extra_scripts, platform, upload_command and the like name code or programs the build runs
                "options": "-t=:unknown --target=:unknown -e= --environment= -d=project --project-dir=project "
                "-c=project --project-conf=project -O=:unknown --project-option=:unknown",
            },
            "debug home remote": "runs",
            "boards": {"grade": "read", "open": True},
            "upgrade update": {"grade": "install", "open": True},
            "project": {
                "commands": {
                    "init": {"grade": "write", "open": True},
                    "config metadata": {"grade": "read", "open": True},
                }
            },
            "pkg": {
                "commands": {
                    "publish": {"grade": "publish", "open": True},
                    "unpublish": {"grade": "destroy", "open": True},
                    # "pio pkg install" reference: -p/--platform, -t/--tool, -l/--library take a package
                    # specification, which may be a URL or VCS link: a development platform's builder scripts
                    # (Python) run in every later build
                    "install update": {"grade": "fetch", "open": True, "urls": "chosen"},
                    "uninstall": {"grade": "delete", "open": True},
                    "pack": {"grade": "build", "open": True},
                    "list show search outdated stats exec": "unknown",
                }
            },
            "device": {
                "commands": {"list": {"grade": "read", "open": True}, "monitor": {"grade": "remote", "open": True}}
            },
            "system": {"commands": {"info": "read", "completion": "home", "prune": {"grade": "delete", "open": True}}},
            "settings": {"commands": {"get": "read", "set reset": "home"}},
            "platform lib": {
                "commands": {
                    "list show frameworks builtin": {"grade": "read", "open": True},
                    "search stats": {"grade": "network", "open": True},
                    "install update": {"grade": "install", "open": True, "urls": "chosen"},
                    "uninstall": {"grade": "delete", "open": True},
                }
            },
            "team org account access": {
                "open": True,
                "verbs": {"ls": "list", "rm": "delete"},
                "commands": {"login logout": "home", "forgot register password token": "change"},
            },
        },
    },
    "sfdk": {
        "source": "Sailfish SDK sfdk (docs.sailfishos.org/Tools/Sailfish_SDK/Sfdk) (SDK 3.x)",
        "options": "-c= --config= -C= --context= --drop= --help --help-building --help-all --version",
        "commands": {
            "build make qmake cmake package prepare apply build-init compiledb check qmltypes scrape make-install": {
                "grade": "build",
                "open": True,
            },
            "deploy": {"grade": "change", "open": True},
            "undeploy": {"grade": "destroy", "open": True},
            "build-shell maintain": "runs",
            "build-requires": {
                "commands": {"diff": "read", "pull": {"grade": "fetch", "open": True}, "reset": "delete"}
            },
            "config": {"grade": "read", "else": "home", "open": True},
            "device": {"commands": {"list": "read", "exec": "runs"}},
            "emulator engine tools": {
                "commands": {
                    "list status show device-model-list device-model-show": {"grade": "read", "open": True},
                    "start stop set install": {"grade": "system", "open": True},
                    "remove": {"grade": "delete", "open": True},
                    "exec": "runs",
                }
            },
        },
    },
    "jupyter": {
        "source": "Jupyter documentation (docs.jupyter.org): notebook, lab and console run kernels; nbconvert converts",
        "options": "-h --help --version --paths --config-dir --data-dir --runtime-dir",
        "grade": "read",
        "commands": {
            # notebook, lab and server serve the notebooks of the directory they start in on a port, with a token
            # (Jupyter Server "Running a public server"); list prints the running servers; their subcommands build,
            # install extensions or stop servers, and the traitlets options (--ServerApp.token=, --config=) change
            # what is served and to whom: only the options listed are graded
            "notebook lab server": {
                "grade": "network",
                "options": "--no-browser --port= --port-retries= --ip= --debug -y --answer-yes",
                "commands": {"list": {"grade": "read", "options": "--json --jsonlist"}},
            },
            "console qtconsole kernel execute": "runs",
            # nbconvert writes each output beside its notebook (--output-dir: there), --inplace over the notebook,
            # --stdout prints it; --execute and the preprocessors a traitlets option enables
            # (--ExecutePreprocessor.enabled=True, --Exporter.preprocessors=[...]) run code: only the options
            # listed are graded
            "nbconvert": {
                "grade": "write",
                "operands": "out",
                "options": "--execute:runs --output=out --output-dir=out --to= --stdout --inplace --allow-errors "
                "--no-input --no-prompt --clear-output --embed-images --log-level= --debug -y "
                "--template=project --template-file=project --ExecutePreprocessor.timeout= "
                "--ExecutePreprocessor.kernel_name=",
                "when": {"--stdout": {"grade": "read", "operands": "none"}, "--output-dir": {"operands": "none"}},
            },
            "kernelspec": {"commands": {"list": "read", "install remove uninstall": "home"}},
            "troubleshoot": "read",
        },
    },
    # papermill INPUT OUTPUT runs every cell of the notebook in a kernel, as python FILE runs a program file the
    # classifier cannot see; --prepare-only writes OUTPUT with the parameters injected and runs nothing; -p takes a
    # name and a value (two words, both taken as operands here)
    "papermill": {
        "source": "papermill --help (papermill 2.6): executes the input notebook and writes the output notebook; "
        "--help-notebook prints the notebook's parameters; --prepare-only writes the output without executing",
        "grade": "runs",
        "options": "--help-notebook -p= --parameters= -r= --parameters_raw= -f=in --parameters_file=in -y= "
        "--parameters_yaml= -b= --parameters_base64= --inject-input-path --inject-output-path --inject-paths "
        "--prepare-only --kernel= -k= --language= -l= --log-output --no-log-output --progress-bar "
        "--no-progress-bar --report-mode --no-report-mode --start-timeout= --execution-timeout= "
        "--request-save-on-cell-execute --no-request-save-on-cell-execute --autosave-cell-every= "
        "--stdout-file=out --stderr-file=out --cwd=:unknown --engine=:unknown --version -h --help",
        "when": {
            "--help-notebook --version -h --help": {"grade": "read", "operands": "none"},
            "--prepare-only": {"grade": "write", "operands": "out"},
        },
    },
    # nbstripout FILES rewrites each notebook with its outputs removed; --install sets the repository's (--global:
    # the user's, --system: the machine's) git filter and diff driver to run nbstripout on every later git add and
    # diff: code git runs, as `git config filter.NAME.clean` is graded
    "nbstripout": {
        "source": "nbstripout --help (nbstripout 0.8): strips output from the notebooks given (in place), or "
        "from standard input to standard output; --dry-run and --verify only report; -t/--textconv prints the "
        "stripped notebook; --install/--uninstall set git attributes and configuration",
        "grade": "read",
        "operands": "out",
        "options": "--dry-run --verify -t --textconv --keep-count --keep-output --keep-id --drop-empty-cells "
        "--drop-tagged-cells= --strip-init-cells --extra-keys= --keep-metadata-keys= --mode= --max-size= -s "
        "--status --is-installed -i:plugin --install:plugin -u:plugin --uninstall:plugin --attributes=:unknown "
        "--global --system --python=:unknown -f --force -h --help --version",
        "when": {
            "--dry-run --verify -t --textconv -s --status --is-installed -h --help --version": {
                "grade": "read",
                "operands": "none",
            }
        },
    },
    # mlflow ui and server serve the tracking store on a port; a store URI may name a database or directory
    # anywhere (--backend-store-uri sqlite:////etc/x.db), and the web server options pass flags to gunicorn,
    # waitress or uvicorn (gunicorn's --config loads Python): not graded. The tracking commands read and change the
    # store MLFLOW_TRACKING_URI names (a server, or ./mlruns)
    "mlflow": {
        "source": "MLflow CLI reference (mlflow.org/docs/latest/cli.html) (MLflow 2.x)",
        "options": "--version --help",
        "commands": {
            "ui server": {
                "grade": "network",
                "options": "-h= --host= -p= --port= -w= --workers= --static-prefix= --serve-artifacts "
                "--no-serve-artifacts --dev --help",
            },
            "experiments": {
                "commands": {
                    "search get": {"grade": "remote", "open": True},
                    "csv": {"grade": "remote", "open": True, "options": "-o=out --filename=out"},
                    "create rename restore": {"grade": "change", "open": True},
                    "delete": {"grade": "destroy", "open": True},
                }
            },
            "runs": {
                "commands": {
                    "list describe": {"grade": "remote", "open": True},
                    "restore": {"grade": "change", "open": True},
                    "delete": {"grade": "destroy", "open": True},
                }
            },
            "artifacts": {
                "commands": {
                    "list": {"grade": "remote", "open": True},
                    "download": {"grade": "remote", "open": True, "options": "-d=out --dst-path=out"},
                    "log-artifact log-artifacts": {"grade": "publish", "open": True},
                }
            },
            "run models recipes sagemaker deployments": "runs",
            "gc": {"grade": "destroy", "open": True},
            # doctor prints the MLFLOW_* environment variables with their values (a tracking password too)
            # unless --mask-envs
            "doctor": {"grade": "secret", "options": "--mask-envs", "when": {"--mask-envs": "read"}},
        },
    },
    # tensorboard serves the event files under --logdir on a port (--bind_all: every interface); --inspect prints
    # a summary of them and exits
    "tensorboard": {
        "source": "tensorboard --helpfull (TensorBoard 2.x)",
        "grade": "network",
        "options": "--logdir=in --logdir_spec= --host= --bind_all --port= --reload_interval= --reload_multifile "
        "--reload_multifile_inactive_secs= --load_fast= --samples_per_plugin= --window_title= --path_prefix= "
        "--max_reload_threads= --purge_orphaned_data= --inspect --event_file=in --tag= --version_tb --help "
        "--helpfull",
        "when": {"--inspect --version_tb --help --helpfull": "read"},
    },
    "babel": {
        "source": "Babel CLI (babeljs.io/docs/babel-cli) (Babel 7): loads the project's babel config (code)",
        "grade": "build",
        "open": True,
        # babel CLI: --presets, like --plugins, names the modules loaded into the compile (a path: code outside)
        "options": "-o=out --out-file=out -d=out --out-dir=out --presets=project --config-file=project",
    },
    "esbuild": {
        "source": "esbuild CLI (esbuild.github.io/api) (esbuild 0.24)",
        "grade": "build",
        "open": True,
        "options": "--outfile=out --outdir=out --serve=*:network --watch --metafile=out",
    },
    "crystal": {
        "source": "crystal(1) (Crystal 1.14)",
        "options": "-h --help -v --version",
        "commands": {
            "build spec docs": {"grade": "build", "open": True, "options": "-o=out --output=out"},
            "run eval play i": "runs",
            "init": {"grade": "write", "open": True},
            "tool env": {"grade": "read", "open": True},
            "version": "read",
        },
    },
    "csc mcs": {
        "source": "C# compiler options (learn.microsoft.com/dotnet/csharp/language-reference/compiler-options): "
        "options may also start with / (refused: /out:PATH writes)",
        "grade": "build",
        "open": True,
        "options": "-out:*=out -doc:*=out -pdb:*=out -errorlog:*=out",
        "unsafe": "/",
    },
    "gleam": {
        "source": "gleam CLI (gleam.run/writing-gleam/command-line-reference) (Gleam 1.6)",
        "options": "-h --help -V --version",
        "commands": {
            "build test check docs export": {"grade": "build", "open": True},
            # gleam format [--check] [--stdin] [FILES]: rewrites the files (the project's when none are given);
            # --check only reports the unformatted ones
            "format": {
                "grade": "write",
                "open": True,
                "operands": "replaced",
                "options": "--check --stdin",
                "when": {"--check": {"grade": "read", "operands": "none"}},
            },
            "run shell dev lsp": "runs",
            "new": {"grade": "write", "open": True, "operands": "out"},
            "add remove update deps": {"grade": "fetch", "open": True},
            "clean": "delete",
            "publish": {"grade": "publish", "open": True},
            "hex": {"commands": {"retire unretire revert": "destroy"}},
        },
    },
    # latexmk's options are single words (-pdflatex, -lualatex), never clusters; -pdflatex="CMD" and its
    # siblings set the command an engine runs as, -latexoption passes an option (-shell-escape) to the engine
    "latexmk": {
        "source": "latexmk(1) (latexmk 4.8x): runs the TeX engines; -c/-C/-CA delete generated files, -gg deletes "
        "them before building; -pv/-pvc run the previewer, -p the print command; -e CODE and -r FILE run Perl",
        "grade": "build",
        "clusters": False,
        "options": "-c:delete -C:delete -CA:delete -c1:delete -gg:delete -pvc:runs -pv:runs -p:runs -e=:unknown "
        "-r=:unknown -latexoption=*:unknown -shell-escape:runs -shell-restricted -no-shell-escape "
        "-dvilualatex=*:runs -pdflualatex=*:runs -pdfxelatex=*:runs -latex=*:runs -bibtex=*:runs -biber=*:runs "
        "-makeindex=*:runs "
        "-outdir=*:out -output-directory=*:out -auxdir=*:out -aux-directory=*:out -deps-out=*:out -MF=out "
        "-pdf -pdf- -pdflua -pdfxe -pdfdvi -pdfps -dvi -dvi- -ps -ps- -xdv -pdflatex -xelatex -lualatex "
        "-f -f- -g -g- -silent -quiet -verbose -cd -cd- -bibtex -bibtex- -bibtex-cond -bibtex-cond1 -nobibtex "
        "-norc -recorder -recorder- -time -time- -halt-on-error -file-line-error -synctex=* -interaction=* "
        "-jobname=* -output-format=* -emulate-aux-dir -emulate-aux-dir- -usepretex -usepretex=* -pretex=* "
        "-deps -dependents -nodependents -M -MP -rules -rules- -view=* -print=* -l -l- -landscape "
        "-showextraoptions -commands -diagnostics -h -help -v -version",
        "guard": "build:latexmk_commands",  # -pdflatex="COMMAND": the bare flag above also matches it
    },
    # TeX engines: they typeset into the current (or -output-directory) directory; \write18 runs programs only from
    # texmf.cnf's shell_escape_commands (restricted) unless -shell-escape/-enable-write18 makes it unrestricted;
    # -cnf-line sets texmf.cnf values such as shell_escape, -enable-pipes (MiKTeX) opens \input|cmd
    "pdflatex xelatex latex pdftex xetex tex etex": {
        "source": "pdftex(1), xetex(1), tex(1) (TeX Live 2024) and texmf.cnf shell_escape, shell_escape_commands",
        "grade": "build",
        "clusters": False,
        "options": "-interaction= --interaction= -halt-on-error --halt-on-error -file-line-error --file-line-error "
        "-output-directory=out --output-directory=out -jobname= --jobname= -synctex= --synctex= -draftmode "
        "--draftmode -recorder --recorder -no-shell-escape --no-shell-escape -shell-restricted --shell-restricted "
        "-8bit --8bit -no-pdf --no-pdf -output-format= --output-format= -fmt= --fmt= -etex --etex -version "
        "--version -help --help "
        "-shell-escape:runs --shell-escape:runs -enable-write18:runs --enable-write18:runs "
        "-enable-pipes:runs --enable-pipes:runs -cnf-line=:unknown --cnf-line=:unknown",
    },
    "bibtex bibtex8": {
        "source": "bibtex(1) (BibTeX 0.99d, TeX Live 2024): reads AUX writes the .bbl and .blg beside it",
        "grade": "build",
        "options": "-terse --terse -min-crossrefs= --min-crossrefs= -help --help -version --version",
    },
    "biber": {
        "source": "biber documentation (Biber 2.20): reads the .bcf, writes .bbl and .blg beside it or at "
        "--output-directory/--output-file; remote data sources are fetched",
        "grade": "build",
        "open": True,
        "options": "-O=out --output-file=out --output-directory=out --outfile=out --logfile=out",
    },
    "kpsewhich": {
        "source": "kpsewhich(1) (kpathsea 6.4): prints where files are found and variable values; -mktex=FORMAT runs "
        "the mktex scripts that make missing files",
        "grade": "read",
        "clusters": False,
        "options": "-all --all -must-exist --must-exist -var-value= --var-value= -expand-var= --expand-var= "
        "-show-path= --show-path= -format= --format= -engine= --engine= -progname= --progname= -expand-path= "
        "--expand-path= -expand-braces= --expand-braces= -help --help -version --version "
        "-mktex=:runs --mktex=:runs",
    },
    "texcount": {
        "source": "TeXcount documentation (TeXcount 3.2): counts words; -out=FILE writes the result there",
        "grade": "read",
        "open": True,
        "clusters": False,
        "options": "-out=*:out",
    },
    "chktex": {
        "source": "chktex(1) (ChkTeX 1.7): reports LaTeX errors; -o FILE writes the report there",
        "grade": "read",
        "open": True,
        "options": "-o=out --output=out",
    },
    "zola": {
        "source": "Zola CLI usage (getzola.org/documentation/getting-started/cli-usage) (Zola 0.19): build writes "
        "public/ (or --output-dir, emptied with --force); serve builds and serves; check builds in memory and "
        "checks external links unless --skip-external-links; templates (Tera) run no programs",
        "options": "-r=project --root=project -c=project --config=project -h --help -V --version",
        "commands": {
            "build": {
                "grade": "build",
                "options": "-u= --base-url= -o=emptied --output-dir=emptied -f --force --drafts --minify",
            },
            "serve": {
                "grade": "build",
                "options": "-i= --interface= -p= --port= -u= --base-url= -o=emptied --output-dir=emptied -f "
                "--force --drafts -O --open --fast --no-port-append --store-html --minify",
            },
            "check": {
                "grade": "remote",
                "options": "--drafts --skip-external-links --skip-internal-links",
                "when": {"--skip-external-links": "build"},
            },
            "init": {"grade": "write", "options": "-f --force"},
        },
    },
    "nest": {
        "source": "Nest CLI (docs.nestjs.com/cli/usages) (Nest CLI 10)",
        "options": "-h --help -v --version",
        "commands": {
            # nest build|start: "--config [path]: use nest-cli configuration file" (alias -c); it names the
            # compiler's plugins and webpack configuration, code
            "build start": {"grade": "build", "open": True, "options": "-c=project --config=project"},
            "new n": {"grade": "fetch", "open": True},
            "generate g": {"grade": "build", "open": True},
            "info i": {"grade": "read", "open": True},
            "add": {"grade": "fetch", "open": True},
        },
    },
    # Monorepo task runners: they run the packages' package.json scripts (or Nx executors and plugins), which FlyBot
    # does not read through them: every run is code the grade cannot see. What only prints stays a read.
    "turbo": {
        "source": "Turborepo CLI reference (turbo.build/repo/docs/reference) (Turborepo 2): turbo run TASKS runs "
        "each package's script of those names and the tasks turbo.json makes them depend on (turbo TASKS is the "
        "same; the guard grades the scripts); --dry/--dry-run prints the tasks instead of running them; --profile "
        "and --anon-profile write a trace, --cache-dir the cache; --token, --team, --api, --login and "
        "--remote-only use the remote cache; ls lists the packages; prune writes a pruned workspace under out/",
        "options": "-h --help --version --affected --cache= --cache-dir=out --cache-workers= --concurrency= "
        "--continue* --dangerously-disable-package-manager-check --dry --dry-run --dry=json --dry=text --dry-run=json "
        "--dry-run=text --env-mode= --filter= -F= --force "
        "--framework-inference* --global-deps= --log-order= --log-prefix= --no-cache --daemon --no-daemon "
        "--output-logs= --only --parallel --preflight --profile=out --anon-profile=out --remote-cache-read-only "
        "--remote-only:network --summarize* --token=:network --team=:network --ui= --api=:network "
        "--login=:network --verbosity= -v -vv -vvv --no-color --color --no-update-notifier",
        "else": "build",
        "when": {"--dry --dry-run --dry=json --dry=text --dry-run=json --dry-run=text": "read"},
        "commands": {
            "run": {
                "grade": "build",
                "when": {"--dry --dry-run --dry=json --dry=text --dry-run=json --dry-run=text": "read"},
            },
            "ls info": {"grade": "read", "open": True},
            "prune": {"grade": "write", "open": True, "options": "--out-dir=out"},
        },
        "guard": "build:turbo_tasks",
    },
    "nx": {
        "source": "Nx commands reference (nx.dev/nx-api/nx/documents) (Nx 20): run, run-many, affected and nx "
        "TARGET PROJECT run targets (executors and package.json scripts); show and graph compute the project graph, "
        "loading the workspace's Nx plugins (code), graph --file writes it; reset deletes the cache",
        "options": "-h --help --version",
        "else": "runs",
        "commands": {
            "run run-many affected exec watch release migrate generate g add": {"grade": "runs", "open": True},
            "show report list": {"grade": "build", "open": True},
            "graph dep-graph": {"grade": "build", "open": True, "options": "--file=out"},
            "reset": {"grade": "delete", "open": True},
        },
    },
    "next": {
        "source": "Next.js CLI (nextjs.org/docs/app/api-reference/cli/next) (Next.js 15)",
        "options": "-h --help -v --version",
        "commands": {
            # next build|dev|start|lint [directory]: the project run, its next.config.js code; next dev and next
            # start start a server listening on a port (-p/--port, default 3000, -H/--hostname), as vite and rails
            # server do: network
            "build lint": {"grade": "build", "open": True, "operands": "project"},
            "dev start": {"grade": "network", "open": True, "operands": "project"},
            "info": {"grade": "read", "open": True},
            "telemetry": {"grade": "home", "open": True},
        },
    },
    "phing": {
        "source": "Phing user guide (phing.io) (Phing 3): runs build.xml targets",
        "grade": "build",
        "open": True,
    },
    "jbang": {
        "source": "JBang (jbang.dev/documentation) (JBang 0.12): fetches and runs Java scripts",
        "grade": "runs",
        "open": True,
    },
    "k6": {
        "source": "k6 CLI (grafana.com/docs/k6/latest/reference/cli) (k6 0.5x): runs a JavaScript load test",
        "options": "-h --help -v --version",
        "commands": {
            "run cloud": "runs",
            "inspect archive": {"grade": "read", "open": True},
            "version": "read",
            "login": "home",
        },
    },
    "pyinstaller": {
        "source": "PyInstaller usage (pyinstaller.org/en/stable/usage.html) (PyInstaller 6)",
        "grade": "build",
        "open": True,
        "options": "--distpath=out --workpath=out --specpath=out --upx-dir=:unknown --runtime-hook=:runs "
        "--additional-hooks-dir=:runs",
        # a .spec operand is Python PyInstaller executes ("Using Spec Files"); a script is analysed with its hooks
        "operands": "project",
    },
    "postcss": {
        "source": "postcss-cli README (postcss-cli 11): loads postcss.config.js",
        "grade": "build",
        "open": True,
        # -u/--use (plugins), --parser, --stringifier, --syntax: modules postcss-cli loads (require), by name from
        # node_modules or by path; --config: the directory of postcss.config.js. --use takes a list (yargs
        # "[array]"): the words after it are plugins too, so no operand can be told from a plugin
        "operands": "project",
        "options": "-o=out --output=out -d=out --dir=out -r:write --replace:write -u=project --use=project "
        "--parser=project --stringifier=project --syntax=project --config=project",
    },
    "tmt": {
        "source": "tmt (tmt.readthedocs.io) (tmt 1.3x): run and try provision machines and run tests",
        "options": "-h --help --version -r= --root=in -c= --context= -v --verbose -d --debug",
        "commands": {
            "run try": "runs",
            "lint": {"grade": "read", "open": True},
            "tests plans stories": {
                "commands": {
                    "ls show lint export coverage id": {"grade": "read", "open": True},
                    "create import": {"grade": "write", "open": True},
                }
            },
            "init": {"grade": "write", "open": True},
            "clean": {"grade": "delete", "open": True},
        },
    },
    "elixirc erlc scalac": {
        "source": "elixirc (Elixir 1.17 docs: Compilation), erlc(1) (Erlang/OTP 27), scalac (Scala 3 docs): compilers",
        "grade": "build",
        "open": True,
        # scalac -Xplugin:PATHS / -Xpluginsdir: compiler plugins loaded and run (Scala 3 compiler options)
        "options": "-o=out --output=out -d=out -Xplugin*:runs",
    },
    "elixir iex erl escript scala kotlin ghci runghc runhaskell": {
        "source": "elixir(1), iex(1), erl(1), escript(1), scala, kotlin, ghci, runghc: they run programs or a REPL",
        "grade": "runs",
        "open": True,
        "options": "--version -version -v",
        "when": {"--version -version": "read"},
    },
    "opencode": {
        "source": "opencode CLI docs (opencode.ai/docs/cli) (opencode 1.x): an AI coding agent",
        "options": "-h --help -v --version",
        "commands": {
            "run serve web tui acp agent mcp github": "runs",
            "stats models": {"grade": "read", "open": True},
            "session": {
                "commands": {"list": {"grade": "read", "open": True}, "delete": {"grade": "delete", "open": True}}
            },
            "auth": {
                "commands": {
                    "list ls": {"grade": "read", "open": True},
                    "login logout": {"grade": "home", "open": True},
                }
            },
            "upgrade": {"grade": "install", "open": True},
            "uninstall": {"grade": "delete", "open": True},
            "export": {"grade": "read", "open": True},
            "import": {"grade": "home", "open": True},
        },
    },
    "lein": {
        "source": "Leiningen tutorial and lein help (leiningen.org) (Leiningen 2.11): project.clj is code lein runs",
        "options": "-h --help -v --version -o -U",
        "commands": {
            "test compile check jar uberjar run repl javac classpath pom": {"grade": "build", "open": True},
            "deps": {"grade": "fetch", "open": True},
            "new": {"grade": "write", "open": True},
            "clean": {"grade": "delete", "open": True},
            "deploy": {"grade": "publish", "open": True},
        },
    },
    "elm": {
        "source": "elm CLI (elm --help) (Elm 0.19.1): make compiles, install fetches packages, reactor serves",
        "options": "-h --help --version",
        "commands": {
            "make": {"grade": "build", "options": "--output=out --debug --optimize --report= --docs=out"},
            "install": {"grade": "fetch", "open": True},
            "init": {"grade": "write", "open": True},
            "reactor": {"grade": "network", "open": True},
            "repl": "runs",
        },
    },
    # -- cargo's external subcommands: cargo runs them as cargo-NAME NAME ARGS (programs/build.py cargo), and the
    # workspace's .cargo/config.toml may alias NAME (listed in chosen_by by the cargo handler)
    "cargo-nextest": {
        "source": "cargo-nextest docs (nexte.st/docs/running, /docs/listing, /docs/ci-features/archiving) (nextest "
        "0.9): run and list build the project's tests and run them; archive builds them into an archive file; "
        "--tool-config-file TOOL:ABS_PATH names a configuration (its setup and wrapper scripts are commands nextest "
        "runs) as a tool and path in one word: refused",
        "commands": {
            "nextest": {
                "options": "-h --help -V --version --manifest-path=project --config-file=project "
                "--tool-config-file=:unknown --color= -v --verbose --target-dir=out --profile= -P= --workspace --all "
                "--exclude= -p= --package= --lib --bins --bin= --examples --example= --tests --test= --benches "
                "--bench= --all-targets --features= -F= --all-features --no-default-features --release -r "
                "--cargo-profile= --target= --locked --frozen --offline -j= --jobs= --build-jobs= --test-threads= "
                "-E= --filter-expr= --no-capture --nocapture --no-fail-fast --fail-fast --ff --max-fail= --retries= "
                "--message-format= --message-format-version= --run-ignored= --partition= --ignore-default-filter "
                "--hide-progress-bar --status-level= --final-status-level= --failure-output= --success-output= "
                "--no-tests= -T= --list-type= --cargo-quiet --cargo-verbose --archive-file=project "
                "--workspace-remap=project --extract-to=out --binaries-metadata=project --cargo-metadata=project "
                "--target-dir-remap=project",
                "commands": {
                    "run r list l": "build",
                    "archive": {"grade": "build", "options": "--archive-file=out --archive-format= --zstd-level="},
                    "show-config": {"commands": {"test-groups version": "read"}},
                    "self": {"commands": {"update": "install"}},
                },
            }
        },
    },
    "cargo-audit": {
        "source": "cargo-audit README (github.com/rustsec/rustsec, cargo-audit) (cargo-audit 0.21): it fetches the "
        "RustSec advisory database (a git clone, by default the cache ~/.cargo/advisory-db; -d/--db elsewhere) and "
        "checks Cargo.lock; fix rewrites Cargo.toml and Cargo.lock; bin checks the binaries given",
        "commands": {
            "audit": {
                "grade": "network",
                "options": "-h --help -V --version -c= --color= -d=out --db=out -D= --deny= -f=in --file=in -n "
                "--no-fetch --stale --ignore= --ignore-source --no-local-crates -q --quiet --target-arch= "
                "--target-os= -u= --url= --json -F= --format=",
                "commands": {"fix": {"grade": "fetch", "options": "--dry-run"}, "bin": "network"},
            }
        },
    },
    "cargo-deny": {
        "source": "cargo-deny book, 'Command line' (embarkstudios.github.io/cargo-deny/cli) (cargo-deny 0.16): "
        "check and fetch download the advisory databases (a cache under ~/.cargo/advisory-dbs) and resolve the "
        "dependency graph; init writes deny.toml (or the path given); list prints the crates' licenses",
        "commands": {
            "deny": {
                "options": "-h --help -V --version -L= --log-level= -f= --format= -c= --color= "
                "--manifest-path=project -w --workspace --exclude= -t= --target= --all-features "
                "--no-default-features --features= --frozen --offline --locked --exclude-dev --exclude-unpublished",
                "commands": {
                    "check": {
                        "grade": "network",
                        "options": "--config=in -g=out --graph=out -s --show-stats -d --disable-fetch -A= --allow= "
                        "-D= --deny= -W= --warn= --feature-depth= --audit-compatible-output",
                    },
                    "fetch": {"grade": "network", "options": "--config=in"},
                    "list": {"grade": "network", "options": "--config=in -l= --layout= -t= --threshold="},
                    "init": {"grade": "write", "operands": "first-out"},
                },
            }
        },
    },
    # jar's first word is either a mode cluster without a dash (tf, cvf: the f names the archive, first) or options;
    # the clusters listed are those whose f comes before m and e, so the archive is the first operand
    "jar": {
        "source": "jar(1) (JDK 21): -t/--list prints the table of contents, -x/--extract extracts, -c/--create and "
        "-u/--update write the archive -f/--file names (standard output without it); -C DIR reads the files "
        "there; the legacy form jar {ctxu}[vfm0Me] [jarfile] [manifest] [entrypoint] files",
        "grade": "unknown",
        "else": "unknown",
        "options": "-t --list -x --extract -c --create -u --update -f=out --file=out -v --verbose -C= -m=in "
        "--manifest=in -e= --main-class= -0 --no-compress -M --no-manifest --release= --module-version= "
        "--hash-modules= -p= --module-path= --date= -d --describe-module --validate --version -h --help --help-extra",
        "when": {
            "-t --list -d --describe-module --validate": {"grade": "read", "reads": "-f --file"},
            "-x --extract": {"grade": "unpack", "reads": "-f --file"},
            "-c --create -u --update": {"grade": "read"},
        },
        "commands": {
            "t tf tv tvf ft fvt": {"grade": "read"},
            "x xf xv xvf": {"grade": "unpack"},
            "c cf cv cvf cf0 cvf0 cfm cvfm cfe cvfe cfM cvfM u uf uv uvf ufm uvfm": {
                "grade": "read",
                "operands": "first-out",
            },
        },
    },
    "buck2": {
        "source": "Buck2 command reference (buck2.build/docs/users/commands) (buck2 2025): build and test evaluate "
        "the BUCK files and run the rules' actions and tests; targets, uquery, cquery and audit evaluate the BUCK "
        "files (as bazel query); run runs the built program; clean deletes buck-out; -c/--config and --config-file "
        "set the configuration that chooses toolchains (a compiler path), so they are refused",
        "options": "-h --help -V --version --isolation-dir= -v= --verbose=",
        "commands": {
            "build test targets uquery cquery aquery query audit log": {
                "grade": "build",
                "options": "-v= --verbose= --console= --ui= -j= --num-threads= --target-platforms= --keep-going "
                "--show-output --show-full-output --show-json-output --prefer-local --prefer-remote --local-only "
                "--remote-only --no-remote-cache --build-report=out --out=out --skip-incompatible-targets "
                "--fail-fast",
            },
            "run": "runs",
            "clean": "delete",
            "kill killall status": "read",
        },
    },
    "rebar3": {
        "source": "rebar3 commands (rebar3.org/docs/commands) (rebar3 3.24): compile, eunit, ct, dialyzer, xref, "
        "cover, edoc, escriptize, release and tar build the project (rebar.config's hooks and plugins are the "
        "project's code, as mix.exs is); get-deps, upgrade and update fetch; clean deletes build output; shell "
        "runs the project's code interactively; new writes a project from a template",
        "options": "-h --help -v --version",
        "commands": {
            "compile eunit ct dialyzer xref cover edoc escriptize release relup tar tree deps lock fmt format": {
                "grade": "build",
                "open": True,
            },
            "get-deps upgrade update unlock": {"grade": "fetch", "open": True},
            "clean": {"grade": "delete", "open": True},
            "new": {"grade": "write", "open": True},
            "shell do as plugins local report": "runs",
        },
    },
    "nimble": {
        "source": "Nimble user guide, 'Nimble's folder structure and packaging', command list (github.com/nim-lang/"
        "nimble) (Nimble 0.16): build, test, c/cc/js and check compile the package (its .nimble file is NimScript, "
        "the project's code); install installs packages into ~/.nimble; refresh, search and list ask the package "
        "list; run and tasks run the project's tasks; uninstall removes packages",
        "options": "-h --help -v --version -y --accept -n --reject --verbose --debug --noColor",
        "commands": {
            # options not its own nimble hands to the nim compiler (--cc, --gcc.exe: the program it runs), so only
            # defines are taken
            "build test c cc js check dump": {"grade": "build", "options": "-d:* --define:* --verbose --debug"},
            "install develop": {"grade": "install", "open": True},
            "refresh search list": {"grade": "network", "open": True},
            "uninstall": {"grade": "delete", "open": True},
            "init": {"grade": "write", "open": True},
            "publish": {"grade": "publish", "open": True},
            "run tasks shell": "runs",
        },
    },
}


#: Django's manage.py (Django docs, "django-admin and manage.py", Django 5.0), graded where it is the project
#: template's own file (programs/frameworks.py): every command imports the project's settings and apps, the project's
#: code, as a build runs it, so even one that only prints is a build. A command the project defines (a management
#: command in an app) is not listed: unrecognised-use, as running a workspace script is.
DJANGO_MANAGE: dict[str, object] = {
    "source": "Django docs, django-admin and manage.py (Django 5.0): commands load the project's settings and apps",
    "grade": "build",
    # "Default options": --settings and --pythonpath choose the settings module and where it is imported from
    "options": "-h --help --version --settings=:unknown --pythonpath=:unknown --traceback -v= --verbosity= "
    "--no-color --force-color --skip-checks",
    "commands": {
        "check showmigrations sqlmigrate sqlflush sqlsequencereset findstatic help version makemigrations "
        "squashmigrations optimizemigration makemessages compilemessages": {"grade": "build", "open": True},
        # test runs the project's tests; --testrunner imports the class it names
        "test": {"grade": "build", "open": True, "options": "--testrunner=:unknown"},
        "startapp": {
            "grade": "build",
            "operands": "last-out",
            "options": "--template=:unknown -e= --extension= -n= --name= --exclude= -x=",
        },
        # diffsettings prints the settings (SECRET_KEY, DATABASES passwords); dumpdata prints the database's rows
        "diffsettings dumpdata": "secret",
        "inspectdb": {"grade": "remote", "open": True},
        # runserver and testserver serve the application on a port
        "runserver testserver": {"grade": "network", "open": True},
        "sendtestemail": "publish",
        "migrate loaddata createsuperuser changepassword createcachetable clearsessions": {
            "grade": "change",
            "open": True,
        },
        # flush "Removes all data from the database"; remove_stale_contenttypes deletes content types and the rows
        # that refer to them; reset_db (django-extensions) drops the database
        "flush remove_stale_contenttypes reset_db": {"grade": "destroy", "open": True},
        # shell (-c too) and dbshell run code and statements FlyBot does not see; collectstatic writes STATIC_ROOT
        # (a setting, anywhere on the machine) and --clear empties it
        "shell dbshell shell_plus runscript collectstatic": "unknown",
    },
}

_ARTISAN_MAKE = (
    "make:controller make:model make:migration make:seeder make:factory make:request make:resource make:test "
    "make:command make:middleware make:policy make:event make:listener make:job make:mail make:notification "
    "make:provider make:rule make:cast make:channel make:component make:observer make:scope make:view make:class "
    "make:enum make:interface make:trait make:exception"
)
#: Laravel's artisan (Laravel 11 docs, "Artisan Console", "Database: Migrations", "Configuration"), graded where it is
#: the laravel/laravel skeleton's own file (programs/frameworks.py): every command boots the application
#: (bootstrap/app.php, the project's providers), the project's code, as a build runs it. A command the project
#: defines (app/Console/Commands) is not listed: unrecognised-use, as running a workspace script is.
LARAVEL_ARTISAN: dict[str, object] = {
    "source": "Laravel docs (11.x): Artisan Console, Database: Migrations, Configuration; php artisan list",
    "grade": "build",
    # --env loads .env.NAME: settings FlyBot does not read
    "options": "-h --help -V --version -q --quiet -n --no-interaction --ansi --no-ansi -v -vv -vvv --verbose "
    "--env=:unknown",
    "commands": {
        "about list help env inspire route:list migrate:status model:show db:show db:table schedule:list "
        "event:list channel:list config:clear config:cache route:clear route:cache view:clear view:cache "
        "event:clear event:cache optimize clear-compiled package:discover storage:link vendor:publish "
        + _ARTISAN_MAKE: {"grade": "build", "open": True},
        "test": {"grade": "build", "open": True},
        # config:show prints the configuration's values, the passwords of config/mail.php and database.php too
        "config:show": "secret",
        "serve": {"grade": "network", "open": True},
        # migrate --path runs the migration files of another directory; --schema-path loads a SQL dump
        "migrate migrate:rollback migrate:install db:seed": {
            "grade": "change",
            "options": "--database= --force --path=:unknown --realpath --schema-path=:unknown --pretend --seed "
            "--seeder= --class= --step= --step --graceful --isolated --batch=",
        },
        # optimize:clear clears the application cache store (Redis, a database) with the compiled files
        "optimize:clear cache:clear down up": {"grade": "change", "open": True},
        # migrate:fresh drops every table; migrate:refresh and migrate:reset roll back every migration; db:wipe
        # "Drop all tables, views, and types"; queue:flush deletes every failed job
        "migrate:fresh migrate:refresh migrate:reset db:wipe queue:flush": {"grade": "destroy", "open": True},
        # tinker and db run code and statements FlyBot does not see; the queue and schedule workers run the
        # project's jobs; key:generate replaces APP_KEY (what it encrypted can no longer be read)
        "tinker db queue:work queue:listen schedule:run schedule:work key:generate": "unknown",
    },
}
