import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { Errors, type ErrorDetail } from '../errors/app-error.js';
import { getOperation } from '../openapi/operation.metadata.js';
import { issuesToDetails, type RequestPart } from './zod-validation.js';

/**
 * Validates body, query and params against the handler's @Operation schemas before the
 * handler runs (after guards, so authentication fails first) and hands the parsed values on.
 * All problems of one request are reported together.
 */
@Injectable()
export class OperationValidationInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const spec = getOperation(context.getHandler());
    if (spec && context.getType() === 'http') {
      const request = context.switchToHttp().getRequest<Record<RequestPart, unknown>>();
      const details: ErrorDetail[] = [];
      for (const part of ['params', 'query', 'body'] as const) {
        const schema = spec[part];
        if (!schema) continue;
        const result = schema.safeParse(request[part] ?? (part === 'body' ? undefined : {}));
        if (result.success) request[part] = result.data;
        else details.push(...issuesToDetails(result.error.issues, part));
      }
      if (details.length > 0) throw Errors.validation(details);
    }
    return next.handle();
  }
}
