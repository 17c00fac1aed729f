import { parseArgs } from 'node:util';
import type { OAuthClientPkce } from '#platform';
import { UsageError } from '../usage-error.js';

export const OAUTH_CLIENTS_USAGE = `  oauth-clients create --account ACCOUNT_ID --name N --redirect-uri URI [--redirect-uri URI…] [--public] [--pkce required|optional]
                                 an OAuth application of a platform account (confidential, or
                                 --public: no secret). PKCE (S256) is required of both unless
                                 --pkce optional lets a confidential client that cannot send
                                 code_challenge skip it. Prints {client_id, client_secret?,
                                 redirect_uris, pkce} as one JSON line; the secret is shown only
                                 there`;

export type OAuthClientsCliCommand = {
  kind: 'oauth-clients-create';
  accountId: string;
  name: string;
  redirectUris: string[];
  public: boolean;
  pkce: OAuthClientPkce;
};

/** Parses `svc oauth-clients …`; the redirect URIs' rules are the domain's (exit 2 too). */
export function parseOAuthClientsArgs(action: string | undefined, rest: string[]): OAuthClientsCliCommand {
  if (action !== 'create')
    throw new UsageError(
      action === undefined ? 'oauth-clients needs a subcommand: create' : `unknown oauth-clients subcommand: ${action}`,
    );
  let values: { account?: string; name?: string; 'redirect-uri'?: string[]; public?: boolean; pkce?: string };
  try {
    const parsed = parseArgs({
      args: rest,
      options: {
        account: { type: 'string' },
        name: { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
        public: { type: 'boolean' },
        pkce: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
    if (parsed.positionals.length) throw new UsageError(`unexpected argument ${parsed.positionals.join(' ')}`);
    values = parsed.values;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (!values.account || !/^acct_[0-9A-HJKMNP-TV-Z]{26}$/.test(values.account))
    throw new UsageError('--account ACCOUNT_ID is required (a platform account id, acct_…)');
  if (!values.name || values.name.trim() === '') throw new UsageError('--name N is required');
  const redirectUris = values['redirect-uri'] ?? [];
  if (redirectUris.length === 0) throw new UsageError('--redirect-uri URI is required (repeat it for several)');
  const pkce = values.pkce ?? 'required';
  if (pkce !== 'required' && pkce !== 'optional')
    throw new UsageError(`--pkce must be required or optional (got ${pkce})`);
  return {
    kind: 'oauth-clients-create',
    accountId: values.account,
    name: values.name,
    redirectUris,
    public: values.public === true,
    pkce: pkce satisfies OAuthClientPkce,
  };
}
