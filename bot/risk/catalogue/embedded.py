"""Embedded, firmware and emulator tools: disk images, devices, flashers, Zephyr's west, CMake's package managers.

Reading an image, a profile or a device's description is ``read``. Talking to a board over a serial port, USB or a
debug probe is ``remote`` (another machine), and reading its flash into a file is that and a write; writing or
erasing a board's flash, fuses or eFuses, and every use not listed, is ``unknown`` (refused: destructive). Fetching
dependencies is ``fetch``; a setting for every later run of the user's builds is ``home``.
"""

from __future__ import annotations

CATALOGUE: dict[str, object] = {
    "qemu-img": {
        "source": "qemu-img(1) (QEMU 9.1): info, check, map, measure, compare read images; create, convert, "
        "resize, rebase, commit, amend and snapshot write the image named (convert: the last file named)",
        "options": "-h --help -V --version -T= --trace=",
        "commands": {
            "info check map measure compare": {"grade": "read", "open": True},
            "create": {"grade": "write", "open": True, "operands": "first-out"},
            "convert": {"grade": "write", "open": True, "operands": "last-out"},
            "resize rebase commit amend": {"grade": "write", "open": True, "operands": "first-out"},
            # snapshot -l lists; -a applies, -c creates, -d deletes a snapshot in the image
            "snapshot": {
                "grade": "write",
                "open": True,
                "operands": "out",
                "options": "-l -a= -c= -d=",
                "when": {"-l": {"grade": "read", "operands": "none"}},
            },
        },
    },
    "udevadm": {
        "source": "udevadm(8) (systemd 256): info and monitor print the device database and events; control, "
        "trigger and settle act on the udev daemon",
        "options": "-h --help -V --version --debug",
        "commands": {
            "info monitor": {"grade": "read", "open": True},
            "control trigger": {"grade": "system", "open": True},
            "settle": {"grade": "read", "open": True},
        },
    },
    "modinfo": {
        "source": "modinfo(8) (kmod 33): prints the fields of the kernel modules named",
        "grade": "read",
        "options": "-a --author -d --description -l --license -p --parameters -n --filename -0 --null -F= --field= "
        "-k= -b= --basedir= -V --version -h --help",
    },
    "ms_print callgrind_annotate cg_annotate": {
        "source": "ms_print(1), callgrind_annotate(1), cg_annotate(1) (Valgrind 3.23): print a profile file",
        "grade": "read",
        "open": True,
    },
    "dfu-util": {
        "source": "dfu-util(1) (dfu-util 0.11): -l lists the DFU devices on USB; -U reads a device into a file, "
        "-D writes a file to it",
        "grade": "unknown",
        "options": "-l --list -V --version -h --help -v --verbose",
        "when": {"-l --list -V --version": "read"},
    },
    "probe-rs": {
        "source": "probe-rs CLI reference (probe.rs/docs/tools/probe-rs) (probe-rs 0.24): list shows the probes "
        "attached, info asks the target chip; run, download, erase, reset and the others program or drive it",
        "grade": "unknown",
        "commands": {"list": "read", "info": {"grade": "remote", "open": True}},
    },
    "esptool esptool.py": {
        "source": "esptool.py documentation (docs.espressif.com/projects/esptool) (esptool 4.8): version and "
        "image_info read; chip_id, flash_id, read_mac, read_flash_status ask the chip; read_flash reads its flash "
        "into the file named; elf2image and merge_bin write images; write_flash, erase_flash, erase_region, "
        "write_mem, load_ram and the eFuse commands change the chip",
        "options": "-h --help -c= --chip= -p= --port= -b= --baud= --before= --after= --no-stub --trace "
        "--override-vddsdio= --connect-attempts=",
        "commands": {
            "version": "read",
            "image_info": {"grade": "read", "options": "--version="},
            "chip_id flash_id read_mac read_flash_status get_security_info": "remote",
            "read_flash": {"grade": "remote", "operands": "last-out", "options": "--no-progress"},
            "elf2image": {
                "grade": "write",
                "options": "-o=out --output=out --version= --flash_mode= --flash_freq= --flash_size= -fm= -ff= "
                "-fs= --min-rev= --max-rev= --pad-to-size= --elf-sha256-offset= --use_segments",
            },
            "merge_bin": {
                "grade": "write",
                "options": "-o=out --output=out --format= --flash_mode= --flash_freq= --flash_size= -fm= -ff= -fs= "
                "--target-offset= --fill-flash-size=",
            },
        },
    },
    "west": {
        "source": "west documentation (docs.zephyrproject.org/latest/develop/west) (west 1.2): list, manifest "
        "--resolve, topdir read the manifest; update and blobs fetch download the projects and blobs it names; "
        "build runs CMake on the application given (-s, or the first operand) and Zephyr; zephyr-export writes the "
        "user's CMake package registry; flash, debug, attach and extension commands run programs on the board or "
        "code the manifest names",
        "options": "-h --help -V --version -v --verbose -q --quiet",
        "commands": {
            "list topdir": {"grade": "read", "open": True},
            "manifest": {"grade": "read", "options": "--resolve --freeze --validate --path -o=out --out=out"},
            "update": {"grade": "fetch", "open": True},
            "blobs": {"commands": {"list": {"grade": "read", "open": True}, "fetch": {"grade": "fetch", "open": True}}},
            "build": {
                "grade": "build",
                "operands": "project",
                "options": "-b= --board= -d=out --build-dir=out -s=project --source-dir=project -p= --pristine= "
                "--pristine -t= --target= -o= --build-opt= -n --just-print --dry-run --recipe -c --cmake "
                "--cmake-only --domain= --sysbuild --no-sysbuild -S= --snippet= --shield= --extra-conf=project "
                "--extra-dtc-overlay=project",
                # `west build -t TARGET`: menuconfig, guiconfig, ram_report, rom_report, pristine and the
                # application's targets build; flash and run are the board runner's (west flash)
                "when": {"-t=flash --target=flash -t=debug --target=debug -t=run --target=run": "unknown"},
            },
            "twister": {"grade": "build", "open": True},
            "zephyr-export": "home",
        },
    },
    "qemu-system-x86_64 qemu-system-i386 qemu-system-aarch64 qemu-system-arm qemu-system-riscv64": {
        "source": "QEMU System Emulation User's Guide, Invocation (QEMU 9.1): the guest runs the kernel, firmware "
        "and disks given (-kernel, -initrd, -dtb, -bios, -cdrom read; -drive file=, -hda... written by the guest); "
        "without -nic none/-nodefaults the guest gets a user-mode network to the host's (Network emulation: "
        "'as if you had typed -net nic -net user'); -s/-gdb and hostfwd listen on host ports; -D writes the log; "
        "-nographic puts the serial console and the monitor on standard input (the monitor's migrate exec: runs "
        "host commands); -netdev tap/bridge run host scripts, -virtfs/-fsdev and vvfat share host directories",
        "grade": "network",
        "clusters": False,
        "options": "-h -help --help -version --version -nographic -display= -vga= -m= -smp= -cpu= -machine= -M= "
        "-accel= -enable-kvm -kernel=in -initrd=in -append= -dtb=in -bios=in -L=in -boot= -no-reboot "
        "-no-shutdown -S -s -gdb= -name= -uuid= -rtc= -k= -usb -nodefaults -no-user-config -d= -D=out "
        "-serial= -monitor= -qmp= -parallel= -nic= -netdev= -net= -device= -drive= -hda=out -hdb=out -hdc=out "
        "-hdd=out -cdrom=in -fda=out -fdb=out -sd=out -pflash=out -mtdblock=out -snapshot -pidfile=out",
        # with no default network the guest reaches nothing (the guard adds a user network given, -s and -gdb)
        "when": {
            "-version --version -h -help --help -M=help -machine=help -cpu=help -device=help": "read",
            "-nic=none -net=none -nodefaults": "build",
        },
        "guard": "build:qemu_system",
    },
    "idf.py": {
        "source": "ESP-IDF Programming Guide, IDF Frontend - idf.py (docs.espressif.com, ESP-IDF 5.3): build, app, "
        "bootloader, partition-table, size* and reconfigure run CMake and the build on the project in the directory "
        "(-C) into build/ (-B), fetching the components idf_component.yml names; set-target, clean, fullclean and "
        "python-clean delete build output; flash, monitor, erase-flash, efuse and the debugger commands drive the "
        "board; menuconfig and confserver are interactive; -D sets CMake cache entries (compilers, toolchain)",
        "options": "-h --help --version -C=project --project-dir=project -B=out --build-dir=out -G= --generator= "
        "-v --verbose --preview --ccache --no-ccache -w --cmake-warn-uninitialized --no-hints",
        "many": True,
        "commands": {
            "build all app bootloader partition-table partition_table size size-components size-files reconfigure "
            "merge-bin uf2 uf2-app": "build",
            "save-defconfig": "build",
            "set-target clean fullclean python-clean": "delete",
            "flash app-flash bootloader-flash partition-table-flash erase-flash erase_flash encrypted-flash "
            "encrypted-app-flash erase-otadata read-otadata monitor menuconfig confserver gdb gdbgui gdbtui openocd "
            "post-debug docs": "unknown",
            "add-dependency create-project create-component": "write",
            "update-dependencies": "fetch",
        },
    },
    "godot": {
        "source": "Godot Engine docs, Command line tutorial (Godot 4.3): --export-release/--export-debug/"
        "--export-pack PRESET PATH export the project in the directory (--path) with its export presets and "
        "plugins (the project's GDScript) to PATH; --import imports its assets; --headless runs without a "
        "window; -s/--script runs a script; --doctool and --log-file write; any other use runs the game or editor",
        "grade": "unknown",
        "options": "-h --help --version -v --verbose -q --quiet --headless --path=project --upwards --main-pack=project "
        "--export-release= --export-debug= --export-pack= --import --quit --quit-after= -e --editor "
        "--log-file=out --display-driver= --rendering-driver= --audio-driver= --rendering-method= "
        "-s=project --script=project --check-only --doctool=out --no-docbase",
        "when": {
            "--export-release --export-debug --export-pack": {"grade": "build", "operands": "out"},
            "--import --doctool": "build",
            "--version -h --help": "read",
        },
    },
    "getcap": {
        "source": "getcap(8) (libcap 2.70): prints the file capabilities of the files named",
        "grade": "read",
        "options": "-n -r -v -h",
    },
    "patchelf": {
        "source": "patchelf(1) (patchelf 0.18): --print-* print; --set-*, --add-*, --remove-*, --replace-needed, "
        "--shrink-rpath and the others rewrite the files named (or --output FILE)",
        "grade": "read",
        "options": "--output=out --print-interpreter --print-os-abi --print-soname --print-rpath --print-needed "
        "--print-execstack --version --help --debug --set-interpreter= --set-os-abi= --set-soname= --set-rpath= "
        "--add-rpath= --remove-rpath --shrink-rpath --allowed-rpath-prefixes= --force-rpath --add-needed= "
        "--remove-needed= --replace-needed= --no-default-lib --no-sort --clear-symbol-version= --add-debug-tag "
        "--rename-dynamic-symbols=in --clear-execstack --set-execstack --page-size=",
        "when": {
            "--set-interpreter --set-os-abi --set-soname --set-rpath --add-rpath --remove-rpath --shrink-rpath "
            "--add-needed --remove-needed --replace-needed --no-default-lib --clear-symbol-version --add-debug-tag "
            "--rename-dynamic-symbols --clear-execstack --set-execstack": {"grade": "write", "operands": "out"}
        },
    },
    "bloaty": {
        "source": "bloaty (github.com/google/bloaty, doc/using.md) (Bloaty 1.1): prints the size profile of the "
        "binaries named",
        "grade": "read",
        "options": "-d= -n= -s= -w --csv --tsv --debug-file= --source-filter= -c= --domain= --disassemble= "
        "--help --version",
    },
    "conan": {
        "source": "Conan 2 commands reference (docs.conan.io/2/reference/commands.html) (Conan 2.8): list, profile "
        "show|list|path, remote list and version read the local cache and settings; search asks the remotes; "
        "install, create, build, source, export, test and inspect run the conanfile.py given (Python) and fetch "
        "packages; profile detect writes the default profile under ~/.conan2; remote add|update choose where every "
        "later install gets recipes (Python); config install installs settings, hooks and plugins",
        "options": "-h --help -v*",
        "commands": {
            "version": "read",
            "list": {"grade": "read", "options": "-c --cache -r= --remote= -f= --format= -p= --package-query= -v*"},
            "search": {"grade": "network", "options": "-r= --remote= -f= --format= -v*"},
            "profile": {
                "commands": {
                    "show list path": {
                        "grade": "read",
                        "options": "-pr=project --profile=project -s= -o= -f= --format= -v*",
                    },
                    "detect": {"grade": "home", "options": "--name= -f --force -e --exist-ok -v*"},
                }
            },
            "remote": {
                "commands": {
                    "list list-users": {"grade": "read", "options": "-f= --format= -v*"},
                    "add update": "source",
                    "remove disable enable": "source",
                    "login logout": "home",
                }
            },
            "config": {"commands": {"home show list": "read", "install install-pkg": "plugin"}},
            # a conanfile.py is Python that these commands run (its source(), build(), requirements()...), and
            # FlyBot does not read it, the workspace's own included: refused, as a vendored recipe may do anything
            "install create build source export test": {
                "grade": "runs",
                "operands": "project",
                "options": "-s*= --settings*= -o*= --options*= -b= --build=* -r= --remote= -nr --no-remote -u "
                "--update --update=* -pr*=project --profile*=project -of=out --output-folder=out -g= --generator= "
                "--name= --version= --user= --channel= -l=project --lockfile=project --lockfile-out=out "
                "--lockfile-partial --requires= --tool-requires= -f= --format= -tf=project --test-folder=project "
                "--build-require -v* -c*=:unknown --conf*=:unknown -d=project --deployer=project "
                "--deployer-folder=out --deployer-package=:unknown --envs-generation=",
            },
            "inspect": {"grade": "runs", "operands": "project", "options": "-f= --format= -r= --remote= -v*"},
        },
    },
    "vcpkg": {
        "source": "vcpkg command line reference (learn.microsoft.com/vcpkg/commands) (vcpkg 2024): list and search "
        "read the local tree; install builds ports (CMake scripts of the registry) into the project's "
        "vcpkg_installed; integrate install hooks every later MSBuild and CMake run of the user; remove deletes",
        "options": "--version --help",
        "commands": {
            "version": "read",
            "list search depend-info": {"grade": "read", "open": True},
            "install": {
                "grade": "fetch",
                "options": "--triplet= --host-triplet= --x-manifest-root=project --x-install-root=out "
                "--overlay-ports=project --overlay-triplets=project --clean-after-build --recurse --dry-run "
                "--keep-going --no-print-usage --x-feature= --x-no-default-features --editable",
            },
            "integrate": {"commands": {"install remove project": "home"}},
            "remove": {"grade": "delete", "open": True},
        },
    },
}
