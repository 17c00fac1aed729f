import { CSRF_FIELD, html, type SafeHtml } from '#http';
import { layout, type PageScript, type Session } from '#identity';

/** The settings pages, in the order of the navigation. */
export const SETTINGS_PAGES = [
  { id: 'account', label: 'Account', path: '/dashboard/settings/account' },
  { id: 'api-keys', label: 'API keys', path: '/dashboard/settings/api-keys' },
  { id: 'webhooks', label: 'Webhooks', path: '/dashboard/settings/webhooks' },
  { id: 'users', label: 'Users', path: '/dashboard/settings/users' },
  // Built beside this one; linked from here.
  { id: 'oauth-applications', label: 'OAuth applications', path: '/dashboard/settings/oauth-applications' },
] as const;

export type SettingsPageId = (typeof SETTINGS_PAGES)[number]['id'];

export interface SettingsPageParts {
  session: Session;
  csrfToken: string;
  /** The navigation entry this page belongs to. */
  current: SettingsPageId;
  title: string;
  main: SafeHtml;
  scripts?: readonly PageScript[];
}

/** A settings page: the header, the settings navigation (GitHub's left column), the content. */
export function settingsLayout({ session, csrfToken, current, title, main, scripts }: SettingsPageParts): SafeHtml {
  return layout({
    title,
    wide: true,
    scripts,
    signedIn: { email: session.email, csrfToken },
    main: html`<div class="settings">
      <nav aria-label="Settings">
        <ul>
          ${SETTINGS_PAGES.map(
            (page) =>
              html`<li>
                <a href="${page.path}" ${page.id === current ? html`aria-current="page"` : null}>${page.label}</a>
              </li>`,
          )}
        </ul>
      </nav>
      <div>${main}</div>
    </div>`,
  });
}

/** A hidden CSRF field, for every form. */
export function csrfField(csrfToken: string): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${csrfToken}" />`;
}

/** `2026-11-25 23:42 UTC`: dates as people read them, in UTC (the server does not know the zone). */
export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}
