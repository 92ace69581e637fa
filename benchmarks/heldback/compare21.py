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
DOUBTFUL: dict[str, str] = {}


if __name__ == "__main__":
    main(21, DOUBTFUL)
