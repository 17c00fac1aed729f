import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ChangePlanCommand, CreateAccountCommand, type Plan } from '#identity';
import { CreateApiKeyCommand, type KeySurface } from '#access';

/**
 * Platform accounts and keys for tests of any feature, made the way the CLI makes them
 * (operator commands), and waited for (read-your-writes), so the key works at once.
 */
export interface TestAccount {
  accountId: string;
  keyId: string;
  key: string;
}

export async function createAccount(
  app: INestApplicationContext,
  options: { plan?: Plan; perMinute?: number; perHour?: number; name?: string } = {},
): Promise<string> {
  const plan = options.plan ?? 'team';
  const { accountId } = await app.get(CommandBus).execute(
    new CreateAccountCommand({
      name: options.name ?? `Test ${plan} account`,
      plan,
      ...(options.perMinute !== undefined ? { perMinute: options.perMinute } : {}),
      ...(options.perHour !== undefined ? { perHour: options.perHour } : {}),
    }),
  );
  return accountId;
}

export async function createKey(
  app: INestApplicationContext,
  accountId: string,
  options: { scopes?: string[]; name?: string; surface?: KeySurface } = {},
): Promise<{ keyId: string; key: string }> {
  const created = await app.get(CommandBus).execute(
    new CreateApiKeyCommand({
      accountId,
      name: options.name ?? 'test key',
      scopes: options.scopes ?? ['admin'],
      surface: options.surface ?? 'platform',
      creator: { operator: true },
    }),
  );
  return { keyId: created.id, key: created.key };
}

/** An account (Team unless told) with one key (admin unless told). */
export async function createAccountWithKey(
  app: INestApplicationContext,
  options: { plan?: Plan; perMinute?: number; perHour?: number; scopes?: string[] } = {},
): Promise<TestAccount> {
  const accountId = await createAccount(app, options);
  const { keyId, key } = await createKey(app, accountId, { scopes: options.scopes ?? ['admin'] });
  return { accountId, keyId, key };
}

export async function changePlan(
  app: INestApplicationContext,
  accountId: string,
  plan: Plan,
  limits: { perMinute?: number; perHour?: number } = {},
): Promise<void> {
  await app.get(CommandBus).execute(new ChangePlanCommand({ accountId, plan, ...limits }));
}

export const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });
