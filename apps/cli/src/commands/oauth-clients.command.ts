import type { CommandBus } from '@nestjs/cqrs';
import { AppError } from '#kernel';
import { RegisterOAuthClientCommand } from '#identity';
import { UsageError } from '../usage-error.js';
import { asUsageError } from './accounts.command.js';
import type { OAuthClientsCliCommand } from './oauth-clients.args.js';

/** `svc oauth-clients create`, as the operator: appended at once; the client works at once. */
export async function runOAuthClients(
  commands: CommandBus,
  cmd: OAuthClientsCliCommand,
  write: (line: string) => Promise<void>,
): Promise<void> {
  try {
    const client = await commands.execute(
      new RegisterOAuthClientCommand(
        {
          accountId: cmd.accountId,
          name: cmd.name,
          redirectUris: cmd.redirectUris,
          clientType: cmd.public ? 'public' : 'confidential',
          pkce: cmd.pkce,
          by: 'operator',
        },
        { readYourWrites: false },
      ),
    );
    await write(
      JSON.stringify({
        client_id: client.clientId,
        ...(client.clientSecret ? { client_secret: client.clientSecret } : {}),
        redirect_uris: client.redirectUris,
        pkce: client.pkce,
      }),
    );
  } catch (error) {
    if (error instanceof AppError && error.code === 'ACCOUNT_NOT_FOUND')
      throw new UsageError(`--account ${cmd.accountId}: no such platform account`);
    throw asUsageError(error);
  }
}
