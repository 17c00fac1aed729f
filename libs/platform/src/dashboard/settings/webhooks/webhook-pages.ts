import { type Session } from '#identity';
import type { WebhookOwner } from '#webhooks';

/** Platform webhooks belong to the signed-in user's account (the API's platformOwner, for a session). */
export const sessionOwner = (session: Session): WebhookOwner => ({ kind: 'platform_account', id: session.accountId });

export const WEBHOOKS_PATH = '/dashboard/settings/webhooks';
export const webhookPath = (id: string) => `${WEBHOOKS_PATH}/${encodeURIComponent(id)}`;
