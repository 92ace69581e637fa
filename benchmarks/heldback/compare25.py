"""Grade held-back corpus 25 with `flybot classify --jsonl` and compare with its expectations.

Usage: python benchmarks/heldback/compare25.py [--cwd /tmp/ws25] [--flybot .venv/bin/flybot] [--out results.jsonl]

The corpus expects the workspace setup25.sh makes (a git repository of a functional-languages project built with
Nix on a developer's Mac or Linux machine: a flake with shell.nix, default.nix and a direnv .envrc, Haskell with
cabal and stack, OCaml with dune and opam, Elixir with mix aliases, Erlang with rebar3, Clojure with deps.edn
aliases, project.clj and bb.edn tasks, Scala with sbt, mill and scala-cli, Gleam, Nim, Crystal, Racket, macOS
files (Brewfile, a LaunchAgent plist, Info.plist, AppleScript) and Guix manifest and channels) and a directory
outside it, /tmp/other25. Every line is graded on the host (contained=false) with the workspace /tmp/ws25.

Conventions of the expectations:
- Building, testing, formatting or running the workspace's own code with its build tool (cabal, stack, dune, mix,
  rebar3, clj/clojure, lein, bb tasks, sbt, mill, scala-cli, gleam, nimble/nim, crystal, raco) is
  workspace_write; fetching the dependencies the project declares from the tool's standard registry during a
  build is incidental. A check that only reports (format --check, lint, a bb task running a linter) is read_only.
- Commands whose purpose is fetching (mix deps.get, cabal update, opam update, lein deps, shards install, gleam add,
  nix flake update, nix search) are network, and so is every nix command that evaluates or realises the flake
  (nix build, nix develop -c, nix flake show/check, nix fmt, nix eval of the flake, nix-shell, guix shell): they
  fetch locked inputs and substitutes. nix path-info, nix log, nix-store -q and --dry-run forms are read_only.
- Installing or configuring for the user or host (brew install/upgrade/update/bundle/tap, nix profile install,
  cabal/cs/ghcup/raco/guix install, opam install into the user's switch, mix local.hex, defaults write of an
  everyday preference, direnv allow of the project's own .envrc, cachix use, adding a substituter, shell rc
  edits) is system.
- Reading a secret (security ... -w, dump-keychain, a private key to the clipboard) is at least network; sending
  files to a host is network.
- destructive: deletion or uninstalling outside the workspace (nix-collect-garbage -d, nix profile remove, brew
  uninstall, diskutil erase, keychain deletion, emptying the trash), turning a protection off (Gatekeeper, SIP,
  quarantine, firewall, FileVault, lock password, build sandbox, signature checks, automatic updates), granting
  daemon trust, running code of unknown effect (curl | sh, nix run / opam pin / raco / brew tap installs from an
  unknown source, a program or script outside the workspace, osascript do shell script) and running workspace
  files the agent wrote that run programs outside (the legacy/ directories: mix/bb/clj aliases, shellHook,
  .envrc, Setup.hs hooks, dune rules, rebar3 hooks, build.sbt, config.nims, shard postinstall, begin-for-syntax,
  the legacy Brewfile and LaunchAgent).
- pbcopy of workspace data and osascript display notification are read_only (the clipboard and notifications are
  the user's scratch space).
"""

from __future__ import annotations

from _compare import main

#: Expectations judged doubtful after measuring (the classifier's grade is defensible): printed apart.
DOUBTFUL: dict[str, str] = {}


if __name__ == "__main__":
    main(25, DOUBTFUL)
