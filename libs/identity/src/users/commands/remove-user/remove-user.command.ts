import { Command } from '@nestjs/cqrs';

/** Admin action (dashboard): a user leaves the admin's account and is signed out everywhere. */
export class RemoveUserCommand extends Command<void> {
  constructor(readonly input: { accountId: string; userId: string }) {
    super();
  }
}
