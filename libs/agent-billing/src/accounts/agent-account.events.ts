import type { KeyEnvironment } from '#access';

/** The environment of the account's keys, as its events store it (its decider's only word from #access). */
export type { KeyEnvironment };
import type { PackId } from '#agent-contract';
import type { PaymentProviderName } from '../credits/credits.events.js';

/**
 * How the account came to be: POST /agents/pay, POST /agents/signup, a paid unbound checkout, or
 * an enterprise tenant's creation (`svc workspaces create`: the tenant's own credits and keys).
 */
export type AccountOrigin = 'pay' | 'signup' | 'checkout' | 'tenant';

/** Stored event types of `agentaccount-{id}` streams. Names are stable: never rename. */
export type AgentAccountEvent =
  | {
      type: 'AgentAccountOpened';
      data: {
        account_id: string;
        origin: AccountOrigin;
        environment: KeyEnvironment;
        contact_email: string | null;
        agent_name: string | null;
        use_case: string | null;
        objective: string | null;
        pack_id: PackId;
        source: string | null;
        source_ref: string | null;
        /** The tenant this account holds the credits and keys of (its keys are tenant-bound). */
        tenant_id?: string;
        opened_at: string;
      };
    }
  | {
      type: 'PaymentCustomerLinked';
      data: { account_id: string; provider: PaymentProviderName; customer_id: string; linked_at: string };
    }
  | {
      type: 'PaymentMethodAttached';
      data: {
        account_id: string;
        provider: PaymentProviderName;
        payment_method_id: string;
        brand: string | null;
        last4: string | null;
        exp_month: number | null;
        exp_year: number | null;
        attached_at: string;
      };
    }
  | {
      type: 'CheckoutSessionOpened';
      data: {
        account_id: string;
        provider: PaymentProviderName;
        session_id: string;
        pack_id: PackId;
        amount_cents: number;
        credits_cents: number;
        key_id: string | null;
        purpose: CheckoutPurpose;
        opened_at: string;
      };
    }
  | {
      /**
       * An open account was bound to a tenant after it was opened (an enterprise purchase, a lead
       * converted onto it, `svc workspaces create --account`): from then on its keys are
       * tenant-bound and its credits are the tenant's. Once bound, never unbound or rebound.
       */
      type: 'AgentAccountTenantBound';
      data: { account_id: string; tenant_id: string; reason: TenantBindingReason; bound_at: string };
    }
  | {
      /** A key of the account was issued; `active_key_ids` is the whole active set after it. */
      type: 'AgentKeyIssued';
      data: { account_id: string; key_id: string; active_key_ids: string[]; issued_at: string };
    }
  | {
      /** A key of the account is being revoked; `active_key_ids` is the active set after it. */
      type: 'AgentKeyRevoked';
      data: { account_id: string; key_id: string; active_key_ids: string[]; revoked_at: string };
    };

/** What bound an existing account to a tenant: a purchase, a converted lead, an operator's CLI. */
export type TenantBindingReason = 'purchase' | 'lead' | 'operator';

/** Why a hosted checkout was opened: the starter checkout of a new key, a checkout link, a top-up. */
export type CheckoutPurpose = 'starter' | 'checkout_link' | 'topup';

export const AGENT_ACCOUNT_EVENT_TYPES: AgentAccountEvent['type'][] = [
  'AgentAccountOpened',
  'PaymentCustomerLinked',
  'PaymentMethodAttached',
  'CheckoutSessionOpened',
  'AgentKeyIssued',
  'AgentKeyRevoked',
  'AgentAccountTenantBound',
];

export const agentAccountStream = (accountId: string) => `agentaccount-${accountId}`;
