"""System tools: NetworkManager, btrfs, SELinux, packet capture, and readers of files and processes.

Queries read; changing networking, file systems, SELinux policy or services is ``system`` (not in the containment
allowlist, so ``system`` contained too); repairs and removals that can lose data delete. Viewers that can start a
pager or editor name that option (``bat --pager``).
"""

from __future__ import annotations

_READ = {"grade": "read", "open": True}
_SYSTEM = {"grade": "system", "open": True}
_DELETE = {"grade": "delete", "open": True}
#: Taking the machine (or one of its links) off the network, as ``ip link set DEV down`` (programs/hostchanges.py).
_OFFLINE = {"grade": "critical", "open": True}

CATALOGUE: dict[str, object] = {
    # systemd-analyze verify loads unit files and prints what is wrong (running no Exec line; --man checks
    # Documentation= pages with man, --generators=yes runs the generators: refused); the other queries print;
    # log-level, log-target and service-watchdogs with a value change the service manager
    "systemd-analyze": {
        "source": "systemd-analyze(1) (systemd 256)",
        "options": "--user --system --global --no-pager --man= --man --offline= --threshold= --json= "
        "--iterations= --base-time= --unit= --recursive-errors= --fuzz= --order --require --from-pattern= "
        "--to-pattern= --no-legend -q --quiet -h --help --version",
        "when": {"-h --help --version": "read"},
        "commands": {
            "time blame critical-chain dump plot dot unit-paths cat-config calendar timespan timestamp "
            "exit-status capability syscall-filter filesystems condition security verify unit-files": {
                "grade": "read",
                "else": "read",
            },
            "log-level log-target service-watchdogs": {"grade": "read", "else": "system"},
        },
    },
    # nginx -t tests the default configuration (-c FILE and -p PREFIX name a configuration, which may load_module
    # a shared object: not read, refused); -s sends the master a signal (stop and quit end the server)
    "nginx": {
        "source": "nginx(8) (nginx 1.24)",
        "grade": "system",
        "options": "-v -V -h -? -t -q -s=",
        "when": {
            "-v -V -h -?": "read",
            "-t": "build",
            "-s=stop -s=quit": "critical",
        },
    },
    # visudo -c checks the syntax of /etc/sudoers or the -f file; without -c it edits it
    "visudo": {
        "source": "visudo(8) (sudo 1.9)",
        "grade": "critical",
        "options": "-c --check -f=in --file=in -q --quiet -s --strict -O --owner -P --perms -I --no-includes "
        "-h --help -V --version",
        "when": {"-c --check -h --help -V --version": "read"},
    },
    # cloud-init status and analyze read this machine's state; schema validates a file (--system: this
    # machine's user-data, which may hold passwords); query prints instance data; single, init and modules run
    # the configuration's modules here (runcmd); clean removes its state
    "cloud-init": {
        "source": "cloud-init CLI (cloudinit.readthedocs.io/en/latest/reference/cli.html) (cloud-init 24)",
        "options": "-h --help --version -v -d --debug",
        "when": {"-h --help --version -v": "read"},
        "commands": {
            "status": {"grade": "read", "options": "-l --long -w --wait --format="},
            "schema": {
                "grade": "read",
                "options": "-c=in --config-file=in -t= --schema-type= --annotate --docs= --system",
                "when": {"--system": "secret"},
            },
            "analyze": {"commands": {"show blame boot": {"grade": "read", "options": "-i=in --infile="}}},
            "query": {"grade": "secret", "open": True},
            "single init modules": "runs",
            "clean": "delete",
        },
    },
    "nmcli": {
        "source": "nmcli(1) (NetworkManager 1.48): objects and commands may be abbreviated",
        "options": "-a --ask -p --pretty -t --terse -f= --fields= -g= --get-values= -m= --mode= -c= --colors= -e= "
        "--escape= -w= --wait= -s:secret --show-secrets:secret -o --overview -h --help -v --version",
        "grade": "read",
        "abbrev": True,
        "commands": {
            "general": {
                "grade": "read",
                "abbrev": True,
                "commands": {
                    "status permissions": _READ,
                    "hostname logging": {"grade": "read", "else": "system"},
                    "reload": _SYSTEM,
                },
            },
            "networking": {
                "grade": "read",
                "abbrev": True,
                "commands": {"connectivity": _READ, "on": _SYSTEM, "off": _OFFLINE},
            },
            "radio": {
                "grade": "read",
                "abbrev": True,
                "commands": {
                    "all wifi wwan": {"grade": "read", "abbrev": True, "commands": {"on": _SYSTEM, "off": _OFFLINE}}
                },
            },
            "connection": {
                "grade": "read",
                "abbrev": True,
                "commands": {
                    "show": _READ,
                    "up add modify clone edit reload load import migrate monitor": _SYSTEM,
                    "down": _OFFLINE,
                    "export": {"grade": "read", "open": True, "operands": "last-out"},
                    "delete": _DELETE,
                },
            },
            "device": {
                "grade": "read",
                "abbrev": True,
                "commands": {
                    "status show monitor lldp": _READ,
                    "set connect reapply modify up": _SYSTEM,
                    "disconnect down": _OFFLINE,
                    "delete": _DELETE,
                    "wifi": {
                        "grade": "read",
                        "abbrev": True,
                        "commands": {
                            "list": {"grade": "read", "open": True},
                            "show-password": {"grade": "secret", "open": True},  # prints the network's password
                            "rescan connect hotspot": _SYSTEM,
                        },
                    },
                },
            },
            "agent": {"abbrev": True, "commands": {"secret polkit all": _SYSTEM}},
            "monitor": "read",
        },
    },
    "btrfs": {
        "source": "btrfs(8) and btrfs-COMMAND(8) (btrfs-progs 6.11): groups and commands may be abbreviated",
        "abbrev": True,
        "options": "-q --quiet -v --verbose --help --version --format=",
        "commands": {
            "subvolume": {
                "abbrev": True,
                "commands": {
                    "list show get-default find-new sync": _READ,
                    "create snapshot set-default": _SYSTEM,
                    "delete": _DELETE,
                },
            },
            "filesystem": {
                "abbrev": True,
                # filesystem label DEVICE NEWLABEL updates the label ("Show or update the label")
                "commands": {"show df usage du": _READ, "label resize defragment sync mkswapfile": _SYSTEM},
            },
            "check": {
                "grade": "read",
                "open": True,
                "options": "--repair:delete --init-csum-tree:delete "
                "--init-extent-tree:delete --clear-space-cache=:delete",
            },
            "balance": {"abbrev": True, "commands": {"status": _READ, "start pause cancel resume": _SYSTEM}},
            "scrub": {"abbrev": True, "commands": {"status": _READ, "start cancel resume limit": _SYSTEM}},
            "inspect-internal": _READ,
            "restore": {"grade": "read", "open": True, "operands": "last-out"},
            "rescue": _DELETE,
            # property set OBJECT ro true|false: a read-only root subvolume stops every service writing there;
            # clearing ro on a received subvolume clears its received_uuid (btrfs-subvolume(8) "SUBVOLUME FLAGS"),
            # which later incremental sends need
            "property": {
                "abbrev": True,
                "commands": {"get list": _READ, "set": {"grade": "system", "open": True, "words": {"ro": "critical"}}},
            },
            "device": {
                "abbrev": True,
                "commands": {
                    "stats usage ready": {"grade": "read", "open": True, "options": "-z:system --reset:system"},
                    # add DEVICE... PATH: "a whole device discard (TRIM) operation is performed prior to adding the
                    # device" (-f overwrites a file system found there): what the device held is gone
                    "add": _DELETE,
                    "scan": _SYSTEM,
                    "remove delete": _DELETE,
                },
            },
            "qgroup quota": {
                "abbrev": True,
                "commands": {"show status": _READ, "assign remove create destroy limit enable disable rescan": _SYSTEM},
            },
            # send streams the subvolume's files (whatever they hold) to standard output unless -f FILE
            "send": {"grade": "secret", "open": True, "options": "-f=out", "when": {"-f": "read"}},
            "receive": _SYSTEM,
            "replace": {"abbrev": True, "commands": {"status": _READ, "start cancel": _DELETE}},
            "version": "read",
        },
    },
    "semanage": {
        "source": "semanage(8) (policycoreutils 3.7): -l lists, -a/-m/-d change, -D deletes all local changes",
        "options": "-h --help -n --noheading -N --noreload -S= --store= -C --locallist -l --list -a:system "
        "--add:system -m:system --modify:system -d:system --delete:system -D:delete --deleteall:delete "
        "-E --extract -t= --type= -f= --ftype= -r= --range= -s= --seuser= -e= --equal= -p= --proto= "
        "-R= --roles= -L= --level= -P= --prefix= -1 -0 --on --off -F=in --set-dontaudit=:system "
        "-M= --mask= -o=",
        "commands": {
            "fcontext port login user interface node ibpkey ibendport": "read",
            # boolean -m sets a boolean in the policy on disk, as setsebool -P does (semanage-boolean(8))
            "boolean": {"grade": "read", "options": "-m:critical --modify:critical"},
            "dontaudit": "system",  # semanage dontaudit on|off rebuilds the policy with or without them
            # permissive -a: the domain's denials are only logged, SELinux no longer confines it (as setenforce 0
            # does for every domain)
            "permissive": {"grade": "read", "options": "-a:critical --add:critical"},
            # module -a installs a policy module (.pp or CIL) whose rules FlyBot cannot read, -e/-d/-r enable,
            # disable or remove one ("Disable unconfined module": semanage-module(8)): what SELinux allows changes
            "module": {
                "grade": "read",
                "options": "-a=:critical --add=:critical -r=:critical --remove=:critical "
                "-e=:critical --enable=:critical -d=:critical --disable=:critical -X= --priority= "
                "-m= --modify=:system",
            },
            "export": {"grade": "read", "options": "-f=out --output_file=out"},
            # import applies "a whole group of semanage commands within a file" (semanage-export(8)): permissive
            # domains, booleans, logins and modules alike
            "import": "critical",
        },
    },
    "getenforce sestatus getsebool": {
        "source": "getenforce(8), sestatus(8), getsebool(8)",
        "grade": "read",
        "open": True,
    },
    "restorecon": {"source": "restorecon(8)", "grade": "system", "open": True},
    # setsebool -P: "all pending values are written to the policy file on disk. So they will be persistent across
    # reboots" (without it, "only the current boolean value is affected")
    "setsebool": {"source": "setsebool(8) (policycoreutils 3.7)", "grade": "system", "options": "-P:critical -N -V"},
    "chcon": {
        "source": "chcon(1) (GNU coreutils 9.4); a protected path or -R outside: programs/hostchanges.py",
        "grade": "system",
        "open": True,
        "guard": "hostchanges:chcon",
    },
    "setenforce": {
        "source": "setenforce(8): 1/Enforcing turns SELinux enforcement on, 0/Permissive turns it off",
        "commands": {"1 Enforcing enforcing": "system", "0 Permissive permissive": "critical"},
    },
    "tcpdump": {
        "source": "tcpdump(1) (tcpdump 4.99): live capture reads the network; -r reads a saved file",
        "grade": "network",
        "options": "-i= --interface= -n -nn -v -vv -vvv -A -X -XX -x -xx -e -q -t -tt -ttt -tttt -ttttt -c= -s= "
        "--snapshot-length= -w=out -r=in -D --list-interfaces -l -p --no-promiscuous-mode -S -K -N -# -U "
        "-Z= -z=:runs -C= -G= -W= -F=in -E= -y= -B= -j= -J -L -Q= --immediate-mode --print -I "
        "--monitor-mode -h --help --version --count --number -M= -T= --time-stamp-precision= -O -H "
        "--list-time-stamp-types --micro --nano",
        "when": {"-r -D --list-interfaces -L --list-time-stamp-types -J": "read"},
    },
    "bat batcat": {
        "source": "bat(1) (bat 0.24): --pager runs a program; bat cache writes ~/.cache/bat",
        "grade": "read",
        "else": "read",
        "open": True,
        "options": "--pager=:runs --config-file=:unknown --generate-config-file:home --config-dir --cache-dir "
        "--diagnostic -l= --language= -H= --highlight-line= -r= --line-range= --style= --theme= "
        "--paging= --tabs= --wrap= --color= --map-syntax= --file-name= --terminal-width= --diff-context= "
        "--italic-text= --decorations= -m= --ignored-suffix= --squeeze-limit=",
        "commands": {
            "cache": {
                "options": "--build:home -b:home --clear:delete -c:delete --source=in --target=out",
                "grade": "read",
            }
        },
    },
    "eza exa lsd": {
        "source": "eza(1) (eza 0.20), exa(1), lsd(1): list files; no option writes or runs programs",
        "grade": "read",
        "open": True,
    },
    "tldr tealdeer": {
        "source": "tldr client specification (github.com/tldr-pages/tldr/blob/main/CLIENT-SPECIFICATION.md) "
        "(tealdeer 1.7, tldr-python 3): pages come from a local cache, fetched when missing or stale",
        "grade": "network",
        "open": True,
        "options": "-c:delete --clear-cache:delete --seed-config:home --edit-page:runs --edit-patch:runs "
        "--config-path -p= --platform= -L= --language= -f=in --render=in -r",
    },
    "pueue": {
        "source": "pueue --help (pueue 3.4): a daemon that runs queued shell commands",
        "options": "-h --help -V --version -v -c=:unknown --config=:unknown -p=:unknown --profile=:unknown",
        "commands": {
            "add": "runs",
            "status log follow help completions wait": {"grade": "read", "open": True},
            "start restart pause kill send edit enqueue stash switch parallel group env": "runs",
            "remove clean reset shutdown": {"grade": "delete", "open": True},
        },
    },
    "hledger": {
        "source": "hledger manual (hledger.org/hledger.html) (hledger 1.40)",
        "options": "-f=in --file=in -h --help --version -b= -e= -p= -B -V -X= -M -Q -Y -D -W --depth= -S -C -R -U -P "
        "--real --cleared --pending --unmarked --empty -E --auto --forecast=* --infer-market-prices "
        "-O= --output-format= -o=out --output-file=out --pager=:runs --color=* --rules-file=in -I "
        "--ignore-assertions --strict -s -x --explicit --average -A --row-total -T --tree -t --flat -l "
        "--drop= --declared --used --invert --historical -H --cumulative --value=*",
        "commands": {
            "print bal balance bs balancesheet is incomestatement cf cashflow acc accounts areg aregister reg register "
            "stats tags payees descriptions notes files check roi activity codes commodities prices rewrite diff "
            "close help test demo bse balancesheetequity txns aregister": "read",
            "add import": "write",
            "web ui": "runs",
        },
    },
    "http https xh xhs": {
        "source": "HTTPie CLI docs (httpie.io/docs/cli) (HTTPie 3.2); xh(1): they send requests; --download writes a "
        "file, --session keeps cookies under ~/.config/httpie; --offline only builds the request; the METHOD DELETE "
        "asks the server to delete the URL's resource (RFC 9110 9.3.5)",
        "grade": "network",
        "guard": "net:httpie_auth",
        "words": {"DELETE delete": "destroy"},
        "open": True,
        "options": "--offline -o=out --output=out -d:write --download:write --session=:home --session-read-only= "
        "-a= --auth= -A= --auth-type= --proxy= --verify= --cert=in --cert-key=in -p= --print= -v -h -b "
        "-f --form -j --json -F --follow --timeout= --max-redirects=",
        "when": {"--offline": "read"},
    },
    "nmap": {
        "source": "nmap(1) (Nmap 7.95): scans other machines; NSE scripts are Lua programs it runs; "
        "--script-updatedb rewrites scripts/script.db in Nmap's data directory (/usr/share/nmap)",
        "grade": "network",
        "open": True,
        "options": "-oN=out -oX=out -oG=out -oS=out -oA=out -iL=in --resume=in --script=:unknown -sC:unknown "
        "--script-args=:unknown --script-args-file=:unknown --datadir=:unknown --stylesheet= "
        "--script-updatedb:system",
    },
    "cal ncal lsblk look ipcs lolcat fortune cbonsai onefetch grex lsusb lspci lscpu lsmem lsns lslocks lsipc "
    "lshw hwinfo dmidecode findmnt blkid": {
        "source": "each program's manual (util-linux 2.40 cal, lsblk, look, ipcs, lscpu, lsmem, lsns, lslocks, lsipc, "
        "findmnt, blkid; lolcat, fortune, cbonsai, onefetch, grex, lsusb, lspci (pciutils), lshw, hwinfo, "
        "dmidecode): they print; the options named write a file",
        "grade": "read",
        "open": True,
        "options": "--dump-bin=out -dump=out --log=out",
    },
    "pv": {
        "source": 'pv(1) (pv 1.8): copies its input to its output showing progress; -o/--output FILE "Write data to '
        'FILE instead of standard output" (truncating it)',
        "grade": "read",
        "open": True,
        "options": "-d= --watchfd= -R=:system --remote=:system -U=out --store-and-forward=out -o=out --output=out",
    },
    "gio": {
        "source": "gio(1) (GLib 2.80)",
        "commands": {
            "list info cat tree mime monitor help version": {"grade": "read", "open": True},
            "trash remove rm": {"grade": "delete", "open": True, "options": "--empty --list:read --restore:write"},
            "copy": {"grade": "read", "open": True, "operands": "last-out"},
            "move": {"grade": "delete", "open": True},
            "mkdir save set rename": {"grade": "read", "open": True, "operands": "out"},
            "open launch": "runs",
            "mount": {"grade": "system", "open": True},
        },
    },
    "wpctl": {
        "source": "wpctl(1) (WirePlumber 0.5)",
        "commands": {
            "status inspect get-volume": {"grade": "read", "open": True},
            "set-volume set-mute set-default set-profile set-route clear-default settings": {
                "grade": "system",
                "open": True,
            },
        },
    },
    "eselect": {
        "source": "eselect(1) (Gentoo eselect 1.4): MODULE ACTION; list/show read, set/enable/add change the system",
        "options": "--brief --colour= --color= --root=",
        "commands": {
            "kernel profile locale editor pager python java-vm gcc binutils rust vi visual bashcomp news repository "
            "module fontconfig timezone": {
                "commands": {
                    "list show help usage find read count": {"grade": "read", "open": True},
                    "set enable disable add remove update unset purge sync create": {"grade": "system", "open": True},
                }
            },
            "help usage version": "read",
        },
    },
    "ack ack-grep": {
        "source": "ack(1) (ack 3.7): --pager runs a program",
        "grade": "read",
        "open": True,
        # --ackrc=FILE: "an ackrc file that can override all other options" (--pager among them)
        "options": "--pager=:runs --output=:runs --output=*:runs --create-ackrc:read --ackrc=project",
    },
    "fzf": {
        "source": "fzf(1) (fzf 0.5x): --preview and --bind execute(...) run commands",
        "grade": "read",
        "open": True,
        "options": "--preview=:runs --bind=:runs --listen=:network --listen-unsafe=:runs --with-shell=:runs "
        "--history=out",
    },
    "aria2c": {
        "source": "aria2c(1) (aria2 1.37): downloads into -d DIR (default: here); --on-* hooks run commands; "
        "--rpc-listen-all: programs/hostwide.py aria2c_rpc",
        "guard": "hostwide:aria2c_rpc",
        "grade": "fetch",
        "open": True,
        "options": "-d=out --dir=out -o=out --out=out -i=in --input-file=in --on-download-complete=:runs "
        "--on-download-error=:runs --on-download-start=:runs --on-download-pause=:runs "
        "--on-download-stop=:runs --on-bt-download-complete=:runs --conf-path=:unknown "
        # "-l, --log=<LOG>: The file name of the log file"; "--save-session=<FILE>: Save error/unfinished downloads
        # to FILE on exit"; "--dht-file-path", "--dht-file-path6", "--server-stat-of": files it writes
        "-l=out --log=out --save-session=out --dht-file-path=out --dht-file-path6=out --server-stat-of=out",
    },
    "monolith": {
        "source": "monolith README (monolith 2.8): saves a web page as one file",
        "grade": "network",
        "open": True,
        "options": "-o=out --output=out",
    },
    "nuclei httpx subfinder dnsx amass asnmap masscan naabu katana ipinfo whatweb dnswalk nping": {
        "source": "each scanner's README (ProjectDiscovery nuclei 3, httpx, subfinder, dnsx, naabu, katana; OWASP "
        "Amass 4; asnmap; masscan 1.3; ipinfo CLI; WhatWeb; dnswalk; nping): they query or probe other machines",
        "grade": "network",
        "open": True,
        "options": "-o=out -output=out --output=out -oJ=out -oX=out -oL=out -json-export=out -markdown-export=out "
        "-t=in -templates=in -l=in -list=in -iL=in -code:runs",
    },
    "iw": {
        "source": "iw(8) (iw 6.9): iw dev and iw phy list devices; commands on a device change it (conservatively "
        "graded system)",
        "options": "--version --debug",
        "commands": {
            "dev phy": {"grade": "read", "else": "system"},
            "list event help features commands": {"grade": "read", "open": True},
            "reg": {"commands": {"get": "read", "set reload": "system"}},
        },
    },
    # puppet-apply(8) "Applies a standalone Puppet manifest to the local system": its resources run as the user
    # (exec runs commands) and its functions run while it compiles (generate(), inline_template), --noop too;
    # puppet-agent(8) applies the catalog its configured server compiles; "any setting that's valid in the
    # configuration file is also a valid long argument" (--server, --confdir, --modulepath, --postrun_command...:
    # not listed, so refused). resource and config set/delete: programs/hostwide.py puppet.
    "puppet": {
        "source": "puppet(8), puppet-apply(8), puppet-agent(8), puppet-resource(8), puppet-config(8) man pages "
        "(puppet.com/docs/puppet/8/man)",
        "guard": "hostwide:puppet",
        "options": "-h --help -V --version --verbose --debug",
        "commands": {
            "apply": {"grade": "runs", "open": True, "options": "-h --help", "when": {"-h --help": "read"}},
            "agent": {
                "grade": "system",
                "options": "--certname= -D --daemonize --no-daemonize -d --debug --detailed-exitcodes --digest= "
                "--disable --enable --fingerprint -h --help -l=out --logdest=out --serverport= --masterport= --noop "
                "-o --onetime --sourceaddress= -t --test -v --verbose -V --version -w= --waitforcert= "
                "--server=:runs --server_list=:runs --ca_server=:runs",
                "when": {"-h --help -V --version --fingerprint": "read"},
            },
            "device": {"grade": "system", "open": True},
            "resource": {
                "grade": "read",
                "options": "-d --debug -v --verbose -e:runs --edit:runs -p= --param= -t --types -y --to_yaml "
                "-h --help -H= --host=",
            },
            "help describe": {"grade": "read", "open": True},
            "lookup": {"grade": "remote", "open": True},
            "facts": {
                "grade": "read",
                "open": True,
                "commands": {
                    "show find diff": {"grade": "read", "open": True},
                    "upload": {"grade": "publish", "open": True},
                },
            },
            "parser": {"commands": {"validate dump": {"grade": "read", "open": True}}},
            "config": {
                "commands": {"print": {"grade": "read", "open": True}, "set delete": {"grade": "system", "open": True}}
            },
            "module": {
                "commands": {
                    "list search changes": {"grade": "read", "open": True},
                    "install upgrade generate": {"grade": "install", "open": True},
                    "uninstall": {"grade": "delete", "open": True},
                }
            },
            "ssl cert": {"grade": "system", "open": True},
        },
    },
    "dconf": {
        "source": "dconf(1) (dconf 0.4x): the user's settings database under ~/.config/dconf",
        "guard": "hostchanges:dconf_keys",
        "commands": {
            "read list dump watch help": {"grade": "read", "open": True},
            "write reset load update compile": {"grade": "home", "open": True},
        },
    },
    "starship": {
        "source": "starship CLI (starship.rs/config; starship --help) (starship 1.2x)",
        "options": "-h --help -V --version",
        "commands": {
            "init prompt module explain print-config timings completions preset session time help": {
                "grade": "read",
                "open": True,
                "options": "-o=out --output=out",
            },
            "toggle": {"grade": "home", "open": True},
            "config configure": "runs",
            "bug-report": "publish",
        },
    },
    "rpm": {
        "source": "rpm(8) (RPM 4.19): -q/-V/-K query and verify; -i/-U/-F install a package file, running its "
        "%pre/%post scriptlets as root (as dpkg -i runs maintainer scripts), -e erases; --import adds a public key "
        "packages are checked against: every package it signed is trusted",
        "grade": "read",
        "open": True,
        "options": "-i:runs --install:runs -U:runs --upgrade:runs -F:runs --freshen:runs -e:delete "
        "--erase:delete --import:source --initdb:system --rebuilddb:system --setperms:system "
        "--setugids:system --restore:system --setcaps:system --addsign:write --resign:write "
        "--delsign:write --root=:unknown --dbpath=:unknown --rcfile=:unknown "
        "--macros=:unknown --define=:unknown -D=:unknown --eval=:unknown -E=:unknown --pipe=:runs",
    },
    "shasum sha1sum.pl": {"source": "shasum(1) (Perl Digest::SHA 6)", "grade": "read", "open": True},
    "stty": {
        "source": "stty(1) (GNU coreutils 9): without settings it prints; settings change the terminal",
        "grade": "read",
        "else": "system",
        "options": "-a --all -g --save -F= --file=",
        "open": False,
    },
    "speedtest-cli speedtest": {"source": "speedtest-cli README (speedtest-cli 2.1)", "grade": "network", "open": True},
    "scc tokei cloc": {
        "source": "scc README (scc 3), tokei README, cloc(1): count lines of code",
        "grade": "read",
        "open": True,
        "options": "-o=out --output=out --report-file=out --out=out --sql=out",
        "guard": "viewers:line_counters",  # cloc --extract-with/--vcs commands, scc --format-multi files
    },
    "streamlink": {
        "source": "streamlink CLI (streamlink.github.io/cli.html) (streamlink 7)",
        "grade": "network",
        "open": True,
        "options": "-o=out --output=out -p=:runs --player=:runs -r=out --record=out",
    },
    "searchsploit": {
        "source": "searchsploit (Exploit-DB, exploit-db.com/searchsploit)",
        "grade": "read",
        "open": True,
        "options": "-u:install --update:install -m=:write --mirror=:write",
    },
    "scrcpy": {
        "source": "scrcpy README (scrcpy 2.7): displays and controls an Android device",
        "grade": "change",
        "open": True,
        "options": "-r=out --record=out",
    },
    "bc units": {
        "source": "bc(1) (GNU bc 1.07), units(1) (GNU units 2.2): calculators without a way to run programs",
        "grade": "read",
        "open": True,
    },
    "choose": {"source": "choose README (choose 1.3): selects fields like cut", "grade": "read", "open": True},
    "grim": {
        "source": "grim(1) (grim 1.4): writes a screenshot to the file named",
        "grade": "read",
        "open": True,
        "operands": "out",
    },
    "gitlab-ctl": {
        "source": "gitlab-ctl (docs.gitlab.com/omnibus/maintenance) (GitLab 17)",
        "commands": {
            "status tail show-config help": {"grade": "read", "open": True},
            # reconfigure runs Chef over /etc/gitlab/gitlab.rb (Ruby, evaluated as root): it rewrites the
            # configuration, units and accounts of every bundled service, and runs no undo
            "reconfigure": {"grade": "critical", "open": True},
            "restart start stop hup kill upgrade": {"grade": "system", "open": True},
            "cleanse uninstall remove-accounts": {"grade": "delete", "open": True},
        },
    },
    "code code-insiders codium": {
        "source": "VS Code CLI (code.visualstudio.com/docs/editor/command-line)",
        "grade": "runs",
        "open": True,
        "options": "--list-extensions -v --version --help --install-extension=:install --uninstall-extension=:delete",
        "when": {"--list-extensions -v --version --help": "read"},
    },
    "firefox chromium chromium-browser google-chrome microsoft-edge": {
        "source": "each browser's command line (firefox -h; chromium --help): it opens pages and runs their code",
        "grade": "runs",
        "open": True,
    },
    "rustscan": {
        "source": "RustScan README (rustscan 2.3): scans ports, then may run nmap",
        "grade": "network",
        "open": True,
        "options": "--scripts=:unknown -e=:unknown --exec=:unknown",
    },
    "fclones": {
        "source": "fclones README (fclones 0.34): group reports duplicates; remove, link, move and dedupe act on them",
        "options": "-h --help -V --version",
        "commands": {
            "group": {"grade": "read", "open": True, "options": "-o=out --output=out"},
            "remove link dedupe": {"grade": "delete", "open": True},
            "move": {"grade": "delete", "open": True},
        },
    },
    "metaflac": {
        "source": "metaflac(1) (FLAC 1.4): --show-*/--list read; --set-*/--remove-*/--import-* rewrite the files",
        "grade": "read",
        "open": True,
        "options": "--set-tag=:write --set-tag-from-file=:write --remove-tag=:write --remove-all-tags:write "
        "--remove-first-tag=:write --import-tags-from=:write --import-picture-from=:write --remove:write "
        "--remove-all:write --add-padding=:write --add-replay-gain:write --add-seekpoint=:write "
        "--export-tags-to=out --export-picture-to=out --dont-use-padding",
        "when": {
            "--set-tag --set-tag-from-file --remove-tag --remove-all-tags --remove-first-tag --import-tags-from "
            "--import-picture-from --remove --remove-all --add-padding --add-replay-gain --add-seekpoint": {
                "operands": "out"
            }
        },
    },
    "repomix": {
        "source": "Repomix README (repomix 0.2): packs a repository into one file (repomix-output.xml here); a "
        "repomix.config.js/.ts configuration is JavaScript it runs",
        "grade": "write",
        "open": True,
        "options": "-o=out --output=out --stdout:read --remote=:network -c=project --config=project",
    },
    "http-server": {
        "source": "http-server README (http-server 14): serves a directory over HTTP, on 0.0.0.0 by default",
        "grade": "network",
        "open": True,
        "guard": "shells:served_directory",
    },
    "p4": {
        "source": "p4 command reference (Helix Core 2024.1)",
        "options": "-c= -p= -u= -P= -H= -d=in -q -s -z= -G -V -h",
        "commands": {
            "info describe changes files filelog fstat have opened print where client clients users depots diff "
            "annotate sizes dirs status": {"grade": "remote", "open": True},
            "sync": {"grade": "network", "open": True},
            "edit add move copy integrate resolve change shelve unshelve reopen lock unlock": {
                "grade": "write",
                "open": True,
            },
            "submit": {"grade": "publish", "open": True},
            "delete revert obliterate": {"grade": "delete", "open": True},
            "login logout set tickets": {"grade": "home", "open": True},
        },
    },
    "trace-cmd": {
        "source": "trace-cmd(1), trace-cmd-record(1) (trace-cmd 3.3): record/start/stop/clear drive the kernel's "
        "ftrace; record, start, stream and profile run the command given after their options (programs/hostwide.py "
        "trace_cmd grades it, and -o)",
        "guard": "hostwide:trace_cmd",
        "commands": {
            "list report stat show hist check-events dump split": {"grade": "read", "open": True, "options": "-o=out"},
            "record start stream profile": {"grade": "system", "open": True},
            "stop clear reset restore extract": {"grade": "system", "open": True, "options": "-o=out"},
        },
    },
    "ausearch aureport": {
        "source": "ausearch(8), aureport(8) (audit 4): query the audit logs",
        "grade": "read",
        "open": True,
        "options": "-if=in --input=in",
    },
    "makoctl": {
        "source": "makoctl(1) (mako 1.9): controls the notification daemon",
        "commands": {
            "list history help": {"grade": "read", "open": True},
            "dismiss restore invoke menu reload": {"grade": "system", "open": True},
            "mode": {"grade": "read", "open": True, "options": "-a:system -r:system -s:system -t:system"},
        },
    },
    "nxc netexec crackmapexec": {
        "source": "NetExec wiki (netexec.wiki) (NetExec 1.3): authenticates to and enumerates other machines; -x/-X "
        "run commands there, -M runs modules, --put-file/--get-file copy files",
        "grade": "network",
        "open": True,
        "options": "-x=:runs -X=:runs -M=:unknown --module=:unknown --exec-method=:runs --put-file=:change "
        "--get-file=:unknown --sam:secret --lsa:secret --ntds:secret --dpapi:secret --laps:secret "
        "--gmsa:secret -L:read",
    },
    "tput": {
        "source": "tput(1) (ncurses 6.4): prints the terminal's capability CAPNAME (cols, lines, colors, setaf "
        "N...) from the terminfo database; init and reset print the terminal's initialisation strings; -S reads "
        "capability names from standard input",
        "grade": "read",
        "else": "read",
        "options": "-T= -S -V -x",
    },
    "compgen": {
        "source": "bash(1) SHELL BUILTIN COMMANDS, compgen (bash 5.2): prints the completions of a word (names of "
        "variables, commands, files, users...; not variables' values); -F runs a shell function and -C a command "
        "to make them",
        "grade": "read",
        "else": "read",
        "options": "-a -b -c -d -e -f -g -j -k -s -u -v -A= -G= -W= -P= -S= -X= -o= -F=:runs -C=:runs",
    },
    # Slurm's read-only clients ask the controller (slurmctld, usually another host) for the queue, nodes,
    # accounting or a running job's statistics: network. Submitting, cancelling and changing jobs (sbatch, srun,
    # salloc, scancel, scontrol update|hold|requeue...) is not listed, so stays unrecognised.
    "squeue": {
        "source": "squeue(1) (Slurm 24.05): view the job queue; no option writes, deletes or runs a program",
        "grade": "network",
        "open": True,
        "options": "-u= --user= -A= --account= -j= --jobs= -p= --partition= -t= --states= -o= --format= -O= "
        "--Format= -w= --nodelist= -n= --name= -S= --sort= -i= --iterate= -M= --clusters= -q= --qos= "
        "-R= --reservation=",
    },
    "sinfo": {
        "source": "sinfo(1) (Slurm 24.05): view partitions and nodes; no option writes, deletes or runs a program",
        "grade": "network",
        "open": True,
    },
    "sacct": {
        "source": "sacct(1) (Slurm 24.05): display accounting data of jobs from slurmdbd; no option writes, deletes "
        "or runs a program",
        "grade": "network",
        "open": True,
        "options": "-u= --user= -A= --accounts= -j= --jobs= -r= --partition= -s= --state= -o= --format= "
        "-S= --starttime= -E= --endtime= -M= --clusters= -N= --nodelist= --name=",
    },
    "sstat": {
        "source": "sstat(1) (Slurm 24.05): display the status of a running job's steps; no option writes, deletes "
        "or runs a program",
        "grade": "network",
        "open": True,
    },
    "seff": {
        "source": "seff (Slurm contribs/seff, Slurm 24.05): a completed job's CPU and memory efficiency, from sacct",
        "grade": "network",
        "else": "network",
        "options": "-h -v -d",
    },
    "scontrol": {
        "source": "scontrol(1) (Slurm 24.05): show ENTITY [ID] and ping ask the controller; version prints the "
        "client's version; every other command changes the cluster (update, hold, requeue, reconfigure...) and no "
        "command (interactive mode) reads commands from standard input",
        "options": "-a --all -d --details -h --help --hide -o --oneliner -Q --quiet -v --verbose -V --version "
        "--json --yaml -M= --clusters= --local --sibling",
        "commands": {
            "show": {"grade": "network", "else": "network"},
            "ping": "network",
            "version": "read",
        },
    },
    # Environment modules: avail, list, spider, whatis and keyword list the modulefiles of MODULEPATH; show (display)
    # and help evaluate one modulefile there. A word that is a path (./modulefiles/x, /tmp/x, ~/x) names a modulefile
    # outside MODULEPATH, Tcl or Lua the module command evaluates: refused. use (another directory of modulefiles
    # FlyBot does not read), purge, unload and every command not listed stay unrecognised.
    "module ml": {
        "source": 'Lmod user guide (lmod.readthedocs.io, "User Guide for Lmod", "ml: a convenient tool") '
        "(Lmod 8.7) and module(1) (Environment Modules 5.4): ml alone lists the loaded modules",
        "grade": "read",
        "options": "-t --terse -l --long -d --default -L --latest -a --all -j --json -o= --output= -w= --width= "
        "-q --quiet -s --silent -T --trace --nx --no_extensions",
        "unsafe": ". / ~",
        "commands": {
            "avail av list spider whatis keyword key": {"grade": "read", "else": "read"},
            "show display help": {"grade": "read", "else": "read"},
            # load evaluates the named modulefiles of MODULEPATH (the site's trees: setting MODULEPATH, LMOD_* or
            # MODULES_* is env-hijack, walker.py) and changes only the shell's variables, as conda activate does
            "load add try-load": {"grade": "read", "else": "read"},
        },
    },
}
