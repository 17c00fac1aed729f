// Runs the compiled spec files with Node's built-in test runner.
// Usage: node scripts/run-tests.mjs [unit|int|e2e] [--times=FILE] [--list] [path-filter...]
// --list prints the processes the files would run in (one line each, its files) and runs nothing.
// Node 20's --test takes no globs, so the files are found here.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const levels = new Set(['unit', 'int', 'e2e']);
const args = process.argv.slice(2);
const level = args.find((a) => levels.has(a));
// --times=FILE writes each spec file's wall time there, longest first (scripts/file-times-reporter.mjs).
const times = args.find((a) => a.startsWith('--times='))?.slice('--times='.length);
const list = args.includes('--list');
const filters = args.filter((a) => !levels.has(a) && !a.startsWith('--times=') && a !== '--list');

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

const files = [];
for (const top of ['apps', 'libs', 'test']) {
  try {
    for await (const f of walk(join(root, 'dist', top))) {
      if (!/\.(unit|int|e2e)\.spec\.js$/.test(f)) continue;
      if (level && !f.endsWith(`.${level}.spec.js`)) continue;
      const rel = relative(root, f);
      if (filters.length && !filters.some((x) => rel.includes(x))) continue;
      files.push(f);
    }
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
}
// Spec files of one area and level share a process (ADR 0101): a process start and the loading of
// the app's modules cost about a second of CPU, more than most files' own tests, and the suite is
// bound by CPU. The area is a lib, an app or a folder under test/; a group holds at most
// GROUP_SIZE files of its level. A file runs alone when it asks to (a `// spec-process: own` line,
// with its reason) or when it has hooks at its top level, which would apply to the whole group.
// TEST_GROUPS=0 runs every file in a process of its own, to tell a file's failure from a neighbour's.
const GROUP_SIZE = { e2e: 4, int: 8, unit: 40 };
const levelOf = (f) => /\.(unit|int|e2e)\.spec\.js$/.exec(f)[1];
const areaOf = (f) => relative(join(root, 'dist'), f).split('/').slice(0, 2).join('/');
const TOP_LEVEL_HOOK = /^(before|after|beforeEach|afterEach)\(/m;
async function runsAlone(file) {
  const source = join(root, relative(join(root, 'dist'), file)).replace(/\.js$/, '.ts');
  const text = await readFile(source, 'utf8').catch(() => '');
  return text.includes('// spec-process: own') || TOP_LEVEL_HOOK.test(text);
}

// The long files first, so that the lanes end together rather than one running a long e2e file
// alone at the end (ADR 0097): end-to-end, then integration, then the unit files; by path within.
const rank = { e2e: 0, int: 1, unit: 2 };
files.sort((a, b) => rank[levelOf(a)] - rank[levelOf(b)] || (a < b ? -1 : a > b ? 1 : 0));
if (files.length === 0) {
  console.error('run-tests: no spec files matched');
  process.exit(1);
}

// One entry per process: its spec files.
const plan = [];
if (process.env.TEST_GROUPS === '0') plan.push(...files.map((f) => [f]));
else {
  const open = new Map();
  for (const file of files) {
    if (await runsAlone(file)) {
      plan.push([file]);
      continue;
    }
    const key = `${areaOf(file)} ${levelOf(file)}`;
    let group = open.get(key);
    if (!group || group.length >= GROUP_SIZE[levelOf(file)]) {
      group = [];
      open.set(key, group);
      plan.push(group);
    }
    group.push(file);
  }
}
if (list) {
  for (const group of plan) console.log(group.map((f) => relative(root, f)).join(' '));
  process.exit(0);
}

const groupsDir = join(root, 'dist', '.spec-groups', String(process.pid));
const entries = [];
const counters = new Map();
for (const group of plan) {
  if (group.length === 1) {
    entries.push(group[0]);
    continue;
  }
  const name = `${areaOf(group[0]).replace('/', '-')}.${levelOf(group[0])}`;
  const n = (counters.get(name) ?? 0) + 1;
  counters.set(name, n);
  const path = join(groupsDir, `${name}.${n}.spec.js`);
  const imports = group.map((f) => `import ${JSON.stringify(relative(groupsDir, f))};`).join('\n');
  await mkdir(groupsDir, { recursive: true });
  await writeFile(path, `// ${group.length} spec files in one process (scripts/run-tests.mjs)\n${imports}\n`);
  entries.push(path);
}
const removeGroups = () => rmSync(groupsDir, { recursive: true, force: true });

const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const child = spawn(
  process.execPath,
  [
    '--enable-source-maps',
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    ...(times ? ['--test-reporter=./scripts/file-times-reporter.mjs', `--test-reporter-destination=${times}`] : []),
    `--test-concurrency=${concurrency}`,
    // Node 20 applies one timeout to each test and to each file the runner starts, so it must
    // cover a whole group (a group of e2e files takes up to about 80 s here): a test that hangs
    // is stopped after 5 minutes, its group with it.
    '--test-timeout=300000',
    ...entries,
  ],
  { stdio: 'inherit', cwd: root },
);
child.on('exit', (code, signal) => {
  removeGroups();
  process.exit(signal ? 1 : (code ?? 1));
});
