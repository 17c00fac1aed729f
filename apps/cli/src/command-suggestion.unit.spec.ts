import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { USAGE } from './cli-args.js';
import { suggestCommand } from './command-suggestion.js';
import { COMMANDS } from './command-table.js';

const entries = COMMANDS.map((c) => ({ command: c.name, text: c.usage }));

describe('the command table and the suggestions derived from it', () => {
  it('the usage lists every command of the table with its own lines', () => {
    for (const c of COMMANDS) {
      assert.ok(USAGE.includes(`\n${c.usage}\n`), c.name);
      assert.ok(c.usage.startsWith(`  ${c.name}`), `${c.name}: its usage entry starts with its name`);
    }
    const names = COMMANDS.map((c) => c.name);
    assert.equal(new Set(names).size, names.length, 'no command twice');
    for (const c of ['projections status', 'events tail', 'companies import', 'secrets reseal', 'audit credits'])
      assert.ok(names.includes(c), c);
    assert.match(COMMANDS.find((c) => c.name === 'events tail')!.usage, /--follow/);
  });

  it('an action without its group, a typo of a group, nothing for a word far from all', () => {
    assert.deepEqual(suggestCommand(entries, ['import', 'x.csv'])?.commands, ['companies import']);
    assert.deepEqual(suggestCommand(entries, ['projection', 'status'])?.commands, ['projections status']);
    assert.deepEqual(suggestCommand(entries, ['tail'])?.commands, ['events tail']);
    assert.equal(suggestCommand(entries, ['frobnicate']), undefined);
    const usage = suggestCommand(entries, ['import'])!.usage;
    assert.match(usage, /companies import FILE/);
    assert.doesNotMatch(usage, /companies generate/);
  });
});
