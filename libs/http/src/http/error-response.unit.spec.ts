import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, Errors } from '#kernel';
import { type ProblemContext, toHttpError, toErrorResponse } from './error-response.js';

describe('toErrorResponse with a problem enricher', () => {
  it('passes the request and the response headers to the enricher, and sends what it added', () => {
    const seen: ProblemContext[] = [];
    const raw = { id: 'req-1' };
    const limited = new AppError('rate_limited', 'RATE_LIMIT_EXCEEDED', 'slow down', { retry_after: 7 });
    const response = toErrorResponse(
      limited,
      { method: 'GET', path: '/api/v1/things', url: '/api/v1/things?limit=2', raw },
      {
        enrich: (problem, context) => {
          seen.push(context);
          problem.next_actions = [{ action: 'retry_after' }];
        },
      },
    );
    assert.deepEqual(response.body.next_actions, [{ action: 'retry_after' }]);
    assert.equal(response.body.type, '/api/v1/agents/errors#RATE_LIMIT_EXCEEDED');
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.status, 429);
    assert.equal(seen[0]!.url, '/api/v1/things?limit=2');
    assert.equal(seen[0]!.headers['Retry-After'], '7');
    assert.equal(seen[0]!.request, raw);
  });

  it('does not call it for bodies that are not problem+json', () => {
    let called = false;
    const response = toErrorResponse(
      Errors.notFound(),
      { method: 'GET', path: '/v1/things/x' },
      {
        enrich: () => {
          called = true;
        },
      },
    );
    assert.equal(called, false);
    assert.deepEqual(response.body, { error: 'not_found', message: 'Not found.', code: 'NOT_FOUND' });
  });

  it('sends the documented body unchanged when the enricher throws, and hands the failure back', () => {
    const failure = new Error('broken');
    const response = toErrorResponse(
      Errors.notFound(),
      { method: 'GET', path: '/api/v1/things/x' },
      {
        enrich: (problem) => {
          problem.next_actions = ['half'];
          throw failure;
        },
      },
    );
    assert.equal(response.status, 404);
    assert.equal(response.body.next_actions, undefined);
    assert.equal(response.body.code, 'NOT_FOUND');
    assert.equal(response.enrichFailure, failure);
  });
});

describe('toHttpError for a store that cannot write now', () => {
  it('answers 503 STORE_UNAVAILABLE with Retry-After for a full disk or an I/O error (not 500)', () => {
    for (const code of ['SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_BUSY', 'ENOSPC']) {
      const thrown = Object.assign(new Error('database or disk is full'), { code });
      const { error, unexpected } = toHttpError(thrown);
      assert.deepEqual([error.status, error.code, error.headers['retry-after']], [503, 'STORE_UNAVAILABLE', '1'], code);
      assert.equal(unexpected, true, 'logged at error level');
    }
  });

  it('leaves other coded errors to the generic 500', () => {
    const { error } = toHttpError(Object.assign(new Error('constraint'), { code: 'SQLITE_CONSTRAINT_CHECK' }));
    assert.equal(error.status, 500);
  });
});
