"""Grade held-back corpus 22 with `flybot classify --jsonl` and compare with its expectations.

Usage: python benchmarks/heldback/compare22.py [--cwd /tmp/ws22] [--flybot .venv/bin/flybot] [--out results.jsonl]

The corpus expects the workspace setup22.sh makes (a git repository of a web front-end and edge project: a Vite
app, a Next.js, an Astro and a SvelteKit app, Bun scripts and bunfig.toml, a Deno edge service with deno.json
tasks and imports, Playwright, Cypress and Storybook configs, ESLint, Prettier, Stylelint, Tailwind, PostCSS and
Biome configs, a Cloudflare Worker with wrangler.toml, vercel.json and netlify.toml, .env.local and .npmrc) and a
directory outside it, /tmp/other22.
"""

from __future__ import annotations

from _compare import main

#: Expectations judged doubtful after measuring (the classifier's grade is defensible): printed apart.
DOUBTFUL: dict[str, str] = {}


if __name__ == "__main__":
    main(22, DOUBTFUL)
