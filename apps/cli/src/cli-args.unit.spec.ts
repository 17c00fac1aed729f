import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, UsageError } from './cli-args.js';

describe('parseCliArgs', () => {
  it('reads the subcommands and their options', () => {
    assert.deepEqual(parseCliArgs([]), { kind: 'help' });
    assert.deepEqual(parseCliArgs(['projections', 'status']), { kind: 'projections-status' });
    assert.deepEqual(parseCliArgs(['projections', 'rebuild']), { kind: 'projections-rebuild' });
    assert.deepEqual(parseCliArgs(['projections', 'rebuild', 'companies']), {
      kind: 'projections-rebuild',
      name: 'companies',
    });
    assert.deepEqual(parseCliArgs(['secrets', 'reseal']), { kind: 'secrets-reseal' });
    assert.deepEqual(
      parseCliArgs([
        'events',
        'tail',
        '--stream',
        's-1',
        '--type-prefix',
        'Credit',
        '--type-prefix',
        'Meter',
        '--from',
        '5',
        '--limit',
        '3',
        '--follow',
      ]),
      {
        kind: 'events-tail',
        stream: 's-1',
        streamPrefixes: [],
        typePrefixes: ['Credit', 'Meter'],
        from: 5,
        limit: 3,
        follow: true,
      },
    );
  });

  it('refuses what it does not understand with a UsageError', () => {
    for (const argv of [
      ['nope'],
      ['projections'],
      ['projections', 'rebuild', 'a', 'b'],
      ['events'],
      ['events', 'tail', '--limit', 'ten'],
      ['events', 'tail', '--limit', '0'],
      ['events', 'tail', '--from', '-1'],
      ['events', 'tail', '--unknown'],
      ['events', 'tail', 'extra'],
      ['secrets'],
      ['secrets', 'rotate'],
      ['secrets', 'reseal', 'now'],
    ]) {
      assert.throws(() => parseCliArgs(argv), UsageError, argv.join(' '));
    }
  });
});
