import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { type OAuthGrantCommand, oauthGrantDecider } from './oauth-grant.decider.js';
import { oauthGrantStream } from './oauth-grant.events.js';

type WithoutNow<T> = T extends unknown ? Omit<T, 'now'> : never;

/** Appends a grant's audit events (committed before the HTTP answer that caused them). */
@Injectable()
export class OAuthAudit {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  now(): Date {
    return this.clock.now();
  }

  async record(command: WithoutNow<OAuthGrantCommand>): Promise<void> {
    await decideAndAppend(
      this.events,
      oauthGrantStream(command.grantId),
      oauthGrantDecider,
      { ...command, now: this.clock.now() } as OAuthGrantCommand,
      { retries: 5 },
    );
  }
}
