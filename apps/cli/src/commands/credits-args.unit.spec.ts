import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, USAGE, UsageError } from '../cli-args.js';

const grant = (usd: string, reference = 'PO-1234') =>
  parseCliArgs(['credits', 'grant', '--key', 'key_1', '--usd', usd, '--reference', reference]);

describe('svc credits arguments', () => {
  it('grant: the key, the amount in integer cents, the reference trimmed', () => {
    assert.deepEqual(grant('250'), {
      kind: 'credits-grant',
      keyId: 'key_1',
      creditsCents: 25_000,
      reference: 'PO-1234',
    });
    assert.equal((grant('0.01') as { creditsCents: number }).creditsCents, 1);
    assert.equal((grant('19.9') as { creditsCents: number }).creditsCents, 1990);
    // Cents from the digits, not from floating point (0.29 * 100 is 28.999…).
    assert.equal((grant('0.29') as { creditsCents: number }).creditsCents, 29);
    assert.equal((grant('1000000') as { creditsCents: number }).creditsCents, 100_000_000);
    assert.equal((grant('1', '  PO 7 ') as { reference: string }).reference, 'PO 7');
    assert.equal((grant('1', 'r'.repeat(200)) as { reference: string }).reference.length, 200);
  });

  it('refuses bad arguments with a UsageError (exit 2)', () => {
    for (const argv of [
      ['credits'],
      ['credits', 'revoke'],
      ['credits', 'grant', '--usd', '250', '--reference', 'PO-1'],
      ['credits', 'grant', '--key', '', '--usd', '250', '--reference', 'PO-1'],
      ['credits', 'grant', '--key', 'key_1', '--reference', 'PO-1'],
      ['credits', 'grant', '--key', 'key_1', '--usd', '250'],
      ['credits', 'grant', '--key', 'key_1', '--usd', '250', '--reference', 'PO-1', 'extra'],
      ['credits', 'grant', '--key', 'key_1', '--usd', '250', '--reference', 'PO-1', '--bogus'],
    ]) {
      assert.throws(() => parseCliArgs(argv), UsageError, argv.join(' '));
    }
    for (const usd of ['0', '0.00', '1.234', '1,000', '1e3', '250 ', 'abc', '.5', '5.', '1000000.01', '99999999999'])
      assert.throws(() => grant(usd), /--usd expects an amount in USD above 0 and at most 1000000/, usd);
    assert.throws(() => grant('-5'), UsageError);
    assert.throws(
      () => parseCliArgs(['credits', 'grant', '--key', 'key_1', '--usd=-5', '--reference', 'PO-1']),
      /--usd expects an amount in USD above 0/,
    );
    assert.throws(() => grant('250', ''), /--reference TEXT is required/);
    assert.throws(() => grant('250', '   '), /--reference TEXT is required/);
    assert.throws(() => grant('250', 'r'.repeat(201)), /--reference must be at most 200 characters/);
  });

  it('is listed in the usage text', () => {
    assert.match(USAGE, /credits grant --key KEY_ID --usd AMOUNT --reference TEXT/);
  });
});
