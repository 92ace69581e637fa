"""Crypto and key tools: openssl, ssh-keygen, gpg, age.

Hashing, inspecting and converting read; ``-out``/``-o``/``--output`` name the file written. Options that load code
(openssl ``-engine``, ``-provider``, ``-config``; ssh-keygen ``-D``/``-w`` PKCS#11 and FIDO libraries; gpg
``--exec-path``, ``--photo-viewer``) are ``unknown``. ssh-keygen writes under ``~/.ssh`` unless ``-f`` names the key
(generation, ``-R``, ``-H`` rewrite ``known_hosts``), and gpg updates its home directory (keyrings, trust database,
``random_seed``) on nearly every run, so both are ``home``; exporting secret keys and decrypting (gpg ``-d``,
``--decrypt``) are ``secret``: they print the user's secrets. Listing keys (``-k``, ``-K``, ``--fingerprint``)
and ``--verify`` read; ``--recv-keys`` is ``network``; ``--import`` keeps ``home``.
"""

from __future__ import annotations

_OPENSSL_FILES = (
    "-out=out -keyout=out -writerand=out -sess_out=out -keylogfile=out -msgfile=out -signature=in -in=in "
    "-engine=:unknown -provider=:unknown -provider-path=:unknown -propquery= -config=:unknown -conf=:unknown "
    "-CAcreateserial:unknown -CAserial=out -rand=in -passin= -passout= -pass= -ssl_config=:unknown "
    "-ssl_conf=:unknown"
)
_OPENSSL_READ = {"grade": "read", "open": True, "options": _OPENSSL_FILES}
#: openssl-enc(1) ``-d`` ("Decrypt the input data"), and the cipher commands (``openssl aes-256-cbc -d``, "The
#: cipher name as a command"); openssl-cms(1), openssl-smime(1) ``-decrypt``, openssl-pkeyutl(1) and
#: openssl-rsautl(1) ``-decrypt``: the plaintext is written to ``-out`` or, by default, standard output, as gpg -d
#: and age -d print it (a secret read, whatever the file is named). Options are single words (``-des3`` is no
#: cluster holding ``-d``).
_OPENSSL_DECRYPT = {
    "grade": "read",
    "open": True,
    "clusters": False,
    "options": _OPENSSL_FILES + " -d",
    "when": {"-d": "secret"},
}
_OPENSSL_DECRYPTS = {
    "grade": "read",
    "open": True,
    "clusters": False,
    "options": _OPENSSL_FILES + " -decrypt",
    "when": {"-decrypt": "secret"},
}
_OPENSSL_NET = {"grade": "network", "open": True, "options": _OPENSSL_FILES}

