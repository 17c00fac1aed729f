import type { CommandBus } from '@nestjs/cqrs';
import { CreateApiKeyCommand, RevokeApiKeyCommand } from '#access';
import { asUsageError } from './accounts.command.js';
import type { KeysCliCommand } from './keys.args.js';

/** `svc keys create|revoke`, as the operator (may grant any scope, revoke any key). */
export async function runKeys(
  commands: CommandBus,
  cmd: KeysCliCommand,
  write: (line: string) => Promise<void>,
): Promise<void> {
  try {
    if (cmd.kind === 'keys-create') {
      const key = await commands.execute(
        new CreateApiKeyCommand(
          {
            accountId: cmd.accountId,
            name: cmd.name,
            scopes: cmd.scopes,
            surface: cmd.surface,
            creator: { operator: true },
          },
          { readYourWrites: false },
        ),
      );
      await write(
        JSON.stringify({
          id: key.id,
          key: key.key,
          account_id: key.account_id,
          name: key.name,
          scopes: key.scopes,
          surface: key.surface,
          created_at: key.created_at,
        }),
      );
      return;
    }
    const revoked = await commands.execute(
      new RevokeApiKeyCommand({ keyId: cmd.keyId, requester: { operator: true } }, { readYourWrites: false }),
    );
    await write(JSON.stringify({ id: revoked.keyId, account_id: revoked.accountId, revoked: true }));
  } catch (error) {
    throw asUsageError(error);
  }
}
