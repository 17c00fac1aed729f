import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { pay, postJson, withKey } from './support/agent-client.js';

/** Headers that differ between any two answers, replayed or not. */
const PER_ANSWER = new Set(['date', 'x-request-id', 'idempotent-replayed', 'connection', 'keep-alive']);

async function answer(res: Response) {
  const headers = [...res.headers].filter(([name]) => !PER_ANSWER.has(name) && !name.startsWith('x-ratelimit-'));
  return { status: res.status, headers: headers.sort(), body: await res.text() };
}

/** Sends `send()` twice with one Idempotency-Key: the second is the first, byte for byte, marked replayed. */
async function replayed(send: () => Promise<Response>) {
  const first = await send();
  const firstReplayed = first.headers.get('idempotent-replayed');
  const firstAnswer = await answer(first);
  const second = await send();
  assert.equal(firstReplayed, null);
  assert.ok(firstAnswer.headers.some(([name]) => name === 'content-type'));
  assert.equal(second.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(await answer(second), firstAnswer);
  return JSON.parse(firstAnswer.body) as Record<string, any>;
}

describe('Idempotency-Key as an interceptor on the routes that declare it (ADR 0098)', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(async () => {
    await api?.close();
  });

  it('only pay, signup, create-key and charge-topup run an interceptor; no other route runs any', () => {
    const scanner = new MetadataScanner();
    const intercepted: string[] = [];
    for (const module of api.app.get(ModulesContainer).values()) {
      for (const wrapper of module.controllers.values()) {
        const controller = wrapper.metatype as (new () => object) | undefined;
        if (!controller?.prototype) continue;
        const prefix = (Reflect.getMetadata(PATH_METADATA, controller) as string | undefined) ?? '';
        for (const name of scanner.getAllMethodNames(controller.prototype)) {
          const handler = (controller.prototype as Record<string, object>)[name]!;
          const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
          if (path === undefined) continue;
          const interceptors = [
            ...((Reflect.getMetadata(INTERCEPTORS_METADATA, controller) as unknown[] | undefined) ?? []),
            ...((Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? []),
          ];
          const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
          const route = [prefix, path].map((part) => part.replace(/^\/+|\/+$/g, '')).filter(Boolean);
          if (interceptors.length > 0) intercepted.push(`${method} /${route.join('/')}`);
        }
      }
    }
    assert.deepEqual(intercepted.sort(), [
      'POST /api/v1/agents/keys',
      'POST /api/v1/agents/pay',
      'POST /api/v1/agents/signup',
      'POST /api/v1/billing/topups/charge',
    ]);
  });

  it('pay and signup replay the first answer byte for byte (status, headers, body), once per key', async () => {
    const payOnce = () =>
      fetch(
        `${api.url}/api/v1/agents/pay?objective=growth&source=replay-test`,
        postJson({ agent_name: 'replay' }, { 'idempotency-key': 'replay-pay-0001-6a0c1f' }),
      );
    const paid = await replayed(payOnce);
    assert.equal(paid.starter_checkout.pack_id, 'pack_499', 'the objective picks the pack');
    const signupOnce = () =>
      fetch(`${api.url}/api/v1/agents/signup?source_ref=replay`, {
        method: 'POST',
        headers: { 'idempotency-key': 'replay-signup-0001-77e2' },
      });
    const signedUp = await replayed(signupOnce);
    assert.notEqual(signedUp.account_id, paid.account_id, 'the key is scoped by the operation');
  });

  it('pay validates its input before the key: a bad body with a short key is 400 VALIDATION_FAILED', async () => {
    const res = await fetch(
      `${api.url}/api/v1/agents/pay`,
      postJson({ pack_id: 'pack_1' }, { 'idempotency-key': '1' }),
    );
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { code: string }).code, 'VALIDATION_FAILED');
  });

  it('create-key: replayed per account byte for byte; other parameters 409; invalid input 400 first', async () => {
    const owner = await pay(api.url);
    const other = await pay(api.url);
    const create = (key: string, body: unknown, idempotencyKey = 'rotate-0001') =>
      fetch(`${api.url}/api/v1/agents/keys`, withKey(key, postJson(body, { 'idempotency-key': idempotencyKey })));

    const created = await replayed(() => create(owner.key.api_key, { name: 'rotated' }));
    assert.equal(created.account_id, owner.account_id);
    assert.match(created.key.api_key, /^svc_test_/);

    const reused = await create(owner.key.api_key, { name: 'another name' });
    assert.equal(reused.status, 409);
    assert.equal(((await reused.json()) as { code: string }).code, 'IDEMPOTENCY_KEY_REUSED');

    const invalid = await create(owner.key.api_key, { name: 'x', extra: true });
    assert.equal(invalid.status, 400);
    assert.equal(((await invalid.json()) as { code: string }).code, 'VALIDATION_FAILED');

    // The same Idempotency-Key from another account is another request: its own new key.
    const theirs = await create(other.key.api_key, { name: 'rotated' });
    assert.equal(theirs.status, 201);
    assert.equal(theirs.headers.get('idempotent-replayed'), null);
    const theirKey = (await theirs.json()) as { account_id: string; key: { id: string } };
    assert.equal(theirKey.account_id, other.account_id);
    assert.notEqual(theirKey.key.id, created.key.id);
  });
});
