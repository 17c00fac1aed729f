/**
 * How an agent gets the enterprise workspace, and what the operator pilot is, in the words every
 * guidance document uses (llms.txt, growth, the lead form, purchase guidance): one text, so the
 * documents cannot disagree with each other or with what fulfilment does (ADR 0078).
 */
import { agentUrl, type CatalogContext, endpointUrl, OBJECTIVE_PACK, OPERATOR_PILOT_DAYS } from '#agent-contract';

const PILOT = OBJECTIVE_PACK.operator_pilot;
const ENTERPRISE = OBJECTIVE_PACK.enterprise;

/** The steps of the enterprise path, self-serve first. */
export function enterprisePath(ctx: CatalogContext): string[] {
  return [
    `Buy ${ENTERPRISE} (enterprise) or ${PILOT} (the ${OPERATOR_PILOT_DAYS}-day operator pilot) with your key (POST ${endpointUrl(ctx, 'pay')} with that pack_id, or a checkout link sent with the key): when the payment is fulfilled your account becomes a tenant's, and every key of the account, the paying one included, reaches the workspace at once (${agentUrl(ctx, '/workspace/companies')} and the other workspace operations), paid from the same credits.`,
    `GET ${endpointUrl(ctx, 'status')} with the key shows workspace: tenant_id, plan (pilot, pilot_ended or enterprise), access and the pilot's ends_at; the checkout success page says the same.`,
    `Or ask an operator: POST ${endpointUrl(ctx, 'leads')} (send your key with it so the tenant goes on your account and the credits you bought follow).`,
  ];
}

/** The operator pilot's lifecycle. */
export function pilotLifecycle(): string[] {
  return [
    `Starts when ${PILOT} is paid, or when an operator converts your lead; runs ${OPERATOR_PILOT_DAYS} days with the full workspace.`,
    `At its end the workspace becomes read-only: reads are still served (and charged), data and keys are kept, webhook subscriptions can be removed; writes answer 402 PILOT_ENDED with a checkout for ${ENTERPRISE}.`,
    `Buying ${ENTERPRISE} lifts it at once, on the same tenant; a second ${PILOT} buys credits only (one pilot per tenant).`,
  ];
}
