// Loaded with `--import` (NODE_OPTIONS) by scripts/test-node24.mjs, so every Node process of the
// suite, spawned children included, resolves better-sqlite3 to the copy built for its ABI while
// node_modules keeps the build for the machine's own Node. Node's module customization hooks.
import { register } from 'node:module';

const dir = process.env.BETTER_SQLITE3_PACKAGE;
if (!dir) throw new Error('BETTER_SQLITE3_PACKAGE names the better-sqlite3 package built for this Node');
register('./better-sqlite3.hooks.mjs', import.meta.url, { data: { dir } });
