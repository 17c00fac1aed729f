import { Inject, Optional } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { MAILER, type Mailer } from '../../password-reset/mailer.port.js';
import { CanMailPasswordResetQuery } from './can-mail-password-reset.query.js';

/** Answered from the MAILER binding itself, so the page and the sending never disagree. */
@QueryHandler(CanMailPasswordResetQuery)
export class CanMailPasswordResetHandler implements IQueryHandler<CanMailPasswordResetQuery, boolean> {
  constructor(@Optional() @Inject(MAILER) private readonly mailer: Mailer | null) {}

  async execute(): Promise<boolean> {
    return !!this.mailer;
  }
}
