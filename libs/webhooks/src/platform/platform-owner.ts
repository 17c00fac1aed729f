import type { Principal } from '#platform';
import type { WebhookOwner } from '../engine/channel.js';

/** Platform webhooks belong to the caller's account. */
export const platformOwner = (principal: Principal): WebhookOwner => ({ kind: 'platform_account', id: principal.accountId });
