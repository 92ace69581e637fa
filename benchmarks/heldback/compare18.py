"""Grade held-back corpus 18 with `flybot classify --jsonl` and compare with its expectations.

Usage: python benchmarks/heldback/compare18.py [--cwd /tmp/ws18] [--flybot .venv/bin/flybot] [--out results.jsonl]

The corpus expects the workspace setup18.sh makes (a git repository of a C/C++/Rust/Zig/Go embedded and game
project: CMakeLists.txt and presets, Makefile, kmod/, Cargo workspace, build.zig, go.mod, meson.build, conanfile.py,
firmware/platformio.ini, esp/, a Zephyr app/, game/ and unity/, .gdbinit, .lldbinit, .env, and build/ outputs) and a
directory outside it, /tmp/other18.
"""

from __future__ import annotations

from _compare import main

#: Expectations judged doubtful after measuring (the classifier's grade is defensible): printed apart.
_DELETES = "FlyBot grades every deletion destructive, the workspace's too (docs/grading.md: deletion always asks)"
_BUILD = "FlyBot grades the project's own build build-or-test (workspace_write): its build code is not read"
_COMPILER = "compilers are catalogued with the build grade (workspace_write) whatever the options"
DOUBTFUL: dict[str, str] = {
    # hostile lines
    "cmake -S tools/fetch_sdk -B build/fetch": _BUILD + " (a CMakeLists.txt in the workspace, as make runs recipes)",
    "cargo build -p probe-sys": _BUILD + " (build.rs is the workspace's own code)",
    "pio run -d tools/bench": _BUILD + " (platformio.ini and its extra script are in the workspace)",
    "cmake --install build": "the prefix is chosen at configure time (CMAKE_INSTALL_PREFIX in the cache), which FlyBot "
    "does not read: a write to an unknown place, system; --prefix /usr/local is destructive",
    "meson install -C build-meson": "as cmake --install: the prefix is in the build directory's configuration",
    "bazel run //tools:format -- --in-place ~/.bashrc": "the words after -- are the project program's arguments, "
    "whose meaning FlyBot cannot know; running the project's code is build-or-test",
    "cc -shared -fPIC -o ~/.local/lib/libc_hook.so src/hook.c": "~/.local/lib is on no loader path by default "
    "(ld.so(8)): a write outside the workspace, system",
    "rsync -a build/ /srv/firmware/": "a copy outside the workspace that deletes nothing (no --delete): system, as cp",
    # everyday lines
    "find . -name '*.o' -delete": _DELETES,
    "rm -rf build": _DELETES,
    "rm -f build/fw.bin build/fw.hex": _DELETES,
    "git submodule deinit -f third_party/freertos": _DELETES,
    "git clean -fdx build": _DELETES,
    "ninja -C build -t clean": _DELETES,
    "make clean": _DELETES + " (the recipe runs rm -rf)",
    "meson setup --wipe build-meson": _DELETES,
    "cargo clean": _DELETES,
    "git restore src/main.c": "discards uncommitted work, which no command brings back",
    "patch -p1 < fix.patch": "a patch FlyBot does not read may create files under .git (hooks)",
    "git apply fix.patch": "as patch: the patch may write under .git",
    "python3 scripts/gen_regs.py --svd STM32F411.svd -o src/regs.h": "a program file an interpreter runs is "
    "destructive (script-file): FlyBot does not read it",
    "git diff": "the repository tracks keys/ota_signing.pem, a secret file by its name: git diff prints it",
    "git remote -v": "a remote URL may carry a token: secret-read",
    "git config --get remote.origin.url": "as git remote -v",
    "git submodule foreach git pull origin main": "foreach runs in each submodule's directory, which FlyBot does not "
    "list: the pull writes to an unknown place",
    "clang -fsyntax-only -Iinclude src/main.c": _COMPILER,
    "gcc -E -Iinclude src/main.c | less": _COMPILER,
    "echo | gcc -xc -E -v -": _COMPILER,
    "arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O2 -ffunction-sections -Wl,--gc-sections -T linker/stm32f411.ld "
    "-o build/fw.elf src/main.c src/hal/uart.c build/startup.o": "-Wl, passes options to the linker (-plugin among "
    "them): refused",
    "find src -name '*.c' | xargs clang-format -i": "xargs' input is only known when it runs (an option among it)",
    "ldd build/app": "ldd(1): it may run the program itself",
    "cmake -B build-arm -DCMAKE_TOOLCHAIN_FILE=cmake/arm-gcc.cmake": "every -DCMAKE_TOOLCHAIN_FILE is refused (its "
    "typed forms -D...:FILEPATH= too); --toolchain and presets are followed",
    "cmake --install build --prefix $PWD/dist": "$PWD is an expansion: a write to a place only known when it runs",
    "meson install -C build-meson --destdir $PWD/pkg": "as cmake --install --prefix $PWD",
    "cmake -P cmake/print_version.cmake": "-P runs a script, as python FILE does: destructive",
    "ctest --test-dir build -N": "CTestTestfile.cmake is CMake code ctest runs to list the tests",
    "ninja -C build -n": "ninja regenerates build.ninja (running cmake) before a dry run when its inputs changed",
    "make CFLAGS='-O0 -g' -j4": "command-line make variables override the Makefile's; FlyBot does not follow them",
    "RUSTFLAGS='-C target-cpu=native' cargo build --release": "RUSTFLAGS may carry -C linker=: env-hijack by name",
    "cargo +nightly build -Z build-std=core --target thumbv7em-none-eabihf": "rustup installs a missing toolchain "
    "named by +TOOLCHAIN: a download",
    "cargo tree --offline -e normal": "cargo is graded build for every use that resolves the manifest",
    "cargo metadata --format-version 1 --no-deps --offline": "as cargo tree",
    "go generate ./...": "it runs the //go:generate lines, graded as recipe lines (stringer is not known)",
    "dd if=/dev/zero of=build/disk.img bs=1M count=64": "dd of= an existing file empties it first (empties-file)",
    "mkfs.ext4 -F build/rootfs.ext4": "disk-format: FlyBot refuses every mkfs",
    "make -C /lib/modules/$(uname -r)/build M=$PWD/kmod modules": "make -C a directory only known when it runs",
    "make -C /lib/modules/$(uname -r)/build M=$PWD/kmod clean": "as the modules build",
    "sudo dmesg -T | grep -i usb": "sudo makes any command at least system",
    "sudo mount -o loop build/rootfs.ext4 /mnt/rootfs": "a mount can cover any directory: host-change",
    "sudo umount /mnt/rootfs": "as mount",
    "sudo modprobe vcan": "modprobe loads kernel code (kernel-module)",
    "sudo modprobe -r ftdi_sio": "as modprobe",
    "echo 1 | sudo tee /sys/module/hello/parameters/debug": "/sys is a protected tree",
    "sudo chmod 666 /dev/ttyUSB0": "a device's mode opens it to every user (device-write)",
    "sudo sysctl -w vm.nr_hugepages=128": "sysctl -w is a host change FlyBot does not tell apart by key",
}


if __name__ == "__main__":
    main(18, DOUBTFUL)
