import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, USAGE, UsageError } from '../cli-args.js';

describe('svc audit arguments', () => {
  it('credits: every account by default, or one, at an instant', () => {
    assert.deepEqual(parseCliArgs(['audit', 'credits']), { kind: 'audit-credits' });
    assert.deepEqual(parseCliArgs(['audit', 'credits', '--account', 'acct_1']), {
      kind: 'audit-credits',
      accountId: 'acct_1',
    });
    assert.deepEqual(parseCliArgs(['audit', 'credits', '--as-of', '2026-03-01T12:30:00.5+02:00']), {
      kind: 'audit-credits',
      asOf: new Date('2026-03-01T10:30:00.500Z'),
    });
    assert.deepEqual(parseCliArgs(['audit', 'credits', '--as-of', '2026-03-01']), {
      kind: 'audit-credits',
      asOf: new Date('2026-03-01T00:00:00Z'),
    });
  });

  it('deliveries: every webhook by default, or one', () => {
    assert.deepEqual(parseCliArgs(['audit', 'deliveries']), { kind: 'audit-deliveries' });
    assert.deepEqual(parseCliArgs(['audit', 'deliveries', '--webhook', 'sub_1']), {
      kind: 'audit-deliveries',
      webhookId: 'sub_1',
    });
  });

  it('refuses bad arguments with a UsageError (exit 2)', () => {
    for (const argv of [
      ['audit'],
      ['audit', 'payments'],
      ['audit', 'credits', '--bogus'],
      ['audit', 'credits', 'acct_1'],
      ['audit', 'credits', '--account', ''],
      ['audit', 'credits', '--account'],
      ['audit', 'deliveries', '--webhook', ' '],
      ['audit', 'deliveries', '--account', 'acct_1'],
    ])
      assert.throws(() => parseCliArgs(argv), UsageError, argv.join(' '));
    // A time without its offset would be read in local time; nonsense is nonsense.
    for (const value of ['2026-03-01T12:00:00', 'yesterday', '2026-13-01', '1700000000', '2026-03-01T25:00:00Z'])
      assert.throws(
        () => parseCliArgs(['audit', 'credits', '--as-of', value]),
        /--as-of expects an ISO 8601 time with its offset/,
        value,
      );
  });

  it('the usage names both commands and what the read model is', () => {
    assert.match(USAGE, /audit credits \[--account ID\] \[--as-of ISO_TIME\]/);
    assert.match(USAGE, /audit deliveries \[--webhook ID\]/);
    assert.match(USAGE, /The read model is every\s+other copy of the balance/);
  });
});
