/**
 * The error catalogue of the agent surface (served at /api/v1/agents/errors). Every problem+json
 * answer under /api/v1 has `type` = {base}/api/v1/agents/errors#{code}; each code here is that
 * anchor. Status, word and headers of an answer come from libs/http's error table; a test scans
 * the sources so a code cannot be answered without being documented here.
 * Every 4xx body also carries `next_actions[{action, method, url, description}]` with absolute
 * URLs (next-actions.ts; an error with its own, like the 402, keeps them): `action` below says
 * the same in words. The entries are data (error-catalog.data.yaml), checked when this module loads.
 */
import { z } from 'zod';
import { loadDataFile } from '#kernel';

export interface AgentErrorEntry {
  code: string;
  status: number;
  /** The `error` word of the body. */
  error: string;
  meaning: string;
  /** What the caller should do. */
  action: string;
  /** Headers that come with it. */
  headers?: readonly string[];
}

/** The shape of error-catalog.data.yaml (exported for its spec). */
export const agentErrorsFileSchema = z
  .strictObject({
    errors: z
      .array(
        z.strictObject({
          code: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
          status: z.number().int().min(400).max(599),
          error: z.string().regex(/^[a-z_]+$/),
          meaning: z.string().min(1),
          action: z.string().min(1),
          headers: z.array(z.string().min(1)).optional(),
        }),
      )
      .min(1),
  })
  .superRefine(({ errors }, ctx) => {
    const seen = new Set<string>();
    errors.forEach((x, i) => {
      if (seen.has(x.code))
        ctx.addIssue({ code: 'custom', path: ['errors', i, 'code'], message: `duplicate code ${x.code}` });
      seen.add(x.code);
    });
  });

export const AGENT_ERRORS: readonly AgentErrorEntry[] = Object.freeze(
  loadDataFile(import.meta.url, './error-catalog.data.yaml', agentErrorsFileSchema).errors,
);

/** A catalogued code: the data file is the list (a unit spec holds every code the sources use to it). */
export type AgentErrorCode = string;

export function findAgentError(code: string): AgentErrorEntry | undefined {
  return AGENT_ERRORS.find((x) => x.code === code);
}
