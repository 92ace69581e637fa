"""Web front-end and edge tools. ``netlify build`` and ``vercel build`` run the build command netlify.toml and
vercel.json name (a shell line FlyBot does not read), as their ``dev`` commands do. ``wrangler deploy --dry-run``
only compiles the Worker; ``npx wrangler`` is the wrangler command (the npm package of that name is Cloudflare's),
plus the fetch when the project does not have it. ``deno fmt --check`` only reports. Each beside the everyday form."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel
_FILES = {
    "package.json": '{"name": "web", "private": true, "scripts": {"build": "vite build"}}\n',
    "netlify.toml": '[build]\n  command = "npm run build"\n  publish = "dist"\n',
    "vercel.json": '{"buildCommand": "npm run build", "outputDirectory": "dist"}\n',
    "workers/edge/wrangler.toml": 'name = "edge"\nmain = "src/index.ts"\ncompatibility_date = "2024-11-01"\n',
    "edge/deno.json": '{"fmt": {"lineWidth": 100}}\n',
    "edge/main.ts": "Deno.serve(() => new Response('ok'));\n",
}


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("netlify build", R.DESTRUCTIVE),
        ("ntl build --context production", R.DESTRUCTIVE),
        ("vercel build --prod", R.DESTRUCTIVE),
        ("npx wrangler deploy", R.SYSTEM),
        ("npx wrangler deploy --env production", R.SYSTEM),
        ("npx wrangler secret put API_TOKEN", R.SYSTEM),
        ("npx wrangler delete", R.DESTRUCTIVE),
        ("npx wrangler dev", R.DESTRUCTIVE),
        ("npx wrangler deploy --dry-run --outdir ~/worker", R.SYSTEM),
        ("npx wrangler@latest --config /tmp/x/wrangler.toml whoami", R.DESTRUCTIVE),
        ("wrangler deploy --config workers/edge/wrangler.toml", R.SYSTEM),
        ("cd edge && deno fmt --check -c /tmp/x/deno.json", R.DESTRUCTIVE),
    ],
)
def test_hostile_form_keeps_a_high_grade(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, _FILES)
    risk, details = graded(command, ws)
    assert risk >= expected, details


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("netlify status", R.NETWORK),
        ("vercel ls", R.NETWORK),
        ("npx wrangler whoami", R.NETWORK),
        ("npx wrangler types --config workers/edge/wrangler.toml", R.NETWORK),
        ("npx wrangler deploy --dry-run --outdir dist-worker --config workers/edge/wrangler.toml", R.NETWORK),
        ("wrangler deploy --dry-run --outdir dist-worker --config workers/edge/wrangler.toml", R.WORKSPACE_WRITE),
        ("cd edge && deno fmt --check", R.READ_ONLY),
        ("cd edge && deno fmt", R.WORKSPACE_WRITE),
    ],
)
def test_everyday_form_is_not_over_graded(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, _FILES)
    risk, details = graded(command, ws)
    assert risk == expected, details
