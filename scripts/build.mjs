// Compiles every TypeScript file under apps/, libs/ and test/ to dist/ with SWC, and copies the
// data files (`*.data.yaml`, content read at start by loadDataFile) beside the compiled modules.
// SWC (not esbuild) because Nest's dependency injection needs emitted decorator metadata;
// type checking is tsc's job (`npm run typecheck`), so this stays a fast per-file transform.
// @swc/wasm rather than @swc/core: the registry reachable here serves only some of @swc/core's
// per-platform binaries, and `npm ci` refuses a lock file that lacks the others.
import { copyFile, mkdir, readdir, readFile, writeFile, rm, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist');
const roots = ['apps', 'libs', 'test'];

// Loaded only when a file needs compiling: with nothing to do (the CLI's `presvc`), the build
// is a walk and a stat per file.
let swc;

const options = {
  sourceMaps: true,
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'es6' },
};

async function* walk(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
    else if (isDataFile(entry.name)) yield path;
  }
}

const isDataFile = (name) => name.endsWith('.data.yaml');
const outputOf = (rel) => join(outDir, isDataFile(rel) ? rel : rel.replace(/\.ts$/, '.js'));

async function isFresh(src, out) {
  try {
    const [s, o] = await Promise.all([stat(src), stat(out)]);
    return o.mtimeMs >= s.mtimeMs;
  } catch {
    return false;
  }
}

const clean = process.argv.includes('--clean');
if (clean) await rm(outDir, { recursive: true, force: true });

const files = [];
for (const r of roots) for await (const f of walk(join(root, r))) files.push(f);

let compiled = 0;
let failed = 0;
const queue = [...files];
async function worker() {
  for (let file = queue.shift(); file; file = queue.shift()) {
    const rel = relative(root, file);
    const out = outputOf(rel);
    if (await isFresh(file, out)) continue;
    if (isDataFile(rel)) {
      await mkdir(dirname(out), { recursive: true });
      await copyFile(file, out);
      continue;
    }
    try {
      const source = await readFile(file, 'utf8');
      swc ??= (await import('@swc/wasm')).default;
      const result = await swc.transform(source, {
        ...options,
        filename: file,
        sourceFileName: relative(dirname(out), file),
      });
      await mkdir(dirname(out), { recursive: true });
      await writeFile(out, `${result.code}\n//# sourceMappingURL=${out.split('/').pop()}.map\n`);
      if (result.map) await writeFile(`${out}.map`, result.map);
      compiled++;
    } catch (error) {
      failed++;
      console.error(`build: ${rel}: ${error.message ?? error}`);
    }
  }
}
await Promise.all(Array.from({ length: 8 }, worker));

// Drop outputs whose source is gone, so a deleted spec (or data file) never runs from a stale dist/.
const expected = new Set(files.map((f) => outputOf(relative(root, f))));
for (const r of roots) {
  for await (const out of walkJs(join(outDir, r))) {
    if (!expected.has(out)) await rm(out, { force: true }).then(() => rm(`${out}.map`, { force: true }));
  }
}
async function* walkJs(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walkJs(path);
    else if (entry.name.endsWith('.js') || isDataFile(entry.name)) yield path;
  }
}
if (failed > 0) {
  console.error(`build: ${failed} file(s) failed`);
  process.exit(1);
}
if (!process.argv.includes('--quiet'))
  console.log(`build: ${compiled} compiled, ${files.length - compiled} up to date`);
