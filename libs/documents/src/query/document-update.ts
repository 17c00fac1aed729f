import { InvalidFilterError } from '../document-store.port.js';

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The fields an `updateIf` sets, checked alike by both adapters: top-level identifiers (no dots,
 * no `$`, so neither adapter reads one as a path or an operator), never `id`, at least one; values
 * JSON-normalised as a stored document's are (undefined fields dropped).
 */
export function parseSet(set: Record<string, unknown>): Array<[field: string, value: unknown]> {
  if (set === null || typeof set !== 'object' || Array.isArray(set)) {
    throw new InvalidFilterError('updateIf: the fields to set must be an object');
  }
  const json = JSON.parse(JSON.stringify(set)) as Record<string, unknown>;
  const fields = Object.entries(json);
  if (fields.length === 0) throw new InvalidFilterError('updateIf: nothing to set');
  for (const [field] of fields) {
    if (!FIELD.test(field) || field === 'id' || field === '_id') {
      throw new InvalidFilterError(`updateIf: cannot set "${field}" (top-level fields other than id only)`);
    }
  }
  return fields;
}

export function assertDocId(id: string): void {
  if (typeof id !== 'string' || id.length === 0) throw new TypeError('A document id is a non-empty string');
}
