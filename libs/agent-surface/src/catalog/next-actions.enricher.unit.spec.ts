import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ProblemContext } from '#http';
import { agentNextActionsEnricher } from './next-actions.enricher.js';

const enrich = agentNextActionsEnricher({
  config: { publicUrl: 'https://data.example.com' },
  operationAt: (method, path) =>
    method === 'GET' && path.startsWith('/api/v1/companies/')
      ? { operationId: 'getCompanyProfile', method, path: '/api/v1/companies/{id}' }
      : undefined,
});

function context(over: Partial<ProblemContext>): ProblemContext {
  return {
    method: 'GET',
    path: '/api/v1/agents/status',
    url: '/api/v1/agents/status',
    status: 400,
    headers: {},
    request: {},
    ...over,
  };
}

describe('agentNextActionsEnricher (the error filter hook of the agent surface)', () => {
  it('adds next_actions to a 4xx under /api/v1, with the operation found by method and path', () => {
    const problem: Record<string, unknown> = { code: 'VALIDATION_FAILED' };
    enrich(problem, context({ path: '/api/v1/companies/x', url: '/api/v1/companies/x?fields=a' }));
    const actions = problem.next_actions as Array<{ action: string; operation_id?: string }>;
    assert.equal(actions[0]!.action, 'read_operation_docs');
    assert.equal(actions[0]!.operation_id, 'getCompanyProfile');
  });

  it('takes the retry delay of a 429 from Retry-After, and repeats the query', () => {
    const problem: Record<string, unknown> = { code: 'RATE_LIMIT_EXCEEDED', retry_after: 9 };
    enrich(
      problem,
      context({
        status: 429,
        path: '/api/v1/discovery/top',
        url: '/api/v1/discovery/top?limit=3',
        headers: { 'Retry-After': '30' },
      }),
    );
    assert.deepEqual(problem.next_actions, [
      {
        action: 'retry_after',
        method: 'GET',
        url: 'https://data.example.com/api/v1/discovery/top?limit=3',
        retry_after_seconds: 30,
        description: 'Make the same request again after 30 seconds (Retry-After).',
      },
    ]);
  });

  it('keeps the next_actions an error brought, only making relative URLs absolute', () => {
    const own = [
      { action: 'retry_later', method: 'POST', url: '/api/v1/agents/signup', retry_after: 5 },
      { action: 'buy_credits', method: 'GET', url: 'https://pay.example.com/c/1' },
    ];
    const problem: Record<string, unknown> = { code: 'RATE_LIMIT_EXCEEDED', next_actions: own };
    enrich(problem, context({ status: 429 }));
    assert.deepEqual(problem.next_actions, [
      { action: 'retry_later', method: 'POST', url: 'https://data.example.com/api/v1/agents/signup', retry_after: 5 },
      { action: 'buy_credits', method: 'GET', url: 'https://pay.example.com/c/1' },
    ]);
    assert.equal(own[0]!.url, '/api/v1/agents/signup', 'the error itself is not changed');
  });

  it('leaves 5xx and other surfaces alone', () => {
    const server: Record<string, unknown> = { code: 'INTERNAL_ERROR' };
    enrich(server, context({ status: 500 }));
    assert.equal(server.next_actions, undefined);
    const platform: Record<string, unknown> = { code: 'NOT_FOUND' };
    enrich(platform, context({ status: 404, path: '/v1/agents/x', url: '/v1/agents/x' }));
    assert.equal(platform.next_actions, undefined);
  });
});
