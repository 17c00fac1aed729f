// Draws the graph of libs and apps with dependency-cruiser into docs/architecture.md, between
// the markers below. `--check` fails (exit 1) when the document's graph is not the code's:
// `npm run lint` runs it, so the map cannot drift from the code.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const doc = `${root}docs/architecture.md`;
const BEGIN = '<!-- lib-graph:begin (npm run graph) -->';
const END = '<!-- lib-graph:end -->';

const mermaid = execFileSync(
  `${root}node_modules/.bin/depcruise`,
  ['apps', 'libs', '--config', '.dependency-cruiser.cjs', '--include-only', '^(apps|libs)/', '--collapse', '^(libs|apps)/[^/]+', '--output-type', 'mermaid'],
  { cwd: root, encoding: 'utf8' },
).trim();
const block = `${BEGIN}\n\`\`\`mermaid\n${mermaid}\n\`\`\`\n${END}`;

const text = readFileSync(doc, 'utf8');
const from = text.indexOf(BEGIN);
const to = text.indexOf(END);
if (from < 0 || to < 0) throw new Error(`docs/architecture.md lacks the ${BEGIN} … ${END} markers`);
const next = text.slice(0, from) + block + text.slice(to + END.length);
if (process.argv.includes('--check')) {
  if (next !== text) {
    console.error('docs/architecture.md: the lib graph differs from the code; run `npm run graph`');
    process.exit(1);
  }
  console.log('docs/architecture.md: lib graph up to date');
} else {
  writeFileSync(doc, next);
  console.log('docs/architecture.md: lib graph written');
}
