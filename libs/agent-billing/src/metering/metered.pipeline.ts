import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, type MaybePromise, whenReady } from '#kernel';
import { publicBaseUrl, type RequestOrigin } from '#http';
import {
  AgentAuthenticator,
  type AgentPrincipal,
  type AgentRequest,
  type EndpointAuth,
  type MeterName,
} from '#agent-contract';
import type { Reservation } from '../credits/credit-ledger.js';
import { TENANT_LOOKUP, type TenantCaller, type TenantLookup } from './tenant-lookup.port.js';
import { type Charged, type MeteredCaller, MeteringService } from './metering.service.js';

/** What the pipeline reads from a request: its key headers, its id and where it was sent. */
export type PipelineRequest = AgentRequest & RequestOrigin;

/** A use case's row of the endpoint table, as the pipeline needs it (a tool's is its REST twin's). */
export interface MeteredRoute {
  /** The REST method: every method but GET, HEAD and DELETE writes (a workspace must be writable). */
  method: string;
  auth: EndpointAuth;
  meter?: MeterName;
}

/** A paid call between its hold and its charge. */
export interface PaidCall {
  meter: MeterName;
  caller: MeteredCaller;
  hold: Reservation;
  settled: boolean;
}

/** Who a call acts for once admitted: the key's principal and, on a workspace route, its tenant. */
export interface Admitted {
  principal: AgentPrincipal | null;
  tenant: TenantCaller | null;
}

/**
 * Methods that only read, or remove a subscription (stopping pushes that cost credits): allowed
 * on a workspace whose pilot has ended. Every other method writes and is refused there.
 */
const ALLOWED_WHEN_READ_ONLY = new Set(['GET', 'HEAD', 'DELETE']);

/**
 * The metered pipeline of the agent surface, one code path for every paid or keyed use case:
 * 1. the key (401), 2. the tenant (403, or 402 PILOT_ENDED for a write), 3. the
 * arguments by the route's own schemas (400; the `OperationValidationGuard` of `#http`), 4. the
 * meter's hold (402), then the work, then 5. the charge, durable before the answer; a failure at
 * any step is answered free. A request refused at steps 1–4 holds nothing and is never charged.
 *
 * REST runs the steps as route guards (`AgentKeyGuard`, `TenantGuard`, the operation's
 * validation, `MeteredGuard`) and the charge in Fastify's `onSend` (`MeteredChargeHooks`), each
 * calling the step here; MCP tools, which have no route of their own, call `run`, which takes
 * the same steps in the same order.
 */
@Injectable()
export class MeteredPipeline {
  constructor(
    private readonly auth: AgentAuthenticator,
    @Inject(TENANT_LOOKUP) private readonly tenants: TenantLookup,
    private readonly metering: MeteringService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Step 1: the key's principal (401 without a working key). Synchronous for a cached key. */
  key(request: PipelineRequest): MaybePromise<AgentPrincipal> {
    return this.auth.require(request);
  }

  /** Step 2: the key's tenant; a write (by `method`) needs a writable workspace. */
  tenant(request: PipelineRequest, principal: AgentPrincipal, method: string): Promise<TenantCaller> {
    return this.tenants.require(principal, {
      write: !ALLOWED_WHEN_READ_ONLY.has(method.toUpperCase()),
      baseUrl: publicBaseUrl(request, this.config),
    });
  }

  /** Who pays: the key's account (its links, only needed for a 402, built when asked for). */
  caller(request: PipelineRequest, principal: AgentPrincipal): MeteredCaller {
    const config = this.config;
    return {
      accountId: principal.accountId,
      keyId: principal.keyId,
      get baseUrl() {
        return publicBaseUrl(request, config);
      },
    };
  }

  /** Step 4: a hold on the meter's price (402 when the balance cannot cover it). */
  async hold(request: PipelineRequest, principal: AgentPrincipal, meter: MeterName): Promise<PaidCall> {
    const caller = this.caller(request, principal);
    return { meter, caller, hold: await this.metering.authorize(caller, meter), settled: false };
  }

  /**
   * Step 5: the call charged, durably, under `requestId` (the server's id of the request, never
   * the client's); 402 if the credits went meanwhile. The hold is released either way.
   */
  async charge(call: PaidCall, requestId: string): Promise<Charged> {
    call.settled = true;
    try {
      return await this.metering.charge(call.caller, call.meter, requestId, call.hold);
    } finally {
      call.hold.release();
    }
  }

  /** A call that ends without a charge (it failed, or its client left): its hold dropped. */
  release(call: PaidCall | undefined): void {
    if (call && !call.settled) {
      call.settled = true;
      call.hold.release();
    }
  }

  /** Steps 1 and 2 for `route`: nothing for a route without a key. */
  admit(request: PipelineRequest, route: MeteredRoute): MaybePromise<Admitted> {
    if (route.auth === 'none') return { principal: null, tenant: null };
    return whenReady(this.key(request), (principal) =>
      route.auth === 'tenant_key'
        ? this.tenant(request, principal, route.method).then((tenant) => ({ principal, tenant }))
        : { principal, tenant: null },
    );
  }

  /**
   * Every step around `work`, for an entry point without route guards of its own (an MCP tool):
   * the key, the tenant, `validate` (step 3: the input parsed by the route's own schemas with
   * REST's validation, 400 otherwise), the hold, the work, the charge under `requestId`.
   */
  async run<I, T>(
    request: PipelineRequest,
    route: MeteredRoute,
    validate: () => I,
    work: (input: I, admitted: Admitted) => Promise<T>,
    requestId: string,
  ): Promise<{ data: T; charged: Charged | null }> {
    const admitted = await this.admit(request, route);
    const input = validate();
    const call =
      route.meter && admitted.principal ? await this.hold(request, admitted.principal, route.meter) : undefined;
    try {
      const data = await work(input, admitted);
      return { data, charged: call ? await this.charge(call, requestId) : null };
    } finally {
      this.release(call);
    }
  }
}
