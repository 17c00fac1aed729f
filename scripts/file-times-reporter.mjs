// A node:test reporter that writes one line per spec file, longest first (run-tests.mjs
// --times=FILE): the seconds its top-level tests and suites took (hooks included, the process
// start and module loading not). Node 20 wraps no file in a test of its own, and the events of
// files run side by side arrive in batches, so a file's wall time cannot be read from their arrival.
// Events name the compiled file or, through its source map, the spec's source: one key for both.
const root = new URL('..', import.meta.url).pathname;
const key = (file) =>
  file
    .replace(root, '')
    .replace(/^dist\//, '')
    .replace(/\.js$/, '.ts');

export default async function* fileTimes(source) {
  const files = new Map();
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0) continue;
    if (!event.data.file) continue;
    const file = key(event.data.file);
    const entry = files.get(file) ?? { ms: 0, failed: false };
    entry.ms += event.data.details.duration_ms ?? 0;
    if (event.type === 'test:fail') entry.failed = true;
    files.set(file, entry);
  }
  const rows = [...files].sort((a, b) => b[1].ms - a[1].ms);
  const total = rows.reduce((sum, [, e]) => sum + e.ms, 0);
  yield `${(total / 1000).toFixed(1).padStart(7)}  all ${rows.length} files\n`;
  for (const [file, { ms, failed }] of rows) {
    yield `${(ms / 1000).toFixed(1).padStart(7)}  ${file}${failed ? '  (failed)' : ''}\n`;
  }
}
