"""Properties of the classifier over generated commands (hypothesis)."""

from __future__ import annotations

import shlex
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.risk import Assessment, RiskLevel, classify

WORKSPACE = Path("/home/dev/project")
SETTINGS = settings(max_examples=250, deadline=None)

PROGRAMS = [
    "ls -la", "cat README.md", "rm -rf build", "curl https://example.com", "git push", "git status",
    "chmod +x run.sh", "npm test", "npm install", "sed -i s/a/b/ f.txt", "find . -delete", "apt-get install -y jq",
    "kubectl get pods", "python -c 'print(1)'", "$cmd", "./tool", "echo hi", "mkdir /opt/x", "touch out.txt",
    "systemctl restart x", "kill 1", "docker ps", "tee /etc/x", "xargs rm", "wget https://example.com",
    "ssh host", "make install", "grep -rn x .", "cp a /usr/local/bin/", "git clean -fdx", "FOO=1 ls",
    "dd if=a of=/dev/sda", "echo 'rm -rf /'", "sudo ls", "env ls", "bash -c 'ls'", "true",
]  # fmt: skip
REDIRECTS = ["", " > out.txt", " > /etc/hosts", " >> ~/.bashrc", " 2>&1", " > /dev/null", " > /tmp/x", " > ../x"]
SHELL_STATE = ["cd src", "cd ..", "cd /etc", "x=1"]

simple = st.builds(lambda program, redirect: program + redirect, st.sampled_from(PROGRAMS), st.sampled_from(REDIRECTS))
scripts = st.recursive(
    st.one_of(simple, st.sampled_from(SHELL_STATE)),
    lambda inner: st.one_of(
        st.builds(lambda a, op, b: f"{a} {op} {b}", inner, st.sampled_from(["&&", "||", "|", ";", "\n"]), inner),
        st.builds(lambda a: f"( {a} )", inner),
        st.builds(lambda a: f"{{ {a}; }}", inner),
        st.builds(lambda a: f"if true; then {a}; fi", inner),
    ),
    max_leaves=6,
)
bashish = st.text(alphabet="ab lsrm $'\"\\|&;()<>{}[]*?~=#\n\t-/.`!0", max_size=60)


def grade(command: str, contained: bool = False) -> RiskLevel:
    return classify(command, contained=contained, workspace=WORKSPACE).risk


@SETTINGS
@given(st.one_of(st.text(max_size=200), bashish, scripts))
def test_grading_never_raises_and_never_fails_internally(text: str) -> None:
    for contained in (False, True):
        assessment = classify(text, contained=contained)
        assert isinstance(assessment, Assessment)
        assert all(r.rule != "internal-error" for r in assessment.reasons), assessment.reasons
        assert assessment.risk == max([r.level for r in assessment.reasons], default=RiskLevel.READ_ONLY)


@SETTINGS
@given(st.one_of(scripts, bashish))
def test_contained_is_never_above_host(text: str) -> None:
    assert grade(text, contained=True) <= grade(text, contained=False)


@SETTINGS
@given(scripts, st.booleans())
def test_wrapping_in_bash_c_never_lowers(script: str, contained: bool) -> None:
    assert grade(f"bash -c {shlex.quote(script)}", contained) >= grade(script, contained)


@SETTINGS
@given(scripts, st.booleans())
def test_appending_and_true_never_lowers(script: str, contained: bool) -> None:
    assert grade(f"{script} && true", contained) >= grade(script, contained)


@SETTINGS
@given(simple, st.sampled_from(["env", "timeout 5", "env FOO=1", "nice -n 5", "nohup"]), st.booleans())
def test_wrapping_in_env_or_timeout_never_lowers(command: str, wrapper: str, contained: bool) -> None:
    assert grade(f"{wrapper} {command}", contained) >= grade(command, contained)


@SETTINGS
@given(simple, st.booleans())
def test_sudo_is_never_below_the_command(command: str, contained: bool) -> None:
    wrapped = grade(f"sudo {command}", contained)
    assert wrapped >= grade(command, contained)
    assert wrapped >= (RiskLevel.WORKSPACE_WRITE if contained else RiskLevel.SYSTEM)


@SETTINGS
@given(scripts)
def test_every_simple_command_risk_is_at_most_the_script_risk(script: str) -> None:
    assessment = classify(script, contained=False, workspace=WORKSPACE)
    assert all(c.risk <= assessment.risk for c in assessment.commands)
