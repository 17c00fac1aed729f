import { html, type SafeHtml } from '#http';
import { layout, type Session } from '#identity';
import { SETTINGS_PAGES } from '../settings/settings-layout.js';

/** The dashboard's front page: who is signed in, the settings, and a way out. */
export function dashboardHomePage(session: Session, csrfToken: string): SafeHtml {
  return layout({
    title: 'Dashboard',
    signedIn: { email: session.email, csrfToken },
    main: html`<h1>Dashboard</h1>
      <p id="signed-in-as">Signed in as <strong>${session.email}</strong> (${session.role}).</p>
      <p class="muted">Account <code>${session.accountId}</code>.</p>
      <h2>Settings</h2>
      <ul>
        ${SETTINGS_PAGES.map((page) => html`<li><a href="${page.path}">${page.label}</a></li>`)}
      </ul>`,
  });
}
