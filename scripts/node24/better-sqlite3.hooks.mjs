// Resolve hook (see better-sqlite3.register.mjs): the bare specifier `better-sqlite3` goes to the
// package named at registration; everything else resolves as usual.
import { pathToFileURL } from 'node:url';

let entry;

export function initialize({ dir }) {
  entry = pathToFileURL(`${dir}/lib/index.js`).href;
}

export async function resolve(specifier, context, next) {
  if (specifier === 'better-sqlite3') return { url: entry, format: 'commonjs', shortCircuit: true };
  return next(specifier, context);
}
