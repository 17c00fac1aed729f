// Writes the two generated parts of docs/architecture.md from the code: the graph of libs and
// apps as dependency-cruiser draws it, and the table from each HTTP path to the folder of its
// controller (read from the @Controller / @Get… decorators, and for the routes oidc-provider answers
// from OAUTH_ENDPOINTS, which OAuthServer mounts outside Nest's router). `--check` fails (exit 1) when the
// document differs from the code: `npm run lint` runs it, so the map cannot drift.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const doc = `${root}docs/architecture.md`;

const mermaid = execFileSync(
  `${root}node_modules/.bin/depcruise`,
  [
    'apps',
    'libs',
    '--config',
    '.dependency-cruiser.cjs',
    '--include-only',
    '^(apps|libs)/',
    '--collapse',
    '^(libs|apps)/[^/]+',
    '--output-type',
    'mermaid',
  ],
  { cwd: root, encoding: 'utf8' },
).trim();

/** Every route: method, full path, the controller's folder (relative to the repository). */
function routes() {
  const found = [];
  const files = readdirSync(join(root, 'libs'), { recursive: true })
    .map((f) => join(root, 'libs', f))
    .filter((f) => /controller\.ts$/.test(f));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const prefix = /@Controller\(\s*'([^']*)'\s*\)/.exec(text)?.[1] ?? '';
    for (const m of text.matchAll(/@(Get|Post|Put|Patch|Delete)\(\s*(?:'([^']*)')?\s*\)/g)) {
      const path =
        '/' +
        [prefix, m[2] ?? '']
          .filter(Boolean)
          .join('/')
          .replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
      found.push({ method: m[1].toUpperCase(), path, folder: relative(root, dirname(file)) });
    }
  }
  found.push(...oauthRoutes());
  return found.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/**
 * The routes in OAUTH_ENDPOINTS (`url: OAUTH_ROUTES.x` or `${OAUTH_ROUTES.x}/…`), read from the
 * sources like the decorators (lint runs before the build). A shape this does not read fails here.
 */
function oauthRoutes() {
  const dir = join(root, 'libs/identity/src/oauth/server');
  const settings = readFileSync(join(dir, 'oauth-settings.ts'), 'utf8');
  const block = /export const OAUTH_ROUTES = \{([^}]*)\}/.exec(settings)?.[1] ?? '';
  const base = Object.fromEntries([...block.matchAll(/(\w+): '([^']+)'/g)].map((m) => [m[1], m[2]]));
  const text = readFileSync(join(dir, 'oauth-endpoints.ts'), 'utf8');
  const list = text.slice(text.indexOf('export const OAUTH_ENDPOINTS'));
  const methods = [...list.matchAll(/\bmethod: '/g)].length;
  const found = [
    ...list.matchAll(/method: '(GET|POST)',\s*url: (?:OAUTH_ROUTES\.(\w+)|`\$\{OAUTH_ROUTES\.(\w+)\}([^`]*)`)/g),
  ].map((m) => {
    const path = base[m[2] ?? m[3]];
    if (!path) throw new Error(`oauth-endpoints.ts: OAUTH_ROUTES.${m[2] ?? m[3]} not found in oauth-settings.ts`);
    return {
      method: m[1],
      path: (path + (m[4] ?? '')).replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}'),
      folder: relative(root, dir),
    };
  });
  if (found.length === 0 || found.length !== methods)
    throw new Error(
      `oauth-endpoints.ts: read ${found.length} of its ${methods} endpoints; teach scripts/architecture-doc.mjs its shape`,
    );
  return found;
}

function replaceBlock(text, name, body) {
  const begin = `<!-- ${name}:begin (npm run graph) -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < 0) throw new Error(`docs/architecture.md lacks the ${begin} … ${end} markers`);
  return text.slice(0, from) + `${begin}\n${body}\n${end}` + text.slice(to + end.length);
}

const table = [
  '| method | path | folder |',
  '|---|---|---|',
  ...routes().map((r) => `| ${r.method} | \`${r.path}\` | \`${r.folder}\` |`),
].join('\n');

const text = readFileSync(doc, 'utf8');
const next = replaceBlock(replaceBlock(text, 'lib-graph', `\`\`\`mermaid\n${mermaid}\n\`\`\``), 'path-table', table);
if (process.argv.includes('--check')) {
  if (next !== text) {
    console.error('docs/architecture.md: its lib graph or path table differs from the code; run `npm run graph`');
    process.exit(1);
  }
  console.log('docs/architecture.md: lib graph and path table up to date');
} else {
  writeFileSync(doc, next);
  console.log('docs/architecture.md: lib graph and path table written');
}
