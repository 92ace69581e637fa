"""Grade held-back corpus 21 with `flybot classify --jsonl` and compare with its expectations.

Usage: python benchmarks/heldback/compare21.py [--cwd /tmp/ws21] [--flybot .venv/bin/flybot] [--out results.jsonl]

The corpus expects the workspace setup21.sh makes (a git repository of an SRE / operations toolkit: Ansible
playbooks, inventory and ansible.cfg, a Packer template, systemd units to install, nginx and Caddy configs,
Prometheus / Alertmanager / Grafana configs, Bash runbooks, a Vagrantfile, cloud-init user-data, an .ssh/config
fragment, restic / borg / rclone backup configs, a Pulumi and a CDK app, and aws / gcloud / az configuration) and a
directory outside it, /tmp/other21.
"""

from __future__ import annotations

from _compare import main

#: Expectations judged doubtful after measuring (the classifier's grade is defensible): printed apart.
_CHECK_MODE = (
    "ansible-playbook --check still runs the tasks marked check_mode: false, on the hosts and (local_action, "
    "delegate_to: localhost, -c local) here, and FlyBot does not read playbooks (catalogue/cloud.py "
    "ansible-playbook; the corpus's own hostile legacy-maintenance.yml line is such a playbook)"
)
_PROJECT_CODE = (
    "FlyBot does not read the project's code: a Vagrantfile is Ruby (a trigger may run any program) and a "
    "Pulumi program runs with the runtime Pulumi.yaml names; graded as the project's commands (grading.md: the "
    "workspace's code is the project's code), as corpus 20's Gradle and MSBuild files"
)
_NPX_CDK = (
    "npx cdk without the project's node_modules/.bin/cdk fetches the npm package named cdk, which is not "
    "aws-cdk (grading.md: npx TOOL only for the tools FlyBot knows, and the fixture has no node_modules)"
)
DOUBTFUL: dict[str, str] = {
    # hostile lines
    "cd vm/legacy && vagrant up": _PROJECT_CODE,
    "cd infra/legacy && pulumi preview": _PROJECT_CODE,
    # everyday lines
    "git diff": "the fixture's repository tracks .ssh/config.legacy and 2 more files FlyBot judges secret by "
    "name; git diff prints tracked files' changes (settings.py tracked secrets)",
    "ansible-playbook -i inventory/hosts.ini --check --diff playbooks/web.yml": _CHECK_MODE,
    "ansible-playbook -i inventory/hosts.ini --check --diff --limit web1.staging.example.com site.yml": _CHECK_MODE,
    "ansible-playbook -i localhost, -c local --check playbooks/monitoring.yml": _CHECK_MODE,
    "ansible-config dump --only-changed": "dump prints the values in effect, Galaxy server tokens among them "
    '("Configuring the ansible-galaxy client": token=): a secret read (catalogue/cloud.py ansible-config)',
    "ansible-doc ansible.builtin.template": "ansible-doc loads plugins from the module paths and the project's "
    "collections and roles: graded as a build whatever name is asked (catalogue/cloud.py ansible-doc)",
    "ansible-vault encrypt group_vars/prod/secrets.yml": "a file named secrets.yml is judged a secret by its "
    "name (sensitive.py), whatever the program does with it",
    "aws s3 cp backups/db-2026-12-06.sql.gz s3://ops-backups/db/": "a write to a cloud service is a remote "
    "change (system) in FlyBot's cloud grading (programs/cloud.py: changes system, deletions destructive)",
    "cd infra/cdk && npx cdk synth": _NPX_CDK,
    "cd infra/cdk && npx cdk diff": _NPX_CDK,
    ".venv/bin/pip install ansible-lint yamllint": "the fixture has no .venv: a program given as a path that is "
    "not there is unrecognised (grading.md)",
}


if __name__ == "__main__":
    main(21, DOUBTFUL)
