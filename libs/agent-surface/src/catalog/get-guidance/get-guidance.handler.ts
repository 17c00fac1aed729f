import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CheckoutLinkSigner } from '#agent-billing';
import { type AgentEnvelope, CatalogContextProvider, type KeyBinding } from '#agent-contract';
import { buildGuidance, type GuidanceData } from '../guidance.document.js';
import { GetGuidanceQuery } from './get-guidance.query.js';

/** Built per request: the guidance depends on the parameters (objective, pack, key, source). */
@QueryHandler(GetGuidanceQuery)
export class GetGuidanceHandler implements IQueryHandler<GetGuidanceQuery, AgentEnvelope<GuidanceData>> {
  constructor(
    private readonly catalog: CatalogContextProvider,
    private readonly signer: CheckoutLinkSigner,
  ) {}

  execute({ request, origin, callerKeyId }: GetGuidanceQuery): Promise<AgentEnvelope<GuidanceData>> {
    const { key_id, ...rest } = request;
    // With the key, the links are signed for it; a bare key_id is carried as is (it binds by
    // itself: spec payment flow 3).
    const binding: KeyBinding | undefined = callerKeyId
      ? this.signer.sign(callerKeyId)
      : key_id
        ? { key_id }
        : undefined;
    const guidance = buildGuidance(this.catalog.forRequest(origin), { ...rest, ...(binding ? { binding } : {}) });
    return Promise.resolve(this.catalog.envelope(guidance));
  }
}
