import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, USAGE, UsageError } from '../cli-args.js';

const LEAD = 'lead_01JAAAAAAAAAAAAAAAAAAAAAAA';
const ACCOUNT = 'acct_01JBBBBBBBBBBBBBBBBBBBBBBB';

describe('svc leads and workspaces --account arguments', () => {
  it('list (optionally by status), convert with or without --account, workspaces create --account', () => {
    assert.deepEqual(parseCliArgs(['leads', 'list']), { kind: 'leads-list' });
    assert.deepEqual(parseCliArgs(['leads', 'list', '--status', 'received']), {
      kind: 'leads-list',
      status: 'received',
    });
    assert.deepEqual(parseCliArgs(['leads', 'convert', '--lead', LEAD]), { kind: 'leads-convert', leadId: LEAD });
    assert.deepEqual(parseCliArgs(['leads', 'convert', '--lead', LEAD, '--account', ACCOUNT]), {
      kind: 'leads-convert',
      leadId: LEAD,
      accountId: ACCOUNT,
    });
    assert.deepEqual(parseCliArgs(['workspaces', 'create', '--name', 'Acme', '--account', ACCOUNT]), {
      kind: 'workspaces-create',
      name: 'Acme',
      accountId: ACCOUNT,
    });
    assert.match(USAGE, /leads convert --lead ID \[--account acct_…\]/);
  });

  it('refuses bad arguments with a UsageError (exit 2)', () => {
    for (const argv of [
      ['leads'],
      ['leads', 'delete'],
      ['leads', 'list', '--status', 'lost'],
      ['leads', 'convert'],
      ['leads', 'convert', '--lead', 'lead_1'],
      ['leads', 'convert', '--lead', LEAD, '--account', 'acct_1'],
      ['leads', 'convert', '--lead', LEAD, 'extra'],
      ['workspaces', 'create', '--name', 'Acme', '--account', 'key_1'],
    ])
      assert.throws(() => parseCliArgs(argv), UsageError, argv.join(' '));
  });
});