CATALOGUE: dict[str, object] = {
    "openssl": {
        "source": "openssl(1) and openssl-COMMAND(1) (OpenSSL 3.3)",
        "options": "-h -help --help -v -version",
        "commands": {
            "dgst genpkey genrsa req x509 rsa pkey pkcs12 passwd rand version list ciphers speed verify crl ec "
            "ecparam dhparam base64 asn1parse sha1 sha224 sha256 sha384 sha512 md5 prime errstr pkcs7 pkcs8 "
            "crl2pkcs7 ts spkac kdf mac info gendsa dsa dsaparam pkeyparam help nseq sess_id sm3": _OPENSSL_READ,
            "enc aes-128-cbc aes-256-cbc des3": _OPENSSL_DECRYPT,
            "smime cms pkeyutl rsautl": _OPENSSL_DECRYPTS,
            "s_client s_time ocsp": _OPENSSL_NET,
            "s_server": "runs",
            "ca srp storeutl engine": "unknown",
        },
    },
    "ssh-keygen": {
        "source": "ssh-keygen(1) (OpenSSH 9.8)",
        "grade": "home",
        "options": "-f=out -t= -b= -C= -N= -P= -a= -m= -E= -I= -n= -V= -z= -O=pairs -r= -Y= -T= -M= -G= -J= -j= -K= -s=in "
        "-S= -Z= -g -u -Q -e -i -p -y -l -v -q -c -L -B -H -F= -R= -h -k -x -A:system -D=:unknown "
        "-w=:unknown -U",
        # -l prints a key's fingerprint, -B its bubblebabble digest, -L a certificate, -y the public key of a private
        # one, -F the known_hosts lines of a host: the -f file is read
        # with -f the key (or the known_hosts, KRL or signature file) is that file, graded where it lands, not one
        # under ~/.ssh
        # -O write-attestation=PATH and checkpoint=PATH name files written; -M generate|screen writes the moduli
        # file named last; -Y sign writes FILE.sig beside each FILE; -s CA_KEY writes KEY-cert.pub beside each key
        "when": {
            "-f": "write",
            "-l -L -B -y -F": {"grade": "read", "reads": "-f"},
            "-M -Y=sign -s": {"operands": "out"},
        },
    },
    "ssh-add": {
        "source": "ssh-add(1) (OpenSSH 9.8): adds identities to the running agent",
        "grade": "home",
        "options": "-l -L -d:home -D:home -x -X -t= -c -k -K -q -v -T= -e=:unknown -s=:unknown -S=:unknown -H= -h=",
        "when": {"-l -L": "read"},  # -l lists the agent's keys' fingerprints, -L their public keys
    },
    "gpg gpg2": {
        "source": "gpg(1) (GnuPG 2.4): commands and options (long options may be abbreviated)",
        "grade": "home",
        "open": True,
        # --homedir DIR: the home whose gpg.conf is read (photo-viewer, exec-path, keyserver options name programs
        # and servers) and whose gpg-agent.conf names the pinentry program: a configuration the tool loads
        "options": "-o=out --output=out --homedir=project -r= --recipient= -u= --local-user= -R= --hidden-recipient= "
        "--default-key= --keyring= --secret-keyring= --trustdb-name= --export-secret-keys:secret "
        "--export-secret-key:secret --export-secret-subkeys:secret -d:secret --decrypt:secret "
        "--decrypt-files:secret --delete-keys:delete "
        "--delete-key:delete --delete-secret-keys:delete --delete-secret-and-public-key:delete "
        "--delete-secret-and-public-keys:delete --send-keys:network --send-key:network "
        "--recv-keys:network --recv-key:network --receive-keys:network --locate-keys:network "
        "--locate-external-keys:network --refresh-keys:network --search-keys:network "
        "--fetch-keys:network --keyserver= --exec-path=:unknown --photo-viewer=:unknown "
        "--load-extension=:unknown --agent-program=:unknown --dirmngr-program=:unknown "
        "--options=:unknown --keyserver-options=:unknown --edit-key=:unknown --passphrase-file=in "
        "--auto-key-retrieve:network --command-fd= --status-fd= --logger-fd= --status-file=out --logger-file=out --attribute-file=out "
        "-k --list-keys --list-public-keys -K --list-secret-keys --fingerprint --list-sigs --check-sigs --verify",
        # gpg takes one command (two are "conflicting commands"): listing keys prints ids, user ids and fingerprints, never key material (gpg(1) "--list-secret-keys: List
        # the specified secret keys"); --verify checks a signature: they only read the keyring. Fetching keys
        # from a keyserver adds public keys, which are trusted only when signed by a trusted key: network.
        # Decrypting prints the plaintext (a secret read) and changes nothing else in the home that matters.
        "when": {
            "-d --decrypt": "secret",
            "-k --list-keys --list-public-keys -K --list-secret-keys --fingerprint --list-sigs --check-sigs "
            "--verify": "read",
            "--recv-keys --recv-key --receive-keys": "network",
        },
    },
    "gpgv": {
        "source": "gpgv(1) (GnuPG 2.4): verifies signatures only",
        "grade": "read",
        "options": "--keyring= -q --quiet -v --verbose --status-fd= --homedir= -o=out --output=out --weak-digest=",
    },
    "age": {
        "source": "age(1) (age 1.2): -d/--decrypt prints the plaintext (a secret read, as gpg -d)",
        "grade": "read",
        "options": "-o=out --output=out -e --encrypt -d:secret --decrypt:secret -r= --recipient= -R= --recipients-file=in "
        "-i= --identity= -p --passphrase -a --armor -j=:unknown --version -h --help",
    },
    "age-keygen": {
        "source": "age-keygen(1) (age 1.2)",
        "grade": "read",
        "options": "-o=out --output=out -y --version -h --help -pq",
    },
    "pass": {
        "source": "pass(1) (password-store 1.7): pass NAME shows a password; the store is ~/.password-store",
        "grade": "read",
        "else": "secret",
        "options": "-c --clip -q --qrcode",
        "commands": {
            "ls list find search": {"grade": "read", "open": True},
            "show grep otp": {"grade": "secret", "open": True},
            "insert add generate edit mv rename cp copy init": {"grade": "home", "open": True},
            "rm remove delete": {"grade": "delete", "open": True},
            "git": "unknown",
            "version help": "read",
        },
    },
    "cryptsetup": {
        "source": "cryptsetup(8) (cryptsetup 2.7)",
        "options": "-h --help -V --version -v --verbose -q --batch-mode --debug",
        "commands": {
            "open luksOpen close luksClose resize refresh luksAddKey addKey luksChangeKey luksSuspend luksResume "
            "config luksHeaderBackup": {"grade": "system", "open": True},
            "luksFormat erase luksErase luksRemoveKey luksKillSlot reencrypt convert repair luksHeaderRestore tcryptDump": {
                "grade": "delete",
                "open": True,
            },
            "status luksDump isLuks luksUUID benchmark": {
                "grade": "read",
                "open": True,
                "options": "--dump-master-key:secret --dump-volume-key:secret",
            },
        },
    },
    "ykman": {
        "source": "YubiKey Manager CLI (docs.yubico.com/software/yubikey/tools/ykman) (ykman 5)",
        "options": "-h --help -v --version -d= --device= -r= --reader= -l= --log-level=",
        "commands": {
            "list info": {"grade": "read", "open": True},
            "config": {"grade": "system", "open": True},
            "oath": {
                "commands": {
                    "info": "read",
                    "accounts": {
                        "commands": {
                            "list": {"grade": "read", "open": True},
                            "code": {"grade": "secret", "open": True},
                            "add rename uri": {"grade": "system", "open": True},
                            "delete": {"grade": "delete", "open": True},
                        }
                    },
                    "access": {"grade": "system", "open": True},
                    "reset": "delete",
                }
            },
            "fido": {
                "commands": {
                    "info": "read",
                    "credentials fingerprints": {
                        "commands": {"list": {"grade": "read", "open": True}, "delete": "delete"}
                    },
                    "access": {"grade": "system", "open": True},
                    "reset": "delete",
                    "config": "system",
                }
            },
            "openpgp piv otp hsmauth": {"commands": {"info": "read", "reset": "delete"}, "else": "system"},
        },
    },
    "op": {
        "source": "1Password CLI reference (developer.1password.com/docs/cli/reference) (op 2.30)",
        "options": "-h --help --version --account= --format= --cache --no-color --iso-timestamps --session=",
        "commands": {
            "read inject": {"grade": "secret", "open": True, "options": "-o=out --out-file=out"},
            "run": "runs",
            "signin signout account": {"grade": "home", "open": True},
            "whoami": {"grade": "remote", "open": True},
            "item document": {
                "commands": {
                    "list ls": {"grade": "remote", "open": True},
                    "get": {"grade": "secret", "open": True},
                    "create edit move share": {"grade": "change", "open": True},
                    "delete rm": {"grade": "destroy", "open": True},
                }
            },
            "vault user group": {
                "commands": {
                    "list ls get": {"grade": "remote", "open": True},
                    "create edit grant revoke": {"grade": "change", "open": True},
                    "delete rm": {"grade": "destroy", "open": True},
                }
            },
        },
    },
    "sops": {
        "source": "SOPS README (getsops.io/docs) (sops 3.9): FILE alone opens an editor; -d prints the plaintext",
        "grade": "runs",
        "open": True,
        "options": "-d --decrypt -e --encrypt -r --rotate -i --in-place --output=out --extract= --config=:unknown "
        "--exec-env=:runs --exec-file=:runs",
        "when": {"-e --encrypt -r --rotate": "read", "-d --decrypt": "secret", "-i --in-place": {"operands": "out"}},
        "guard": "cloud:sops_key_services",
    },
    "rbw": {
        "source": "rbw README (github.com/doy/rbw) (rbw 1.12): a Bitwarden client",
        "options": "-h --help -V --version",
        "commands": {
            "get": {"grade": "secret", "open": True},
            "list ls search": {"grade": "remote", "open": True},
            "add generate edit": {"grade": "change", "open": True},
            "remove rm": {"grade": "destroy", "open": True},
            "login unlock lock sync register config purge stop-agent": {"grade": "home", "open": True},
            "unlocked": "read",
        },
    },
    "gopass": {
        "source": "gopass CLI (github.com/gopasspw/gopass docs/commands) (gopass 1.15): gopass NAME shows a secret",
        "else": "secret",
        "grade": "read",
        "options": "-h --help -v --version -c --clip",
        "commands": {
            "ls list find search mounts": {"grade": "read", "open": True},
            "show cat otp": {"grade": "secret", "open": True},
            "insert new create generate edit mv copy cp init setup": {"grade": "home", "open": True},
            "rm remove delete": {"grade": "delete", "open": True},
            "sync": {"grade": "publish", "open": True},
            "git": "unknown",
        },
    },
    "passage": {
        "source": "passage README (github.com/FiloSottile/passage): pass with age; passage NAME shows a secret",
        "grade": "read",
        "else": "secret",
        "options": "-c --clip -q --qrcode",
        "commands": {
            "ls list find": {"grade": "read", "open": True},
            "show": {"grade": "secret", "open": True},
            "insert add generate edit mv cp init": {"grade": "home", "open": True},
            "rm remove delete": {"grade": "delete", "open": True},
            "git": "unknown",
        },
    },
    "keepassxc-cli": {
        "source": "keepassxc-cli(1) (KeePassXC 2.7): commands act on the database file named first",
        "options": "-h --help -v --version",
        "commands": {
            "ls search db-info diceware generate estimate analyze": {"grade": "read", "open": True},
            "show clip export attachment-export": {"grade": "secret", "open": True},
            "add edit mkdir mv attachment-import import merge db-create": {
                "grade": "read",
                "open": True,
                "operands": "first-out",
            },
            "rm rmdir attachment-rm": {"grade": "delete", "open": True},
        },
    },
    "security": {
        "source": "security(1) (macOS 14): find-generic-password and find-internet-password print an item's "
        "attributes, its password too with -g or -w; dump-keychain prints every item (-d: decrypted); the add-, "
        "delete- and unlock- commands change the user's keychains",
        "options": "-h -i -l -p= -q -v",
        "commands": {
            "find-generic-password find-internet-password": {
                "grade": "read",
                "options": "-a= -c= -C= -D= -G= -j= -l= -r= -s= -P= -p= -t= -d= -g -w",
                "when": {"-g -w": "secret"},
            },
            "dump-keychain": {"grade": "secret", "open": True},
            "list-keychains default-keychain login-keychain show-keychain-info find-certificate find-identity "
            "find-key": {"grade": "read", "options": "-d= -a -c= -e= -Z -p -s= -v -m= -u="},
            "add-generic-password add-internet-password unlock-keychain lock-keychain set-keychain-settings": {
                "grade": "home",
                "open": True,
            },
            "delete-generic-password delete-internet-password delete-certificate delete-identity delete-keychain": {
                "grade": "delete",
                "open": True,
            },
        },
    },
    "secret-tool": {
        "source": "secret-tool(1) (libsecret 0.21): lookup prints the secret of the item whose attributes match, "
        "search prints the matching items with their secrets, store saves one (read from standard input) and "
        "clear deletes them, in the user's keyring",
        "commands": {
            "lookup search": {"grade": "secret", "open": True},
            "store lock": {"grade": "home", "open": True},
            "clear": {"grade": "delete", "open": True},
        },
    },
}
