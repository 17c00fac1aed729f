import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { from, lastValueFrom, type Observable } from 'rxjs';
import type { AgentRequest } from '#agent-contract';
import { Idempotency } from './idempotency.service.js';

/** The validated parts of a request that the fingerprint may cover. */
export interface IdempotentParts {
  query: unknown;
  body: unknown;
}

export interface IdempotentRoute {
  /**
   * What the key is unique within: the operation (`POST /api/v1/agents/pay`), written out rather
   * than read from the route, since stored replays are found by it: a renamed route must not
   * orphan them. Authenticated routes add the caller's account.
   */
  scope: string;
  /** No caller to scope the key by (pay, signup): the key must be long (see Idempotency.run). */
  anonymous: boolean;
  /** What a retry must repeat: the same key with other parameters is 409 IDEMPOTENCY_KEY_REUSED. */
  parameters: (parts: IdempotentParts) => unknown;
}

/** The route's idempotency, read by the interceptor. */
export const IDEMPOTENT_ROUTE = Reflector.createDecorator<IdempotentRoute>();

/** The body alone (an absent body counts as `{}`): what authenticated routes fingerprint. */
const bodyOnly = ({ body }: IdempotentParts) => body ?? {};

/** Query and body: for routes whose query parameters change what they do (pay's objective). */
export const queryAndBody = ({ query, body }: IdempotentParts) => ({ query, body });

/** What every `@Idempotent` route documents: the replay marker on its success answer, and the 409s. */
export const IDEMPOTENT_REPLAY_HEADERS = {
  'Idempotent-Replayed': {
    description: 'Optional. The first response to a key is replayed for 24 h (with Idempotent-Replayed: true).',
  },
};
export const IDEMPOTENCY_CONFLICTS = {
  409: { description: 'IDEMPOTENCY_KEY_REUSED (same key, other parameters) or IDEMPOTENCY_KEY_IN_PROGRESS.' },
};

/**
 * `Idempotency-Key` on this route (D15): the first answer to a key is replayed for 24 h with
 * `Idempotent-Replayed: true`. Declared per route, so other routes run no interceptor at all.
 */
export function Idempotent(
  scope: string,
  options: { anonymous?: boolean; parameters?: IdempotentRoute['parameters'] } = {},
): MethodDecorator {
  return applyDecorators(
    IDEMPOTENT_ROUTE({ scope, anonymous: options.anonymous ?? false, parameters: options.parameters ?? bodyOnly }),
    UseInterceptors(IdempotencyInterceptor),
  );
}

type IdempotentHttpRequest = AgentRequest & {
  headers: Record<string, string | string[] | undefined>;
  query: unknown;
  body: unknown;
};
interface Reply {
  header(name: string, value: string): unknown;
}

/**
 * Runs an `@Idempotent` route's handler through `Idempotency`: a replay answers the stored body
 * without calling the handler (so without the command); the route's status (`@HttpCode`) and
 * serialisation are Nest's either way, so a replay is the first answer byte for byte. It runs
 * after the guards: the key is checked, the caller known and the input validated (a 400 claims
 * no key), and the fingerprint covers the parsed parameters, as when controllers called `run`.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly idempotency: Idempotency,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = this.reflector.get(IDEMPOTENT_ROUTE, context.getHandler());
    const http = context.switchToHttp();
    const request = http.getRequest<IdempotentHttpRequest>();
    let scope = route.scope;
    if (!route.anonymous) {
      if (!request.principal) throw new Error(`@Idempotent('${route.scope}') needs an authenticated caller`);
      scope = `${route.scope} ${request.principal.accountId}`;
    }
    return from(
      this.idempotency.run(
        request,
        http.getResponse<Reply>(),
        scope,
        route.parameters({ query: request.query, body: request.body }),
        () => lastValueFrom(next.handle()),
        { anonymous: route.anonymous },
      ),
    );
  }
}
