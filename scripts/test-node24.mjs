// The suite on Node 24, the current LTS (ADR 0090), beside the machine's own Node.
// Usage: node scripts/test-node24.mjs [unit|int|e2e] [path-filter...]   (npm run test:node24)
//
// Node 24 comes from the npm registry (node-<platform>-<arch>: the binary and its headers) into
// .cache/node24. better-sqlite3 is native: it is built once for Node 24's ABI from the installed
// package's sources, with those headers (no download: its prebuilt binaries come from GitHub), in
// a copy under .cache/node24, and every process of the run resolves `better-sqlite3` to that copy
// through a resolve hook (NODE_OPTIONS --import), so node_modules keeps the machine's own build.
//
// The headers are Node 24.18.1's, not the newest 24's: from 24.19.0 on, node::ObjectWrap's
// destructor removes an environment cleanup hook and aborts when a garbage collection finalizes
// an object outside a JavaScript context (nodejs/node#65446); better-sqlite3 12 derives its
// Statement from ObjectWrap, so a build against those headers aborts (SIGABRT) at random GCs.
// The crash follows the headers the addon was compiled with, not the runtime it loads into.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const LINE = '24';
const root = new URL('..', import.meta.url).pathname;
const cache = join(root, '.cache', `node${LINE}`);
const platform = process.platform === 'win32' ? 'win' : process.platform;
const nodePackage = `node-${platform}-${process.arch}`;
const nodeDir = join(cache, 'node_modules', nodePackage);
const node = join(nodeDir, 'bin', 'node');
const HEADERS = '24.18.1';
const headersDir = join(cache, `headers-${HEADERS}`, 'node_modules', nodePackage);

const say = (line) => console.error(`test-node24: ${line}`);

/** npm as this script was started by it (npm run), else the one on PATH. */
function npm(args, options = {}) {
  const cli = process.env.npm_execpath;
  const [file, argv] = cli?.endsWith('.js') ? [process.execPath, [cli, ...args]] : ['npm', args];
  execFileSync(file, argv, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
}

if (!existsSync(node)) {
  say(`installing ${nodePackage}@${LINE} into ${cache}`);
  mkdirSync(cache, { recursive: true });
  npm([
    'install',
    '--no-save',
    '--no-package-lock',
    '--no-audit',
    '--no-fund',
    '--prefix',
    cache,
    `${nodePackage}@${LINE}`,
  ]);
}
if (!existsSync(join(headersDir, 'include', 'node', 'node.h'))) {
  say(`installing ${nodePackage}@${HEADERS} (its headers) into ${cache}`);
  npm([
    'install',
    '--no-save',
    '--no-package-lock',
    '--no-audit',
    '--no-fund',
    '--prefix',
    join(cache, `headers-${HEADERS}`),
    `${nodePackage}@${HEADERS}`,
  ]);
}
const version = execFileSync(node, ['-p', 'process.version + " " + process.versions.modules']).toString().trim();
const [nodeVersion, abi] = version.split(' ');
if (!nodeVersion.startsWith(`v${LINE}.`)) throw new Error(`${node} is ${nodeVersion}, not Node ${LINE}`);

const sqlite = join(cache, `better-sqlite3-abi${abi}-headers-${HEADERS}`, 'node_modules', 'better-sqlite3');
if (!existsSync(join(sqlite, 'build', 'Release', 'better_sqlite3.node'))) {
  const source = dirname(
    execFileSync(process.execPath, ['-p', 'require.resolve("better-sqlite3/package.json")'], { cwd: root })
      .toString()
      .trim(),
  );
  say(`building better-sqlite3 for ABI ${abi} with Node ${HEADERS}'s headers in ${sqlite}`);
  rmSync(sqlite, { recursive: true, force: true });
  cpSync(source, sqlite, { recursive: true, filter: (from) => !from.startsWith(join(source, 'build')) });
  // node-gyp as npm ships it; --nodedir: the headers of a Node package, nothing downloaded.
  const npmCli =
    process.env.npm_execpath ?? execFileSync('npm', ['root', '-g']).toString().trim() + '/npm/bin/npm-cli.js';
  const gyp = resolve(dirname(npmCli), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  execFileSync(node, [gyp, 'rebuild', '--release', '--loglevel=warn', `--nodedir=${headersDir}`], {
    cwd: sqlite,
    stdio: ['ignore', 'ignore', 'inherit'],
    // node-gyp lets npm_config_* variables override its command line, and an npmrc's `nodedir`
    // (npm run exports it as npm_config_nodedir) would build against the machine's own Node's
    // headers: the build sees none of them.
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name))),
      PATH: `${join(nodeDir, 'bin')}:${process.env.PATH}`,
    },
  });
}
// Fail in seconds, not after every server of the suite has timed out: the build must load in Node 24.
try {
  execFileSync(node, ['-e', `new (require(${JSON.stringify(sqlite)}))(':memory:').close()`], { stdio: 'pipe' });
} catch (error) {
  say(`better-sqlite3 in ${sqlite} does not load in Node ${nodeVersion}; delete it to rebuild`);
  process.stderr.write(String(error.stderr ?? error));
  process.exit(1);
}
say(`running the suite on ${nodeVersion}, better-sqlite3 from ${sqlite}`);

const register = pathToFileURL(join(root, 'scripts', 'node24', 'better-sqlite3.register.mjs')).href;
const child = spawn(node, [join(root, 'scripts', 'run-tests.mjs'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    // Children started as `node` or with process.execPath both run Node 24.
    PATH: `${join(nodeDir, 'bin')}:${process.env.PATH}`,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${register}`.trim(),
    BETTER_SQLITE3_PACKAGE: sqlite,
  },
});
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
