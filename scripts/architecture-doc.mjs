// Writes the two generated parts of docs/architecture.md from the code: the graph of libs and
// apps as dependency-cruiser draws it, and the table from each HTTP path to the folder of its
// controller (read from the @Controller / @Get… decorators). `--check` fails (exit 1) when the
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
          .replace(/:([a-z_]+)/g, '{$1}');
      found.push({ method: m[1].toUpperCase(), path, folder: relative(root, dirname(file)) });
    }
  }
  return found.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
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
