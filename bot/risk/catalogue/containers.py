"""Container and VM tools (docker, podman, nerdctl, kubectl: programs/control.py).

Running a container or opening a shell in a guest runs code the classifier cannot see (``runs``). Creating, starting,
stopping or changing a VM or container on this machine is ``system``; destroying one, its snapshots, images or
volumes deletes; queries read. Registries follow the remote control planes: reads ``remote``, pushes and tags
``change``, deletions ``destroy``.
"""

from __future__ import annotations

_PROXMOX_READ = {"grade": "read", "open": True}
_PROXMOX_SYSTEM = {"grade": "system", "open": True}
_PROXMOX_DELETE = {"grade": "delete", "open": True}

CATALOGUE: dict[str, object] = {
    "apptainer singularity": {
        "source": "apptainer(1) command reference (apptainer.org/docs/user/latest/cli.html) (Apptainer 1.3)",
        # build from a definition file: %setup runs on the host, %post at build time (Apptainer "Definition Files")
        "guard": "control:apptainer_build",
        "options": "-h --help --version -d --debug -q --quiet -s --silent -v --verbose --nocolor -c=:unknown "
        "--config=:unknown",
        "commands": {
            "pull": {"grade": "fetch", "open": True, "operands": "first-out", "options": "--dir=out"},
            "build": {"grade": "fetch", "open": True, "operands": "first-out"},
            "exec run shell test instance oci": "runs",
            "inspect verify run-help version help": {"grade": "read", "open": True},
            "search": {"grade": "network", "open": True},
            "sign": {"grade": "write", "open": True},
            "push": {"grade": "publish", "open": True},
            "delete": {"grade": "destroy", "open": True},
            "overlay": {"commands": {"create": {"grade": "write", "open": True, "operands": "out"}}},
            "cache": {
                "commands": {"list": {"grade": "read", "open": True}, "clean": {"grade": "delete", "open": True}}
            },
            "registry remote keyserver": {
                "commands": {"list": "read", "login logout add remove use": {"grade": "home", "open": True}}
            },
            "key": {
                "commands": {"list": "read", "newpair import push pull remove export": {"grade": "home", "open": True}}
            },
            "config": {"commands": {"global fakeroot": {"grade": "system", "open": True}}},
            "capability": {
                "commands": {
                    "list avail": {"grade": "read", "open": True},
                    "add drop": {"grade": "system", "open": True},
                }
            },
        },
    },
    "crane gcrane": {
        "source": "crane reference (github.com/google/go-containerregistry/blob/main/cmd/crane/doc/crane.md) (crane 0.20)",
        "options": "-h --help -v --verbose --insecure --platform= --allow-nondistributable-artifacts",
        "commands": {
            "digest manifest config ls catalog blob validate version": {"grade": "remote", "open": True},
            "pull export": {"grade": "remote", "open": True, "operands": "last-out"},
            "push append mutate rebase flatten tag cp copy": {"grade": "change", "open": True},
            "delete": {"grade": "destroy", "open": True},
            "index": {"commands": {"append filter": {"grade": "change", "open": True}}},
            "auth": {"commands": {"login logout": {"grade": "home", "open": True}, "get token": "secret"}},
            "registry": {"commands": {"serve": {"grade": "network", "open": True}}},
        },
    },
    "skopeo": {
        "source": "skopeo(1) (skopeo 1.16)",
        "options": "-h --help -v --version --debug --insecure-policy --override-arch= --override-os=",
        "commands": {
            "inspect list-tags": {"grade": "remote", "open": True},
            "copy sync": {"grade": "change", "open": True, "unsafe": "dir: oci: docker-archive: oci-archive:"},
            "delete": {"grade": "destroy", "open": True},
            "login logout": {"grade": "home", "open": True},
        },
    },
    "buildah": {
        "source": "buildah(1) (buildah 1.37)",
        "options": "-h --help -v --version --log-level= --root=:unknown --runroot=:unknown --storage-driver=:unknown "
        "--storage-opt=:unknown",
        "commands": {
            "images containers inspect info version ps": {"grade": "read", "open": True},
            "from pull": {"grade": "install", "open": True},
            "bud build build-using-dockerfile": {
                "grade": "install",
                "open": True,
                "options": "-v=mount --volume=mount",  # buildah-build(1) --volume: a bind mount for RUN steps
            },
            "commit config copy add tag mount umount unmount rename": {"grade": "home", "open": True},
            "run unshare": "runs",
            "push": {"grade": "change", "open": True},
            "rm rmi prune": {"grade": "delete", "open": True},
            "login logout": {"grade": "home", "open": True},
        },
    },
    "vagrant": {
        "source": "Vagrant CLI (developer.hashicorp.com/vagrant/docs/cli) (Vagrant 2.4)",
        "options": "-h --help -v --version --debug --no-color",
        "commands": {
            # vagrant version: "In order to determine the latest available Vagrant version, this command must
            # make a network call"; global-status --prune removes invalid entries from the machine index under ~
            "global-status": {"grade": "read", "open": True, "options": "--prune:home"},
            "version": {"grade": "network", "open": True},
            # Vagrant looks for the Vagrantfile (Ruby it loads) in the current directory, then in each directory
            # above it (Vagrant docs, "Vagrantfile": "Lookup Path")
            "status port ssh-config validate": {"grade": "build", "open": True, "above": "Vagrantfile"},
            "up reload resume provision halt suspend upload package": {
                "grade": "system",
                "open": True,
                "above": "Vagrantfile",
            },
            "destroy": {"grade": "delete", "open": True, "above": "Vagrantfile"},
            "init": {"grade": "write", "open": True},
            "ssh rdp powershell winrm": "runs",
            "box": {
                "commands": {
                    "list": {"grade": "read", "open": True},
                    "outdated": {"grade": "network", "open": True},
                    "add update repackage": {"grade": "install", "open": True},
                    "remove prune": {"grade": "delete", "open": True},
                }
            },
            # vagrant plugin install|update: a gem (Ruby code) installed into ~/.vagrant.d that Vagrant loads on
            # every later run, from RubyGems or the --plugin-source the command names ("Plugin Usage", "vagrant
            # plugin install": "Vagrant will automatically load the plugin"); expunge removes every plugin
            "plugin": {
                "commands": {
                    "list": "read",
                    "install update": {"grade": "plugin", "open": True},
                    "repair": {"grade": "install", "open": True},
                    "uninstall expunge": {"grade": "delete", "open": True},
                }
            },
            "snapshot": {
                "commands": {
                    "list": "read",
                    "save push": {"grade": "system", "open": True},
                    "restore pop delete": {"grade": "delete", "open": True},
                }
            },
        },
    },
    "VBoxManage vboxmanage": {
        "source": "VBoxManage reference (VirtualBox 7.1 User Manual, chapter 8)",
        "options": "-q --nologo --help -h --version -V",
        "commands": {
            "list showvminfo showmediuminfo": {"grade": "read", "open": True},
            # metrics setup|enable|disable change what VBoxSVC collects; list, query and collect read
            "metrics": {
                "commands": {
                    "list query collect": {"grade": "read", "open": True},
                    "setup enable disable": {"grade": "system", "open": True},
                }
            },
            # controlvm VM poweroff "has the same effect on a virtual machine as pulling the power cable on a real
            # computer": the machine's unsaved state is lost; reset likewise ("VBoxManage controlvm")
            "controlvm": {"grade": "system", "open": True, "words": {"poweroff reset": "delete"}},
            "createvm registervm modifyvm clonevm import startvm storagectl storageattach createmedium "
            "movevm sharedfolder setextradata guestproperty hostonlyif dhcpserver natnetwork usbfilter "
            "modifymedium": {"grade": "system", "open": True},
            "export": {"grade": "system", "open": True, "options": "-o=out --output=out"},
            "unregistervm": {"grade": "system", "open": True, "options": "--delete:delete --delete-all:delete"},
            "closemedium": {"grade": "system", "open": True, "options": "--delete:delete"},
            "snapshot": {"grade": "delete", "open": True},
            "extpack": {
                "commands": {
                    "install": {"grade": "system", "open": True},
                    "uninstall cleanup": {"grade": "delete", "open": True},
                }
            },
            "cloud cloudprofile": "change",
            "guestcontrol debugvm": "runs",
        },
    },
    "virsh": {
        "source": "virsh(1) (libvirt 10)",
        "guard": "control:hypervisor_host",
        "options": "-h --help -v -V --version -q --quiet -r --readonly -c=:network --connect=:network -d= --debug= "
        "-l=out --log=out",
        "commands": {
            "list dominfo domstate dumpxml domblklist domiflist domifaddr domstats net-list net-info net-dumpxml "
            "pool-list pool-info pool-dumpxml vol-list vol-info capabilities nodeinfo version hostname uri "
            "snapshot-list snapshot-info snapshot-dumpxml vcpuinfo dommemstat help": {
                "grade": "read",
                "open": True,
                # dumpxml --security-info "Include security sensitive information in XML dump" (the VNC/SPICE
                # passwords)
                "options": "--security-info:secret",
            },
            "start shutdown reboot suspend resume define create autostart attach-disk attach-interface "
            "attach-device detach-disk detach-interface detach-device setmem setmaxmem setvcpus net-start "
            "net-define net-create net-autostart pool-start pool-define pool-create pool-autostart pool-build "
            "vol-create vol-create-as vol-resize snapshot-create snapshot-create-as managedsave migrate "
            "domrename change-media": {"grade": "system", "open": True},
            "destroy undefine vol-delete vol-wipe pool-delete pool-undefine pool-destroy net-destroy snapshot-delete "
            "snapshot-revert net-undefine reset": {"grade": "delete", "open": True},
            "console edit net-edit pool-edit snapshot-edit": "runs",
            "save": {"grade": "system", "open": True, "operands": "last-out"},
        },
    },
    "qm": {
        "source": "qm(1) (Proxmox VE 8): commands accept unambiguous abbreviations",
        "guard": "control:hypervisor_host",
        "abbrev": True,
        "options": "-h --help",
        "commands": {
            "list config showcmd status pending listsnapshot help wait": _PROXMOX_READ,
            "cloudinit": {"commands": {"dump pending": "read", "update": "system"}},
            "create set start stop shutdown reboot reset suspend resume clone migrate remote-migrate snapshot "
            "template resize move-disk move_disk importdisk importovf sendkey vncproxy unlock cleanup rescan mtunnel "
            "nbdstop": _PROXMOX_SYSTEM,
            "disk": {
                "abbrev": True,
                "commands": {"import rescan resize move": _PROXMOX_SYSTEM, "unlink": _PROXMOX_DELETE},
            },
            "destroy delsnapshot rollback unlink": _PROXMOX_DELETE,
            "terminal monitor": "runs",
            "guest": {
                "abbrev": True,
                "commands": {"exec exec-status passwd": "runs", "cmd": {"grade": "system", "open": True}},
            },
        },
    },
    "pct": {
        "source": "pct(1) (Proxmox VE 8): commands accept unambiguous abbreviations",
        "guard": "control:hypervisor_host",
        "abbrev": True,
        "options": "-h --help",
        "commands": {
            "list config status pending listsnapshot df help": _PROXMOX_READ,
            "create set start stop shutdown reboot suspend resume clone migrate remote-migrate snapshot template "
            "resize move-volume move_volume mount unmount fsck push cpusets rescan unlock fstrim": _PROXMOX_SYSTEM,
            "pull": {"grade": "read", "open": True, "operands": "last-out"},
            "restore destroy delsnapshot rollback": _PROXMOX_DELETE,
            "enter exec console": "runs",
        },
    },
    "lxc incus": {
        "source": "lxc(1) (LXD 5.21 CLI reference); incus CLI reference (linuxcontainers.org/incus/docs): "
        "config device add C NAME disk source=PATH path=DIR shares the host's PATH with the container; LXD "
        '"Instance options": security.privileged, security.nesting and raw.* keys hand the container the host',
        "options": "-h --help --version -q --quiet -v --verbose --debug --project=",
        "guard": "control:lxc_host_keys",
        "commands": {
            "list ls info version": {"grade": "read", "open": True},
            "launch init start stop restart pause rename copy cp move mv publish snapshot restore": {
                "grade": "system",
                "open": True,
            },
            "delete rm": {"grade": "delete", "open": True},
            "exec shell console": "runs",
            "config profile network storage image": {
                "commands": {
                    "show list ls get info": {"grade": "read", "open": True},
                    "set unset edit create copy import attach detach rename": {"grade": "system", "open": True},
                    "device": {"grade": "system", "open": True, "operands": "mount"},
                    "delete rm": {"grade": "delete", "open": True},
                }
            },
            "file": {
                "commands": {
                    "pull": {"grade": "read", "open": True, "operands": "last-out"},
                    "push edit mount": {"grade": "system", "open": True},
                    "delete rm": {"grade": "delete", "open": True},
                }
            },
            "remote": {
                "commands": {"list ls get-default": "read", "add set-default set-url rename remove rm switch": "home"}
            },
        },
    },
    "multipass": {
        "source": "multipass CLI reference (multipass.run/docs/reference) (Multipass 1.14): mount SOURCE "
        "INSTANCE:TARGET shares the host's SOURCE with the instance",
        "options": "-h --help -v --verbose --version",
        "commands": {
            "list ls info find version get aliases networks help": {"grade": "read", "open": True},
            "launch start stop restart suspend umount set clone snapshot restore recover alias unalias": {
                "grade": "system",
                "open": True,
            },
            # multipass transfer SOURCE... DESTINATION: a destination without INSTANCE: is a file of this machine
            "transfer": {"grade": "system", "open": True, "operands": "last-out"},
            "mount": {"grade": "system", "open": True, "operands": "mount"},
            "delete purge": {"grade": "delete", "open": True},
            "shell sh exec": "runs",
        },
    },
    "limactl": {
        "source": "limactl reference (lima-vm.io/docs/reference/limactl) (Lima 1.0): delete/remove, factory-reset "
        "and prune delete instances' disks or caches; stop --force kills the VM (its unsaved state is lost)",
        "options": "-h --help -v --version --debug --log-level= --log-format= --tty --tty=",
        "commands": {
            "list ls info": {"grade": "read", "open": True},
            # limactl start --mount DIR[:w]: the host's DIR in the VM (lima-vm.io "Filesystem mounts")
            "create start edit": {"grade": "system", "open": True, "options": "--mount=mount --mount-only=mount"},
            "stop": {"grade": "system", "open": True, "options": "-f:delete --force:delete"},
            "delete remove rm factory-reset prune": {"grade": "delete", "open": True},
            "shell": "runs",
        },
    },
    "minikube": {
        "source": "minikube commands (minikube.sigs.k8s.io/docs/commands) (minikube 1.34): mount SRC:DST shares "
        "the host's SRC with the cluster's node, read-write",
        "options": "-h --help -p= --profile=",
        "commands": {
            "status ip version logs update-check profile docker-env podman-env": {"grade": "read", "open": True},
            # minikube start --mount --mount-string SRC:DST: the host's SRC in the node
            "start": {"grade": "system", "open": True, "options": "--mount --mount-string=mount"},
            "stop pause unpause tunnel": {"grade": "system", "open": True},
            # minikube cp SOURCE TARGET: "Copy the specified file into minikube", or out of a node into a local path
            "cp": {"grade": "system", "open": True, "operands": "last-out"},
            "mount": {"grade": "system", "open": True, "operands": "mount"},
            "delete": {"grade": "delete", "open": True},
            "ssh kubectl dashboard": "runs",
            "addons": {
                "commands": {
                    "list": {"grade": "read", "open": True},
                    "enable disable configure": {"grade": "system", "open": True},
                }
            },
            "service": {
                "grade": "system",
                "open": True,
                "commands": {"list": {"grade": "read", "open": True}},
                "else": "system",
            },
            "config": {"commands": {"view get": "read", "set unset": {"grade": "home", "open": True}}},
            "image": {
                "commands": {
                    "ls list": "read",
                    "load build push pull tag": {"grade": "system", "open": True},
                    "rm": {"grade": "delete", "open": True},
                }
            },
            "node": {
                "commands": {
                    "list": "read",
                    "add start stop": {"grade": "system", "open": True},
                    "delete": {"grade": "delete", "open": True},
                }
            },
        },
    },
    "kind": {
        "source": "kind quick start and kind --help (kind.sigs.k8s.io) (kind 0.24)",
        "options": "-h --help --version -v= --verbosity= -q --quiet",
        "commands": {
            "create": {"commands": {"cluster": {"grade": "system", "open": True}}},
            "delete": {"commands": {"cluster clusters": {"grade": "delete", "open": True}}},
            "get": {"commands": {"clusters nodes": {"grade": "read", "open": True}, "kubeconfig": "secret"}},
            "load": {"commands": {"docker-image image-archive": {"grade": "system", "open": True}}},
            "export": {
                "commands": {
                    "kubeconfig": {"grade": "home", "open": True},
                    "logs": {"grade": "read", "open": True, "operands": "out"},
                }
            },
            "version": "read",
        },
    },
    "toolbox distrobox": {
        "source": "toolbox(1) (containertoolbx.org); distrobox(1) (distrobox 1.8)",
        "options": "-h --help -V --version -v --verbose",
        "commands": {
            "create": {"grade": "system", "open": True},
            "enter run": "runs",
            "list ls": {"grade": "read", "open": True},
            "rm rmi": {"grade": "delete", "open": True},
            "upgrade": {"grade": "install", "open": True},
        },
    },
    "colima": {
        "source": "colima (github.com/abiosoft/colima docs) (colima 0.7): a VM running a container engine",
        "options": "-h --help -v --version -p= --profile=",
        "commands": {
            # colima start --mount DIR[:w] (colima docs "Mounts"): the host's DIR in the VM
            "start": {"grade": "system", "open": True, "options": "-V=mount --mount=mount"},
            "stop restart prune kubernetes": {"grade": "system", "open": True},
            "delete": {"grade": "delete", "open": True},
            "status list ls version": {"grade": "read", "open": True},
            "ssh nerdctl": "runs",
            "template": "runs",
        },
    },
    "crictl": {
        "source": "crictl (github.com/kubernetes-sigs/cri-tools docs/crictl.md) (crictl 1.31)",
        "options": "-h --help -v --version -r= --runtime-endpoint= -i= --image-endpoint= -t= --timeout= --debug",
        "commands": {
            "ps pods images img inspect inspecti inspectp logs stats statsp info version imagefsinfo": {
                "grade": "remote",
                "open": True,
            },
            "pull start stop stopp create runp update": {"grade": "change", "open": True},
            "rm rmi rmp": {"grade": "destroy", "open": True},
            "exec attach run port-forward": "runs",
        },
    },
    "cosign": {
        "source": "cosign CLI (docs.sigstore.dev/cosign) (cosign 2.4)",
        "options": "-h --help",
        "commands": {
            "sign attest sign-blob attest-blob": {"grade": "change", "open": True},
            "verify verify-blob verify-attestation tree triangulate download": {"grade": "remote", "open": True},
            # generate-key-pair --output-key-prefix PREFIX writes PREFIX.key and PREFIX.pub
            "generate-key-pair": {"grade": "write", "open": True, "options": "--output-key-prefix=out"},
            "version": "read",
            "login": "home",
            "clean": {"grade": "destroy", "open": True},
        },
    },
    "ko": {
        "source": "ko (ko.build/reference) (ko 0.17): builds Go images and pushes them",
        "options": "-h --help -v --verbose",
        "commands": {
            "build publish resolve": {"grade": "change", "open": True},
            "apply create run delete": "unknown",
            "login": "home",
            "version": "read",
        },
    },
    "wine wine64": {
        "source": "wine(1) (Wine 9): runs Windows programs; wine reg edits the registry under ~/.wine",
        "else": "runs",
        "options": "--help --version",
        "commands": {
            "reg": {
                "commands": {
                    "query": {"grade": "read", "open": True},
                    "add delete import copy save restore": {"grade": "home", "open": True},
                    "export": {"grade": "read", "open": True, "operands": "last-out"},
                }
            }
        },
    },
    "nh": {
        "source": "nh README (github.com/nix-community/nh) (nh 4): os/home/darwin switch and build, search, clean",
        "options": "-h --help -V --version -v --verbose",
        "commands": {
            # switch, boot and test build the configuration and activate it (or make it the boot default): its
            # activation scripts run as root, as nixos-rebuild's, darwin-rebuild's and home-manager's switch do
            # (programs FlyBot does not know: refused); -n/--dry "Only print actions, without performing them"
            "os darwin": {
                "commands": {
                    "switch boot test": {
                        "grade": "runs",
                        "open": True,
                        "options": "-n --dry",
                        "when": {"-n --dry": "fetch"},
                    },
                    "build": {"grade": "fetch", "open": True},
                    "repl": "runs",
                    "info": "read",
                }
            },
            "home": {
                "commands": {
                    "switch": {"grade": "runs", "open": True, "options": "-n --dry", "when": {"-n --dry": "fetch"}},
                    "build": {"grade": "fetch", "open": True},
                    "repl": "runs",
                }
            },
            "search": {"grade": "network", "open": True},
            "clean": {"grade": "delete", "open": True},
            "completions": "read",
        },
    },
    "pvesm": {
        "source": "pvesm(1) (Proxmox VE 8): commands accept unambiguous abbreviations",
        "abbrev": True,
        "commands": {
            "status list path scan export help extractconfig": {"grade": "read", "open": True},
            "add set alloc import": {"grade": "system", "open": True},
            "remove free prune-backups": {"grade": "delete", "open": True},
        },
    },
    "kustomize": {
        "source": "kustomize CLI (kubectl.docs.kubernetes.io/references/kustomize/cmd) (kustomize 5.4): build renders "
        "the kustomization and prints it (remote bases and resources are fetched; files outside its root are refused "
        "unless --load-restrictor says otherwise; --enable-helm, --enable-exec and --enable-alpha-plugins run "
        "programs); edit and create rewrite kustomization.yaml; localize copies remote ones into a directory",
        "options": "-h --help --stack-trace",
        "commands": {
            "build": {
                "grade": "network",
                "options": "-o=out --output=out --enable-helm:unknown --helm-command=:unknown --helm-api-versions= "
                "--helm-kube-version= --enable-exec:unknown --enable-alpha-plugins:unknown --enable-managedby-label "
                "-e=:unknown --env=:unknown --load-restrictor=:unknown --load_restrictor=:unknown --mount=:unknown "
                "--network --network-name= --reorder= --as-current-user",
            },
            "edit create init": {"grade": "write", "open": True},
            "localize": {"grade": "fetch", "options": "-s= --scope= --no-verify", "operands": "last-out"},
            "version": {"grade": "read", "open": True},
            "completion": "read",
            "cfg fn": "unknown",
        },
    },
    # kubectx/kubens read and switch the kubeconfig's context and namespace (github.com/ahmetb/kubectx, 0.9);
    # kubens lists the namespaces of the cluster
    "kubectx": {
        "source": "kubectx README (github.com/ahmetb/kubectx) (kubectx 0.9): without arguments it lists the "
        "contexts; NAME or - switches, -d deletes, -u unsets, NEW=OLD renames (all in the kubeconfig under ~)",
        "grade": "read",
        "else": "home",
        "options": "-c --current -d:home -u:home --unset:home -h --help -V --version",
    },
    "kubens": {
        "source": "kubens README (github.com/ahmetb/kubectx) (kubens 0.9): without arguments it lists the cluster's "
        "namespaces; NAME or - switches the context's namespace in the kubeconfig under ~",
        "grade": "remote",
        "else": "home",
        "options": "-c --current:read -h --help -V --version",
        "when": {"-c --current": "read"},
    },
    "k3d": {
        "source": "k3d command tree (k3d.io/stable/usage/commands) (k3d 5.7): clusters, nodes and registries are "
        "containers of the local engine; kubeconfig write/merge writes under ~",
        "options": "-h --help --version --verbose --trace --timestamps",
        "commands": {
            "version": {"grade": "read", "open": True},
            "cluster node registry": {
                "commands": {
                    "list ls get": {"grade": "read", "open": True},
                    "create start stop edit": "system",
                    "delete rm": "delete",
                },
            },
            "kubeconfig": {
                "commands": {"get": {"grade": "secret", "open": True}, "write merge": {"grade": "home", "open": True}},
            },
            "image": {"commands": {"import load": "system"}},
            "config": {
                # k3d config init -o/--output FILE ("Write a default k3d config"); migrate INPUT [OUTPUT]
                "commands": {
                    "init": {"grade": "write", "open": True, "options": "-o=out --output=out"},
                    "migrate": {"grade": "write", "open": True, "operands": "last-out"},
                }
            },
        },
    },
    "stern": {
        "source": "stern README (github.com/stern/stern) (stern 1.31): tails the logs of the pods matching a query; "
        "--kubeconfig names the configuration (its exec credential plugin runs a program: destructive, as "
        "KUBECONFIG=FILE)",
        "grade": "remote",
        "open": True,
        "options": "--kubeconfig=:runs --template-file=in -T=in",
    },
}
