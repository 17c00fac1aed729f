import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { USAGE } from './cli-args.js';
import { suggestCommand, usageEntries } from './command-suggestion.js';

describe('command suggestions (read from the usage text)', () => {
  it('lists every command of the usage with its own lines', () => {
    const commands = usageEntries(USAGE).map((e) => e.command);
    for (const c of ['projections status', 'events tail', 'companies import', 'secrets reseal', 'audit credits'])
      assert.ok(commands.includes(c), c);
    assert.ok(!commands.includes('help'));
    const tail = usageEntries(USAGE).find((e) => e.command === 'events tail')!;
    assert.match(tail.text, /--follow/);
  });

  it('an action without its group, a typo of a group, nothing for a word far from all', () => {
    assert.deepEqual(suggestCommand(USAGE, ['import', 'x.csv'])?.commands, ['companies import']);
    assert.deepEqual(suggestCommand(USAGE, ['projection', 'status'])?.commands, ['projections status']);
    assert.deepEqual(suggestCommand(USAGE, ['tail'])?.commands, ['events tail']);
    assert.equal(suggestCommand(USAGE, ['frobnicate']), undefined);
    const usage = suggestCommand(USAGE, ['import'])!.usage;
    assert.match(usage, /companies import FILE/);
    assert.doesNotMatch(usage, /companies generate/);
  });
});
