import { describe, it } from 'node:test';
import { deciderSpec } from '#kernel/testing';
import { agentAccountDecider, type AgentAccountCommand } from './agent-account.decider.js';
import type { AgentAccountEvent } from './agent-account.events.js';

const spec = deciderSpec(agentAccountDecider);
const now = new Date('2026-03-01T10:00:00Z');
const at = now.toISOString();

const open: AgentAccountCommand = {
  type: 'OpenAgentAccount',
  accountId: 'acct_1',
  origin: 'pay',
  environment: 'test',
  contactEmail: 'a@example.com',
  agentName: 'bot',
  useCase: null,
  objective: 'starter',
  packId: 'pack_29',
  source: 'registry',
  sourceRef: null,
  now,
};
const opened: AgentAccountEvent = {
  type: 'AgentAccountOpened',
  data: {
    account_id: 'acct_1',
    origin: 'pay',
    environment: 'test',
    contact_email: 'a@example.com',
    agent_name: 'bot',
    use_case: null,
    objective: 'starter',
    pack_id: 'pack_29',
    source: 'registry',
    source_ref: null,
    opened_at: at,
  },
};
const linked: AgentAccountEvent = {
  type: 'PaymentCustomerLinked',
  data: { account_id: 'acct_1', provider: 'sandbox', customer_id: 'cus_1', linked_at: at },
};
const attach: AgentAccountCommand = {
  type: 'AttachPaymentMethod',
  provider: 'sandbox',
  paymentMethodId: 'pm_1',
  brand: 'visa',
  last4: '4242',
  expMonth: 12,
  expYear: 2034,
  now,
};

