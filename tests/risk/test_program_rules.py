"""Program rules in the classifier: a rule grades a program FlyBot does not know, raises a built-in grade, or
overrides it (named on the card), and never touches paths, hidden characters or unparseable text."""

from __future__ import annotations

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.rules import ProgramRules, Rule, plain_word

R = RiskLevel
RULES = ProgramRules(
    (
        Rule("acmecc", None, R.WORKSPACE_WRITE, "U0ADMIN01"),
        Rule("mytool", "deploy", R.NETWORK, "U0ADMIN01"),
        Rule("mytool", "status", R.READ_ONLY, "U0ADMIN01"),
        Rule("git", None, R.NETWORK, "U0ADMIN02"),
        Rule("make", None, R.READ_ONLY, "U0ADMIN02"),
    )
)


def grade(command: str, rules: ProgramRules | None = RULES, *, contained: bool = False) -> RiskLevel:
    return classify(command, contained=contained, workspace="/w", rules=rules).risk


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("acmecc -O2 main.c -o app", R.WORKSPACE_WRITE),
        ("cd src && acmecc -c x.c", R.WORKSPACE_WRITE),
        ("sudo acmecc a.c", R.SYSTEM),
        ("bash -c 'acmecc a.c'", R.WORKSPACE_WRITE),
        ("mytool deploy prod", R.NETWORK),
        ("mytool status", R.READ_ONLY),
        ("git status", R.NETWORK),
        ("/usr/bin/git status", R.NETWORK),
    ],
)
def test_a_rule_grades_an_unknown_program_or_raises_a_built_in_grade(command: str, expected: RiskLevel) -> None:
    assert grade(command) == expected
    assert grade(command, None) != expected


@pytest.mark.parametrize(
    "command",
    [
        "acmecc a.c && rm -rf x",  # the walker still grades the rm
        "./acmecc a.c",
        "/tmp/acmecc a.c",  # a program given as a path
        "acme\u0441c a.c",  # a look-alike (Cyrillic es)
        "acmecc\u200b a.c",  # a hidden character
        "acmecc 'a.c",  # unparseable
        "$CC a.c",  # a name only known when it runs
        "mytool rollback",  # no rule for this subcommand, none for the program
        "acmecc -o /etc/passwd a.c",  # an operand that is a protected path
        "acmecc() { rm -rf /; }; acmecc a.c",  # a function shadows the program
    ],
)
def test_a_rule_changes_nothing_it_should_not(command: str) -> None:
    assert grade(command) == R.DESTRUCTIVE


def test_a_rule_below_the_built_in_grade_is_an_override_the_reasons_name() -> None:
    assert grade("make", None) == R.WORKSPACE_WRITE
    verdict = classify("make", contained=False, workspace="/w", rules=RULES)
    assert verdict.risk == R.READ_ONLY
    assert [r.rule for r in verdict.reasons] == ["program-rule-override"]


def test_the_override_reason_is_listed_and_names_the_admin() -> None:
    rules = ProgramRules((Rule("make", None, R.WORKSPACE_WRITE, "U0ADMIN02"),))
    verdict = classify("make clean", contained=False, workspace="/w", rules=rules)
    assert verdict.risk == R.WORKSPACE_WRITE
    (reason,) = verdict.reasons
    assert reason.rule == "program-rule-override"
    assert "graded workspace_write by @U0ADMIN02's program rule" in reason.detail and "override" in reason.detail


def test_an_override_keeps_writes_to_protected_places() -> None:
    assert grade("make -C /etc") == R.DESTRUCTIVE


def test_an_unknown_programs_rule_reason_names_the_rule() -> None:
    verdict = classify("acmecc -O2 main.c -o app", contained=False, workspace="/w", rules=RULES)
    assert [(r.rule, r.level) for r in verdict.reasons] == [("program-rule", R.WORKSPACE_WRITE)]
    assert "@U0ADMIN01" in verdict.reasons[0].detail


