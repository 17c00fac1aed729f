import { z } from 'zod';
import { listQuerySchema } from '#http';
import { MAX_SECRET_LENGTH, MAX_URL_LENGTH, MIN_SECRET_BYTES } from '#webhooks';
import { WORKSPACE_PUBLIC_EVENT_TYPES } from '../workspace.events.js';

const eventTypes = WORKSPACE_PUBLIC_EVENT_TYPES as [string, ...string[]];

export const createSubscriptionBody = z
  .object({
    url: z
      .string()
      .trim()
      .min(1)
      .max(MAX_URL_LENGTH)
      .refine((v) => /^https?:\/\//i.test(v), { message: 'must be an http or https URL' })
      .describe('Receives the pushes: http or https (https on a live deployment), a public address.'),
    events: z
      .array(z.enum(eventTypes))
      .min(1)
      .max(eventTypes.length * 2)
      .describe('Tenant event types to receive (exact names; duplicates are dropped).'),
    secret: z
      .string()
      .max(MAX_SECRET_LENGTH)
      .refine((v) => Buffer.byteLength(v, 'utf8') >= MIN_SECRET_BYTES, {
        message: `must be at least ${MIN_SECRET_BYTES} bytes`,
      })
      .optional()
      .describe(
        `Signs every push (X-Service-Signature and the Standard Webhooks headers), at least ${MIN_SECRET_BYTES} bytes. Omitted: one is generated and shown once in the answer.`,
      ),
  })
  .strict()
  .meta({ id: 'WorkspaceCreateSubscriptionRequest' });
export type CreateSubscriptionBody = z.output<typeof createSubscriptionBody>;

export const subscriptionIdParams = z
  .object({ id: z.string().min(1).max(64).describe('Subscription id (`sub_…`).') })
  .strict();

export const listSubscriptionsQuery = listQuerySchema.strict();

export const listWorkspaceDeliveriesQuery = listQuerySchema
  .extend({
    subscription_id: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('Only this subscription’s deliveries; omitted: every subscription of the tenant.'),
  })
  .strict();