describe('agent account decider', () => {
  it('opens an account once', () => {
    spec.given([]).when(open).then([opened]);
    spec
      .given([opened])
      .when(open)
      .thenThrows((e) => e.code === 'ACCOUNT_EXISTS' && e.kind === 'conflict');
  });

  it('links one payment customer per provider (idempotent; a different one is a conflict)', () => {
    spec
      .given([opened])
      .when({ type: 'LinkPaymentCustomer', provider: 'sandbox', customerId: 'cus_1', now })
      .then([linked]);
    spec
      .given([opened, linked])
      .when({ type: 'LinkPaymentCustomer', provider: 'sandbox', customerId: 'cus_1', now })
      .then([]);
    spec
      .given([opened, linked])
      .when({ type: 'LinkPaymentCustomer', provider: 'sandbox', customerId: 'cus_2', now })
      .thenThrows((e) => e.code === 'CUSTOMER_EXISTS');
  });

  it('attaches a payment method once; nothing happens to an absent account', () => {
    const attached: AgentAccountEvent = {
      type: 'PaymentMethodAttached',
      data: {
        account_id: 'acct_1',
        provider: 'sandbox',
        payment_method_id: 'pm_1',
        brand: 'visa',
        last4: '4242',
        exp_month: 12,
        exp_year: 2034,
        attached_at: at,
      },
    };
    spec.given([opened]).when(attach).then([attached]);
    spec.given([opened, attached]).when(attach).then([]);
    spec
      .given([])
      .when(attach)
      .thenThrows((e) => e.code === 'ACCOUNT_NOT_FOUND' && e.kind === 'not_found');
  });

  describe('a tenant bound to an open account (ADR 0078)', () => {
    const bind = (tenantId: string): AgentAccountCommand => ({ type: 'BindTenant', tenantId, reason: 'purchase', now });
    const bound: AgentAccountEvent = {
      type: 'AgentAccountTenantBound',
      data: { account_id: 'acct_1', tenant_id: 'tn_1', reason: 'purchase', bound_at: at },
    };

    it('binds once: the same tenant again changes nothing, another is refused (409 ACCOUNT_HAS_TENANT)', () => {
      spec.given([opened]).when(bind('tn_1')).then([bound]);
      spec.given([opened, bound]).when(bind('tn_1')).then([]);
      spec
        .given([opened, bound])
        .when(bind('tn_2'))
        .thenThrows((e) => e.code === 'ACCOUNT_HAS_TENANT' && e.kind === 'conflict' && e.extra.tenant_id === 'tn_1');
    });

    it('refuses an account opened for a tenant already, and an account that does not exist', () => {
      spec
        .given([{ ...opened, data: { ...opened.data, tenant_id: 'tn_0' } } as AgentAccountEvent])
        .when(bind('tn_1'))
        .thenThrows((e) => e.code === 'ACCOUNT_HAS_TENANT');
      spec
        .given([])
        .when(bind('tn_1'))
        .thenThrows((e) => e.code === 'ACCOUNT_NOT_FOUND');
    });
  });

  describe('active keys: never revoke the last one', () => {
    const issued = (keyId: string, active: string[]): AgentAccountEvent => ({
      type: 'AgentKeyIssued',
      data: { account_id: 'acct_1', key_id: keyId, active_key_ids: active, issued_at: at },
    });
    const revoked = (keyId: string, active: string[]): AgentAccountEvent => ({
      type: 'AgentKeyRevoked',
      data: { account_id: 'acct_1', key_id: keyId, active_key_ids: active, revoked_at: at },
    });
    const revoke = (keyId: string, known: string[] = []): AgentAccountCommand => ({
      type: 'RevokeAgentKey',
      keyId,
      knownActiveKeyIds: known,
      now,
    });
    const issue = (keyId: string, known: string[] = []): AgentAccountCommand => ({
      type: 'RecordAgentKeyIssued',
      keyId,
      knownActiveKeyIds: known,
      now,
    });

    it('records issued keys as the active set; the same key twice changes nothing', () => {
      spec
        .given([opened])
        .when(issue('key_a'))
        .then([issued('key_a', ['key_a'])]);
      spec
        .given([opened, issued('key_a', ['key_a'])])
        .when(issue('key_b'))
        .then([issued('key_b', ['key_a', 'key_b'])]);
      spec
        .given([opened, issued('key_a', ['key_a'])])
        .when(issue('key_a'))
        .then([]);
    });

    it('revokes a key while another stays active, and refuses the last one (409 LAST_ACTIVE_KEY)', () => {
      const two = [opened, issued('key_a', ['key_a']), issued('key_b', ['key_a', 'key_b'])];
      spec
        .given(two)
        .when(revoke('key_a'))
        .then([revoked('key_a', ['key_b'])]);
      spec
        .given([...two, revoked('key_a', ['key_b'])])
        .when(revoke('key_b'))
        .thenThrows((e) => e.code === 'LAST_ACTIVE_KEY' && e.kind === 'conflict');
    });

    it('two keys revoking each other: whichever is decided second sees the first and is refused', () => {
      const two = [opened, issued('key_a', ['key_a']), issued('key_b', ['key_a', 'key_b'])];
      // key_a revokes key_b first; key_b's revocation of key_a is then decided on that history.
      spec
        .given([...two, revoked('key_b', ['key_a'])])
        .when(revoke('key_a'))
        .thenThrows((e) => e.code === 'LAST_ACTIVE_KEY');
    });

    it('an account opened before key events takes the known set once; from then on its own history decides', () => {
      spec
        .given([opened])
        .when(revoke('key_a', ['key_a', 'key_b']))
        .then([revoked('key_a', ['key_b'])]);
      spec
        .given([opened])
        .when(revoke('key_a', ['key_a']))
        .thenThrows((e) => e.code === 'LAST_ACTIVE_KEY');
      // The stream's set wins over a stale known set.
      spec
        .given([opened, revoked('key_a', ['key_b'])])
        .when(revoke('key_b', ['key_a', 'key_b']))
        .thenThrows((e) => e.code === 'LAST_ACTIVE_KEY');
    });

    it('a key the account does not hold active is not decided here (its own stream answers)', () => {
      spec
        .given([opened, issued('key_a', ['key_a'])])
        .when(revoke('key_other'))
        .then([]);
    });
  });
});
