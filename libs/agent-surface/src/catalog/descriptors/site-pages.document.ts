/**
 * The two pages the descriptors point people to: the logo (ai-plugin logo_url, server.json
 * icons) and the terms (legal_info_url). The terms page is generated from the same tables as
 * the catalogue and the trust document: packs, effective meter prices and guarantees.
 */
import { type CatalogContext, CREDIT_PACKS, endpointUrl } from '#agent-contract';
import { meterEntries, SERVICE_NAME } from '../information.parts.js';
import { buildTrust } from '../status.documents.js';
import { centsToUsd } from '#kernel';
import { contactEmail, descriptorUrl } from './descriptor.documents.js';

/** 64×64, no text (no font to depend on): a tile with a rising line. */
export const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${SERVICE_NAME}">
  <rect width="64" height="64" rx="14" fill="#1f3a5f"/>
  <polyline points="12,46 26,32 36,40 52,18" fill="none" stroke="#f5f7fa" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>
  <circle cx="52" cy="18" r="5" fill="#4fd1a5"/>
</svg>
`;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const link = (url: string, text = url) => `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>`;
const list = (items: readonly string[]) => `<ul>\n${items.map((i) => `  <li>${escapeHtml(i)}</li>`).join('\n')}\n</ul>`;
const usd = (cents: number) => `${centsToUsd(cents).toFixed(2)} USD`;

export function buildLegalPage(ctx: CatalogContext): string {
  const trust = buildTrust(ctx);
  const email = contactEmail(ctx);
  const packs = CREDIT_PACKS.map(
    (p) => `  <tr><td>${escapeHtml(p.name)}</td><td>${usd(p.amount_cents)}</td><td>${usd(p.credits_cents)}</td></tr>`,
  ).join('\n');
  const meters = meterEntries(ctx)
    .map(
      (m) =>
        `  <tr><td><code>${escapeHtml(m.meter)}</code></td><td>${m.price_usd.toFixed(2)} USD</td><td>${escapeHtml(m.charged_on)}</td></tr>`,
    )
    .join('\n');
  const environment =
    ctx.env === 'test'
      ? '<p>This is a test deployment: keys start with <code>svc_test_</code> and no real money moves.</p>'
      : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${escapeHtml(SERVICE_NAME)}: terms and guarantees</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
</head>
<body>
<h1>${escapeHtml(SERVICE_NAME)}: terms and guarantees</h1>
${environment}
<h2>What is sold</h2>
<p>Prepaid credits, bought in packs. Credits pay for successful calls at the prices below; a call that fails is not charged.</p>
<table>
  <tr><th>Pack</th><th>Price</th><th>Credits</th></tr>
${packs}
</table>
<h2>What a call costs</h2>
<table>
  <tr><th>Meter</th><th>Per successful call</th><th>Charged on</th></tr>
${meters}
</table>
<p>The same figures, machine-readable: ${link(endpointUrl(ctx, 'catalog'))} and ${link(descriptorUrl(ctx, 'agent_feed'))}.</p>
<h2>Guarantees</h2>
<h3>Keys</h3>
${list(trust.keys)}
<h3>Billing</h3>
${list(trust.billing)}
<h3>Payments</h3>
${list(trust.payments)}
<h3>Data</h3>
${list(trust.data)}
<h3>Webhooks</h3>
${list(trust.webhooks)}
<p>As JSON: ${link(endpointUrl(ctx, 'trust'))}.</p>
<h2>Contact</h2>
<p>${link(`mailto:${email}`, email)}</p>
</body>
</html>
`;
}
