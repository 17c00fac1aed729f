import fc from 'fast-check';

// The bad values the chaos scenarios draw from, by kind: strings, numbers, JSON texts, content
// types, query values, headers and forged cursors.

/** Percent-encodes every byte but the unreserved ones (a lone surrogate becomes U+FFFD first). */
export function pct(text: string): string {
  let out = '';
  for (const b of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(b);
    out += b < 128 && /[A-Za-z0-9\-._~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A value, briefly, for a report. */
export function show(value: unknown): string {
  if (typeof value === 'string') {
    const shown = JSON.stringify(value.length > 32 ? value.slice(0, 32) : value);
    return value.length > 32 ? `${shown}…(${value.length} chars)` : shown;
  }
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 48 ? `${json.slice(0, 48)}…(${json.length} chars)` : json;
}

const b64 = (text: string) => Buffer.from(text).toString('base64url');

export const UNICODE_EDGES = [
  '\uD800',
  'a\uDFFFb',
  '\uD83D',
  '\u0000',
  'nul\u0000byte',
  '\u202Eevil\u202C',
  '\u200F\u05E9\u05DC\u05D5\u05DD \u0645\u0631\u062D\u0628\u0627',
  '👩‍👩‍👧‍👦',
  '🇺🇳'.repeat(40),
  'e\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308',
  'Z\u0334\u0321\u032A\u032B\u0356a\u0337\u0327\u035Al\u0338g\u0335o\u0336',
  '\uFEFFbom',
  '\u200B\u200C\u200D\u2060',
  '\uFFFE\uFFFF',
  '\u2028\u2029',
  '\u{1D54F}\u{1D550}',
  'İıſK',
  '\r\n\t\v\f',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "'; DROP TABLE events;--",
  '{"$ne":null}',
  '$where',
  '%00%2F',
  '\\u0000',
];

/** Surrogates (0xD800–0xDFFF) are left out, as fast-check's `binary` unit leaves them out. */
const SURROGATES = { from: 0xd800, count: 0x800 };
const CODE_POINTS = 0x110000 - SURROGATES.count;

/**
 * Any one code point but a surrogate: fast-check's `binary` unit, written out. That unit maps
 * an index to a code point and back through a table of all 1.1 million, built on first use:
 * 0.7 s of CPU per process. This one draws the same index and maps it the same way, so it
 * generates the same strings; it maps back by arithmetic.
 */
const codePoint = fc.nat({ max: CODE_POINTS - 1 }).map(
  (i) => String.fromCodePoint(i < SURROGATES.from ? i : i + SURROGATES.count),
  (value) => {
    const cp = typeof value === 'string' ? value.codePointAt(0) : undefined;
    if (cp === undefined || String.fromCodePoint(cp) !== value) throw new Error('not one code point');
    if (cp < SURROGATES.from) return cp;
    if (cp < SURROGATES.from + SURROGATES.count) throw new Error('a surrogate');
    return cp - SURROGATES.count;
  },
);

export const unicodeString = fc.oneof(
  fc.constantFrom(...UNICODE_EDGES),
  fc.string({ unit: codePoint, minLength: 1, maxLength: 24 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }),
);

export const wrongTypes = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, '', ' ', '0', 'true', 'null', [], {}, [null], [[]], {
    '': null,
  }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.jsonValue({ maxDepth: 2 }),
  unicodeString,
);

/** Numeric literals JSON.parse reads oddly (Infinity, -0, lost precision) or refuses. */
export const RAW_NUMBERS = [
  '1e999',
  '-1e999',
  '-0',
  '1E+400',
  '0.1e-400',
  '123456789012345678901234567890',
  '9007199254740993',
  '-9223372036854775809',
  '00012',
  '+1',
  '0x1F',
  'NaN',
  'Infinity',
  '1.',
  '.5',
  '4.355',
];

export const MALFORMED_JSON = [
  '{',
  '{"a":}',
  "{'a':1}",
  '{"a":1,}',
  '{"a":1}{"b":2}',
  'nul',
  '',
  ' ',
  '\u0000',
  '{"a":"\\x41"}',
  '{"a":"\\ud800"',
  '[1,2',
  '{"a":1}\u0000',
  '\uFEFF{}',
];

export const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=chaos',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/jsonx',
  'application/vnd.api+json',
  'application/*',
  'json',
  ';;;',
  null,
];

export const INTEGER_QUERY = [
  '-1',
  '0',
  '101',
  '1001',
  '1e308',
  '1.5',
  'abc',
  '',
  '%00',
  '0x10',
  '%2B5',
  '%205',
  '99999999999999999999999',
  '-0',
  'Infinity',
  'NaN',
  '1%2C2',
  '%E2%80%AE1',
];
export const ENUM_QUERY = [
  'OPEN',
  'open%20',
  '',
  'null',
  '__proto__',
  '%00',
  'a%2Cb',
  '%F0%9F%98%80',
  'x'.repeat(3000),
];

export const HEADERS: Array<Record<string, string>> = [
  { 'idempotency-key': '' },
  { 'idempotency-key': 'k'.repeat(6000) },
  { 'idempotency-key': '\u00ff\u00fe latin-1' },
  { 'if-match': 'garbage' },
  { 'if-match': '"-1"' },
  { 'if-match': '"99999999999999999999999"' },
  { 'if-match': 'W/"1", "2", *' },
  { 'if-none-match': '*' },
  { accept: 'application/xml' },
  { accept: 'text/event-stream' },
  { accept: '*/*;q=abc' },
  { 'x-request-id': 'r'.repeat(5000) },
  { 'x-forwarded-for': 'garbage, 999.1.1.1' },
  { 'x-http-method-override': 'DELETE' },
  { range: 'bytes=0-1' },
];

/** Cursor forgeries built from real ones: same signature, values of every wrong kind. */
export function cursorVariants(real: string[]): string[] {
  const out = [...real];
  for (const cursor of real.slice(0, 6)) {
    out.push(
      cursor.slice(0, -2),
      `${cursor}A`,
      cursor.replace(/^./, (c) => (c === 'e' ? 'f' : 'e')),
    );
    let decoded: any;
    try {
      decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
      continue;
    }
    if (decoded && typeof decoded === 'object' && 's' in decoded) {
      for (const v of [
        [],
        [null],
        [{ $gt: '' }, 'x'],
        [1e308, 'x'],
        ['x'.repeat(600), 'x'],
        [true, 1],
        [[[]], {}],
        'v',
      ])
        out.push(b64(JSON.stringify({ s: decoded.s, v })));
      out.push(b64(JSON.stringify({ s: `${decoded.s}x`, v: decoded.v })), b64(JSON.stringify({ v: decoded.v })));
    }
  }
  out.push(
    b64('null'),
    b64('[]'),
    b64('"x"'),
    b64('{"__proto__":{"polluted":1}}'),
    b64('p-1'),
    b64('p1e308'),
    b64('pNaN'),
    b64('p99999999999999999999'),
    'x'.repeat(1025),
    '%00',
    '====',
    '%F0%9F%98%80',
  );
  return out;
}
