import { type CommandArgs, stringOptions } from '../command-options.js';
import { UsageError } from '../usage-error.js';

const CREATE_USAGE = `  users create --account ACCOUNT_ID --email E [--password P] [--role admin|member]
                                 a user of a platform account who signs in at /login (role
                                 default member). Prints {user_id, account_id, email, role} as
                                 one JSON line; without --password one is generated and printed
                                 there once as password (--password shows in the process list:
                                 prefer the generated one)`;

const RESET_PASSWORD_USAGE = `  users reset-password --email E  a single-use password reset link for the user of E (works once,
                                 for an hour; on SVC_PUBLIC_URL). Prints {user_id, email,
                                 reset_url, expires_at} as one JSON line: hand the link to that
                                 user only. Where SVC_SMTP_URL is set, /password/forgot mails it`;

export type UsersCliCommand =
  | {
      kind: 'users-create';
      accountId: string;
      email: string;
      /** Absent: the CLI generates one and prints it. */
      password?: string;
      role: 'admin' | 'member';
    }
  | { kind: 'users-reset-password'; email: string };

/** The email format and the password policy are the domain's (a UsageError, exit 2, too). */
export const usersCreate: CommandArgs<Extract<UsersCliCommand, { kind: 'users-create' }>> = {
  name: 'users create',
  usage: CREATE_USAGE,
  parse(args) {
    const v = stringOptions(args, ['account', 'email', 'password', 'role']);
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
  },
};

export const usersResetPassword: CommandArgs<Extract<UsersCliCommand, { kind: 'users-reset-password' }>> = {
  name: 'users reset-password',
  usage: RESET_PASSWORD_USAGE,
  parse(args) {
    const v = stringOptions(args, ['email']);
    if (!v.email || v.email.trim() === '') throw new UsageError('--email E is required');
    return { kind: 'users-reset-password', email: v.email };
  },
};
