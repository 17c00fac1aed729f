import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AGENT_ERRORS } from './error-catalog.js';
import { nextActionsFor, type NextAction, type NextActionsInput } from './next-actions.js';

const BASE = 'https://data.example.com';

type Failure = Pick<NextActionsInput, 'status' | 'code'> & Partial<Pick<NextActionsInput, 'retryAfterSeconds'>>;
type Request = Pick<NextActionsInput, 'method' | 'path'> & Partial<Pick<NextActionsInput, 'query' | 'operation'>>;

/** given(the error).when(the request).then(`action METHOD url` of each next action, in order). */
function given(failure: Failure) {
  return {
    when(request: Request) {
      const actions = nextActionsFor({ ...failure, ...request, baseUrl: BASE });
      return {
        actions,
        then(expected: string[]): NextAction[] {
          assert.deepEqual(
            actions.map((a) => `${a.action} ${a.method} ${a.url}`),
            expected,
          );
          return actions;
        },
      };
    },
  };
}

describe('nextActionsFor (what an agent does after a 4xx)', () => {
  it('401 without a key: how to get one, with an Idempotency-Key so a retry opens no second account', () => {
    const [pay] = given({ status: 401, code: 'MISSING_AUTH' })
      .when({ method: 'GET', path: '/api/v1/discovery/top' })
      .then([`get_api_key POST ${BASE}/api/v1/agents/pay`, `sign_up POST ${BASE}/api/v1/agents/signup`]);
    assert.match(pay!.description, /Idempotency-Key/);
  });

  it('401 for a key that does not work: the ways back to its account (status, rotation) before a new one', () => {
    for (const code of ['INVALID_KEY', 'REVOKED_KEY', 'KEY_WRONG_ENVIRONMENT']) {
      const actions = given({ status: 401, code })
        .when({ method: 'GET', path: '/api/v1/discovery/top' })
        .then([
          `check_key_status GET ${BASE}/api/v1/agents/status`,
          `rotate_key POST ${BASE}/api/v1/agents/keys`,
          `get_api_key POST ${BASE}/api/v1/agents/pay`,
          `sign_up POST ${BASE}/api/v1/agents/signup`,
        ]);
      assert.match(actions[2]!.description, /^Only with no working key/);
    }
  });

  it('403 for a missing scope: the account status, then the enterprise upgrade', () => {
    given({ status: 403, code: 'INSUFFICIENT_SCOPE' })
      .when({ method: 'GET', path: '/api/v1/agents/keys' })
      .then([
        `check_status GET ${BASE}/api/v1/agents/status`,
        `view_enterprise_upgrade GET ${BASE}/api/v1/agents/leads`,
      ]);
  });

  it('403 TENANT_KEY_REQUIRED: read about the enterprise workspace, then ask for one', () => {
    given({ status: 403, code: 'TENANT_KEY_REQUIRED' })
      .when({ method: 'GET', path: '/api/v1/workspace/deals' })
      .then([
        `view_enterprise_upgrade GET ${BASE}/api/v1/agents/leads`,
        `submit_lead POST ${BASE}/api/v1/agents/leads`,
      ]);
  });

  it('404 of a company: the discovery list and the catalogue', () => {
    given({ status: 404, code: 'COMPANY_NOT_FOUND' })
      .when({ method: 'GET', path: '/api/v1/companies/cmp_nope' })
      .then([`list_companies GET ${BASE}/api/v1/discovery/top`, `view_catalog GET ${BASE}/api/v1/agents/catalog`]);
  });

  it('404 of an unknown path: the discovery list, the catalogue and the OpenAPI document', () => {
    given({ status: 404, code: 'ROUTE_NOT_FOUND' })
      .when({ method: 'GET', path: '/api/v1/workspace/nothing-here' })
      .then([
        `list_companies GET ${BASE}/api/v1/discovery/top`,
        `view_catalog GET ${BASE}/api/v1/agents/catalog`,
        `read_openapi GET ${BASE}/docs/api/openapi.v1.yaml`,
      ]);
  });

  it('404 in the workspace: the workspace list the id comes from', () => {
    given({ status: 404, code: 'WORKSPACE_COMPANY_NOT_FOUND' })
      .when({ method: 'PATCH', path: '/api/v1/workspace/companies/wco_nope/memo' })
      .then([`list_workspace_companies GET ${BASE}/api/v1/workspace/companies`]);
    given({ status: 404, code: 'DEAL_NOT_FOUND' })
      .when({ method: 'PATCH', path: '/api/v1/workspace/deals/deal_nope' })
      .then([`list_deals GET ${BASE}/api/v1/workspace/deals`]);
    given({ status: 404, code: 'NOT_FOUND' })
      .when({ method: 'DELETE', path: '/api/v1/workspace/webhooks/subscriptions/sub_nope' })
      .then([`list_webhook_subscriptions GET ${BASE}/api/v1/workspace/webhooks/subscriptions`]);
  });

  it('404 of a key: the keys of the account', () => {
    given({ status: 404, code: 'KEY_NOT_FOUND' })
      .when({ method: 'DELETE', path: '/api/v1/agents/keys/key_nope' })
      .then([`list_keys GET ${BASE}/api/v1/agents/keys`]);
  });

  it('400 on a documented operation: its place in the OpenAPI document, then the error catalogue entry', () => {
    const [docs] = given({ status: 400, code: 'VALIDATION_FAILED' })
      .when({
        method: 'GET',
        path: '/api/v1/companies/acme.com',
        operation: { operationId: 'getCompanyProfile', method: 'GET', path: '/api/v1/companies/{id}' },
      })
      .then([
        `read_operation_docs GET ${BASE}/docs/api/openapi.v1.yaml#/paths/~1api~1v1~1companies~1%7Bid%7D/get`,
        `read_error GET ${BASE}/api/v1/agents/errors#VALIDATION_FAILED`,
      ]);
    assert.equal(docs!.operation_id, 'getCompanyProfile');
  });

  it('400, 413, 415 without a known operation: the OpenAPI document, then the error catalogue entry', () => {
    for (const [status, code] of [
      [400, 'MALFORMED_URL'],
      [413, 'PAYLOAD_TOO_LARGE'],
      [415, 'UNSUPPORTED_MEDIA_TYPE'],
      [422, 'UNPROCESSABLE_ENTITY'],
      [405, 'METHOD_NOT_ALLOWED'],
    ] as const) {
      given({ status, code })
        .when({ method: 'POST', path: '/api/v1/agents/pay' })
        .then([
          `read_openapi GET ${BASE}/docs/api/openapi.v1.yaml`,
          `read_error GET ${BASE}/api/v1/agents/errors#${code}`,
        ]);
    }
  });

  it('412 MEMO_VERSION_CONFLICT: read the memo again (its ETag is the next If-Match)', () => {
    given({ status: 412, code: 'MEMO_VERSION_CONFLICT' })
      .when({ method: 'PATCH', path: '/api/v1/workspace/companies/wco_1/memo' })
      .then([`read_memo GET ${BASE}/api/v1/workspace/companies/wco_1/memo`]);
  });

  it('409 in the workspace: read the resource again (the list for a create)', () => {
    given({ status: 409, code: 'WORKSPACE_COMPANY_EXISTS' })
      .when({ method: 'POST', path: '/api/v1/workspace/companies' })
      .then([`list_workspace_companies GET ${BASE}/api/v1/workspace/companies`]);
    given({ status: 409, code: 'DEAL_STAGE_TRANSITION_NOT_ALLOWED' })
      .when({ method: 'PATCH', path: '/api/v1/workspace/deals/deal_1' })
      .then([`list_deals GET ${BASE}/api/v1/workspace/deals`]);
  });

  it('409 with Retry-After: retry the same request then', () => {
    const [retry] = given({ status: 409, code: 'IDEMPOTENCY_KEY_IN_PROGRESS', retryAfterSeconds: 2 })
      .when({ method: 'POST', path: '/api/v1/agents/pay', query: 'objective=starter' })
      .then([`retry_after POST ${BASE}/api/v1/agents/pay?objective=starter`]);
    assert.equal(retry!.retry_after_seconds, 2);
  });

  it('409 with nothing to read again: retry the request', () => {
    given({ status: 409, code: 'CONCURRENT_MODIFICATION' })
      .when({ method: 'POST', path: '/api/v1/billing/topups/charge' })
      .then([`retry POST ${BASE}/api/v1/billing/topups/charge`]);
  });

  it('409 LAST_ACTIVE_KEY: create another key, then list them', () => {
    given({ status: 409, code: 'LAST_ACTIVE_KEY' })
      .when({ method: 'DELETE', path: '/api/v1/agents/keys/key_1' })
      .then([`create_key POST ${BASE}/api/v1/agents/keys`, `list_keys GET ${BASE}/api/v1/agents/keys`]);
  });

  it('429: retry the same request (query included) after Retry-After seconds', () => {
    const [retry] = given({ status: 429, code: 'RATE_LIMIT_EXCEEDED', retryAfterSeconds: 30 })
      .when({ method: 'GET', path: '/api/v1/discovery/top', query: 'limit=5&sector=fintech' })
      .then([`retry_after GET ${BASE}/api/v1/discovery/top?limit=5&sector=fintech`]);
    assert.equal(retry!.retry_after_seconds, 30);
  });

  it('another 4xx: the error catalogue entry and the status', () => {
    given({ status: 408, code: 'REQUEST_TIMEOUT' })
      .when({ method: 'POST', path: '/api/v1/agents/pay' })
      .then([
        `read_error GET ${BASE}/api/v1/agents/errors#REQUEST_TIMEOUT`,
        `check_status GET ${BASE}/api/v1/agents/status`,
      ]);
  });

  it('not a 4xx: nothing', () => {
    given({ status: 500, code: 'INTERNAL_ERROR' }).when({ method: 'GET', path: '/api/v1/agents/status' }).then([]);
    given({ status: 302, code: '' }).when({ method: 'GET', path: '/api/v1/agents/status' }).then([]);
  });

  it('every catalogued 4xx has at least one action, each with an absolute URL and a description', () => {
    for (const entry of AGENT_ERRORS.filter((x) => x.status >= 400 && x.status < 500)) {
      const { actions } = given({ status: entry.status, code: entry.code, retryAfterSeconds: 1 }).when({
        method: 'GET',
        path: '/api/v1/workspace/companies/wco_1',
      });
      assert.ok(actions.length > 0, entry.code);
      for (const a of actions) {
        assert.ok(a.url.startsWith(`${BASE}/`), `${entry.code}: ${a.url}`);
        assert.ok(a.description.length > 0, `${entry.code}: ${a.action}`);
      }
    }
  });
});
