import { AppError } from '#kernel';
import type { CheckoutLinkBinding } from '#agent-billing';
import { checkoutLinkUrl, OBJECTIVE_PACK, PATHS } from '#agent-contract';

/** The checkout of the enterprise pack, bound to the caller's key when the binding is given. */
function enterpriseCheckout(baseUrl: string, source: string, binding: CheckoutLinkBinding | null): string {
  return checkoutLinkUrl(baseUrl, { objective: 'enterprise', pack_id: OBJECTIVE_PACK.enterprise, source, ...binding });
}

/**
 * 403 for a key that is not tenant-bound, with the ways to become one: buy the enterprise pack
 * with this key (its account becomes the tenant's at fulfilment, ADR 0078), or ask for one.
 */
export function workspaceRequiresEnterprise(baseUrl: string, binding: CheckoutLinkBinding | null = null): AppError {
  return new AppError(
    'forbidden',
    'WORKSPACE_REQUIRES_ENTERPRISE',
    'The workspace needs an enterprise, tenant-bound key; this key is self-serve. Buying the enterprise pack (or the operator pilot pack) with this key makes it tenant-bound at once; or ask for an enterprise workspace (see next_actions).',
    {
      next_actions: [
        {
          action: 'buy_enterprise',
          method: 'GET',
          url: enterpriseCheckout(baseUrl, 'workspace_requires_enterprise', binding),
          pack_id: OBJECTIVE_PACK.enterprise,
          description:
            'Open a hosted checkout for the enterprise pack (a key-bound link: the paying key reaches the workspace as soon as the payment is fulfilled).',
        },
        {
          action: 'view_enterprise_upgrade',
          method: 'GET',
          url: `${baseUrl}/api/v1/agents/leads`,
          description: 'The enterprise upgrade page: what a workspace includes and how to ask for one.',
        },
        {
          action: 'submit_lead',
          method: 'POST',
          url: `${baseUrl}/api/v1/agents/leads`,
          description:
            'Ask for an enterprise workspace (operator pilot or enterprise); an operator creates the tenant.',
        },
      ],
    },
  );
}

/**
 * 402 for a write to a workspace whose operator pilot has ended (ADR 0078): the workspace is
 * read-only, its data and keys are kept, and buying the enterprise pack lifts it at once.
 */
export function pilotEnded(p: { baseUrl: string; endsAt: string; binding: CheckoutLinkBinding | null }): AppError {
  const packId = OBJECTIVE_PACK.enterprise;
  const checkout = enterpriseCheckout(p.baseUrl, 'pilot_ended', p.binding);
  return new AppError(
    'payment_required',
    'PILOT_ENDED',
    `The operator pilot of this workspace ended at ${p.endsAt}: the workspace is read-only (reads still work; data and keys are kept). Buy the enterprise pack (${packId}) to write again; nothing was charged.`,
    {
      pilot_ended_at: p.endsAt,
      pack_id: packId,
      next_actions: [
        {
          action: 'buy_enterprise',
          method: 'GET',
          url: checkout,
          pack_id: packId,
          description:
            'Open a hosted checkout for the enterprise pack bound to this key (303 to the checkout page; JSON with Accept: application/json). Paid, the workspace is writable at once.',
        },
        {
          action: 'check_status',
          method: 'GET',
          url: `${p.baseUrl}${PATHS.status}`,
          description: 'The workspace plan, the pilot dates and the balance (send your key).',
        },
      ],
    },
    { Link: `<${checkout}>; rel="payment"`, 'X-Next-Action': checkout },
  );
}
