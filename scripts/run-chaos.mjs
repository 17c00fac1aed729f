// Runs the compiled fault-harness scenarios (dist/test/chaos/scenarios/*.chaos.js) one after
// the other, each in its own Node process; each prints one line `chaos <name>: ok|FAILED ...`.
// Usage: node scripts/run-chaos.mjs [name...]   (exact scenario names; none = all)
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, 'dist', 'test', 'chaos', 'scenarios');
const wanted = process.argv.slice(2);

let names;
try {
  names = (await readdir(dir))
    .filter((f) => f.endsWith('.chaos.js'))
    .map((f) => f.slice(0, -'.chaos.js'.length))
    .sort();
} catch (error) {
  if (error.code !== 'ENOENT') throw error;
  names = [];
}
const unknown = wanted.filter((w) => !names.includes(w));
if (names.length === 0 || unknown.length > 0) {
  console.error(
    `run-chaos: ${names.length === 0 ? 'no scenario built (did `npm run build` run?)' : `unknown scenario ${unknown.join(', ')}`}; scenarios: ${names.join(', ')}`,
  );
  process.exit(2);
}

let failed = 0;
for (const name of wanted.length ? wanted : names) {
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--enable-source-maps', join(dir, `${name}.chaos.js`)], {
      stdio: 'inherit',
      cwd: root,
    });
    child.on('exit', (c, signal) => resolve(signal ? 1 : (c ?? 1)));
  });
  if (code !== 0) failed++;
}
process.exit(failed ? 1 : 0);
