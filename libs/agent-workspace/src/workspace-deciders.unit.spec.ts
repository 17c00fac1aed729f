import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, type Decider } from '#kernel';
import { allowedStageMoves, dealDecider } from './deal.decider.js';
import { followUpDecider } from './follow-up.decider.js';
import { memoDecider } from './memo.decider.js';
import { tenantDecider } from './tenant.decider.js';
import { workspaceCompanyDecider } from './workspace-company.decider.js';

const now = new Date('2026-11-25T10:00:00.000Z');

/** given events, when a command, then the new events (or the refusal's code). */
function given<C, E extends { type: string }, S>(decider: Decider<C, E, S>, events: E[]) {
  const state = events.reduce((s, e) => decider.evolve(s, e), decider.initialState);
  return {
    when: (command: C) => {
      try {
        return { events: decider.decide(command, state), code: null as string | null };
      } catch (error) {
        if (error instanceof AppError) return { events: [] as E[], code: error.code, error };
        throw error;
      }
    },
  };
}

describe('tenant decider', () => {
  const create = { type: 'CreateTenant' as const, tenantId: 'tn_1', name: ' Acme ', ownerAccountId: 'acct_1', now };
  it('given no tenant, when created, then TenantCreated with the trimmed name and its account', () => {
    const { events } = given(tenantDecider, []).when(create);
    assert.deepEqual(events[0]!.data, {
      tenant_id: 'tn_1',
      name: 'Acme',
      owner_account_id: 'acct_1',
      created_at: now.toISOString(),
    });
  });
  it('given a tenant, when created again, then TENANT_EXISTS; given no name, then VALIDATION_FAILED', () => {
    const created = given(tenantDecider, []).when(create).events;
    assert.equal(given(tenantDecider, created).when(create).code, 'TENANT_EXISTS');
    assert.equal(given(tenantDecider, []).when({ ...create, name: '  ' }).code, 'VALIDATION_FAILED');
  });
});

describe('workspace company decider', () => {
  const add = {
    type: 'AddCompany' as const,
    tenantId: 'tn_1',
    companyId: 'wco_1',
    sourceCompanyId: null,
    name: 'Zeta',
    domain: 'Zeta.example',
    stage: null,
    owner: 'ana',
    snapshot: { profile: null, score: null },
    by: 'key_1',
    now,
  };
  it('given no company, when added, then CompanyAdded with the domain in lower case', () => {
    const { events } = given(workspaceCompanyDecider, []).when(add);
    assert.equal(events[0]!.data.domain, 'zeta.example');
    assert.equal(events[0]!.data.owner, 'ana');
  });
  it('given the company, when added again, then WORKSPACE_COMPANY_EXISTS naming it', () => {
    const added = given(workspaceCompanyDecider, []).when(add).events;
    const again = given(workspaceCompanyDecider, added).when(add);
    assert.equal(again.code, 'WORKSPACE_COMPANY_EXISTS');
  });
});

describe('memo decider', () => {
  const update = (body: string, expectedVersion?: number) => ({
    type: 'UpdateMemo' as const,
    tenantId: 'tn_1',
    companyId: 'wco_1',
    body,
    expectedVersion,
    by: 'key_1',
    now,
  });
  it('given no memo, when written with If-Match 0, then version 1', () => {
    const { events } = given(memoDecider, []).when(update('a', 0));
    assert.equal(events[0]!.data.version, 1);
  });
  it('given version 1, when written with If-Match 0, then 412 MEMO_VERSION_CONFLICT with the current version', () => {
    const v1 = given(memoDecider, []).when(update('a')).events;
    const stale = given(memoDecider, v1).when(update('b', 0));
    assert.equal(stale.code, 'MEMO_VERSION_CONFLICT');
    assert.equal((stale.error as AppError).kind, 'precondition_failed');
    assert.deepEqual((stale.error as AppError).extra, { current_version: 1 });
  });
  it('given version 1, when written without If-Match, then version 2 (last writer wins); the same body writes nothing', () => {
    const v1 = given(memoDecider, []).when(update('a')).events;
    assert.equal(given(memoDecider, v1).when(update('b')).events[0]!.data.version, 2);
    assert.deepEqual(given(memoDecider, v1).when(update('a')).events, []);
  });
});