def test_rules_with_the_same_content_are_equal_and_hash_alike() -> None:
    again = ProgramRules(tuple(reversed(RULES.rules)))
    assert again == RULES and hash(again) == hash(RULES)
    assert ProgramRules() != RULES and not ProgramRules()


@pytest.mark.parametrize(
    ("word", "plain"),
    [
        ("acmecc", True),
        ("clang-format", True),
        ("g++", True),
        ("python3.12", True),
        ("./acmecc", False),
        ("/usr/bin/acmecc", False),
        ("a b", False),
        ("acme\u0441c", False),
        ("acmecc\u200b", False),
        ("", False),
        ("-rf", False),
        ("x\n", False),
        ("a" * 65, False),
    ],
)
def test_plain_words(word: str, plain: bool) -> None:
    assert plain_word(word) is plain


def test_raise_only_rules_never_grade_an_unknown_program_or_lower_a_grade() -> None:
    held = ProgramRules(RULES.rules, raise_only=True)
    assert grade("acmecc -O2 main.c -o app", held) == R.DESTRUCTIVE
    assert grade("make", held) == R.WORKSPACE_WRITE
    assert grade("git status", held) == R.NETWORK
    assert held != RULES


DELETERS = ProgramRules(
    tuple(
        Rule(program, None, R.WORKSPACE_WRITE, "U0ADMIN03")
        for program in ("rm", "unlink", "shred", "rimraf", "find", "truncate", "rmdir")
    )
)


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf build",
        "rm -f build/app.o src/cache.pyc",
        "rm -rf -- build dist",
        "unlink build/app.o",
        "shred -u -n 3 build/old.bin",
        "rimraf node_modules/.cache",
        "find build -name '*.o' -delete",
    ],
)
def test_a_deletion_rule_lowers_deleting_ordinary_workspace_files(command: str) -> None:
    assert grade(command, None) == R.DESTRUCTIVE
    verdict = classify(command, contained=False, workspace="/w", rules=DELETERS)
    assert verdict.risk <= R.WORKSPACE_WRITE, verdict.reasons


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf /etc",
        "rm -rf /",
        "rm -rf ~",
        "rm -rf /home/other/project",
        "rm -rf ../other-project",
        "rm -rf ..",
        "rm -rf /tmp/scratch",
        "rm -rf /w/../x",
        'rm -rf "$DIR"',
        'rm -rf "$HOME"/x',
        "rm -rf ~/.local/state/flybot",
        "rm ~/.local/state/flybot/flybot.db",
        "rm /srv/flybot/flybot.db",
        "rm -rf .git",
        "rm -rf .git/hooks",
        "rm -rf .claude",
        "rm -rf .",
        "rm -rf ./",
        "rm .env",
        "rm deploy/id_rsa",
        "unlink /etc/hosts",
        "unlink ~/.bashrc",
        "shred -u ~/.ssh/id_rsa",
        "shred -u /srv/flybot/flybot.db",
        "shred /etc/passwd",
        "rimraf /etc",
        "find / -delete",
        "find ~ -name '*.log' -delete",
        "find /tmp/x -delete",
        "find . -name '*.o' -delete",
        "find -delete",
        "rmdir /etc/x",
        "truncate -s0 /etc/passwd",
        "sudo rm -rf /etc",
        "bash -c 'rm -rf /etc'",
    ],
)
def test_a_deletion_rule_never_lowers_deleting_a_protected_place(command: str) -> None:
    """Deleting outside the workspace (the temp area too), a path only known when it runs, the workspace root,
    git's or the coding agents' control files, a secret file, a home's control files or FlyBot's state: findings
    about places, which the override keeps."""
    verdict = classify(command, contained=False, workspace="/w", rules=DELETERS)
    assert verdict.risk == R.DESTRUCTIVE, verdict.reasons
    assert "program-rule-override" in [r.rule for r in verdict.reasons] or command.startswith(("sudo", "bash"))


