import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  Optional,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import { RouteConfig } from '@nestjs/platform-fastify';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { GuardAnswered, toErrorResponse } from '#http';
import { AgentKeyGuard, type MeterName, usdString } from '#agent-contract';
import { MeteredPipeline, type PaidCall, type PipelineRequest } from './metered.pipeline.js';
import { MeteringService } from './metering.service.js';

export const METER_METADATA = 'svc:agent-meter';

/** Fastify route config flag of a metered route: only those routes get the charge hooks. */
const METERED_ROUTE = 'svcMetered';

/** The paid call a request carries between the guard and the charge (see Metered). */
const METERED_CALL = Symbol('svc:metered-call');

type MeteredRequest = PipelineRequest & { method?: string; url?: string; [METERED_CALL]?: PaidCall };

interface Reply {
  statusCode: number;
  header(name: string, value: string): unknown;
  code(status: number): unknown;
}

/**
 * A paid agent-surface route (D17, D18): needs an agent key, and each SUCCESSFUL call is charged
 * `meter`, through the steps of the metered pipeline (`MeteredPipeline`, which MCP tools run
 * too). The order is what makes "never send data that was not paid for" hold:
 *  1. the guard: the key, then a hold on the price; an exhausted account gets 402 and does no work;
 *  2. the handler runs; if it fails, nothing is charged (the hold is dropped);
 *  3. its 2xx response is charged, durably, in Fastify's `onSend` hook, i.e. after
 *     serialisation and BEFORE a byte is written; if the credits went meanwhile (another
 *     request, another process) the client gets 402 instead of the data.
 * Paid responses carry `X-Credits-Charged` and `X-Credits-Balance`. `HEAD` (which Fastify
 * answers for every GET route) runs no handler and charges nothing: a free preflight answering
 * 200 with `X-Credits-Required` and `X-Credits-Balance`, or the 402.
 *
 * Deliberately not a Nest interceptor: with one, Nest 12 runs every call of the route through
 * an rxjs pipeline (defer, mergeMap, tap, takeUntil, lastValueFrom) that allocated about half of
 * a paid call's memory and cost more CPU than the charge itself (test/bench/agent-billing).
 */
export function Metered(meter: MeterName): MethodDecorator {
  // RouteConfig: a metered route cannot carry another @RouteConfig (the last one wins).
  return applyDecorators(
    SetMetadata(METER_METADATA, meter),
    RouteConfig({ [METERED_ROUTE]: true }),
    UseGuards(AgentKeyGuard, MeteredGuard),
  );
}

/** Takes the hold (step 1): after the key and after input validation (a 400 holds nothing). */
@Injectable()
export class MeteredGuard implements CanActivate {
  static readonly runsAfterValidation = true;

  private readonly meters = new WeakMap<object, MeterName | null>();

  constructor(
    private readonly reflector: Reflector,
    private readonly pipeline: MeteredPipeline,
    private readonly metering: MeteringService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<MeteredRequest>();
    const principal = await this.pipeline.key(request);
    const meter = this.meterOf(context.getHandler());
    if (!meter) return true;
    if (request.method === 'HEAD') {
      // A free preflight: no handler, no charge; 402 when a call could not be paid.
      const quote = await this.metering.quote(this.pipeline.caller(request, principal), meter);
      throw new GuardAnswered(200, {
        'X-Credits-Required': usdString(quote.priceCents),
        'X-Credits-Balance': usdString(quote.balanceCents),
      });
    }
    request[METERED_CALL] = await this.pipeline.hold(request, principal, meter);
    return true;
  }

  private meterOf(handler: object): MeterName | null {
    let meter = this.meters.get(handler);
    if (meter === undefined) {
      meter = this.reflector.get<MeterName | undefined>(METER_METADATA, handler as never) ?? null;
      this.meters.set(handler, meter);
    }
    return meter;
  }
}

type Done = (error: Error | null, payload?: unknown) => void;
type Hook = (...args: never[]) => void;

/** What Fastify's `onRoute` hook hands over: the options of a route being added (mutable). */
interface RouteOptions {
  config?: Record<string, unknown>;
  onSend?: Hook | Hook[];
  onResponse?: Hook | Hook[];
  onRequestAbort?: Hook | Hook[];
}

interface HookTarget {
  addHook(name: 'onRoute', hook: (route: RouteOptions) => void): unknown;
}

/**
 * Installs the charge (step 3 of Metered) on the metered routes of the HTTP app: route-level
 * Fastify hooks, attached by an `onRoute` hook as Nest registers its routes (this constructor
 * runs before that), so the other routes run no hook for it at all (about 2 µs a request).
 */
@Injectable()
export class MeteredChargeHooks {
  constructor(
    private readonly pipeline: MeteredPipeline,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() adapterHost?: HttpAdapterHost,
  ) {
    const instance = adapterHost?.httpAdapter?.getInstance?.() as HookTarget | undefined;
    if (!instance || typeof instance.addHook !== 'function') return;
    instance.addHook('onRoute', (route) => {
      if (route.config?.[METERED_ROUTE] === true) this.attach(route);
    });
  }

  private attach(route: RouteOptions): void {
    const add = (name: 'onSend' | 'onResponse' | 'onRequestAbort', hook: Hook) => {
      const existing = route[name];
      route[name] = existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
    };
    // Callback style, not async: no promise for a response that is not a charged call.
    add('onSend', ((request: MeteredRequest, reply: Reply, payload: unknown, done: Done) => {
      const call = request[METERED_CALL];
      if (!call || call.settled) return done(null, payload);
      // Failures (the handler's, or a 402 of the guard) are answered free.
      if (reply.statusCode < 200 || reply.statusCode >= 300) {
        this.pipeline.release(call);
        return done(null, payload);
      }
      this.charge(call, request, reply, payload).then((sent) => done(null, sent), done);
    }) as Hook);
    // A call that never reached onSend (the client went away, a failure before sending) only
    // has its hold dropped.
    add('onResponse', ((request: MeteredRequest, _reply: Reply, done: () => void) => {
      this.pipeline.release(request[METERED_CALL]);
      done();
    }) as Hook);
    add('onRequestAbort', ((request: MeteredRequest, done: () => void) => {
      this.pipeline.release(request[METERED_CALL]);
      done();
    }) as Hook);
  }

  private async charge(call: PaidCall, request: MeteredRequest, reply: Reply, payload: unknown): Promise<unknown> {
    try {
      const charge = await this.pipeline.charge(call, String(request.id ?? ''));
      reply.header('X-Credits-Charged', usdString(charge.priceCents));
      reply.header('X-Credits-Balance', usdString(charge.balanceCents));
      return payload;
    } catch (error) {
      // Not paid (the credits went meanwhile, or the ledger failed): the error, not the data.
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const response = toErrorResponse(
        error,
        { method: request.method, path },
        { problemTypeBase: this.config.publicUrl },
      );
      reply.code(response.status);
      for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
      return JSON.stringify(response.body);
    }
  }
}
