import { z } from 'zod';

/** `{version: "v1", as_of, data}` (spec "Response envelope"): every agent-surface answer's. */
export function envelopeSchema<T extends z.ZodType>(data: T, id?: string) {
  const schema = z.strictObject({ version: z.literal('v1'), as_of: z.iso.datetime(), data });
  return id ? schema.meta({ id }) : schema;
}
