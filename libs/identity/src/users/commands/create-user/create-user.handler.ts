import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, Errors, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore, loadState, WrongExpectedRevisionError } from '#eventstore';
import { ReadYourWrites } from '#projections';
import { accountDecider } from '../../../accounts/account.decider.js';
import { accountStream } from '../../../accounts/account.events.js';
import { AccountRoster } from '../../account-roster/account-roster.service.js';
import { passwordProblems } from '../../password-policy.js';
import { PASSWORD_HASHER, type PasswordHasher } from '../../password-hasher.port.js';
import { userEmailDecider } from '../../user-email.decider.js';
import { emailProblems, userDecider } from '../../user.decider.js';
import { USER_ROLES, userEmailStream, userStream } from '../../user.events.js';
import { USERS_PROJECTION } from '../../users.projection.js';
import { CreateUserCommand, type CreateUserResult } from './create-user.command.js';

/**
 * Reserves the address in its own stream (expected revision: none, or the exact one read), then
 * creates the user: of two creations with one address, however close, one gets 409
 * USER_EMAIL_TAKEN. The password is hashed first, so the two appends follow each other closely.
 */
@CommandHandler(CreateUserCommand)
export class CreateUserHandler implements ICommandHandler<CreateUserCommand, CreateUserResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PASSWORD_HASHER) private readonly hasher: PasswordHasher,
    private readonly readYourWrites: ReadYourWrites,
    private readonly roster: AccountRoster,
  ) {}

  async execute({ input, options }: CreateUserCommand): Promise<CreateUserResult> {
    // Checked before anything is written: a refused creation leaves no reservation behind.
    const details = [...emailProblems(input.email), ...passwordProblems(input.password)];
    if (!USER_ROLES.includes(input.role))
      details.push({ path: 'role', message: `must be one of ${USER_ROLES.join(', ')}` });
    if (details.length) throw Errors.validation(details);
    const { state: account } = await loadState(this.events, accountStream(input.accountId), accountDecider);
    if (account.status !== 'active') throw Errors.notFound('No such account.', 'ACCOUNT_NOT_FOUND');

    const passwordHash = await this.hasher.hash(input.password);
    const userId = this.ids.next('usr');
    await this.reserve(input.email, userId, input.accountId);
    const { position } = await decideAndAppend(this.events, userStream(userId), userDecider, {
      type: 'CreateUser',
      userId,
      accountId: input.accountId,
      email: input.email,
      role: input.role,
      passwordHash,
      now: this.clock.now(),
    });
    await this.roster.joinIfStarted(input.accountId, { userId, role: input.role });
    await this.readYourWrites.waitFor(position, [USERS_PROJECTION], options);
    return { userId, accountId: input.accountId, email: input.email.trim(), role: input.role, position: position! };
  }

  private async reserve(email: string, userId: string, accountId: string): Promise<void> {
    const stream = userEmailStream(email);
    for (let attempt = 0; ; attempt++) {
      const { state, revision } = await loadState(this.events, stream, userEmailDecider);
      // Whether the holder's user exists is read again on every attempt: the holder may have changed.
      const holderExists =
        state.status === 'reserved' &&
        (await loadState(this.events, userStream(state.userId), userDecider)).state.status === 'active';
      const events = userEmailDecider.decide(
        { type: 'ReserveEmail', userId, accountId, holderExists, now: this.clock.now() },
        state,
      );
      try {
        await this.events.append(stream, events, revision ?? 'no_stream');
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= 3) throw error;
      }
    }
  }
}
