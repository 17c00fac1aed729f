import type { errors, KoaContextWithOIDC } from 'oidc-provider';
import { noteReuse } from './oauth-audit.middleware.js';

/**
 * A redemption that lost the race for a code or a refresh token to a concurrent one (ADR 0076)
 * is a reuse, answered as oidc-provider answers one presented again: every token of the grant
 * revoked and the grant ended (RFC 6749 §4.1.2), then invalid_grant; the audit is told it was a
 * reuse, with the grant it revoked. Never a 500.
 */
export async function answerLostRedemption(
  ctx: KoaContextWithOIDC | undefined,
  InvalidGrant: typeof errors.InvalidGrant,
  model: string,
  grantId: string | null,
): Promise<never> {
  if (ctx && grantId) {
    const { provider } = ctx.oidc;
    await Promise.all(
      [provider.AccessToken, provider.RefreshToken, provider.AuthorizationCode].map((m) => m.revokeByGrantId(grantId)),
    );
    await (await provider.Grant.find(grantId))?.destroy();
    noteReuse(ctx, model, grantId);
  }
  throw new InvalidGrant(
    model === 'RefreshToken' ? 'refresh token already used' : 'authorization code already consumed',
  );
}