def test_deleting_a_workspace_file_lists_only_the_deletion() -> None:
    verdict = classify("rm -rf build", contained=False, workspace="/w")
    assert [(r.rule, r.level) for r in verdict.reasons] == [("deletion", R.DESTRUCTIVE)]
    outside = classify("rm -rf /etc", contained=False, workspace="/w")
    assert {r.rule for r in outside.reasons} == {"deletion", "protected-path-write", "deletion-outside-workspace"}


MOVERS = ProgramRules(
    tuple(Rule(program, None, R.WORKSPACE_WRITE, "U0ADMIN03") for program in ("zip", "zstd", "tar", "rsync"))
)


@pytest.mark.parametrize(
    ("command", "lowered"),
    [
        ("zip -m out.zip build/a.o", True),
        ("zstd --rm build/log.txt", True),
        ("tar --remove-files -cf out.tar build", True),
        ("rsync -a --delete src/ build/", True),
        ("rsync -a --remove-source-files build/ out/", True),
        ("zip -m out.zip /etc/passwd", False),
        ("zstd --rm ~/.ssh/id_rsa", False),
        ("tar --remove-files -cf out.tar /srv/data", False),
        ("tar -C /etc --remove-files -cf out.tar passwd", False),
        ("rsync -a --delete src/ ~/", False),
        ("rsync -a --delete src/ /srv/www/", False),
        ("rsync -a --remove-source-files /srv/data/ out/", False),
    ],
)
def test_an_override_keeps_where_other_programs_delete(command: str, lowered: bool) -> None:
    """Programs that delete besides what they do (zip -m, --rm, tar --remove-files, rsync --delete and
    --remove-source-files): each deleted place is graded as rm's operands are."""
    assert grade(command, None) == R.DESTRUCTIVE
    verdict = classify(command, contained=False, workspace="/w", rules=MOVERS)
    assert (verdict.risk <= R.WORKSPACE_WRITE) is lowered, verdict.reasons


EMPTIERS = ProgramRules(
    tuple(Rule(program, None, R.WORKSPACE_WRITE, "U0ADMIN03") for program in ("truncate", "dd", "sed", "cp"))
)


@pytest.mark.parametrize(
    ("command", "lowered"),
    [
        ("truncate -s 0 build/app.log", True),
        ("sed -i d build/list.txt", True),
        ("truncate -s 0 /tmp/app.log", False),
        ("dd if=/dev/zero of=/tmp/app.log", False),
        ("sed -i d /tmp/list.txt", False),
        ("cp /dev/null /tmp/app.log", False),
        ("truncate -s 0 /srv/app.log", False),
    ],
)
def test_an_override_keeps_emptying_a_file_outside_the_workspace(command: str, lowered: bool) -> None:
    verdict = classify(command, contained=False, workspace="/w", rules=EMPTIERS)
    assert (verdict.risk <= R.WORKSPACE_WRITE) is lowered, verdict.reasons


TOOLS = ProgramRules(
    (
        Rule("git", None, R.WORKSPACE_WRITE, "U0ADMIN03"),
        Rule("npm", None, R.READ_ONLY, "U0ADMIN03"),
        Rule("make", None, R.READ_ONLY, "U0ADMIN03"),
    )
)


@pytest.mark.parametrize(
    ("command", "lowered"),
    [
        ("git rm -r src/old", True),
        ("git clean -fdx", True),
        ("git worktree remove wt/feature", True),
        ("npm test", True),
        ("git worktree remove ../feature", False),
        ("git worktree remove /srv/feature", False),
        ("git -C /srv/other clean -fdx", False),
        ("cd /tmp/evil && git status", False),
        ("npm --prefix /srv/other test", False),
        ("make -C /srv/other", False),
    ],
)
def test_an_override_keeps_a_repository_or_project_outside_the_workspace(command: str, lowered: bool) -> None:
    """A repository or project outside the workspace (its configuration and recipes can run programs) and the
    working trees git deletes there are findings about places."""
    verdict = classify(command, contained=False, workspace="/w", rules=TOOLS)
    assert (verdict.risk <= R.WORKSPACE_WRITE) is lowered, verdict.reasons


