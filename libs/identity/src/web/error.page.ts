import { html, type SafeHtml } from '#http';
import { layout } from './page-layout.js';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  403: 'Not allowed',
  404: 'Page not found',
  429: 'Too many attempts',
};

export function errorPage(status: number, message: string, code?: string): SafeHtml {
  const title =
    code === 'CSRF_TOKEN_INVALID'
      ? 'Form expired'
      : (TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'Request refused'));
  return layout({
    title,
    main: html`<h1>${title}</h1>
      <p class="notice" role="alert">${message}</p>
      <p><a href="/dashboard">Back to the dashboard</a></p>`,
  });
}
