// Checks that the README and the ADRs name only things that exist: libs (`#name`, `libs/x`),
// repository paths (`apps/…`, `libs/…`, `scripts/…`, `docs/…`, `test/…`, `deploy/…`, `.ci/…`)
// and environment variables (`SVC_*`, read somewhere in the code). Exit 1 with each name that does
// not, so `npm run lint` fails when code moves and the documents stay behind (ADR 0092).
// Usage: node scripts/docs-names.mjs [file.md ...]   (default: README.md and docs/adr/*.md)
//
// It also fails when a comment in the code cites an "issue N" of the tracker, which is not in the
// repository: a comment says the reason, or cites the ADR.
//
// A superseded ADR may keep a name that is gone as history: it lists it in a comment
// `<!-- docs-names: history #common libs/common -->` and says in its text what replaced it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

const libNames = new Set(
  Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).imports ?? {}).map((k) => k.slice(1)),
);

/** Every SVC_* name that appears in the code, the deployment files or the CI (not in the docs or specs). */
function envNames() {
  const names = new Set();
  const sources = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.git')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|mjs|cjs|js|ya?ml|json|sh)$|^Dockerfile$/.test(entry.name) && !/\.spec\.ts$/.test(entry.name))
        sources.push(path);
    }
  };
  for (const top of ['apps', 'libs', 'scripts', 'test', 'deploy', '.ci'])
    if (existsSync(join(root, top))) walk(join(root, top));
  for (const file of readdirSync(root))
    if (/^(docker-compose.*\.ya?ml|Dockerfile|package\.json)$/.test(file)) sources.push(join(root, file));
  for (const file of sources) for (const m of readFileSync(file, 'utf8').matchAll(/\bSVC_[A-Z0-9_]+/g)) names.add(m[0]);
  return names;
}

const PATH_TOPS = ['apps', 'libs', 'scripts', 'docs', 'test', 'deploy', '.ci'];
const pathPattern = new RegExp(
  `(?<![\\w./#-])(?:${PATH_TOPS.map((t) => t.replace('.', '\\.')).join('|')})/[\\w.@/*{}<>…-]*`,
  'g',
);

/** The part of a path before any pattern (`*`, `{a,b}`, `<name>`, `…`), without trailing punctuation. */
function concretePrefix(path) {
  const cut = path.search(/[*{<…]/);
  const head = cut === -1 ? path : path.slice(0, path.lastIndexOf('/', cut) + 1);
  return head.replace(/[.,;:)]+$/, '');
}

function pathExists(path) {
  if (existsSync(join(root, path))) return true;
  // A compiled name (`dist/…` aside): `foo.js` in prose for `foo.ts`.
  return /\.js$/.test(path) && existsSync(join(root, path.replace(/\.js$/, '.ts')));
}

export function check(files, env = envNames()) {
  const problems = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const history = new Set(
      [...text.matchAll(/<!--\s*docs-names:\s*history\s+([^>]*?)\s*-->/g)].flatMap((m) => m[1].split(/\s+/)),
    );
    const where = relative(root, file);
    text.split('\n').forEach((line, i) => {
      const at = `${where}:${i + 1}`;
      if (/<!--\s*docs-names:/.test(line)) return;
      for (const m of line.matchAll(/(?<![\w/(&#.:-])#([a-z][a-z0-9-]*)(?:\/([a-z]+))?\b/g)) {
        const name = m[2] ? `${m[1]}/${m[2]}` : m[1];
        if (!libNames.has(name) && !history.has(`#${name}`)) problems.push(`${at}: lib #${name} does not exist`);
      }
      for (const m of line.matchAll(pathPattern)) {
        const path = concretePrefix(m[0]);
        if (path.split('/').filter(Boolean).length < 2) continue;
        if (!pathExists(path) && !history.has(path) && ![...history].some((h) => path.startsWith(`${h}/`)))
          problems.push(`${at}: path ${path} does not exist`);
      }
      for (const m of line.matchAll(/\bSVC_[A-Z0-9_]*[A-Z0-9]\b/g))
        if (!env.has(m[0]) && !history.has(m[0])) problems.push(`${at}: environment variable ${m[0]} is read nowhere`);
    });
  }
  return problems;
}

/** nest-cli.json's projects against the apps and libs on disk (the Nest CLI's generators read it). */
export function nestProjects(dir = root) {
  const nest = JSON.parse(readFileSync(join(dir, 'nest-cli.json'), 'utf8'));
  const problems = [];
  for (const [top, type] of [
    ['apps', 'application'],
    ['libs', 'library'],
  ]) {
    const onDisk = readdirSync(join(dir, top)).filter((d) => existsSync(join(dir, top, d, 'src')));
    const listed = Object.entries(nest.projects)
      .filter(([, p]) => p.type === type)
      .map(([name, p]) => [name, p.root]);
    for (const name of onDisk)
      if (!listed.some(([, r]) => r === `${top}/${name}`))
        problems.push(`nest-cli.json: ${top}/${name} is not a project`);
    for (const [name, r] of listed)
      if (!onDisk.includes(r.slice(top.length + 1)))
        problems.push(`nest-cli.json: project ${name} names ${r}, which does not exist`);
  }
  return problems;
}

/** Lines of the code (apps, libs, test, scripts) whose comment cites a tracker issue by number. */
export function issueCitations(files) {
  const found = [];
  for (const file of files)
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const comment = /(?:\/\/|^\s*\*|\/\*)(.*)$/.exec(line)?.[1];
        if (comment && /\bissues? #?\d+/i.test(comment))
          found.push(`${relative(root, file)}:${i + 1}: cites an issue number`);
      });
  return found;
}

function codeFiles() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|mjs|cjs)$/.test(entry.name)) files.push(path);
    }
  };
  for (const top of ['apps', 'libs', 'test', 'scripts']) walk(join(root, top));
  return files;
}

const isMain = process.argv[1] && new URL(import.meta.url).pathname === process.argv[1];
if (isMain) {
  const args = process.argv.slice(2);
  const code = args.filter((f) => !f.endsWith('.md'));
  const docs = args.filter((f) => f.endsWith('.md'));
  const files = docs.length
    ? docs
    : [
        join(root, 'README.md'),
        ...readdirSync(join(root, 'docs/adr'))
          .filter((f) => f.endsWith('.md'))
          .map((f) => join(root, 'docs/adr', f)),
      ];
  const problems = [
    ...(args.length && !docs.length ? [] : check(files.filter((f) => statSync(f).isFile()))),
    ...(args.length && !code.length ? [] : issueCitations(code.length ? code : codeFiles())),
    ...(args.length ? [] : nestProjects()),
  ];
  if (problems.length) {
    console.error(
      `${problems.join('\n')}\n\n${problems.length} name(s) the repository lacks, or issue numbers cited in code`,
    );
    process.exit(1);
  }
  console.log(`docs names: the documents name only libs, paths and settings that exist; no comment cites an issue`);
}
