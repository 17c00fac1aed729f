import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SessionStore } from '../session.store.js';
import { SignOutCommand } from './sign-out.command.js';

@CommandHandler(SignOutCommand)
export class SignOutHandler implements ICommandHandler<SignOutCommand, void> {
  constructor(private readonly sessions: SessionStore) {}

  async execute({ sessionToken }: SignOutCommand): Promise<void> {
    await this.sessions.delete(sessionToken);
  }
}
