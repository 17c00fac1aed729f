import { assertNever, type Decider } from '#kernel';
import type { DeliveryAttemptData, DeliveryEvent } from './delivery.events.js';
import { MAX_AUTOMATIC_ATTEMPTS, retryDelayAfter } from './retry-schedule.js';

export interface DeliveryState {
  attempts: number;
  automaticAttempts: number;
  succeeded: boolean;
  final: DeliveryAttemptData['final'];
  /** The redelivery request not yet answered by a manual attempt. */
  pendingRequest: string | null;
}

/** What the transport reported. */
export interface AttemptOutcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
  succeeded: boolean;
}

/** The error of an attempt whose sender stopped before it learnt the answer (ADR 0070). */
export const OUTCOME_UNKNOWN_ERROR = 'outcome_unknown: the dispatcher stopped during this attempt';

/**
 * What is recorded for an attempt sent by a process that stopped before recording it: the
 * receiver may or may not have it; a failure for the schedule, never sent again (ADR 0070).
 */
export const OUTCOME_UNKNOWN: AttemptOutcome = {
  statusCode: null,
  durationMs: 0,
  error: OUTCOME_UNKNOWN_ERROR,
  responseBody: null,
  succeeded: false,
};

export interface DeliveryRef {
  deliveryId: string;
  webhookId: string;
  channel: string;
  eventId: string;
  eventType: string;
}

export type DeliveryCommand =
  | {
      type: 'RecordAttempt';
      delivery: DeliveryRef;
      kind: 'automatic' | 'manual';
      /** The request a manual attempt answers. */
      requestId?: string | null;
      /**
       * The rank of the automatic attempt its sender leased (`{delivery}:a{rank}`): when the
       * stream holds that attempt already, it is not recorded again.
       */
      automaticRank?: number;
      startedAt: Date;
      completedAt: Date;
      outcome: AttemptOutcome;
      /** Scales the retry schedule (SVC_WEBHOOK_RETRY_SCALE, test mode only); 1 when absent. */
      retryScale?: number;
    }
  | { type: 'RequestRedelivery'; delivery: DeliveryRef; requestId: string; now: Date }
  | {
      type: 'HoldDelivery';
      delivery: DeliveryRef;
      ownerId: string;
      reason: string;
      kind: 'automatic' | 'manual';
      requestId?: string | null;
      now: Date;
    };

/** The fields naming the delivery in each of its events. */
const refData = (delivery: DeliveryRef) => ({
  delivery_id: delivery.deliveryId,
  webhook_id: delivery.webhookId,
  channel: delivery.channel,
  event_id: delivery.eventId,
  event_type: delivery.eventType,
});

export const initialDeliveryState: DeliveryState = {
  attempts: 0,
  automaticAttempts: 0,
  succeeded: false,
  final: null,
  pendingRequest: null,
};

/**
 * The attempts of one delivery. An attempt is a fact: it is always recorded, whatever came
 * before (two dispatchers never send the same attempt, but a record must never be lost), once:
 * an attempt of a rank (or answering a request) the stream already holds is not recorded again. The
 * decider adds what follows from it: its rank, the next automatic attempt (D12 schedule) or
 * that it was the last one (fifth automatic failure, or 410 Gone, which disables at once).
 * Manual attempts (redeliveries) never count toward disabling.
 */
export const deliveryDecider: Decider<DeliveryCommand, DeliveryEvent, DeliveryState> = {
  initialState: initialDeliveryState,

  evolve(state, event) {
    switch (event.type) {
      case 'WebhookDeliveryAttempted': {
        const d = event.data;
        return {
          attempts: Math.max(state.attempts, d.number),
          automaticAttempts:
            d.automatic !== null ? Math.max(state.automaticAttempts, d.automatic) : state.automaticAttempts,
          succeeded: state.succeeded || d.succeeded,
          final: state.final ?? d.final,
          pendingRequest: d.manual && d.request_id === state.pendingRequest ? null : state.pendingRequest,
        };
      }
      case 'WebhookRedeliveryRequested':
        return { ...state, pendingRequest: event.data.request_id };
      case 'WebhookDeliveryHeld':
        // Not an attempt: the schedule and the counts stay where they were.
        return state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RecordAttempt': {
        const { delivery, outcome } = command;
        const manual = command.kind === 'manual';
        // Recorded already: its sender outlived the lease and the next holder recorded the attempt
        // as outcome unknown meanwhile (ADR 0070). One attempt, one record.
        if (!manual && command.automaticRank !== undefined && state.automaticAttempts >= command.automaticRank)
          return [];
        if (manual && command.requestId && state.pendingRequest !== command.requestId) return [];
        const automatic = manual ? null : state.automaticAttempts + 1;
        let final: DeliveryAttemptData['final'] = null;
        let next: string | null = null;
        if (!outcome.succeeded) {
          if (outcome.statusCode === 410) final = 'gone';
          else if (automatic !== null && automatic >= MAX_AUTOMATIC_ATTEMPTS) final = 'exhausted';
          else if (automatic !== null)
            next = new Date(
              command.completedAt.getTime() + retryDelayAfter(automatic, command.retryScale ?? 1)!,
            ).toISOString();
        }
        return [
          {
            type: 'WebhookDeliveryAttempted',
            data: {
              ...refData(delivery),
              number: state.attempts + 1,
              automatic,
              manual,
              request_id: manual ? (command.requestId ?? null) : null,
              started_at: command.startedAt.toISOString(),
              duration_ms: Math.max(0, Math.round(outcome.durationMs)),
              status_code: outcome.statusCode,
              error: outcome.error,
              response_body: outcome.responseBody,
              succeeded: outcome.succeeded,
              next_attempt_at: next,
              final,
            },
          },
        ];
      }
      case 'RequestRedelivery': {
        // One outstanding request at a time: asking again while it waits changes nothing.
        if (state.pendingRequest !== null) return [];
        const { delivery } = command;
        return [
          {
            type: 'WebhookRedeliveryRequested',
            data: {
              ...refData(delivery),
              request_id: command.requestId,
              requested_at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'HoldDelivery': {
        // A delivery that went out or gave up has nothing left to hold, unless a redelivery waits.
        const manual = command.kind === 'manual';
        if (!manual && (state.succeeded || state.final !== null)) return [];
        if (manual && state.pendingRequest === null) return [];
        const { delivery } = command;
        return [
          {
            type: 'WebhookDeliveryHeld',
            data: {
              ...refData(delivery),
              owner_id: command.ownerId,
              reason: command.reason,
              manual,
              request_id: manual ? (command.requestId ?? null) : null,
              held_at: command.now.toISOString(),
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
