import { InvalidFilterError, type Doc, type Scalar } from '../document-store.port.js';
import { getPath } from './document-filter.js';

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

/** A document to write needs a non-empty string id. */
export function checkDoc(doc: Doc): void {
  if (!doc || typeof doc.id !== 'string' || doc.id.length === 0)
    throw new TypeError('A document needs a non-empty string id');
}

/** The port's cas rule: every expected top-level field equal; an expected null matches missing. */
export function casMatches(current: Doc | null, expect: Record<string, Scalar> | null): boolean {
  if (expect === null) return current === null;
  if (current === null) return false;
  for (const [field, value] of Object.entries(expect)) {
    const actual = getPath(current, field);
    if (value === null ? actual !== null && actual !== undefined : actual !== value) return false;
  }
  return true;
}
