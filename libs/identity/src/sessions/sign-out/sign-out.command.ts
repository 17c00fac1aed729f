import { Command } from '@nestjs/cqrs';

/** Ends the browser's session (its document is deleted: every instance refuses it at once). */
export class SignOutCommand extends Command<void> {
  constructor(readonly sessionToken: string | undefined) {
    super();
  }
}
