import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { WebhookSender } from '#webhooks';
import { TestReceiver } from './support/receiver.js';

const SECRET = 'sender-timeouts-secret-0123456789';

const BODY = Buffer.from('{}');
/** Signed like a delivery, so the receiver answers what it is told to (an unsigned one gets 401). */
const HEADERS = { 'X-Service-Signature': `sha256=${createHmac('sha256', SECRET).update(BODY).digest('hex')}` };

/** Holds this process's event loop (a starved or paused dispatcher), without sleeping. */
function holdUp(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: timers and I/O wait behind this
  }
}

/**
 * The two timeouts of a send told apart: no answer in time (the receiver has the request), and
 * not connected in time (a dispatcher held up past the deadline: the request never left, so it
 * says "nothing sent"). Both are failures that follow the retry schedule.
 */
describe('webhook sender timeouts', () => {
  let receiver: TestReceiver;
  before(async () => {
    receiver = await TestReceiver.start();
  });
  after(async () => {
    await receiver.close();
  });

  it('a receiver that does not answer in time: "no response", and it has the request', async () => {
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 2000 });
    try {
      const url = receiver.endpoint('/slow', SECRET, () => ({ status: 200, hold: true }));
      const outcome = await sender.send({ url, body: BODY, headers: HEADERS });
      assert.equal(outcome.succeeded, false);
      assert.equal(outcome.statusCode, null);
      assert.equal(outcome.error, 'timeout: no response within 2000 ms');
      assert.equal(receiver.at('/slow').length, 1);
    } finally {
      receiver.release();
      sender.close();
    }
  });

  it('a sender held up past its deadline while connecting: the timeout says whether the request left, and nothing is answered', async () => {
    // Which the loop handles first after the hold-up, the expired timer or the connect, differs
    // between Node versions (Node 20: the timer, so nothing was written; Node 24: the connect, which
    // writes the request): each outcome must describe what happened.
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 50 });
    try {
      const url = receiver.endpoint('/never', SECRET);
      const sending = sender.send({ url, body: BODY, headers: HEADERS });
      holdUp(300);
      const outcome = await sending;
      assert.equal(outcome.succeeded, false);
      assert.equal(outcome.statusCode, null);
      assert.match(
        outcome.error ?? '',
        /^timeout: (not connected within 50 ms \(nothing sent\)|no response within 50 ms)$/,
      );
      await new Promise((r) => setTimeout(r, 300));
      if (outcome.error?.startsWith('timeout: not connected')) assert.equal(receiver.at('/never').length, 0);
    } finally {
      sender.close();
    }
  });
});