LOWER_GIT = ProgramRules(
    (Rule("git", None, R.WORKSPACE_WRITE, "U0ADMIN04"), Rule("sed", None, R.WORKSPACE_WRITE, "U0ADMIN04"))
)


@pytest.mark.parametrize(
    ("command", "lowered"),
    [
        ('git rm "$X"', False),
        ('git checkout "$BRANCH"', False),
        ('git push origin "$REF"', False),
        ("git rm $(cat list)", False),
        ('sed "$SCRIPT" notes.txt', False),
        ("git rm build/x.o", True),
        ("git checkout main", True),
        ("git push --force origin main", True),
        ("git clean -fdx", True),
    ],
)
def test_an_override_keeps_words_only_known_when_the_command_runs(command: str, lowered: bool) -> None:
    """A rule lowers the uses its words show; a word only known at run time may be any option of the program (one
    that runs a program or discards work), so its finding stays (``dynamic-argument``, ``dynamic-script``)."""
    assert grade(command, None) == R.DESTRUCTIVE
    verdict = classify(command, contained=False, workspace="/w", rules=LOWER_GIT)
    assert (verdict.risk <= R.WORKSPACE_WRITE) is lowered, verdict.reasons
    assert "program-rule-override" in [r.rule for r in verdict.reasons]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("acmecc --out=/etc/cron.d/x a.c", R.DESTRUCTIVE),
        ("acmecc -o/usr/local/bin/ls a.c", R.DESTRUCTIVE),
        ("acmecc -o=/etc/x a.c", R.DESTRUCTIVE),
        ("acmecc --out=~/.bashrc a.c", R.DESTRUCTIVE),
        ("acmecc --out=../other/x a.c", R.SYSTEM),
        ("acmecc -o /etc/cron.d/x a.c", R.DESTRUCTIVE),  # the separate operand, as before
        ("acmecc -O2 -Wall a.c -o app", R.WORKSPACE_WRITE),
        ("acmecc --out=build/app a.c", R.WORKSPACE_WRITE),
        ("acmecc -obuild/app a.c", R.WORKSPACE_WRITE),
        ("acmecc --out=/tmp/app a.c", R.WORKSPACE_WRITE),
    ],
)
def test_a_rule_judges_a_path_attached_to_an_option_as_an_operand(command: str, expected: RiskLevel) -> None:
    """A program known only by a rule: ``--out=PATH`` and ``-oPATH`` name a place as ``-o PATH`` does."""
    assert grade(command) == expected


@pytest.mark.parametrize(
    ("rule", "command", "lowered"),
    [
        (Rule("kubectl", "krew", R.WORKSPACE_WRITE, "U0ADMIN07"), "kubectl krew list", True),
        (Rule("docker", "scout", R.WORKSPACE_WRITE, "U0ADMIN07"), "docker scout cves", True),
        (Rule("go", "frob", R.WORKSPACE_WRITE, "U0ADMIN07"), "go frob ./...", True),
        (Rule("kubectl", None, R.WORKSPACE_WRITE, "U0ADMIN07"), "kubectl krew install evil", False),
        (Rule("docker", None, R.WORKSPACE_WRITE, "U0ADMIN07"), "docker scout cves", False),
    ],
)
def test_a_subcommand_rule_teaches_an_unknown_subcommand_and_a_program_rule_does_not(
    rule: Rule, command: str, lowered: bool
) -> None:
    """A use the classifier does not recognise gives way to a rule naming that subcommand (how an admin teaches
    one), never to a rule on the whole program, which was set for the uses the admin knew."""
    assert grade(command, None) == R.DESTRUCTIVE
    verdict = classify(command, contained=False, workspace="/w", rules=ProgramRules((rule,)))
    assert (verdict.risk == R.WORKSPACE_WRITE) is lowered, verdict.reasons


