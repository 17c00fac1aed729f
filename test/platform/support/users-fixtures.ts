import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CreateUserCommand, type UserRole } from '#identity';
import { createAccount } from './platform-fixtures.js';

export const TEST_PASSWORD = 'correct horse battery staple';

/** A Team account with one user (as `svc users create` makes it). */
export async function createUser(
  app: INestApplicationContext,
  options: { email?: string; password?: string; role?: UserRole; accountId?: string } = {},
): Promise<{ accountId: string; userId: string; email: string; password: string }> {
  const accountId = options.accountId ?? (await createAccount(app));
  const password = options.password ?? TEST_PASSWORD;
  const user = await app.get(CommandBus).execute(
    new CreateUserCommand({
      accountId,
      email: options.email ?? 'ada@example.com',
      password,
      role: options.role ?? 'admin',
    }),
  );
  return { accountId, userId: user.userId, email: user.email, password };
}
