import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '#kernel';

/**
 * A CLI command on the embedded store needs one that exists: a mistyped SVC_DATA_DIR would
 * otherwise get a new, empty store, and the command would answer from it (or write into it) as
 * if all were well. The api creates the store on its first start; the CLI only with `--create`.
 * Returns the sentence to refuse with, or undefined when the command may go on.
 */
export function missingStore(
  config: Pick<AppConfig, 'dataDir' | 'eventStoreUrl' | 'mongoUrl'>,
  create: boolean,
): string | undefined {
  // The server stores hold everything when both are set (open-stores.ts: nothing in the directory).
  if (create || (config.eventStoreUrl && config.mongoUrl)) return undefined;
  // The file name is open-stores.ts's sqlitePath(), not imported: #runtime loads every feature.
  if (existsSync(join(config.dataDir, 'svc.sqlite'))) return undefined;
  const what = existsSync(config.dataDir) ? 'has no store (svc.sqlite)' : 'does not exist';
  return (
    `svc: SVC_DATA_DIR ${config.dataDir} ${what}. Check SVC_DATA_DIR; ` +
    `the api creates the store on its first start (npm start), or pass --create to make a new empty one here.`
  );
}
