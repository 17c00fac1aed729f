import { AppError, assertNever, type Decider, Errors } from '#kernel';
import type { WebhookEnvelope, WebhookOwner } from './channel.js';
import type { WebhookEvent } from './webhook.events.js';

export interface WebhookState {
  id: string | null;
  status: 'none' | 'active' | 'disabled' | 'deleted';
  channel: string | null;
  owner: WebhookOwner | null;
  url: string;
  events: string[];
  secretId: string | null;
  /** Failures of attempts that started before this do not disable the webhook again. */
  reEnabledAt: string | null;
}

export type WebhookCommand =
  | {
      type: 'CreateWebhook';
      webhookId: string;
      channel: string;
      owner: WebhookOwner;
      url: string;
      events: string[];
      secretId: string;
      now: Date;
    }
  | {
      type: 'UpdateWebhook';
      owner: WebhookOwner;
      url?: string;
      events?: string[];
      secretId?: string;
      /** true re-enables a disabled webhook (its failure count starts again); false disables it. */
      active?: boolean;
      now: Date;
    }
  | {
      type: 'DisableWebhook';
      reason: 'delivery_failed' | 'gone';
      deliveryId: string;
      statusCode: number | null;
      /** When the attempt that failed started. */
      attemptStartedAt: Date;
      now: Date;
    }
  | { type: 'DeleteWebhook'; owner: WebhookOwner; now: Date }
  | { type: 'RequestTestEvent'; owner: WebhookOwner; event: WebhookEnvelope; now: Date };

export const initialWebhookState: WebhookState = {
  id: null,
  status: 'none',
  channel: null,
  owner: null,
  url: '',
  events: [],
  secretId: null,
  reEnabledAt: null,
};

export const webhookNotFound = (): AppError => Errors.notFound('No such webhook.', 'WEBHOOK_NOT_FOUND');

/** A webhook exists for this owner (another owner's webhook is as unknown as a missing one). */
function ownedLive(state: WebhookState, owner: WebhookOwner): void {
  if (state.status === 'none' || state.status === 'deleted' || !state.owner) throw webhookNotFound();
  if (state.owner.kind !== owner.kind || state.owner.id !== owner.id) throw webhookNotFound();
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export const webhookDecider: Decider<WebhookCommand, WebhookEvent, WebhookState> = {
  initialState: initialWebhookState,

  evolve(state, event) {
    switch (event.type) {
      case 'WebhookCreated': {
        const d = event.data;
        return {
          id: d.webhook_id,
          status: 'active',
          channel: d.channel,
          owner: d.owner,
          url: d.url,
          events: d.events,
          secretId: d.secret_id,
          reEnabledAt: null,
        };
      }
      case 'WebhookUpdated': {
        const d = event.data;
        return {
          ...state,
          url: d.url ?? state.url,
          events: d.events ?? state.events,
          secretId: d.secret_id ?? state.secretId,
        };
      }
      case 'WebhookDisabled':
        return { ...state, status: 'disabled' };
      case 'WebhookReEnabled':
        return { ...state, status: 'active', reEnabledAt: event.data.re_enabled_at };
      case 'WebhookDeleted':
        return { ...state, status: 'deleted' };
      case 'WebhookTestRequested':
        return state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    const now = command.now.toISOString();
    switch (command.type) {
      case 'CreateWebhook': {
        if (state.status !== 'none') throw Errors.conflict('A webhook with this id exists.', 'WEBHOOK_EXISTS');
        return [
          {
            type: 'WebhookCreated',
            data: {
              webhook_id: command.webhookId,
              channel: command.channel,
              owner: command.owner,
              url: command.url,
              events: command.events,
              secret_id: command.secretId,
              created_at: now,
            },
          },
        ];
      }
      case 'UpdateWebhook': {
        ownedLive(state, command.owner);
        const base = { webhook_id: state.id!, channel: state.channel! };
        const out: WebhookEvent[] = [];
        const changes: { url?: string; events?: string[]; secret_id?: string } = {};
        if (command.url !== undefined && command.url !== state.url) changes.url = command.url;
        if (command.events !== undefined && !sameList(command.events, state.events)) changes.events = command.events;
        if (command.secretId !== undefined && command.secretId !== state.secretId) changes.secret_id = command.secretId;
        if (Object.keys(changes).length > 0)
          out.push({ type: 'WebhookUpdated', data: { ...base, ...changes, updated_at: now } });
        if (command.active === true && state.status === 'disabled')
          out.push({ type: 'WebhookReEnabled', data: { ...base, re_enabled_at: now } });
        if (command.active === false && state.status === 'active') {
          out.push({
            type: 'WebhookDisabled',
            data: { ...base, reason: 'manual', delivery_id: null, status_code: null, disabled_at: now },
          });
        }
        return out;
      }
      case 'DisableWebhook': {
        if (state.status !== 'active') return [];
        // Re-enabled after that attempt started: its failure belongs to the previous period.
        if (state.reEnabledAt !== null && command.attemptStartedAt.getTime() < Date.parse(state.reEnabledAt)) return [];
        return [
          {
            type: 'WebhookDisabled',
            data: {
              webhook_id: state.id!,
              channel: state.channel!,
              reason: command.reason,
              delivery_id: command.deliveryId,
              status_code: command.statusCode,
              disabled_at: now,
            },
          },
        ];
      }
      case 'DeleteWebhook': {
        ownedLive(state, command.owner);
        return [{ type: 'WebhookDeleted', data: { webhook_id: state.id!, channel: state.channel!, deleted_at: now } }];
      }
      case 'RequestTestEvent': {
        ownedLive(state, command.owner);
        if (state.status !== 'active') {
          throw Errors.conflict(
            'The webhook is disabled: re-enable it (PATCH {"active": true}) before sending a test event.',
            'WEBHOOK_DISABLED',
          );
        }
        return [
          {
            type: 'WebhookTestRequested',
            data: {
              webhook_id: state.id!,
              channel: state.channel!,
              owner_id: state.owner!.id,
              event: command.event,
              requested_at: now,
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
