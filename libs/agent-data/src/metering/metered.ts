import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
  SetMetadata,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { defer, lastValueFrom, type Observable } from 'rxjs';
import { APP_CONFIG, type AppConfig, publicBaseUrl, type RequestOrigin } from '#common';
import { AgentKeyGuard, type AgentRequest } from '../auth/agent-auth.js';
import { usdString } from '../billing/links.js';
import type { MeterName } from '../catalog/meters.js';
import { MeteringService } from './metering.service.js';

export const METER_METADATA = 'svc:agent-meter';

interface Reply {
  header(name: string, value: string): unknown;
}

/**
 * A paid agent-surface route (D17, D18): needs an agent key, and each SUCCESSFUL call is charged
 * `meter`. The order is what makes "never send data that was not paid for" hold:
 *  1. before the handler: a hold on the price; an exhausted account gets 402 and does no work;
 *  2. the handler runs; if it throws, nothing is charged (the hold is dropped);
 *  3. its result is charged, durably, BEFORE Nest serialises and sends it; if the credits went
 *     meanwhile (another request, another process) the client gets 402 instead of the data.
 * Paid responses carry `X-Credits-Charged` and `X-Credits-Balance`. Handlers must return their
 * data (no `@Res()` streaming), so nothing leaves before the charge. `HEAD` (which Fastify
 * answers for every GET route) runs no handler and charges nothing: a free preflight answering
 * 200 with `X-Credits-Required` and `X-Credits-Balance`, or the 402.
 */
export function Metered(meter: MeterName): MethodDecorator {
  return applyDecorators(SetMetadata(METER_METADATA, meter), UseGuards(AgentKeyGuard), UseInterceptors(MeteredInterceptor));
}

@Injectable()
export class MeteredInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly metering: MeteringService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const meter = this.reflector.get<MeterName | undefined>(METER_METADATA, context.getHandler());
    if (!meter) return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<AgentRequest & RequestOrigin & { method?: string }>();
    const reply = http.getResponse<Reply>();
    const principal = request.principal;
    if (!principal) throw new Error('Metered route reached without an authenticated agent key');
    const config = this.config;
    const caller = {
      accountId: principal.accountId,
      keyId: principal.keyId,
      // Only a 402 needs absolute links.
      get baseUrl() {
        return publicBaseUrl(request, config);
      },
    };
    if (request.method === 'HEAD') {
      // A free preflight: no handler, no charge; 402 when a call could not be paid.
      return defer(async () => {
        const quote = await this.metering.quote(caller, meter);
        reply.header('X-Credits-Required', usdString(quote.priceCents));
        reply.header('X-Credits-Balance', usdString(quote.balanceCents));
        return undefined;
      });
    }
    return defer(async () => {
      const hold = await this.metering.authorize(caller, meter);
      try {
        // A handler that throws charges nothing (the hold is dropped below).
        const data = await lastValueFrom(next.handle(), { defaultValue: undefined });
        const charge = await this.metering.charge(caller, meter, String(request.id ?? ''), hold);
        reply.header('X-Credits-Charged', usdString(charge.priceCents));
        reply.header('X-Credits-Balance', usdString(charge.balanceCents));
        return data;
      } finally {
        hold.release();
      }
    });
  }
}
