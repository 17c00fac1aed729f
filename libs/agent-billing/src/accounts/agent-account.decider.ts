import { assertNever, type Decider, Errors } from '#kernel';
import type { PackId } from '#agent-contract/vocabulary';
import type { PaymentProviderName } from '../credits/credits.events.js';
import type { AccountOrigin, AgentAccountEvent, KeyEnvironment, TenantBindingReason } from './agent-account.events.js';

export interface SavedPaymentMethod {
  id: string;
  provider: PaymentProviderName;
  brand: string | null;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
  attachedAt: string;
}

export type AgentAccountState =
  | { status: 'absent' }
  | {
      status: 'open';
      accountId: string;
      origin: AccountOrigin;
      openedAt: string;
      contactEmail: string | null;
      agentName: string | null;
      objective: string | null;
      packId: PackId;
      source: string | null;
      sourceRef: string | null;
      /** Set for a tenant's account: its keys reach that tenant's workspace. */
      tenantId: string | null;
      /** The provider's customer per provider (Stripe needs one for saved methods). */
      customers: Partial<Record<PaymentProviderName, string>>;
      paymentMethods: SavedPaymentMethod[];
      checkoutSessions: number;
      /**
       * The active keys as this stream knows them: the set after its last key event, or null
       * for an account opened before keys were recorded here (the handler then passes the set
       * the read model shows, once; from the first key event on the stream is the authority).
       */
      activeKeyIds: string[] | null;
    };

export type AgentAccountCommand =
  | {
      type: 'OpenAgentAccount';
      accountId: string;
      origin: AccountOrigin;
      environment: KeyEnvironment;
      contactEmail: string | null;
      agentName: string | null;
      useCase: string | null;
      objective: string | null;
      packId: PackId;
      source: string | null;
      sourceRef: string | null;
      tenantId?: string;
      now: Date;
    }
  | { type: 'LinkPaymentCustomer'; provider: PaymentProviderName; customerId: string; now: Date }
  | {
      type: 'AttachPaymentMethod';
      provider: PaymentProviderName;
      paymentMethodId: string;
      brand: string | null;
      last4: string | null;
      expMonth: number | null;
      expYear: number | null;
      now: Date;
    }
  | { type: 'RecordAgentKeyIssued'; keyId: string; knownActiveKeyIds: string[]; now: Date }
  /** Binds the account to a tenant: the same tenant again changes nothing, another one is refused. */
  | { type: 'BindTenant'; tenantId: string; reason: TenantBindingReason; now: Date }
  /**
   * Never leaves the account without an active key: revocations are decided on this stream,
   * one at a time (expected revision), so two keys revoking each other at once cannot both win.
   */
  | { type: 'RevokeAgentKey'; keyId: string; knownActiveKeyIds: string[]; now: Date };

function open(state: AgentAccountState): Extract<AgentAccountState, { status: 'open' }> {
  if (state.status !== 'open') throw Errors.notFound('No such agent account.', 'ACCOUNT_NOT_FOUND');
  return state;
}

