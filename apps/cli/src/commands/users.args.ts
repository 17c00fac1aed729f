import { UsageError } from '../usage-error.js';
import { stringOptions } from './string-options.js';

export const USERS_USAGE = `  users create --account ACCOUNT_ID --email E [--password P] [--role admin|member]
                                 a user of a platform account who signs in at /login (role
                                 default member). Prints {user_id, account_id, email, role} as
                                 one JSON line; without --password one is generated and printed
                                 there once as password (--password shows in the process list:
                                 prefer the generated one)`;

export type UsersCliCommand = {
  kind: 'users-create';
  accountId: string;
  email: string;
  /** Absent: the CLI generates one and prints it. */
  password?: string;
  role: 'admin' | 'member';
};

/** Parses `svc users …`; the email format and the password policy are the domain's (exit 2 too). */
export function parseUsersArgs(action: string | undefined, rest: string[]): UsersCliCommand {
  if (action === 'create') {
    const v = stringOptions(rest, ['account', 'email', 'password', 'role']);
    if (!v.account || !/^acct_[0-9A-HJKMNP-TV-Z]{26}$/.test(v.account))
      throw new UsageError('--account ACCOUNT_ID is required (a platform account id, acct_…)');
    if (!v.email || v.email.trim() === '') throw new UsageError('--email E is required');
    if (v.password === '') throw new UsageError('--password P must not be empty (leave it out to generate one)');
    const role = v.role ?? 'member';
    if (role !== 'admin' && role !== 'member')
      throw new UsageError(`--role must be admin or member, got ${JSON.stringify(role)}`);
    return {
      kind: 'users-create',
      accountId: v.account,
      email: v.email,
      ...(v.password !== undefined ? { password: v.password } : {}),
      role,
    };
  }
  throw new UsageError(
    action === undefined ? 'users needs a subcommand: create' : `unknown users subcommand: ${action}`,
  );
}
