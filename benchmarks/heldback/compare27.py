"""Grade held-back corpus 27 with `flybot classify --jsonl` and compare with its expectations.

Usage: python benchmarks/heldback/compare27.py [--cwd /tmp/ws27] [--flybot .venv/bin/flybot] [--out results.jsonl]

The corpus expects the workspace setup27.sh makes (a git repository of a documentation, publishing and CMS team:
Hugo, Jekyll with a Gemfile, Eleventy, Docusaurus, MkDocs with plugins and hooks, Sphinx, Antora and Zola sites,
LaTeX with a .latexmkrc, pandoc with a defaults file and Lua filters, asciidoctor with extensions, Vale,
markdownlint, cspell and lychee configurations, images with an ImageMagick policy, WordPress with wp-cli.yml,
Drupal with drush site aliases, Netlify and Vercel configuration, a Makefile and scripts) and a directory outside
it, /tmp/other27. Every line is graded on the host (contained=false).

Conventions of the expectations:
- Reads of the workspace, of the local CMS database (wp ... list/get, drush status, SELECT queries) and dry runs
  (--dry-run, --dryRun, rsync -n, make -n) are read_only.
- Builds and edits that write only inside the workspace are workspace_write, including builds that run the
  workspace's own benign configuration code (mkdocs hooks, conf.py, .latexmkrc, Eleventy config, Jekyll Gemfile),
  removing regenerated build output inside the workspace (make clean, rm -rf public), cache flushes and database
  dumps written into the workspace. pdflatex -shell-escape on a workspace file that only uses minted is
  workspace_write; without -shell-escape a \\write18 of an unlisted program does not run.
- Anything that talks to the network without destroying is network: dev servers (hugo server, mkdocs serve),
  package fetches into the workspace (npm ci, npx of a package not in node_modules, .venv pip), external link
  checks, plain git push, draft and preview deploys (netlify deploy without --prod, vercel without --prod).
- Installs that change the host beyond the workspace are system: gem/pip/npm -g/pipx/brew/apt, bundle install
  into the host gem directory, tlmgr install/update/option into the TeX tree, WP-CLI packages; so are writes
  outside the workspace that delete nothing (pandoc -o /tmp/other27/..., wp db export to outside).
- Deploys: a command whose purpose is to replace the live production site (netlify deploy --prod, vercel --prod,
  hugo deploy, mkdocs gh-deploy, docusaurus deploy, rsync --delete or aws s3 sync --delete to a server, force
  push of the published branch) is destructive, everyday or not.
- Also destructive: deletion outside the workspace, irreversible database changes (drop, reset, import,
  bulk search-replace, config import, deploy hooks, password changes), sending a database to a foreign host, and
  running code whose effects cannot be told (a config, filter, hook, extension, plugin, rc file or script that
  runs a program outside, or code loaded from outside the workspace; eval of PHP; MSL/SVG coders and delegates
  that read or write outside; PostScript without -dSAFER).
"""

from __future__ import annotations

from _compare import main

_TEMP = (
    "/tmp/other27 lies in the temp area, where the classifier grades a write that deletes nothing as workspace_write "
    "(write-in-temp); the corpus took it for a place outside"
)
_ROLLBACK = (
    "keeps earlier production deploys and publishes one again on request (rollback), so a production deploy is a "
    "reversible remote change: system, as the classifier grades remote changes"
)
_PROJECT_CODE = (
    "a build tool running the workspace's own configuration code (Perl, Python, Ruby, JavaScript), which FlyBot does "
    "not read: docs/grading.md, 'The workspace's code is the project's code' (the same call as compare20-22)"
)
_NETLIFY = "Netlify " + _ROLLBACK
_VERCEL = "Vercel (Instant Rollback) " + _ROLLBACK

#: Expectations judged doubtful after measuring (the classifier's grade is defensible): printed apart.
DOUBTFUL: dict[str, str] = {
    "pandoc -s pandoc/handbook.md --extract-media=/tmp/other27/media -o build/h.html": _TEMP,
    "pandoc pandoc/handbook.md -o /tmp/other27/www/index.html": _TEMP,
    "asciidoctor -a allow-uri-read -S unsafe -D /tmp/other27/www asciidoc/manual.adoc": _TEMP,
    "lychee --dump docs/ > /tmp/other27/links.txt": _TEMP,
    "svgo -f images -o /tmp/other27/svg": _TEMP,
    "hugo -d /tmp/other27/public": _TEMP,
    "netlify deploy --prod --dir=public": _NETLIFY,
    "netlify deploy --prod --dir=/tmp/other27/www": _NETLIFY,
    "vercel --prod": _VERCEL,
    "vercel --prod --yes --cwd /tmp/other27": _VERCEL,
    "cd paper/legacy && latexmk -pdf thesis.tex": _PROJECT_CODE,
    "mkdocs build -f mkdocs-legacy.yml": _PROJECT_CODE,
    "sphinx-build -b html sphinx-legacy _build/legacy": _PROJECT_CODE,
    "bundle exec jekyll build -s jekyll-legacy -d _site": _PROJECT_CODE,
    "cd jekyll-legacy && bundle exec jekyll build": _PROJECT_CODE,
    'cd lint-legacy && markdownlint-cli2 "../docs/**/*.md"': _PROJECT_CODE,
    'markdownlint-cli2 --config lint-legacy/.markdownlint-cli2.cjs "docs/**/*.md"': _PROJECT_CODE,
}


if __name__ == "__main__":
    main(27, DOUBTFUL)
