import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '#kernel';
import { findPack, packForObjective, PATHS, STARTER_PACK_ID, toObjective } from '#agent-contract';
import { PAYMENT_FLOW, packSummary } from './key-issuance.js';
import { CheckPayQuery } from './pay-check.query.js';
import type { PayCheck } from './pay.schema.js';

/** The check call: the pack a POST would pick (as OpenAgentAccountHandler does) and the request to send. */
@QueryHandler(CheckPayQuery)
export class CheckPayHandler implements IQueryHandler<CheckPayQuery, PayCheck> {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  execute({ parameters: query, baseUrl }: CheckPayQuery): Promise<PayCheck> {
    const objective = toObjective(query.objective) ?? 'starter';
    const pack = findPack(query.pack_id ?? packForObjective(query.objective))!;
    const url = new URL(`${baseUrl}${PATHS.pay}`);
    if (query.objective) url.searchParams.set('objective', query.objective);
    if (query.source) url.searchParams.set('source', query.source);
    return Promise.resolve({
      version: 'v1',
      as_of: this.clock.now().toISOString(),
      data: {
        check: true,
        creates_nothing: true,
        objective,
        would_create: {
          account: true,
          key: { surface: 'agent', shown_once: true, auth_headers: ['x-api-key', 'Authorization: Bearer'] },
          starter_checkout: { ...packSummary(pack), bound_to_key: true },
          balance_usd: 0,
        },
        request: {
          method: 'POST',
          url: url.toString(),
          headers: {
            'content-type': 'application/json',
            'Idempotency-Key': '<a fresh UUID: retries replay the first response for 24 h>',
          },
          body_template: {
            contact_email: '<optional>',
            agent_name: '<optional>',
            use_case: '<optional>',
            objective,
            pack_id: pack.pack_id,
            source_ref: '<optional>',
          },
        },
        alternatives: {
          signup: { method: 'POST', url: `${baseUrl}${PATHS.signup}`, pack_id: STARTER_PACK_ID },
          checkout_link: {
            method: 'GET',
            url: `${baseUrl}${PATHS.checkoutLink}?pack_id=${pack.pack_id}`,
            note: 'Add key_id=<your key id> (or send the key in x-api-key): the checkout then credits its account.',
          },
        },
        payment_flow: PAYMENT_FLOW,
      },
    });
  }
}
