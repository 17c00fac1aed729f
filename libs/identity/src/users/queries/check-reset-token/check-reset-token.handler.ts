import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { PasswordResetTokens } from '../../password-reset/password-reset-tokens.store.js';
import { CheckResetTokenQuery } from './check-reset-token.query.js';

@QueryHandler(CheckResetTokenQuery)
export class CheckResetTokenHandler implements IQueryHandler<CheckResetTokenQuery, boolean> {
  constructor(private readonly tokens: PasswordResetTokens) {}

  async execute({ token }: CheckResetTokenQuery): Promise<boolean> {
    return (await this.tokens.peek(token)) !== null;
  }
}
