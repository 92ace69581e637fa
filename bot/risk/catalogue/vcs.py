"""Version control beyond git (git: programs/git.py): Jujutsu, Mercurial, Subversion, Fossil, Dolt.

Queries of the local repository read; recording changes writes in the workspace; talking to a remote is ``network``
and sending to it ``publish`` (a push that may rewrite or delete remote history is ``destroy``, as ``git push
--force``); dropping uncommitted work (``revert``, ``update --clean``, ``purge``, ``strip``) deletes. Options that
set configuration (``--config``) may name programs the tool runs: ``unknown``. A use that replaces working files with
those of another revision, a patch or a remote (``hg update``, ``hg import``, ``svn switch``, ``jj new``) is
``checkout`` (``pull`` when it fetches first): a recipe run after it in the same command (``&& make test``) is not
the one FlyBot read, as after ``git pull``.
"""

from __future__ import annotations

#: -R/--repository PATH: the repository whose .jj/repo/config.toml is loaded (its ui.pager, ui.diff-formatter,
#: aliases and fix tools name programs jj runs): a configuration the tool loads.
_JJ_GLOBAL = (
    "-R=project --repository=project --ignore-working-copy --ignore-immutable --at-op= --at-operation= --debug --color= "
    "--quiet --no-pager --config=:unknown --config-toml=:unknown --config-file=:unknown -h --help -V --version"
)
_JJ_WRITE = {"grade": "write", "open": True, "options": "--tool=:runs -i --interactive"}
# jj(1) "Working copy": a command that moves @ to another revision, or rewrites @ or an ancestor of it, updates the
# working copy's files to the new @ (jj new/edit/next/prev, restore, rebase, squash --from, abandon, undo...).
_JJ_CHECKOUT = {"grade": "checkout", "open": True, "options": "--tool=:runs -i --interactive"}
#: hg(1) remote options of pull, push, incoming, outgoing, clone, identify: "-e --ssh CMD specify ssh command to
#: use" (run here); --remotecmd names the hg run on the other machine.
_HG_REMOTE = "-e=:runs --ssh=:runs --remotecmd= --insecure"

