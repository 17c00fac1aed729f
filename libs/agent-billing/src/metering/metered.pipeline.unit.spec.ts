import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AppConfig, Errors } from '#kernel';
import { unauthorized } from '#access';
import type { AgentAuthenticator } from '#agent-contract';
import type { TenantLookup } from './tenant-lookup.port.js';
import { MeteredPipeline, type MeteredRoute } from './metered.pipeline.js';
import type { MeteringService } from './metering.service.js';

const principal = { accountId: 'acct_1', keyId: 'key_1' };

/** A pipeline over recording fakes: `steps` lists what ran, in order. */
function pipelineWith(p: { key?: 'ok' | '401'; tenant?: 'ok' | '403' } = {}) {
  const steps: string[] = [];
  const auth = {
    require: () => {
      steps.push('key');
      if (p.key === '401') throw unauthorized('INVALID_KEY', 'no such key');
      return principal;
    },
  } as unknown as AgentAuthenticator;
  const tenants = {
    require: async (_principal: unknown, { write }: { write: boolean }) => {
      steps.push(`tenant ${write ? 'write' : 'read'}`);
      if (p.tenant === '403') throw Errors.forbidden('WORKSPACE_REQUIRES_ENTERPRISE', 'no tenant');
      return { tenantId: 'tn_1', ...principal };
    },
  } as unknown as TenantLookup;
  const metering = {
    authorize: async () => {
      steps.push('hold');
      return { release: () => steps.push('release') };
    },
    charge: async (_caller: unknown, meter: string, requestId: string) => {
      steps.push(`charge ${meter} ${requestId}`);
      return { meter, priceCents: 350, balanceCents: 650 };
    },
  } as unknown as MeteringService;
  const pipeline = new MeteredPipeline(auth, tenants, metering, { publicUrl: 'https://svc.example' } as AppConfig);
  const validate =
    (fails = false) =>
    () => {
      steps.push('validate');
      if (fails) throw Errors.validation([{ path: 'query.limit', message: 'too big' }]);
      return { limit: 3 };
    };
  const work =
    (fails = false) =>
    async () => {
      steps.push('work');
      if (fails) throw new Error('the query failed');
      return { data: [] };
    };
  return { pipeline, steps, validate, work };
}

const paid: MeteredRoute = { method: 'GET', auth: 'key', meter: 'read.discovery_top' };
const workspaceWrite: MeteredRoute = { method: 'PATCH', auth: 'tenant_key', meter: 'write.workspace.note' };

describe('MeteredPipeline: one order of steps for every metered use case', () => {
  it('a paid call: key, validation, hold, work, then the charge under the server’s request id', async () => {
    const { pipeline, steps, validate, work } = pipelineWith();
    const { charged } = await pipeline.run({ headers: {} }, paid, validate(), work(), 'req-1:1');
    assert.equal(charged?.priceCents, 350);
    assert.deepEqual(steps, ['key', 'validate', 'hold', 'work', 'charge read.discovery_top req-1:1', 'release']);
  });

  it('a workspace write: the tenant after the key and before the validation, asked for a writable workspace', async () => {
    const { pipeline, steps, validate, work } = pipelineWith();
    await pipeline.run({ headers: {} }, workspaceWrite, validate(), work(), 'req-2:1');
    assert.deepEqual(steps.slice(0, 3), ['key', 'tenant write', 'validate']);
  });

  it('refusals before the work hold nothing and charge nothing: 401, 403, 400', async () => {
    for (const [setup, route, fails, kind, ran] of [
      [{ key: '401' }, paid, false, 'unauthenticated', ['key']],
      [{ tenant: '403' }, workspaceWrite, false, 'forbidden', ['key', 'tenant write']],
      [{}, paid, true, 'invalid', ['key', 'validate']],
    ] as const) {
      const { pipeline, steps, validate, work } = pipelineWith(setup);
      await assert.rejects(pipeline.run({ headers: {} }, route, validate(fails), work(), 'r'), { kind });
      assert.deepEqual(steps, ran);
    }
  });

  it('a failed work drops its hold and is not charged', async () => {
    const { pipeline, steps, validate, work } = pipelineWith();
    await assert.rejects(pipeline.run({ headers: {} }, paid, validate(), work(true), 'r'), /the query failed/);
    assert.deepEqual(steps, ['key', 'validate', 'hold', 'work', 'release']);
  });

  it('a free route without a key runs only the validation and the work', async () => {
    const { pipeline, steps, validate, work } = pipelineWith();
    const { charged } = await pipeline.run({ headers: {} }, { method: 'POST', auth: 'none' }, validate(), work(), 'r');
    assert.equal(charged, null);
    assert.deepEqual(steps, ['validate', 'work']);
  });
});
