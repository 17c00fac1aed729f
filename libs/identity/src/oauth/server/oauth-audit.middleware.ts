import type { Logger } from '@nestjs/common';
import type { KoaContextWithOIDC, Provider } from 'oidc-provider';
import type { OAuthAudit } from '../grants/oauth-audit.js';
import { OAUTH_TTL } from './oauth-settings.js';

interface AuditNotes {
  revokedGrants: string[];
  /** A used code or refresh token was found while this token request was handled. */
  consumedFound?: ReuseOf;
}

type ReuseOf = 'authorization_code' | 'refresh_token';

const notes = new WeakMap<object, AuditNotes>();

function notesOf(ctx: object): AuditNotes {
  let n = notes.get(ctx);
  if (!n) notes.set(ctx, (n = { revokedGrants: [] }));
  return n;
}

/**
 * What oidc-provider tells through its documented `grant.revoked` event: a grant revoked (by a
 * revocation request, or because a used code or rotated refresh token came back). Noted on the
 * request's context; recordAudit turns the notes into events.
 */
export function watchForAudit(provider: Provider): void {
  provider.on('grant.revoked', (ctx: KoaContextWithOIDC, grantId: string) => {
    notesOf(ctx).revokedGrants.push(grantId);
  });
}

/**
 * The storage found a code or refresh token that was already used (OAuthStorageHooks), in the
 * request `ctx` (the provider's `Provider.ctx`). At the token endpoint, a grant revoked in the
 * same request is then a reuse: the provider revokes a grant when a used code or refresh token is
 * presented (RFC 6749 §4.1.2, RFC 9700 §4.14.2). Read from the provider's adapter and events, not
 * from the words of its error (ADR 0091).
 */
export function noteConsumedFound(ctx: KoaContextWithOIDC | undefined, model: string): void {
  if (!ctx || ctx.oidc?.route !== 'token') return;
  notesOf(ctx).consumedFound = model === 'RefreshToken' ? 'refresh_token' : 'authorization_code';
}

/** A reuse answered by us rather than by the provider (a redemption that lost its race: ADR 0076). */
export function noteReuse(ctx: KoaContextWithOIDC, model: string, grantId: string): void {
  noteConsumedFound(ctx, model);
  notesOf(ctx).revokedGrants.push(grantId);
}

/**
 * Koa middleware around oidc-provider's routes: after a token or revocation request is handled
 * (and before its answer is written), its audit events are appended (ADR 0066).
 */
export async function recordAudit(
  ctx: KoaContextWithOIDC,
  next: () => Promise<unknown>,
  audit: OAuthAudit,
  logger: Logger,
): Promise<void> {
  await next();
  const route = ctx.oidc?.route;
  if (route !== 'token' && route !== 'revocation') return;
  const n = notes.get(ctx);
  const clientId = ctx.oidc.client?.clientId ?? '';
  try {
    if (route === 'token' && n?.consumedFound && n.revokedGrants.length > 0) {
      for (const grantId of n.revokedGrants) {
        await audit.record({ type: 'RecordTokenReuse', grantId, clientId, tokenType: n.consumedFound });
        await audit.record({ type: 'RevokeGrant', grantId, clientId, reason: 'reuse_detected' });
      }
      return;
    }
    if (route === 'token' && ctx.status === 200) {
      const grant = ctx.oidc.entities.Grant;
      const body = ctx.body as { scope?: string; expires_in?: number; refresh_token?: string };
      if (!grant?.jti) return;
      const now = audit.now().getTime();
      await audit.record({
        type: 'RecordTokensIssued',
        grantId: grant.jti,
        clientId,
        grantType: ctx.oidc.params?.grant_type === 'refresh_token' ? 'refresh_token' : 'authorization_code',
        scopes: (body.scope ?? '').split(' ').filter(Boolean),
        accessTokenExpiresAt: new Date(now + (body.expires_in ?? OAUTH_TTL.AccessToken) * 1000),
        refreshTokenExpiresAt: body.refresh_token ? new Date(now + OAUTH_TTL.RefreshToken * 1000) : null,
      });
      return;
    }
    if (route === 'revocation') {
      const { AccessToken: access, RefreshToken: refresh } = ctx.oidc.entities;
      const token = access ?? refresh;
      if (!token?.grantId) return;
      await audit.record({
        type: 'RecordTokenRevoked',
        grantId: token.grantId,
        clientId: token.clientId ?? clientId,
        tokenType: access ? 'access_token' : 'refresh_token',
      });
      for (const grantId of n?.revokedGrants ?? [])
        await audit.record({
          type: 'RevokeGrant',
          grantId,
          clientId: token.clientId ?? clientId,
          reason: 'token_revoked',
        });
    }
  } catch (error) {
    logger.error(
      `OAuth audit events not recorded: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
}