CATALOGUE: dict[str, object] = {
    "jj": {
        # jj finds its repository in the directory it runs in or the nearest one above: that repository's
        # .jj/repo/config.toml (aliases, pager, diff and merge tools, fsmonitor) is read by every command
        "above": ".jj",
        "source": "Jujutsu CLI reference (jj-vcs.github.io/jj/latest/cli-reference) (jj 0.30)",
        "options": _JJ_GLOBAL,
        "commands": {
            "log st status show evolog obslog interdiff root help version": {
                "grade": "read",
                "open": True,
                "options": "--tool=:runs",
            },
            "diff": {"grade": "read", "open": True, "options": "--tool=:runs"},
            "commit ci desc describe split duplicate absorb sign unsign metaedit": _JJ_WRITE,
            "new edit squash rebase abandon restore next prev parallelize simplify-parents revert backout undo "
            "redo": _JJ_CHECKOUT,
            "diffedit resolve fix": {"grade": "runs", "open": True, "options": "-l --list:read"},
            "bisect": "runs",
            "file": {
                "commands": {
                    "list show annotate search": {"grade": "read", "open": True},
                    "chmod track untrack": {"grade": "write", "open": True},
                }
            },
            "op operation": {
                "commands": {
                    "log show diff": {"grade": "read", "open": True},
                    "undo restore revert": {"grade": "checkout", "open": True},
                    "abandon": {"grade": "delete", "open": True},
                }
            },
            "bookmark b branch": {
                "commands": {
                    "list l": {"grade": "read", "open": True},
                    "create c set s move m rename r track t untrack forget f delete d": {
                        "grade": "write",
                        "open": True,
                    },
                }
            },
            "tag t": {
                "commands": {
                    "list l": {"grade": "read", "open": True},
                    "set s delete d": {"grade": "write", "open": True},
                }
            },
            "config": {
                "commands": {
                    "list l get g path p": {"grade": "read", "open": True},
                    "set s unset u": {"grade": "home", "open": True, "options": "--repo:unknown --workspace:unknown"},
                    "edit e": "runs",
                }
            },
            "workspace": {
                "commands": {
                    "list root": "read",
                    "add": {"grade": "write", "open": True, "operands": "out"},
                    "forget rename": {"grade": "write", "open": True},
                    "update-stale": {"grade": "checkout", "open": True},
                }
            },
            "sparse": {"commands": {"list": "read", "set edit reset": {"grade": "checkout", "open": True}}},
            "git": {
                "commands": {
                    "push": {"grade": "destroy", "open": True},
                    # jj-git-fetch: a commit the remote dropped is abandoned here and @ on it is rebased
                    "fetch": {"grade": "pull", "open": True},
                    "clone": {"grade": "fetch", "open": True, "operands": "last-out"},
                    "init": {"grade": "write", "open": True, "operands": "out"},
                    "import": {"grade": "checkout", "open": True},
                    "export": {"grade": "write", "open": True},
                    # jj git remote list prints each remote's URL (which may hold a token), as git remote -v
                    "remote": {
                        "commands": {"list": "secret", "add remove rename set-url": {"grade": "write", "open": True}}
                    },
                    "root": "read",
                }
            },
            "util": {
                "commands": {"completion config-schema mangen markdown-help": "read", "gc": "delete", "exec": "runs"}
            },
        },
    },
    "hg": {
        # hg finds its repository in the directory it runs in or the nearest one above: that repository's
        # .hg/hgrc ([hooks], [extensions]: Python code) is read by every command
        "above": ".hg",
        "source": "hg(1) (Mercurial 6.8): command list, global options",
        "options": "-R=project --repository=project --cwd=project -y --noninteractive -q --quiet -v --verbose --config=:unknown "
        "--debug --traceback --time --profile --color= --pager= -h --help --version --encoding=",
        "commands": {
            "status st log history diff annotate blame cat root branches heads tags files grep manifest parents "
            "tip help version verify": {
                "grade": "read",
                "open": True,
                "options": "-o=out --output=out",
            },
            # summary --remote: "check for push and pull" (asks the default paths)
            "summary sum": {"grade": "read", "open": True, "options": "--remote:network"},
            # identify [SOURCE]: a SOURCE (a path alias such as default, or a URL) is asked for its state
            "identify id": {
                "grade": "read",
                "else": "network",
                "open": True,
                "options": "-r= --rev= " + _HG_REMOTE,
            },
            "branch bookmarks bookmark": {"grade": "write", "open": True},
            # hg config (showconfig) prints every setting: [auth] passwords, [paths] URLs with their credentials
            # (hgrc(5) "auth": "password: Optional. Password to authenticate with"); hg paths prints the URLs
            "config showconfig": {"grade": "secret", "open": True, "options": "-e:runs --edit:runs"},
            "paths": {"grade": "secret", "open": True},
            "add addremove commit ci forget tag phase init": {
                "grade": "write",
                "open": True,
                "options": "-t=:runs --tool=:runs",
            },
            # hg help update/import/merge/backout/graft/rebase/shelve/unshelve/resolve/copy/rename: each changes the
            # working directory's files (import and patch apply the patch to it unless --bypass)
            "mv rename copy cp merge backout graft rebase shelve unshelve import patch resolve": {
                "grade": "checkout",
                "open": True,
                "options": "-t=:runs --tool=:runs",
            },
            "update up checkout co": {"grade": "checkout", "open": True, "options": "-C:delete --clean:delete"},
            "remove rm revert strip purge": {"grade": "delete", "open": True},
            "histedit": "runs",
            "export archive bundle": {
                "grade": "read",
                "open": True,
                "operands": "out",
                "options": "-o=out --output=out",
            },
            "incoming in outgoing out": {"grade": "network", "open": True, "options": _HG_REMOTE},
            # hg help pull: -u/--update updates the working directory; --rebase (rebase extension) rebases it
            "pull": {
                "grade": "network",
                "open": True,
                "options": "-u:checkout --update:checkout --rebase:checkout " + _HG_REMOTE,
            },
            "clone": {"grade": "fetch", "open": True, "operands": "last-out", "options": _HG_REMOTE},
            "push": {"grade": "publish", "open": True, "options": _HG_REMOTE},
            "serve": "runs",
        },
    },
    "svn": {
        "source": "svn(1) (Subversion 1.14 book, svn Reference): --diff-cmd, --diff3-cmd and --editor-cmd name "
        "programs it runs",
        "options": "-h --help --version -q --quiet --username= --password= --non-interactive --config-dir=:unknown "
        "--config-option=:unknown --diff-cmd=:runs --diff3-cmd=:runs --editor-cmd=:runs",
        "commands": {
            # status -u/--show-updates "Causes svn status to contact the repository" (svn Reference)
            "status st stat": {"grade": "read", "open": True, "options": "-u:network --show-updates:network"},
            "info help propget pget pg proplist plist pl": {"grade": "read", "open": True},
            "log diff di list ls cat blame praise annotate ann": {"grade": "network", "open": True},
            "add mkdir propset pset ps propdel pdel pd upgrade changelist cl": {"grade": "write", "open": True},
            # svn help copy/move/patch/resolve: files in the working copy are replaced (resolve --accept theirs-full)
            "copy cp move mv rename ren patch resolve resolved": {"grade": "checkout", "open": True},
            "delete del remove rm revert": {"grade": "delete", "open": True},
            "cleanup": {
                "grade": "write",
                "open": True,
                "options": "--remove-unversioned:delete --remove-ignored:delete",
            },
            "checkout co export": {"grade": "fetch", "open": True, "operands": "last-out"},
            # svn help update/switch/merge: changes from the repository are brought into the working copy
            "update up switch sw merge": {"grade": "pull", "open": True},
            "relocate": {"grade": "network", "open": True},
            "commit ci import lock unlock": {"grade": "publish", "open": True},
        },
    },
    "fossil": {
        "source": "Fossil command reference (fossil-scm.org/home/help) (Fossil 2.24)",
        "commands": {
            "status changes info timeline annotate blame ls extras finfo help version cat": {
                "grade": "read",
                "open": True,
            },
            # fossil diff --command PROG "External diff program", --tk runs a Tcl/Tk program (--tclsh PATH)
            "diff": {"grade": "read", "open": True, "options": "--command=:runs --tk:runs --tclsh=:runs"},
            # fossil branch new|close|reopen|hide|unhide, tag add|cancel change the repository
            "branch": {
                "grade": "read",
                "open": True,
                "commands": {
                    "list ls lsh info current": {"grade": "read", "open": True},
                    "new close reopen hide unhide": {"grade": "write", "open": True},
                },
            },
            "tag": {
                "grade": "read",
                "commands": {
                    "list ls find": {"grade": "read", "open": True},
                    "add cancel": {"grade": "write", "open": True},
                },
            },
            "add addremove commit ci": {"grade": "write", "open": True},
            # fossil help update/checkout/merge/stash/undo: the check-out's files are replaced (update pulls first
            # when autosync is on)
            "mv rename merge checkout co open stash revert undo redo": {"grade": "checkout", "open": True},
            "update": {"grade": "pull", "open": True},
            "rm delete forget clean": {"grade": "delete", "open": True},
            "init new": {"grade": "write", "open": True, "operands": "out"},
            "clone": {"grade": "fetch", "open": True, "operands": "last-out"},
            "pull": {"grade": "network", "open": True},
            "push sync": {"grade": "publish", "open": True},
            "ui server": "runs",
        },
    },
    "dolt": {
        "source": "Dolt CLI reference (docs.dolthub.com/cli-reference/cli) (Dolt 1.4x)",
        "options": "-h --help --version",
        "commands": {
            "status log diff show blame ls version": {"grade": "read", "open": True},
            "branch": {"grade": "write", "open": True, "options": "-d:delete -D:delete --delete:delete --force:delete"},
            "add commit checkout merge tag stash cherry-pick revert rebase": {"grade": "write", "open": True},
            "reset": {"grade": "write", "open": True, "options": "--hard:delete"},
            "init": {"grade": "write", "open": True},
            "clone": {"grade": "fetch", "open": True, "operands": "last-out"},
            "fetch pull": {"grade": "network", "open": True},
            "push": {"grade": "publish", "open": True, "options": "-f:destroy --force:destroy"},
            "remote": {
                "grade": "read",
                "commands": {"add remove rm": {"grade": "write", "open": True}},
                "options": "-v --verbose",
            },
            "config": {"grade": "read", "open": True, "options": "--add:home --set:home --unset:home --list --get"},
            "gc": {"grade": "delete", "open": True},
            "sql sql-server": "unknown",
        },
    },
    "dvc": {
        "source": "DVC command reference (dvc.org/doc/command-reference) (DVC 3.5)",
        "guard": "projects:dvc_repro",
        "options": "-h --help -V --version -q --quiet -v --verbose --cd=in",
        "commands": {
            # status -r/--remote NAME "implies -c"; list URL lists another repository (cloned from its URL)
            "status diff dag version doctor root check-ignore": {
                "grade": "read",
                "open": True,
                "options": "-c:network --cloud:network -r=:network --remote=:network",
            },
            "list ls": {"grade": "network", "open": True},
            "params metrics": {"commands": {"show diff": {"grade": "read", "open": True}}},
            # plots show and diff render into dvc_plots/ (-o/--out: there); templates writes .dvc/plots
            "plots": {
                "commands": {
                    "show diff": {"grade": "write", "open": True, "options": "-o=out --out=out"},
                    "templates": {"grade": "write", "open": True, "options": "-o=out --out=out"},
                    "modify": {"grade": "write", "open": True},
                }
            },
            "init add commit checkout freeze unfreeze move mv": {"grade": "write", "open": True},
            "remove rm": {"grade": "write", "open": True, "options": "--outs:delete"},
            # repro and exp run run the stages' cmd lines of dvc.yaml, graded as a project recipe by the guard
            # (programs/projects.py dvc_repro); --pull downloads missing data first; run (DVC 2) runs the command
            # given
            "repro": {"grade": "build", "open": True, "options": "--pull:network"},
            "run": {"grade": "runs", "open": True},
            "exp experiments": {
                "commands": {
                    # show and diff print experiments kept as git refs; --pcp writes a plot (into dvc_plots/)
                    "show diff": {"grade": "read", "open": True, "options": "--pcp:write -o=out --out=out"},
                    "list ls": {"grade": "read", "else": "network", "open": True},
                    "run": {"grade": "build", "open": True, "options": "--pull:network"},
                    "apply branch save": {"grade": "write", "open": True},
                    "remove rm gc clean": {"grade": "delete", "open": True},
                    "push": {"grade": "publish", "open": True},
                    "pull": {"grade": "fetch", "open": True},
                }
            },
            "stage": {"commands": {"list": {"grade": "read", "open": True}, "add": {"grade": "write", "open": True}}},
            "queue": {"commands": {"status logs": {"grade": "read", "open": True}, "start stop kill remove": "runs"}},
            "fetch": {"grade": "network", "open": True},
            "pull get import import-url update": {"grade": "fetch", "open": True},
            "push": {"grade": "publish", "open": True},
            "gc destroy": {"grade": "delete", "open": True},
            "config": {
                "grade": "read",
                "else": "write",
                "open": True,
                "options": "--global:home --system:system -u:write --unset:write",
            },
            "remote": {
                "commands": {
                    "list": "read",
                    "add modify default rename remove": {
                        "grade": "write",
                        "open": True,
                        "options": "--global:home --system:system",
                    },
                }
            },
        },
    },
    "yadm": {
        "source": "yadm(1) (yadm 3.3): a git repository for the home directory; other commands are passed to git",
        "options": "-Y=:unknown --yadm-dir=:unknown --yadm-data=:unknown --yadm-repo=:unknown --yadm-config=:unknown "
        "--yadm-encrypt=:unknown --yadm-archive=:unknown --yadm-bootstrap=:unknown",
        "commands": {
            "list introspect status diff log version help": {"grade": "read", "open": True},
            "init clone": {"grade": "install", "open": True},
            "add commit checkout alt perms encrypt decrypt upgrade gitconfig config": {"grade": "home", "open": True},
            "push": {"grade": "publish", "open": True},
            "pull fetch": {"grade": "network", "open": True},
            "bootstrap enter git-crypt transcrypt": "runs",
        },
    },
    "hub": {
        "source": "hub(1) (hub 2.14): GitHub commands; other commands are passed to git",
        "options": "--help --version",
        "commands": {
            # hub-release(1): release delete TAG, edit, download; hub-issue(1): issue update, transfer; hub-pr(1):
            # pr checkout checks the branch out into the working tree
            "ci-status browse compare issue pr release": {
                "grade": "remote",
                "open": True,
                "commands": {
                    "create": {"grade": "publish", "open": True},
                    "list show": {"grade": "remote", "open": True},
                    "checkout": {"grade": "pull", "open": True},
                    "edit update transfer labels": {"grade": "change", "open": True},
                    "download": {"grade": "fetch", "open": True},
                    "delete": {"grade": "destroy", "open": True},
                },
                "else": "remote",
            },
            "pull-request": {"grade": "publish", "open": True},
            "fork create": {"grade": "change", "open": True},
            "delete": {"grade": "destroy", "open": True},
            "clone": {"grade": "fetch", "open": True, "operands": "last-out"},
            "sync": {"grade": "network", "open": True},
        },
    },
}
