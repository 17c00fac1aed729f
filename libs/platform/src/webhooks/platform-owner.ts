import type { Principal } from '#access';
import type { WebhookOwner } from '#webhooks';

/** Platform webhooks belong to the caller's account. */
export const platformOwner = (principal: Principal): WebhookOwner => ({
  kind: 'platform_account',
  id: principal.accountId,
});