describe('deal decider (stage rule)', () => {
  const create = {
    type: 'CreateDeal' as const,
    tenantId: 'tn_1',
    dealId: 'deal_1',
    companyId: 'wco_1',
    name: 'Seed',
    stage: 'sourced' as const,
    amountUsd: null,
    owner: null,
    by: 'key_1',
    now,
  };
  const move = (stage: Parameters<typeof allowedStageMoves>[0], changes = {}) => ({
    type: 'UpdateDeal' as const,
    tenantId: 'tn_1',
    stage,
    changes,
    by: 'key_1',
    now,
  });
  const created = given(dealDecider, []).when(create).events;

  it('given an open deal, when moved forwards or back, then StageChanged from → to', () => {
    const toIc = given(dealDecider, created).when(move('ic'));
    assert.deepEqual(
      toIc.events.map((e) => [e.type, 'to' in e.data ? e.data.to : null]),
      [['WorkspaceDealStageChanged', 'ic']],
    );
    const atIc = [...created, ...toIc.events];
    assert.equal(given(dealDecider, atIc).when(move('screening')).code, null);
  });
  it('given a closed deal, when moved anywhere but screening, then DEAL_STAGE_TRANSITION_NOT_ALLOWED; screening reopens it', () => {
    const won = [...created, ...given(dealDecider, created).when(move('closed_won')).events];
    for (const stage of ['sourced', 'diligence', 'ic', 'term_sheet', 'closed_lost'] as const)
      assert.equal(given(dealDecider, won).when(move(stage)).code, 'DEAL_STAGE_TRANSITION_NOT_ALLOWED', stage);
    assert.equal(given(dealDecider, won).when(move('screening')).events.length, 1);
  });
  it('given a deal, when the same stage and changed fields are sent, then only DealUpdated with the changes', () => {
    const { events } = given(dealDecider, created).when(move('sourced', { next_step: 'call', owner: null }));
    assert.deepEqual(
      events.map((e) => e.type),
      ['WorkspaceDealUpdated'],
    );
    assert.deepEqual((events[0]!.data as { changes: unknown }).changes, { next_step: 'call' });
  });
  it('given no deal, when updated, then DEAL_NOT_FOUND', () => {
    assert.equal(given(dealDecider, []).when(move('ic')).code, 'DEAL_NOT_FOUND');
  });
});

describe('follow-up decider', () => {
  const upsert = (status: 'open' | 'done', title = 'Call') => ({
    type: 'UpsertFollowUp' as const,
    tenantId: 'tn_1',
    companyId: 'wco_1',
    key: 'call',
    fields: { title, due_at: '2026-12-01T09:00:00.000Z', assignee: null, status },
    by: 'key_1',
    now,
  });
  it('given none, when put, then Upserted (created); the same put again changes nothing', () => {
    const first = given(followUpDecider, []).when(upsert('open')).events;
    assert.deepEqual(
      first.map((e) => e.type),
      ['WorkspaceFollowUpUpserted'],
    );
    assert.equal((first[0]!.data as { created: boolean }).created, true);
    assert.deepEqual(given(followUpDecider, first).when(upsert('open')).events, []);
  });
  it('given an open one, when put done, then Upserted and Completed; done again completes nothing more', () => {
    const open = given(followUpDecider, []).when(upsert('open')).events;
    const done = given(followUpDecider, open).when(upsert('done')).events;
    assert.deepEqual(
      done.map((e) => e.type),
      ['WorkspaceFollowUpUpserted', 'WorkspaceFollowUpCompleted'],
    );
    const retitled = given(followUpDecider, [...open, ...done]).when(upsert('done', 'Call back')).events;
    assert.deepEqual(
      retitled.map((e) => e.type),
      ['WorkspaceFollowUpUpserted'],
    );
  });
});
