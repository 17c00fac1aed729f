import { z } from 'zod';
import { MAX_FINDINGS } from '../../run.decider.js';
import { FINDING_LEVELS } from '../../run.events.js';

export const findingInput = z
  .strictObject({
    level: z.enum(FINDING_LEVELS),
    file: z
      .string()
      .min(1)
      .max(1024)
      .nullable()
      .default(null)
      .describe('Path in the repository; null for the repository as a whole.'),
    line: z.number().int().min(1).nullable().default(null).describe('1-based line; null when it does not apply.'),
    message: z.string().trim().min(1).max(4000),
    rule: z
      .string()
      .min(1)
      .max(200)
      .nullable()
      .default(null)
      .describe('Id of the check that found it (`no-unused-vars`, ...).'),
  })
  .meta({ id: 'FindingInput' });

export const completeRunBody = z
  .object({
    findings: z
      .array(findingInput)
      .max(MAX_FINDINGS)
      .default([])
      .describe(`What the run found, at most ${MAX_FINDINGS}.`),
    summary: z.string().trim().min(1).max(10_000).optional().describe('For people: what the run did.'),
  })
  .meta({ id: 'CompleteRunRequest' });
