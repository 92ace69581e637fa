"""Process, log and performance monitors, account queries, and small text and file utilities.

Monitors and queries only print (``journalctl``, ``dmesg``, ``top -b``, ``vmstat``, ``getent``, ``last``), except the
uses that clear or rotate logs (``journalctl --vacuum-*``, ``dmesg -C``: delete), change the console or a process's
priority (``system``) or end sessions (``loginctl terminate-*``: ``critical``). File utilities write what they are
told to (``split`` and ``csplit`` the pieces where they run or under the prefix given, ``iconv -o``; sponge: programs/files.py);
``split --filter`` runs a shell command. Wrappers (``entr``, ``chronic``, ``rlwrap``) run the command given as their
operands, graded as that command. ``direnv allow`` trusts an ``.envrc`` that then runs on every ``cd`` (``runs``).
"""

from __future__ import annotations

_READ = {"grade": "read", "open": True}

CATALOGUE: dict[str, object] = {
    # promtool check and test read the files given (check config also the rule files it names) and print what is
    # wrong; check healthy|ready and query ask a server; push metrics sends to a Pushgateway
    "promtool": {
        "source": "promtool (prometheus.io/docs/prometheus/latest/command-line/promtool) (Prometheus 2.53)",
        "options": "-h --help --version --enable-feature= --experimental",
        "when": {"-h --help --version": "read"},
        "commands": {
            "check": {
                "commands": {
                    "config rules web-config metrics": {
                        "grade": "read",
                        "options": "--syntax-only --lint= --lint-fatal --agent --extended --query.lookback-delta=",
                    },
                    "healthy ready": {"grade": "network", "options": "--url= --http.config.file=in"},
                }
            },
            "test": {"commands": {"rules": {"grade": "read", "options": "--run= --diff --debug --junit=out"}}},
            "query": {
                "commands": {
                    "instant range series labels": {
                        "grade": "network",
                        "options": "-o= --format= --http.config.file=in --time= --start= --end= --step= --match=",
                    }
                }
            },
            "push": {"commands": {"metrics": {"grade": "publish", "options": "--label= --timeout= --header="}}},
        },
    },
    # amtool talks to the Alertmanager --alertmanager.url names (alert and silence queries, cluster show);
    # check-config and config routes with --config.file read files; silences and alerts added or expired change
    # what pages the team (left unrecognised: a silence matching every alert turns alerting off)
    "amtool": {
        "source": "amtool (github.com/prometheus/alertmanager#amtool) (Alertmanager 0.27)",
        "options": "--alertmanager.url= -o= --output= --timeout= --http.config.file=in -v --verbose "
        "--version-check --no-version-check -h --help --version",
        "when": {"-h --help --version": "read"},
        "commands": {
            "check-config": "read",
            "template": {"commands": {"render": {"grade": "read", "options": "--template.glob= --template.text="}}},
            "alert": {
                "grade": "network",
                "commands": {"query": {"grade": "network", "options": "-a --active -i --inhibited -s --silenced"}},
            },
            "silence": {
                "grade": "network",
                "commands": {"query": {"grade": "network", "options": "-e --expired -q --quiet --within="}},
            },
            "cluster": {"commands": {"show": "network"}},
            "config": {
                "grade": "network",
                "commands": {
                    "show": "network",
                    "routes": {
                        "grade": "network",
                        "options": "--config.file=in",
                        "when": {"--config.file": "read"},
                        "commands": {
                            "show test": {
                                "grade": "network",
                                "options": "--config.file=in --tree --verify.receivers=",
                                "when": {"--config.file": "read"},
                                "else": "network",
                            }
                        },
                    },
                },
            },
        },
    },
    "journalctl": {
        "source": "journalctl(1) (systemd 256): --vacuum-* delete archived journal files, --rotate/--flush/--sync "
        "and --setup-keys change the journal",
        "grade": "read",
        "open": True,
        "options": "--vacuum-size=:delete --vacuum-time=:delete --vacuum-files=:delete --rotate:system "
        "--flush:system --relinquish-var:system --smart-relinquish-var:system --sync:system --setup-keys:system "
        "--update-catalog:system --file=in -D=in --directory=in --root=in --image=in -o= --output= -u= --unit= "
        "--user-unit= -t= --identifier= -p= --priority= -S= --since= -U= --until= -n= --lines= -b= --boot= "
        "-g= --grep= -M= --machine= --namespace= --cursor= --after-cursor= --cursor-file=out -F= --field= "
        "--output-fields=",
    },
    "dmesg": {
        "source": "dmesg(1) (util-linux 2.40): -c/-C clear the kernel ring buffer, -n/-D/-E change the console level",
        "grade": "read",
        "open": True,
        "options": "-c:delete --read-clear:delete -C:delete --clear:delete -n=:system --console-level=:system "
        "-D:system --console-off:system -E:system --console-on:system -F=in --file=in -f= --facility= -l= "
        "--level= -s= --buffer-size= --since= --until= --time-format=",
    },
    "top": {
        "source": "top(1) (procps-ng 4): -b batch mode prints and exits after -n iterations; interactively it needs a "
        "terminal (changes, such as killing a process, are typed at it)",
        "grade": "read",
        "options": "-b --batch -c --cmdline-toggle -d= --delay= -E= --scale-summary-mem= -e= --scale-task-mem= -H "
        "--threads-show -i --idle-toggle -n= --iterations= -O --list-fields -o= --sort-override= -p= --pid= "
        "-S --accum-time-toggle -s --secure-mode -u= -U= --filter-only-euser= --filter-any-user= -w* --width* "
        "-1 --single-cpu-toggle -h --help -V --version",
    },
    # htop is graded as top is: it prints processes; killing or renicing one is typed at its terminal interface
    "htop": {
        "source": "htop(1) (htop 3.3): an interactive process viewer; changes (kill, nice) are typed at it, "
        "--readonly disables them",
        "grade": "read",
        "options": "-C --no-color -d= --delay= -F= --filter= -h --help -H --highlight-changes* -M --no-mouse "
        "-n= --max-iterations= -p= --pid= --readonly -s= --sort-key= -t --tree -u* --user* -U --no-unicode "
        "-V --version",
    },
    # macOS: sw_vers(1) prints the OS version; xcode-select(1) -p prints the active developer directory while
    # -s/--switch and -r/--reset change it for the machine and --install starts the Command Line Tools installer;
    # defaults(1) read/read-type/domains/find print preferences, write/import/rename change the user's preference
    # files under ~/Library/Preferences, delete removes them, export DOMAIN PATH writes PATH ("-": standard output).
    # Some keys written are security controls or run programs: com.apple.loginwindow LoginHook/LogoutHook name a
    # script run as root at every login or logout (Apple, "Customizing Login and Logout", deprecated but honoured);
    # LSQuarantine false stops Gatekeeper's quarantine of downloaded files; Xcode's
    # IDESkipPackagePluginFingerprintValidatation (Apple's spelling) and IDESkipMacroFingerprintValidation let Swift
    # package plugins and macros run without the trust prompt; com.apple.alf globalstate switches the firewall;
    # com.apple.screensaver askForPassword and askForPasswordDelay decide whether (and how soon) waking the screen
    # asks for the password, and com.apple.SoftwareUpdate AutomaticCheckEnabled, CriticalUpdateInstall and
    # ConfigDataInstall turn update checks and the security and XProtect data updates on or off (Apple, "Device
    # Management: ScreenSaver", "SoftwareUpdate" preference keys).
    "sw_vers": {
        "source": "sw_vers(1) (macOS 14): prints the product name, version and build",
        "grade": "read",
        "clusters": False,
        "options": "-productName -productVersion -productVersionExtra -buildVersion --productName "
        "--productVersion --productVersionExtra --buildVersion",
    },
    "xcode-select": {
        "source": "xcode-select(1) (macOS 14): -p prints the developer directory; -s, -r and --install change it",
        "grade": "read",
        "options": "-p --print-path -v --version -h --help -s=:system --switch=:system -r:system --reset:system "
        "--install:system",
    },
    "defaults": {
        "source": "defaults(1) (macOS 14): read, read-type, domains and find print; write, import, rename and "
        "delete change the preference files under ~/Library/Preferences; export writes the file given",
        "clusters": False,
        "options": "-currentHost -host= -g -globalDomain",
        "commands": {
            "read read-type domains find help": {"grade": "read"},
            # defaults import DOMAIN PLIST writes every key of the plist, unseen: LoginHook among them
            "import": {"grade": "persist", "open": True},
            "write rename": {
                "grade": "home",
                "open": True,
                "words": {
                    "LoginHook LogoutHook": "persist",
                    "LSQuarantine IDESkipPackagePluginFingerprintValidatation IDESkipMacroFingerprintValidation "
                    "com.apple.alf /Library/Preferences/com.apple.alf globalstate askForPassword "
                    "askForPasswordDelay AutomaticCheckEnabled CriticalUpdateInstall ConfigDataInstall": "critical",
                },
            },
            "delete": {"grade": "delete"},
        },
    },
    # macOS developer tools that inspect the machine: plutil(1) -lint, -p, -help and -extract (to standard output)
    # print, while -convert, -insert, -replace and -remove rewrite the files given (or the -o file); spctl(8)
    # --status and --assess print Gatekeeper's state and verdict, while --master-disable, --global-disable, --add,
    # --remove, --enable and --disable change its policy (left unlisted: unrecognised); csrutil(8) status prints
    # System Integrity Protection's state (disable, enable and clear change it: unrecognised); mdfind(1) and
    # mdls(1) query the Spotlight index; diskutil(8) list, info and activity print (every verb that mounts,
    # erases or partitions is left unlisted); softwareupdate(8) --list asks Apple's update server and --history
    # prints installed updates; pbpaste(1) prints and pbcopy(1) fills the user's pasteboard; codesign(1) displays
    # and verifies signatures, and signs in place.
    "plutil": {
        "source": "plutil(1) (macOS 14): -lint, -p, -help and -extract print; -convert, -insert, -replace, -remove "
        "and -create rewrite the files given, or the -o file",
        "grade": "read",
        "clusters": False,
        "options": "-lint -p -help -s -r -o=out -e= -extract= -convert= -create= -insert=:unknown "
        "-replace=:unknown -remove=:unknown -bool= -integer= -float= -string= -date= -data= -xml= -json= "
        "-append -expect= -type= -raw",
        # -insert, -replace and -remove set or drop a key: which key (a LaunchAgent's ProgramArguments, a
        # preference that is a security control) is not judged here, as defaults write's words are
        "when": {"-convert -create": {"grade": "write", "operands": "replaced"}},
    },
    "codesign": {
        "source": "codesign(1) (macOS 14): -d (--display) and -v (--verify) print a signature's details and verdict; "
        "-s (--sign) and --remove-signature rewrite the code given in place; --extract-certificates writes "
        "codesign0... files, -d --entitlements PATH the entitlements",
        "grade": "read",
        "options": "-d --display -v --verify --verbose* --deep --strict* --no-strict -R= --test-requirement= "
        "-r=:unknown --requirements=:unknown -a= --architecture= --all-architectures --check-notarization "
        "--ignore-resources --xml --der -f --force -s= --sign= --remove-signature -o= --options= -i= --identifier= "
        "--timestamp* --keychain= --prefix= --preserve-metadata* --generate-entitlement-der "
        "--entitlements=:unknown --extract-certificates*:unknown --file-list=:unknown --dryrun",
        "when": {"-s --sign --remove-signature": {"grade": "write", "operands": "replaced"}},
        "guard": "hostchanges:codesign",
    },
    "spctl": {
        "source": "spctl(8) (macOS 14): --status prints whether Gatekeeper assessments are on, --assess (-a) prints "
        "the verdict for the files given; other operations change the policy",
        "grade": "read",
        "options": "--status -a --assess -v --verbose -t= --type= --context= --ignore-cache --raw",
    },
    "csrutil": {
        "source": "csrutil(8) (macOS 14): status prints the System Integrity Protection configuration",
        "commands": {"status": "read"},
    },
    "mdfind": {
        "source": "mdfind(1) (macOS 14): prints the files matching a Spotlight query",
        "grade": "read",
        "clusters": False,
        "options": "-onlyin= -name= -0 -count -live -s= -attr= -literal -interpret -reprint",
    },
    "mdls": {
        "source": "mdls(1) (macOS 14): prints a file's Spotlight metadata",
        "grade": "read",
        "clusters": False,
        "options": "-name= -raw -nullMarker= -plist=out",
    },
    "diskutil": {
        "source": "diskutil(8) (macOS 14): list, info and activity print the disks and volumes",
        "commands": {"list info information activity listFilesystems": {"grade": "read", "open": True}},
    },
    "softwareupdate": {
        "source": "softwareupdate(8) (macOS 14): --list asks Apple's software update server which updates are "
        "available, --history prints those installed",
        "grade": "read",
        "options": "-l:network --list:network --history --all --no-scan --product-types= -h --help",
    },
    "pbpaste": {
        "source": "pbpaste(1) (macOS 14): prints the pasteboard",
        "grade": "read",
        "clusters": False,
        "options": "-pboard= -Prefer=",
    },
    "pbcopy": {
        "source": "pbcopy(1) (macOS 14): copies its standard input to the user's pasteboard",
        "grade": "read",
        "clusters": False,
        "options": "-pboard=",
    },
    "vmstat": {"source": "vmstat(8) (procps-ng 4): reports virtual memory statistics", **_READ},
    "iostat mpstat pidstat": {"source": "iostat(1), mpstat(1), pidstat(1) (sysstat 12): report statistics", **_READ},
    "sar": {
        "source": "sar(1) (sysstat 12): -o writes the collected data to a file",
        "grade": "read",
        "open": True,
        "options": "-o=out -f=in",
    },
    "pidof": {"source": "pidof(8) (procps-ng 4): prints the process IDs of a program", **_READ},
    "pstree": {"source": "pstree(1) (psmisc 23): prints the process tree", **_READ},
    "lsmod": {"source": "lsmod(8) (kmod 32): prints the loaded kernel modules", **_READ},
    "getent": {
        "source": "getent(1) (glibc 2.40): prints entries of the name service databases; shadow and gshadow hold "
        "password hashes; a key of hosts, ahosts, ahostsv4 or ahostsv6 is looked up with gethostbyname2(3), "
        "getaddrinfo(3) or gethostbyaddr(3), which ask the DNS resolver (a name out: getent ahosts DATA.example "
        "sends DATA, as nslookup does); without a key they list the files database (/etc/hosts)",
        "grade": "read",
        "else": "read",
        "open": True,
        "options": "-s= --service= -i --no-idn -A --no-addrconfig",
        "commands": {
            "shadow gshadow": "secret",
            "hosts ahosts ahostsv4 ahostsv6": {"grade": "read", "else": "network"},
        },
    },
    "last lastb lastlog": {
        "source": "last(1), lastb(1) (util-linux 2.40), lastlog(8): print login records",
        "grade": "read",
        "open": True,
        "options": "-f=in --file=in",
    },
    "w": {"source": "w(1) (procps-ng 4): prints who is logged in and what they run", **_READ},
    "uuidgen": {"source": "uuidgen(1) (util-linux 2.40): prints a new UUID", **_READ},
    "loginctl": {
        "source": "loginctl(1) (systemd 256)",
        "options": "-h --help --version --no-pager --no-legend --no-ask-password -p= --property= --value -a --all "
        "-l --full --kill-whom= -s= --signal= -n= --lines= -o= --output= -H= --host=:network -M= --machine=",
        "grade": "read",
        "commands": {
            "list-sessions session-status show-session list-users user-status show-user list-seats seat-status "
            "show-seat": "read",
            "activate lock-session unlock-session lock-sessions unlock-sessions attach flush-devices": "system",
            # enable-linger: "a user manager is spawned for the user at boot and kept around after logouts"
            # (loginctl(1)): the user's enabled units run at every boot, persistence
            "enable-linger": {"grade": "persist", "open": True},
            "disable-linger": "system",
            "terminate-session kill-session terminate-user kill-user terminate-seat": "critical",
        },
    },
    "localectl": {
        "source": "localectl(1) (systemd 256): status and list-* print, set-* change the system locale and keymap",
        "options": "-h --help --version --no-pager --no-ask-password --no-convert -H= --host=:network -M= --machine=",
        "grade": "read",
        "commands": {
            "status list-locales list-keymaps list-x11-keymap-models list-x11-keymap-layouts "
            "list-x11-keymap-variants list-x11-keymap-options": "read",
            "set-locale set-keymap set-x11-keymap": {"grade": "system", "open": True},
        },
    },
    "renice": {
        "source": "renice(1) (util-linux 2.40): changes the scheduling priority of running processes",
        "grade": "system",
        "open": True,
    },
    "split": {
        "source": "split(1) (GNU coreutils 9.5): writes the pieces where it runs, or under the PREFIX given as the "
        "second operand; --filter runs a shell command",
        "grade": "write",
        "options": "-a= --suffix-length= --additional-suffix= -b= --bytes= -C= --line-bytes= -d --numeric-suffixes* "
        "-x --hex-suffixes* -e --elide-empty-files --filter=:runs -l= --lines= -n= --number= -t= --separator= "
        "-u --unbuffered --verbose --help --version",
        "operands": "last-out",
    },
    "csplit": {
        "source": "csplit(1) (GNU coreutils 9.5): writes the pieces where it runs, or under the -f PREFIX",
        "grade": "write",
        "options": "-b= --suffix-format= -f=out --prefix=out -k --keep-files --suppress-matched -n= --digits= -s "
        "-q --quiet --silent -z --elide-empty-files --help --version",
        # each piece is named PREFIX then the suffix format's output ("-b, --suffix-format=FORMAT: use sprintf FORMAT
        # instead of %02d"): programs/outputs.py joins them
        "guard": "outputs:csplit_pieces",
    },
    "iconv": {
        "source": "iconv(1) (glibc 2.40): converts text; -o writes the output file",
        "grade": "read",
        "options": "-f= --from-code= -t= --to-code= -l --list -c -o=out --output=out -s --silent --verbose -? "
        "--help --usage -V --version",
    },
    "zipinfo": {
        "source": "zipinfo(1) (Info-ZIP UnZip 6.0): lists a zip archive",
        "grade": "read",
        "options": "-1 -2 -s -m -l -v -h -M -t -T -U -z -C -W -x",
    },
    "xmllint": {
        "source": "xmllint(1) (libxml2 2.13): parses and checks XML; --output writes, --shell reads commands from "
        "stdin (save writes files); --noent substitutes entities and --xinclude processes XInclude, so the document "
        '(a workspace file) names files it prints (SYSTEM "file:///...", xi:include parse="text"); --loaddtd, '
        "--dtdattr, --valid and --postvalid fetch the DTDs it names (http: too, but with --nonet)",
        "grade": "read",
        "open": True,
        "options": "--output=out -o=out --shell:unknown --path= --dtdvalid=in --schema=in --relaxng=in "
        "--schematron=in --catalogs --xpath= --encode= --noent:secret --xinclude:secret --loaddtd:network "
        "--dtdattr:network --valid:network --postvalid:network",
    },
    "ssh-keyscan": {
        "source": "ssh-keyscan(1) (OpenSSH 9.8): fetches hosts' public keys",
        "grade": "network",
        "open": True,
        "options": "-f=in -p= -T= -t= -O=",
    },
    "ts": {"source": "ts(1) (moreutils 0.69): timestamps standard input", **_READ},
    "datamash": {"source": "datamash(1) (GNU datamash 1.8): statistics on text columns", **_READ},
    "duf": {"source": "duf (github.com/muesli/duf) (duf 0.8): prints disk usage; --json prints", **_READ},
    "entr": {
        "source": "entr(1) (entr 5.6): runs the command given when a file read from standard input changes",
        "grade": "wrap",
        "options": "-a -c -d -n -p -r -s -z -x",
    },
    "chronic": {
        "source": "chronic(1) (moreutils 0.69): runs the command given, printing its output only when it fails",
        "grade": "wrap",
        "options": "-e -v",
    },
    "rlwrap": {
        "source": "rlwrap(1) (rlwrap 0.46): runs the command given with readline editing",
        "grade": "wrap",
        "options": "-a -A -c -i -m -n -r -v",
    },
    "direnv": {
        "source": "direnv(1) (direnv 2.34): allow trusts an .envrc that then runs on every cd; exec runs a "
        "directory's .envrc and a command",
        "options": "-h --help --version",
        "commands": {
            "status version help hook stdlib": "read",  # hook and stdlib print shell code
            "allow permit grant exec fetchurl": "runs",
            "deny revoke disallow prune": {"grade": "home", "open": True},
            "edit": "runs",
        },
    },
    # terminal multiplexers: only the listings (a command line may chain more commands after a ; word)
    "tmux": {
        "source": "tmux(1) (tmux 3.4): -V prints the version; list-sessions (ls) lists the sessions; "
        "show-environment prints the environment (secrets too); a ; word starts another command; -f reads a "
        "configuration of commands, -c runs a shell command, -v writes log files where it runs",
        "options": "-V -L= -S= -u -2 -N -T= -f=:unknown -c=:unknown -C:unknown -D:unknown -v:write",
        "when": {"-V": "read"},
        "commands": {
            "ls list-sessions": {"grade": "read", "options": "-F= -f=", "words": {";": "unknown"}},
            "show-environment showenv": {"grade": "secret", "options": "-g -h -s -t=", "words": {";": "unknown"}},
        },
    },
    "screen": {
        "source": "screen(1) (GNU Screen 4.9): -ls/-list lists the sessions, -v prints the version",
        "grade": "unknown",
        "clusters": False,
        "options": "-ls -list -v --version -h --help",
        "when": {"-ls -list -v": "read"},
    },
    "zellij": {
        "source": "zellij --help (zellij 0.41): list-sessions (ls) lists the sessions",
        "options": "-h --help -V --version",
        "commands": {"ls list-sessions": {"grade": "read", "options": "-n --no-formatting -s --short -r --reverse"}},
    },
}
