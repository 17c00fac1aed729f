import type { AccountUsage } from '#access';
import { html, type SafeHtml } from '#http';
import { type AccountView, newPasswordFields, passwordErrors, type Session } from '#identity';
import { csrfField, settingsLayout, when } from '../settings-layout.js';

const PLAN_NAMES: Record<string, string> = { free: 'Free', team: 'Team', enterprise: 'Enterprise' };

const number = (n: number) => n.toLocaleString('en-US');

function usageRow(label: string, used: number, limit: number, resetsAt: string): SafeHtml {
  const left = Math.max(0, limit - used);
  return html`<tr>
    <th scope="row">${label}</th>
    <td>${number(limit)}</td>
    <td>${number(used)}</td>
    <td>${number(left)}</td>
    <td>${when(resetsAt)}</td>
  </tr>`;
}

/** Settings → Account: the plan, its limits and what this hour (and minute) used of them. */
export interface PasswordFormState {
  /** Why the last change was refused. */
  errors?: string[];
  /** The banner after a change. */
  done?: boolean;
}

export function accountPage(
  session: Session,
  csrfToken: string,
  account: AccountView,
  usage: AccountUsage,
  password: PasswordFormState = {},
): SafeHtml {
  const errors = password.errors ?? [];
  const hourShare =
    account.limits.per_hour > 0 ? Math.min(100, (usage.per_hour.used / account.limits.per_hour) * 100) : 0;
  return settingsLayout({
    session,
    csrfToken,
    current: 'account',
    title: 'Account',
    main: html`<h1>Account</h1>
      <dl>
        <dt>Name</dt>
        <dd>${account.name}</dd>
        <dt>Account id</dt>
        <dd><code>${account.id}</code></dd>
        <dt>Plan</dt>
        <dd id="plan">${PLAN_NAMES[account.plan] ?? account.plan}</dd>
        <dt>Your role</dt>
        <dd>${session.role}</dd>
      </dl>
      <h2>Limits and usage</h2>
      <p>
        All keys of the account share these limits. This hour:
        <strong id="hour-usage">${number(usage.per_hour.used)} of ${number(account.limits.per_hour)}</strong> requests
        (${hourShare.toFixed(1)}%).
      </p>
      <div class="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Window</th>
              <th scope="col">Limit</th>
              <th scope="col">Used</th>
              <th scope="col">Left</th>
              <th scope="col">Resets</th>
            </tr>
          </thead>
          <tbody>
            ${usageRow('This hour', usage.per_hour.used, account.limits.per_hour, usage.per_hour.resets_at)}
            ${usageRow('This minute', usage.per_minute.used, account.limits.per_minute, usage.per_minute.resets_at)}
          </tbody>
        </table>
      </div>
      <p class="muted">
        Windows are fixed (whole minutes and hours, UTC). A request over a limit is answered 429 with
        <code>Retry-After</code>.
      </p>
      <h2>Ledger</h2>
      <p>
        A platform account pays by plan, not per call, so it has no credits ledger: its usage is the table above. Agent
        keys of the agent data API (<code>/api/v1</code>) pay per call; an agent reconciles what it paid with its key's
        own ledger, <code>GET /api/v1/billing/ledger?after=&amp;limit=</code> (each entry with its event id, meter,
        amount, balance after and request id): see <a href="/docs/api">the API reference</a>.
      </p>
      <h2 id="password">Password</h2>
      ${
        password.done
          ? html`<p class="ok" role="status" id="password-changed">
              Your password is changed. Every other browser signed in as you is signed out.
            </p>`
          : null
      }
      ${passwordErrors('password-errors', errors)}
      <form method="post" action="/dashboard/settings/account/password">
        ${csrfField(csrfToken)}
        <input type="hidden" name="username" value="${session.email}" autocomplete="username" />
        <label for="current_password">Current password</label>
        <input
          id="current_password"
          name="current_password"
          type="password"
          autocomplete="current-password"
          required
          maxlength="256"
        />
        ${newPasswordFields({ hintMore: 'Other browsers are signed out.' })}
        <button type="submit" class="secondary">Change password</button>
      </form>`,
  });
}
