import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isScope } from '#access';
import { AppError, Errors } from '#kernel';
import type { Session } from '../../sessions/session.store.js';
import { OAuthClientLookup } from '../clients/oauth-client-lookup.js';
import { OAuthAudit } from '../grants/oauth-audit.js';
import { OAuthServer } from '../server/oauth-server.js';
import { resourceOf } from '../server/oauth-settings.js';
import { roleGrants } from '../../users/user-scopes.js';

export interface ConsentRequest {
  clientId: string;
  clientName: string;
  /** The account that registered the application (the consent page names it). */
  clientAccountId: string;
  /** Requested and held by the signed-in user. */
  granted: string[];
  /** Requested, but the user's role does not hold them: never granted. */
  withheld: string[];
  /** The origin of the (registered) redirect_uri: Approve and Deny end there. */
  redirectOrigin: string;
}

function expired(): AppError {
  return new AppError(
    'invalid',
    'OAUTH_INTERACTION_EXPIRED',
    'This authorization request has expired or was answered already. Go back to the application and start again.',
  );
}

/**
 * The consent step of oidc-provider's interactions, for the signed-in user of our session:
 * reads the pending authorization (the provider's interaction cookie), and finishes it with a
 * grant of the requested scopes the user holds (the rest rejected), or with access_denied.
 */
@Injectable()
export class OAuthInteractions {
  constructor(
    private readonly server: OAuthServer,
    private readonly clients: OAuthClientLookup,
    private readonly audit: OAuthAudit,
  ) {}

  async pending(request: FastifyRequest, reply: FastifyReply, uid: string, session: Session): Promise<ConsentRequest> {
    const details = await this.details(request, reply, uid);
    const clientId = String(details.params.client_id ?? '');
    const client = await this.clients.active(clientId);
    if (!client) throw Errors.notFound('No such OAuth application.', 'OAUTH_CLIENT_NOT_FOUND');
    const requested = [
      ...new Set(
        String(details.params.scope ?? '')
          .split(' ')
          .filter(isScope),
      ),
    ];
    // The API's own rule (ADR 0069): what the user's role grants, never a second list.
    const held = new Set<string>(requested.filter((s) => roleGrants(session.role, s)));
    return {
      clientId,
      clientName: client.name,
      clientAccountId: client.accountId,
      granted: requested.filter((s) => held.has(s)),
      withheld: requested.filter((s) => !held.has(s)),
      redirectOrigin: new URL(String(details.params.redirect_uri)).origin,
    };
  }

  /** Approve: a grant for this user; returns where the browser goes next (back to the provider). */
  async approve(request: FastifyRequest, reply: FastifyReply, uid: string, session: Session): Promise<string> {
    const consent = await this.pending(request, reply, uid, session);
    if (consent.granted.length === 0)
      throw Errors.conflict('None of the requested scopes can be granted.', 'OAUTH_NOTHING_TO_GRANT');
    const issuer = this.server.issuerFor(request);
    const provider = await this.server.provider(issuer);
    const resource = resourceOf(issuer);
    const grant = new provider.Grant({ accountId: session.userId, clientId: consent.clientId });
    grant.addResourceScope(resource, consent.granted.join(' '));
    if (consent.withheld.length) grant.rejectResourceScope(resource, consent.withheld.join(' '));
    const grantId = await grant.save();
    await this.audit.record({
      type: 'ApproveGrant',
      grantId,
      clientId: consent.clientId,
      accountId: session.accountId,
      userId: session.userId,
      scopes: consent.granted,
    });
    return this.finish(request, reply, { login: { accountId: session.userId }, consent: { grantId } });
  }

  /** Deny: back to the client with error=access_denied and its state. */
  async deny(request: FastifyRequest, reply: FastifyReply, uid: string): Promise<string> {
    await this.details(request, reply, uid);
    return this.finish(request, reply, {
      error: 'access_denied',
      error_description: 'The user denied the authorization request.',
    });
  }

  private async details(request: FastifyRequest, reply: FastifyReply, uid: string) {
    const provider = await this.server.provider(this.server.issuerFor(request));
    let details;
    try {
      details = await provider.interactionDetails(request.raw, reply.raw);
    } catch {
      throw expired();
    }
    if (details.uid !== uid) throw expired();
    return details;
  }

  private async finish(request: FastifyRequest, reply: FastifyReply, result: Record<string, unknown>): Promise<string> {
    const provider = await this.server.provider(this.server.issuerFor(request));
    try {
      return await provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
    } catch {
      throw expired();
    }
  }
}
