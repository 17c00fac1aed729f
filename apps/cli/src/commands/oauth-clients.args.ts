import type { OAuthClientPkce } from '#identity';
import { type CommandArgs, parseOptions } from '../command-options.js';
import { UsageError } from '../usage-error.js';

const CREATE_USAGE = `  oauth-clients create --account ACCOUNT_ID --name N --redirect-uri URI [--redirect-uri URI…] [--public] [--pkce required|optional]
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

/** The redirect URIs' rules are the domain's (a UsageError, exit 2, too). */
export const oauthClientsCreate: CommandArgs<OAuthClientsCliCommand> = {
  name: 'oauth-clients create',
  usage: CREATE_USAGE,
  parse(args) {
    const { values, positionals } = parseOptions(args, {
      account: { type: 'string' },
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      public: { type: 'boolean' },
      pkce: { type: 'string' },
    });
    if (positionals.length) throw new UsageError(`unexpected argument ${positionals.join(' ')}`);
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
  },
};
