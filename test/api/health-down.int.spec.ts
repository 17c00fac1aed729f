import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi } from './support/test-api.js';

describe('GET /health with unreachable stores', () => {
  let api: TestApi;
  before(async () => {
    // Nothing listens on port 9 (discard): both server adapters fail their pings.
    api = await startTestApi({
      env: {
        EVENTSTORE_URL: 'esdb://127.0.0.1:9?tls=false',
        MONGODB_URL: 'mongodb://127.0.0.1:9/?serverSelectionTimeoutMS=500',
      },
    });
  });
  after(async () => {
    await api?.close();
  });

  it('answers 503 naming the stores that are down, and keeps serving', async () => {
    const res = await fetch(`${api.url}/health`);
    assert.equal(res.status, 503);
    const body = (await res.json()) as {
      status: string;
      error: Record<string, { status: string }>;
      details: Record<string, { status: string }>;
    };
    assert.equal(body.status, 'error');
    assert.equal(body.details.eventstore?.status, 'down');
    assert.equal(body.details.documents?.status, 'down');
    assert.ok(body.error.eventstore && body.error.documents);
    const docs = await fetch(`${api.url}/docs/api/openapi.v1.json`);
    assert.equal(docs.status, 200);
  });
});
