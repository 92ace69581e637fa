"""Project, cloud and web tools common in software teams that the catalogue grades by their manuals (cdk,
serverless, firebase, kubeseal, dbt, grunt, nodemon, pm2, ember, gatsby, hexo, web-ext, lighthouse, hurl, htmlq,
svgo, d2, 2to3, zizmor, jupytext, marimo, quarto, gitlint, act, caddy, nextflow, sox...). A tool that loads the project of
the directory it runs in is destructive run from outside the workspace (programs/cloud.py ``project_here``), as a
build there is. Everyday uses get their grade; the forms that write outside, run code, reach the network or read
secrets stay high."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE


def _workspace(tmp_path: Path) -> Path:
    return project(
        tmp_path,
        {
            "cdk.json": '{"app": "npx ts-node bin/app.ts"}\n',
            "Gruntfile.js": "module.exports = function (grunt) {};\n",
            "page.html": "<a href='x'>x</a>\n",
            "a.svg": "<svg/>\n",
            "in.d2": "a -> b\n",
            "x.py": "print 1\n",
            "nb.ipynb": "{}",
            "Caddyfile": ":8080\n",
            "api.hurl": "GET http://localhost:8080\n",
        },
    )


EVERYDAY = [
    ("cdk synth", NET),  # runs the app, looks up context in the account
    ("cdk diff", NET),
    ("cdk --version", RO),
    ("sls info", NET),
    ("firebase projects:list", NET),
    ("kubeseal --cert cert.pem < secret.yaml > sealed.yaml", NET),
    ("dbt ls", WW),
    ("dbt compile", NET),
    ("dbt --version", RO),
    ("grunt", WW),
    ("nodemon --version", RO),
    ("pm2 list", RO),
    ("ember build", WW),
    ("ember serve", NET),
    ("gatsby build", WW),
    ("hexo generate", WW),
    ("web-ext lint", WW),  # web-ext-config.mjs is JavaScript
    ("lighthouse --output json https://example.com", NET),
    ("hurl --test api.hurl", NET),
    ("htmlq a --attribute href -f page.html", RO),
    ("tidy-viewer data.csv", RO),
    ("svgo a.svg", WW),
    ("d2 in.d2 out.svg", WW),
    ("d2 fmt in.d2", WW),
    ("2to3 x.py", RO),
    ("2to3 -w x.py", WW),
    ("zizmor --offline .github/workflows", RO),
    ("zizmor .github/workflows", NET),
    ("jupytext --to py nb.ipynb", WW),
    ("jupytext --diff x.py nb.ipynb", WW),  # .jupytext.py configuration is Python
    ("marimo convert nb.ipynb", RO),
    ("quarto --version", RO),
    ("gitlint", WW),
    ("act -l", RO),
    ("hyperfine --version", RO),
    ("dlv version", RO),
    ("caddy fmt Caddyfile", RO),
    ("caddy fmt --overwrite Caddyfile", WW),
    ("caddy run", NET),
    ("nextflow log", RO),
    ("dagger version", RO),
    ("sox media/in.wav build/out.ogg", WW),
    ("sox --i media/in.wav", RO),
    ("soxi media/in.wav", RO),
    ("serve -s build", NET),
    ("ipython --version", RO),
    ("irb -v", RO),
    ("tre -a -l 2", RO),
]


@pytest.mark.parametrize(("command", "risk"), EVERYDAY)
def test_everyday_uses_get_their_grade(tmp_path: Path, command: str, risk: RiskLevel) -> None:
    level, reasons = graded(command, _workspace(tmp_path))
    assert level is risk, (command, reasons)


HIGH = [
    ("cdk deploy", DES),  # deletes what the app no longer declares
    ("cdk synth --app 'touch ran'", DES),
    ("cd ../elsewhere && cdk synth", DES),  # that directory's app
    ("serverless deploy", DES),
    ("serverless invoke local -f hello", DES),
    ("serverless print", NET),  # resolves secrets
    ("firebase deploy", SYS),
    ("firebase emulators:start", DES),
    ("kubeseal --recovery-unseal --recovery-private-key key.pem < sealed.yaml", NET),
    ("kubeseal < secret.yaml --merge-into /etc/x.yaml", DES),
    ("dbt run", DES),
    ("dbt ls --project-dir /opt/other", DES),
    ("cd ../elsewhere && dbt compile", DES),
    ("grunt build --gruntfile /opt/x/Gruntfile.js", DES),
    ("nodemon app.js", DES),
    ("pm2 jlist", NET),  # each process's environment
    ("pm2 start app.js", DES),
    ("pm2 startup", DES),
    ("cd ../elsewhere && ember serve", DES),
    ("web-ext build --artifacts-dir /etc/x", DES),
    ("web-ext run", DES),
    ("lighthouse --chrome-flags='--renderer-cmd-prefix=touch' https://example.com", DES),
    ("lighthouse --output-path /etc/x.json https://example.com", DES),
    ("lighthouse --cli-flags-path flags.json https://example.com", DES),
    ("hurl --output /etc/x api.hurl", DES),
    ("htmlq -f ~/.ssh/id_rsa a", NET),
    ("svgo a.svg -o /etc/x.svg", DES),
    ("d2 in.d2 /etc/out.svg", DES),
    ("d2 --watch in.d2 out.svg", NET),
    ("2to3 -w /etc/x.py", DES),
    ("jupytext --to py /etc/nb.ipynb", DES),
    ("jupytext --execute --to ipynb x.py", DES),
    ("jupytext --pipe black nb.ipynb", DES),
    ("marimo edit nb.py", DES),
    ("quarto render doc.qmd", DES),
    ("gitlint install-hook", DES),
    ("act", DES),
    ("hyperfine 'touch ran'", DES),
    ("pwsh -Command 'echo x'", DES),
    ("dlv debug", DES),
    ("caddy environ", NET),
    ("caddy adapt --config Caddyfile", DES),  # prints what it makes of the files the configuration imports
    ("cd ../elsewhere && svgo a.svg", DES),  # that directory's svgo.config.js
    ("caddy trust", DES),
    ("nextflow run main.nf -resume", DES),
    ("dagger call build", DES),
    ("cd ../elsewhere && ansible all -m ping", DES),  # that directory's ansible.cfg
    ("sox '|touch ran' out.wav", DES),  # an input that is a program's output
    ("sox -d out.wav", DES),  # records from the sound card
    ("sox media/in.wav /etc/out.ogg", DES),
    ("ipython -i script.py", DES),
    ("irb --simple-prompt", DES),
    ("tre -e vim", DES),
]


@pytest.mark.parametrize(("command", "risk"), HIGH)
def test_writes_code_network_and_secrets_stay_high(tmp_path: Path, command: str, risk: RiskLevel) -> None:
    level, reasons = graded(command, _workspace(tmp_path))
    assert level is risk, (command, reasons)
