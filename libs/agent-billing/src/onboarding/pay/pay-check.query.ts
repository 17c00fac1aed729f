import { Query } from '@nestjs/cqrs';
import type { z } from 'zod';
import type { PayCheck, payCheckQuery } from './pay.schema.js';

/** GET /agents/pay: what a POST with these parameters would do; creates nothing. */
export class CheckPayQuery extends Query<PayCheck> {
  constructor(
    readonly parameters: z.output<typeof payCheckQuery>,
    /** The public base URL the answer's links start with. */
    readonly baseUrl: string,
  ) {
    super();
  }
}