HOST_TOOLS = ProgramRules(
    tuple(
        Rule(program, None, R.WORKSPACE_WRITE, "U0ADMIN06")
        for program in ("kill", "chmod", "iptables", "useradd", "systemctl", "apt-get", "reboot", "modprobe")
    )
)


@pytest.mark.parametrize(
    ("command", "lowered"),
    [
        ("kill 1", False),
        ("kill -9 -1", False),
        ("chmod u+s build/tool", False),
        ("iptables -F", False),
        ("useradd backdoor", False),
        ("systemctl stop sshd", False),
        ("apt-get remove -y openssh-server", False),
        ("reboot", False),
        ("modprobe evil", False),
        ("kill 12345", True),
        ("chmod 644 build/tool", True),
        ("iptables -L", True),
        ("systemctl restart nginx", True),
        ("apt-get install -y jq", True),
    ],
)
def test_an_override_keeps_irreversible_host_changes(command: str, lowered: bool) -> None:
    """A rule lowering ``kill`` so agents may stop their own dev server does not lower ``kill -9 -1``: setuid bits,
    signals to init or every process, firewall flushes, accounts, stopped services, package removal, reboots and
    kernel modules stay destructive on the host, as no standing approval covers them."""
    verdict = classify(command, contained=False, workspace="/w", rules=HOST_TOOLS)
    assert (verdict.risk <= R.WORKSPACE_WRITE) is lowered, verdict.reasons
    if not lowered:
        assert verdict.risk == R.DESTRUCTIVE, verdict.reasons


RUNNERS = ProgramRules(
    tuple(
        Rule(program, None, R.READ_ONLY, "U0ADMIN05")
        for program in ("tar", "sed", "git", "make", "ssh", "docker", "awk", "rsync", "sqlite3", "man", "gdb", "tmux")
    )
)


@pytest.mark.parametrize(
    ("command", "lowered"),
    [
        ("tar --to-command=sh -xf x.tar", False),
        ("tar -I 'sh -c x' -cf a.tar .", False),
        ("tar -cf a.tar --checkpoint=1 --checkpoint-action=exec=x .", False),
        ("sed -n '1e touch ran' notes.txt", False),
        ("git -c core.pager='touch ran' log", False),
        ("git -c alias.x='!touch ran' x", False),
        ("make SHELL=/tmp/evil", False),
        ("ssh -o ProxyCommand='sh -c x' host", False),
        ("docker run --privileged alpine", False),
        ("docker run -v /:/h alpine", False),
        ("awk 'BEGIN{system(\"touch ran\")}'", False),
        ("rsync -e 'sh -c x' a host:", False),
        ("sqlite3 x.db '.shell touch ran'", False),
        ("man -P 'sh -c x' ls", False),
        ("tmux new -d 'touch ran'", False),
        ("tar -czf out.tgz build", True),
        ("sed -n 1p notes.txt", True),
        ("git log", True),
        ("make", True),
        ("rsync -a src/ build/", True),
        ("awk '{print $1}' notes.txt", True),
    ],
)
def test_an_override_keeps_a_command_the_program_is_told_to_run(command: str, lowered: bool) -> None:
    """An option that makes the program run code the command line chooses (``tar -I CMD``, ``git -c
    core.pager=CMD``, ``make SHELL=PROG``, a container given the host) is graded as that code: a rule on the program
    grades the program, as a wrapper's rule would not grade the command it runs."""
    verdict = classify(command, contained=False, workspace="/w", rules=RUNNERS)
    assert (verdict.risk == R.READ_ONLY) is lowered, verdict.reasons
    if not lowered:
        assert verdict.risk == R.DESTRUCTIVE, verdict.reasons
