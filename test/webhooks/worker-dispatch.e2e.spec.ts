import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_MAIN, LiveProcess, WORKER_MAIN } from '../e2e/support/processes.js';
import { client } from './support/http-client.js';
import { TestReceiver } from './support/receiver.js';

const SECRET = 'worker-e2e-secret-0123456789';

/**
 * The scaled split, on one embedded data directory: the api serves HTTP without projections
 * (SVC_RUN_PROJECTIONS=false) and the worker process runs the projections and the dispatcher.
 */
describe('webhooks across processes: api without projections, worker dispatching (built mains)', () => {
  let dataDir: string;
  let receiver: TestReceiver;
  let api: LiveProcess | undefined;
  let worker: LiveProcess | undefined;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-e2e-webhooks-'));
    receiver = await TestReceiver.start();
  });
  after(async () => {
    await api?.stop('SIGTERM');
    await worker?.stop('SIGTERM');
    await receiver?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('the worker sends what the api records, and the api shows the outcome', async () => {
    const env = {
      SVC_DATA_DIR: dataDir,
      SVC_WEBHOOK_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'info',
      SVC_DEMO_DATA: 'false',
      // The api waits this long for the worker's read models (the bootstrap key, each command):
      // a starved CI worker may take longer than the default 5 s.
      SVC_READ_YOUR_WRITES_TIMEOUT_MS: '30000',
    };
    worker = LiveProcess.start(WORKER_MAIN, [], env);
    await worker.waitForLine((l) => l.includes('worker started'), 60_000, 'the worker');
    assert.ok(
      worker.lines.some((l) => l.includes('ownership: webhooks:platform runs here')),
      worker.lines.join('\n'),
    );
    api = LiveProcess.start(API_MAIN, [], {
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      SVC_RUN_PROJECTIONS: 'false',
      SVC_BOOTSTRAP: 'true',
    });
    const listening = await api.waitForLine((l) => l.includes('listening on http://'), 60_000, 'the api');
    const url = /listening on (http:\/\/[^\s"]+)/.exec(listening)![1]!;
    const keyLine = await api.waitForLine(
      (l) => l.startsWith('Bootstrap admin API key: '),
      60_000,
      'the bootstrap key',
    );
    const call = client(url, keyLine.slice('Bootstrap admin API key: '.length).trim());
    // The key's read model is built by the worker; the api prints the key once the worker has
    // projected it, so it works on its first request.
    const first = await call('GET', '/v1/webhooks');
    assert.equal(first.status, 200, first.text);

    const created = await call('POST', '/v1/webhooks', {
      url: receiver.endpoint('/worker', SECRET),
      events: ['agent.completed'],
      secret: SECRET,
    });
    assert.equal(created.status, 201, created.text);
    const test = await call('POST', `/v1/webhooks/${created.body.id}/test`);
    assert.equal(test.status, 202, test.text);
    await receiver.until(() => receiver.at('/worker').length === 1, 20_000, 'the delivery from the worker');
    assert.equal(receiver.at('/worker')[0]!.signatureValid, true);
    assert.equal(receiver.at('/worker')[0]!.headers['x-service-delivery'], test.body.id);
    const deadline = Date.now() + 20_000;
    let state = '';
    while (Date.now() < deadline) {
      state = ((await call('GET', `/v1/webhooks/${created.body.id}/deliveries`)).body.data?.[0]?.state as string) ?? '';
      if (state === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(state, 'succeeded');
    assert.ok(!api.lines.some((l) => l.includes('webhooks:platform runs here')), 'the api does not dispatch');
  });
});
