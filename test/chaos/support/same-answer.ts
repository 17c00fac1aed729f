import type { ChaosAnswer } from './chaos-api.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const HEX = '0123456789abcdef';

function rotate(c: string, alphabet: string): string {
  const i = alphabet.indexOf(c);
  return i < 0 ? c : alphabet[(i + 7) % alphabet.length]!;
}

/**
 * An id of the same shape that was never issued: the prefix and the time part kept, the last 8
 * characters moved within the id's own alphabet (Crockford base32 or lower-case hex).
 */
export function sibling(id: string): string {
  const cut = id.indexOf('_') + 1;
  const body = id.slice(cut);
  const alphabet = /^[0-9a-f]+$/.test(body) ? HEX : /^[0-9A-HJKMNP-TV-Z]+$/.test(body) ? CROCKFORD : null;
  const tail = [...body.slice(-8)]
    .map((c) => {
      if (alphabet) return rotate(c, alphabet);
      if (/[a-z]/.test(c)) return rotate(c, 'abcdefghijklmnopqrstuvwxyz');
      if (/[A-Z]/.test(c)) return rotate(c, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
      return /[0-9]/.test(c) ? rotate(c, '0123456789') : c;
    })
    .join('');
  return `${id.slice(0, cut)}${body.slice(0, -8)}${tail}`;
}

/** Fields that differ between any two answers (request ids, clocks), dropped before comparing. */
const VOLATILE = new Set(['request_id', 'requestId', 'as_of', 'timestamp', 'created', 'occurred_at']);

function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !VOLATILE.has(k))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, normalise(v)]),
    );
  }
  return value;
}

/** The body's structure: keys and value types, recursively. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shape(value[0])] : [];
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !VOLATILE.has(k))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, shape(v)]),
    );
  return value === null ? 'null' : typeof value;
}

/** The answer with the given ids written as `{id}` (messages and links may name the id asked for). */
function comparable(answer: ChaosAnswer, ids: string[]): unknown {
  let text = answer.text;
  for (const id of ids) text = text.split(id).join('{id}');
  try {
    return normalise(JSON.parse(text));
  } catch {
    return text;
  }
}

/**
 * How two answers differ, for the ownership sweep: status, code, body shape, the body itself
 * once the ids are written alike (a message saying "belongs to another account" is a leak too),
 * and what was charged.
 */
export function differences(
  foreign: ChaosAnswer,
  never: ChaosAnswer,
  ids: { foreign: string[]; never: string[] },
): string[] {
  const out: string[] = [];
  if (foreign.failure || never.failure) return [`no answer: ${foreign.failure ?? ''} ${never.failure ?? ''}`.trim()];
  if (foreign.status !== never.status) out.push(`status ${foreign.status} ≠ ${never.status}`);
  const code = (a: ChaosAnswer) => a.json?.code ?? a.json?.error?.code;
  if (code(foreign) !== code(never)) out.push(`code ${String(code(foreign))} ≠ ${String(code(never))}`);
  const a = JSON.stringify(shape(answerBody(foreign)));
  const b = JSON.stringify(shape(answerBody(never)));
  if (a !== b) out.push(`body shape ${a.slice(0, 120)} ≠ ${b.slice(0, 120)}`);
  else if (JSON.stringify(comparable(foreign, ids.foreign)) !== JSON.stringify(comparable(never, ids.never)))
    out.push('bodies differ beyond the id asked for');
  for (const header of ['x-credits-charged', 'content-type']) {
    if (foreign.headers.get(header) !== never.headers.get(header))
      out.push(`${header} ${String(foreign.headers.get(header))} ≠ ${String(never.headers.get(header))}`);
  }
  return out;
}

function answerBody(answer: ChaosAnswer): unknown {
  return answer.json === undefined ? answer.text : answer.json;
}
