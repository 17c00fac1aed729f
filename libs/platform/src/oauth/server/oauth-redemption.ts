import type { errors, KoaContextWithOIDC } from 'oidc-provider';
import { noteRevokedGrant } from './oauth-audit.middleware.js';

/**
 * A redemption that lost the race for a code or a refresh token to a concurrent one (ADR 0076)
 * is a reuse, answered as oidc-provider answers one presented again: every token of the grant
 * revoked and the grant ended (RFC 6749 §4.1.2), then invalid_grant in the provider's own words,
 * which the audit reads as a reuse (with the grant noted as revoked by it). Never a 500.
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
    noteRevokedGrant(ctx, grantId);
  }
  throw new InvalidGrant(
    model === 'RefreshToken' ? 'refresh token already used' : 'authorization code already consumed',
  );
}
