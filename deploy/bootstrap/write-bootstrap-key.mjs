// One-shot job of docker-compose.prod.yml: the first Team account and its admin key, written to
// a file of the `bootstrap` volume (mode 600) instead of the log. The apis run with
// SVC_BOOTSTRAP=false. An existing file means it is done: nothing is created twice.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const file = process.env.SVC_BOOTSTRAP_KEY_FILE ?? '/run/bootstrap/admin-key.json';
if (existsSync(file)) {
  process.stderr.write(`bootstrap: ${file} exists; nothing to do\n`);
  process.exit(0);
}
const svc = (...args) =>
  JSON.parse(execFileSync(process.execPath, ['dist/apps/cli/src/main.js', ...args], { encoding: 'utf8' }));
const account = svc('accounts', 'create', '--plan', 'team', '--name', 'Bootstrap account');
const key = svc(
  'keys',
  'create',
  '--account',
  account.account_id,
  '--scopes',
  'admin',
  '--name',
  'Bootstrap admin key',
);
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify({ account_id: account.account_id, key_id: key.id, key: key.key })}\n`, {
  mode: 0o600,
  flag: 'wx',
});
process.stderr.write(
  `bootstrap: account ${account.account_id} and admin key ${key.id} created; the key is in ${file}\n`,
);
