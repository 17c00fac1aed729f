import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, type ErrorKind, Errors } from '#kernel';
import { httpErrorBody, httpErrorOf, httpStatusOf } from './error-table.js';
import { toErrorResponse } from './error-response.js';

describe('the error table: domain errors to HTTP (ADR 0093)', () => {
  it('gives every kind a status and a word; the domain error itself has neither', () => {
    const kinds: Record<ErrorKind, [number, string]> = {
      invalid: [400, 'bad_request'],
      unauthenticated: [401, 'unauthorized'],
      payment_required: [402, 'payment_required'],
      forbidden: [403, 'forbidden'],
      not_found: [404, 'not_found'],
      conflict: [409, 'conflict'],
      precondition_failed: [412, 'precondition_failed'],
      too_large: [413, 'payload_too_large'],
      rate_limited: [429, 'rate_limit_exceeded'],
      internal: [500, 'internal_error'],
      upstream_failed: [502, 'bad_gateway'],
      unavailable: [503, 'service_unavailable'],
    };
    for (const [kind, [status, word]] of Object.entries(kinds) as Array<[ErrorKind, [number, string]]>) {
      const error = new AppError(kind, 'SOME_CODE', 'm');
      assert.deepEqual([httpStatusOf(error), httpErrorOf(error).error], [status, word], kind);
      assert.ok(!('status' in error) && !('headers' in error), kind);
    }
  });

  it("gives a code its own word where the documented body has one (D5's validation_failed, D18's insufficient_credits)", () => {
    assert.equal(httpErrorOf(Errors.validation([{ path: 'a', message: 'b' }])).error, 'validation_failed');
    assert.deepEqual(httpErrorBody(httpErrorOf(Errors.validation([{ path: 'a', message: 'b' }]))), {
      error: 'validation_failed',
      message: 'The request is not valid.',
      code: 'VALIDATION_FAILED',
      details: [{ path: 'a', message: 'b' }],
    });
    assert.equal(httpErrorOf(new AppError('payment_required', 'PAYMENT_DECLINED', 'm')).error, 'payment_failed');
  });

  it("derives the headers from what the error says: a memo's version as ETag", () => {
    const stale = Errors.preconditionFailed('MEMO_VERSION_CONFLICT', 'm', { current_version: 3 });
    assert.deepEqual(httpErrorOf(stale).headers, { ETag: '"3"' });
  });

  it('D18: the balance, the price and the checkout link of a 402', () => {
    const checkout = 'https://svc.example/api/v1/billing/checkout-link?pack_id=pack_29';
    const error = Errors.paymentRequired('INSUFFICIENT_CREDITS', 'm', {
      meter: 'read.company_profile',
      price_usd: 2.5,
      balance_usd: 0.1,
      next_actions: [{ action: 'buy_credits', method: 'GET', url: checkout }],
    });
    const answer = httpErrorOf(error);
    assert.deepEqual([answer.status, answer.error], [402, 'insufficient_credits']);
    assert.deepEqual(answer.headers, {
      'X-Credits-Balance': '0.10',
      'X-Credits-Required': '2.50',
      'X-Next-Action': checkout,
      Link: `<${checkout}>; rel="payment"`,
    });
  });

  it("a rate limit's Retry-After from its body and its window's counters from its facts", () => {
    const window = { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1772359260' };
    const error = Errors.rateLimited('RATE_LIMIT_EXCEEDED', 'm', { retry_after: 45 }, window);
    assert.deepEqual(httpErrorOf(error).headers, { ...window, 'Retry-After': '45' });
    assert.deepEqual(httpErrorBody(httpErrorOf(error)), {
      error: 'rate_limit_exceeded',
      message: 'm',
      code: 'RATE_LIMIT_EXCEEDED',
      retry_after: 45,
    });
  });

  it("RFC 6750's challenge on the 401s of a credential, none on a sign-in page's", () => {
    assert.deepEqual(httpErrorOf(Errors.unauthenticated('MISSING_AUTH', 'm')).headers, {
      'WWW-Authenticate': 'Bearer realm="svc"',
    });
    assert.deepEqual(httpErrorOf(Errors.unauthenticated('INVALID_KEY', 'The "key" is bad.')).headers, {
      'WWW-Authenticate': 'Bearer realm="svc", error="invalid_token", error_description="The key is bad."',
    });
    assert.deepEqual(httpErrorOf(Errors.unauthenticated('SIGN_IN_REQUIRED', 'm')).headers, {});
  });

  it('the filter answers with the table: status, headers and problem fields', () => {
    const response = toErrorResponse(Errors.preconditionFailed('MEMO_VERSION_CONFLICT', 'm', { current_version: 2 }), {
      method: 'PATCH',
      path: '/api/v1/workspace/companies/cmp_1/memo',
    });
    assert.equal(response.status, 412);
    assert.equal(response.headers.ETag, '"2"');
    assert.deepEqual(response.body, {
      type: '/api/v1/agents/errors#MEMO_VERSION_CONFLICT',
      title: 'Precondition Failed',
      status: 412,
      error: 'precondition_failed',
      message: 'm',
      code: 'MEMO_VERSION_CONFLICT',
      current_version: 2,
    });
  });
});