/** An agent account (stream `agentaccount-{id}`): who it is, its payment customer and saved methods. */
export const agentAccountDecider: Decider<AgentAccountCommand, AgentAccountEvent, AgentAccountState> = {
  initialState: { status: 'absent' },

  evolve(state, event) {
    switch (event.type) {
      case 'AgentAccountOpened': {
        const d = event.data;
        return {
          status: 'open',
          accountId: d.account_id,
          origin: d.origin,
          openedAt: d.opened_at,
          contactEmail: d.contact_email,
          agentName: d.agent_name,
          objective: d.objective,
          packId: d.pack_id,
          source: d.source,
          sourceRef: d.source_ref,
          tenantId: d.tenant_id ?? null,
          customers: {},
          paymentMethods: [],
          checkoutSessions: 0,
          activeKeyIds: null,
        };
      }
      case 'PaymentCustomerLinked':
        if (state.status !== 'open') return state;
        return { ...state, customers: { ...state.customers, [event.data.provider]: event.data.customer_id } };
      case 'PaymentMethodAttached': {
        if (state.status !== 'open') return state;
        const d = event.data;
        const method: SavedPaymentMethod = {
          id: d.payment_method_id,
          provider: d.provider,
          brand: d.brand,
          last4: d.last4,
          expMonth: d.exp_month,
          expYear: d.exp_year,
          attachedAt: d.attached_at,
        };
        return { ...state, paymentMethods: [...state.paymentMethods.filter((m) => m.id !== method.id), method] };
      }
      // Recorded on the account by earlier versions (now each checkout has its own stream).
      case 'CheckoutSessionOpened':
        return state.status === 'open' ? { ...state, checkoutSessions: state.checkoutSessions + 1 } : state;
      case 'AgentKeyIssued':
      case 'AgentKeyRevoked':
        return state.status === 'open' ? { ...state, activeKeyIds: [...event.data.active_key_ids] } : state;
      case 'AgentAccountTenantBound':
        return state.status === 'open' ? { ...state, tenantId: event.data.tenant_id } : state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    const at = command.now.toISOString();
    switch (command.type) {
      case 'OpenAgentAccount':
        if (state.status !== 'absent') throw Errors.conflict('The account exists already.', 'ACCOUNT_EXISTS');
        return [
          {
            type: 'AgentAccountOpened',
            data: {
              account_id: command.accountId,
              origin: command.origin,
              environment: command.environment,
              contact_email: command.contactEmail,
              agent_name: command.agentName,
              use_case: command.useCase,
              objective: command.objective,
              pack_id: command.packId,
              source: command.source,
              source_ref: command.sourceRef,
              ...(command.tenantId ? { tenant_id: command.tenantId } : {}),
              opened_at: at,
            },
          },
        ];
      case 'LinkPaymentCustomer': {
        const s = open(state);
        const existing = s.customers[command.provider];
        if (existing === command.customerId) return [];
        if (existing) throw Errors.conflict('The account has a payment customer already.', 'CUSTOMER_EXISTS');
        return [
          {
            type: 'PaymentCustomerLinked',
            data: {
              account_id: s.accountId,
              provider: command.provider,
              customer_id: command.customerId,
              linked_at: at,
            },
          },
        ];
      }
      case 'AttachPaymentMethod': {
        const s = open(state);
        if (s.paymentMethods.some((m) => m.id === command.paymentMethodId)) return [];
        return [
          {
            type: 'PaymentMethodAttached',
            data: {
              account_id: s.accountId,
              provider: command.provider,
              payment_method_id: command.paymentMethodId,
              brand: command.brand,
              last4: command.last4,
              exp_month: command.expMonth,
              exp_year: command.expYear,
              attached_at: at,
            },
          },
        ];
      }
      case 'RecordAgentKeyIssued': {
        const s = open(state);
        const active = s.activeKeyIds ?? command.knownActiveKeyIds.filter((id) => id !== command.keyId);
        if (s.activeKeyIds?.includes(command.keyId)) return [];
        return [
          {
            type: 'AgentKeyIssued',
            data: {
              account_id: s.accountId,
              key_id: command.keyId,
              active_key_ids: [...active, command.keyId],
              issued_at: at,
            },
          },
        ];
      }
      case 'BindTenant': {
        const s = open(state);
        if (s.tenantId === command.tenantId) return [];
        if (s.tenantId) throw accountHasTenant(s.tenantId);
        return [
          {
            type: 'AgentAccountTenantBound',
            data: { account_id: s.accountId, tenant_id: command.tenantId, reason: command.reason, bound_at: at },
          },
        ];
      }
      case 'RevokeAgentKey': {
        const s = open(state);
        const active = s.activeKeyIds ?? command.knownActiveKeyIds;
        // Not an active key of this account: nothing to decide here (the key's own stream answers).
        if (!active.includes(command.keyId)) return [];
        const remaining = active.filter((id) => id !== command.keyId);
        if (remaining.length === 0) throw lastActiveKey();
        return [
          {
            type: 'AgentKeyRevoked',
            data: { account_id: s.accountId, key_id: command.keyId, active_key_ids: remaining, revoked_at: at },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};

export const lastActiveKey = () =>
  Errors.conflict(
    'This is the account’s only active key; create another (POST /api/v1/agents/keys) before revoking it.',
    'LAST_ACTIVE_KEY',
  );

/** An account holds one tenant for good: its keys and credits cannot move to another. */
export const accountHasTenant = (tenantId: string) =>
  Errors.conflict(
    `The account is bound to tenant ${tenantId} already; an account holds one tenant.`,
    'ACCOUNT_HAS_TENANT',
    {
      tenant_id: tenantId,
    },
  );
