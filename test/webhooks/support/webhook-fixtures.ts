import type { INestApplicationContext } from '@nestjs/common';
import type { FakeClock } from '#kernel';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { platformEventPublished, type PlatformEventType } from '#platform';
import { WebhookDispatchers, type WebhookDispatcher } from '#webhooks';

let sequence = 0;

/**
 * Publishes a platform event the way the platform features do: a PlatformEventPublished
 * in an append of its own stream here. Returns the envelope.
 */
export async function publishPlatformEvent(
  app: INestApplicationContext,
  accountId: string,
  type: PlatformEventType,
  options: { clock?: FakeClock; data?: Record<string, unknown>; repository?: { id: string; name: string } } = {},
): Promise<{ id: string; type: string; created: string; data: Record<string, unknown>; position: number }> {
  const store = app.get<EventStore>(EVENT_STORE);
  sequence += 1;
  const id = `evt_TEST${String(Date.now()).slice(-8)}${String(sequence).padStart(14, '0')}`;
  const created = (options.clock?.now() ?? new Date()).toISOString();
  const envelope = {
    id,
    type,
    created,
    data: options.data ?? { n: sequence },
    ...(options.repository ? { repository: options.repository } : {}),
  };
  const { position } = await store.append(
    `testevents-${id}`,
    [platformEventPublished(accountId, envelope)],
    'no_stream',
  );
  return { ...envelope, position };
}

export function platformDispatcher(app: INestApplicationContext): WebhookDispatcher {
  return app.get(WebhookDispatchers).get('platform');
}

export const MINUTE = 60_000;
