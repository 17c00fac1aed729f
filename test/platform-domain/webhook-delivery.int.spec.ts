import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CommandBus } from '@nestjs/cqrs';
import { PLATFORM_EVENT_TYPES, platformEventSource } from '#platform';
import { ProjectionRunner } from '#projections';
import { CreateWebhookCommand, type EnvelopeSource, type WebhookChannel } from '#webhooks';
import { platformWebhookChannel } from '#platform';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { TestReceiver } from '../webhooks/support/receiver.js';
import {
  type Body,
  type Call,
  domainAccount,
  expectStatus,
  listAll,
  pullRequest,
  vuln,
} from './support/domain-client.js';

// The seam with the webhook engine: the platform events as an envelope source. The type
// annotation is the compile-time half of the contract.
const source: EnvelopeSource = platformEventSource;
/** The app's own `/v1/webhooks` channel, which reads this source. */
const channel: WebhookChannel = platformWebhookChannel;

describe('platform events through the webhook engine (end to end, real receiver)', () => {
  let api: TestApi;
  let receiver: TestReceiver;
  let a: { accountId: string } & Record<'admin', Call>;
  let b: { accountId: string } & Record<'admin', Call>;
  const secret = 'whsec_domain_events_0123456789abcdef';

  before(async () => {
    receiver = await TestReceiver.start();
    assert.ok(
      source.storedEventTypes.every((t) => channel.source.storedEventTypes.includes(t)),
      'the platform channel reads the domain events',
    );
    api = await startTestApi({ env: { SVC_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    a = await domainAccount(api.app, api.url, { admin: ['admin'] });
    b = await domainAccount(api.app, api.url, { admin: ['admin'] });
    for (const [account, path, events] of [
      [a, '/a', [...PLATFORM_EVENT_TYPES]],
      [b, '/b', ['agent.completed']],
    ] as const) {
      await api.app.get(CommandBus).execute(
        new CreateWebhookCommand({
          channel: channel.name,
          owner: { kind: 'platform_account', id: account.accountId },
          url: receiver.endpoint(path, secret),
          events: [...events],
          secret,
        }),
      );
    }
  });
  after(async () => {
    await api?.close();
    await receiver?.close();
  });

  it('each event reaches the subscribed webhook once, signed, the same envelope as GET /v1/events/{id}; other accounts get nothing', async () => {
    const repo: Body = expectStatus(await a.admin('POST', '/v1/repositories', { name: 'acme/web' }), 201);
    const agent = expectStatus(await a.admin('POST', '/v1/agents', { name: 'Reviewer', template: 'code-review' }), 201);
    const run = expectStatus(
      await a.admin('POST', `/v1/agents/${agent.id}/runs`, { repository_id: repo.id, pull_request: pullRequest }),
      201,
    );
    expectStatus(await a.admin('POST', `/v1/runs/${run.id}/claim`), 200);
    expectStatus(
      await a.admin('POST', `/v1/runs/${run.id}/complete`, {
        findings: [{ level: 'error', file: 'a.ts', line: 1, message: 'm', rule: 'r' }],
      }),
      200,
    );
    expectStatus(
      await a.admin('POST', `/v1/repositories/${repo.id}/security-scans`, { vulnerabilities: [vuln('GHSA-1')] }),
      201,
    );

    const published = await listAll(a.admin, '/v1/events');
    assert.deepEqual(published.map((e) => e.type).sort(), [
      'agent.completed',
      'agent.issues_found',
      'agent.started',
      'repository.connected',
      'security.alert',
      'security.scan_completed',
    ]);
    await receiver.until(
      () => new Set(receiver.at('/a').map((r) => r.body.id)).size >= published.length,
      10_000,
      'every event delivered',
    );

    const received = receiver.at('/a');
    assert.deepEqual(received.map((r) => r.body.id).sort(), published.map((e) => e.id).sort(), 'each event once');
    for (const r of received) {
      assert.ok(r.signatureValid, 'signed with the webhook secret');
      assert.equal(r.headers['x-service-event'], r.body.type);
      assert.deepEqual(r.body, expectStatus(await a.admin('GET', `/v1/events/${r.body.id}`), 200), r.body.type);
    }
    assert.deepEqual(receiver.at('/b'), [], "b's webhook gets none of a's events");
  });

  it('a rebuild of every projection resends nothing: the next event is the only new delivery', async () => {
    const before = receiver.at('/a').length;
    await api.app.get(ProjectionRunner).rebuild();
    const repo = (await listAll(a.admin, '/v1/repositories'))[0]!;
    expectStatus(await a.admin('POST', `/v1/repositories/${repo.id}/analyses`, { summary: 'after the rebuild' }), 201);
    await receiver.until(
      () => receiver.at('/a').some((r) => r.body.type === 'repository.analyzed'),
      10_000,
      'the new event',
    );
    const ids = receiver.at('/a').map((r) => r.body.id);
    assert.equal(ids.length, before + 1);
    assert.equal(new Set(ids).size, ids.length, 'no event delivered twice');
  });
});
