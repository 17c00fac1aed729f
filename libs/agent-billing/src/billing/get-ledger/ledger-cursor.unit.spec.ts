import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { AppError } from '#kernel';
import { decodeLedgerCursor, encodeLedgerCursor, LEDGER_START } from './ledger-cursor.js';

const secret = randomBytes(32);

describe('ledger cursors', () => {
  it('round-trips the revision and the balance after it; no cursor is the start', () => {
    for (const position of [
      { revision: -1, balanceCents: 0 },
      { revision: 0, balanceCents: 2900 },
      { revision: 41, balanceCents: -5 },
    ]) {
      const cursor = encodeLedgerCursor(secret, 'acct_1', position);
      assert.match(cursor, /^[A-Za-z0-9_-]+$/, 'opaque and URL-safe');
      assert.deepEqual(decodeLedgerCursor(secret, 'acct_1', cursor), position);
    }
    assert.deepEqual(decodeLedgerCursor(secret, 'acct_1', undefined), LEDGER_START);
  });

  it('refuses a cursor of another account, another key, or one edited (400 on query.after)', () => {
    const cursor = encodeLedgerCursor(secret, 'acct_1', { revision: 3, balanceCents: 100 });
    const body = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { b: number };
    const forged = Buffer.from(JSON.stringify({ ...body, b: 999999 })).toString('base64url');
    for (const [account, key, value] of [
      ['acct_2', secret, cursor],
      ['acct_1', randomBytes(32), cursor],
      ['acct_1', secret, forged],
      ['acct_1', secret, 'garbage'],
      ['acct_1', secret, ''],
    ] as const) {
      assert.throws(
        () => decodeLedgerCursor(key, account, value),
        (e: unknown) => e instanceof AppError && e.kind === 'invalid' && JSON.stringify(e).includes('query.after'),
        `${account} ${value}`,
      );
    }
  });
});
