import { createHash } from 'node:crypto';
import { Controller, Get, Header, Inject, Param, Query, Req, Res } from '@nestjs/common';
import { z } from 'zod';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { Operation, prefersJson, publicBaseUrl, type RequestOrigin } from '#http';
import { accountWorkspaceSchema, type AccountWorkspaceView, PATHS, usdString } from '#agent-contract';
import { JSON_OVER_PAGE } from '../../http/billing.http.js';
import { sessionParams } from './sandbox.schema.js';
import { ShowCheckoutSuccessCommand } from './checkout-success/checkout-success.command.js';
import { GetSandboxCheckoutQuery } from './get-checkout-session/get-checkout-session.query.js';

const successQuery = z.object({ session_id: z.string().min(1).max(255).optional() });

const checkoutSuccessSchema = z
  .object({
    paid: z.boolean().describe('Whether the credits have landed (false until the payment is confirmed).'),
    account_id: z.string().nullable(),
    key: z
      .object({ id: z.string(), api_key: z.string() })
      .nullable()
      .describe('The new account’s key after an unbound checkout, shown once.'),
    key_shown_before: z.boolean(),
    balance_usd: z.number().nullable(),
    workspace: accountWorkspaceSchema
      .nullable()
      .describe('The workspace the purchase opened, ready for the account’s keys; null when it holds none.'),
  })
  .meta({ id: 'CheckoutSuccess' });

interface Reply {
  code(status: number): Reply;
  header(name: string, value: string): Reply;
  send(body?: unknown): unknown;
}
interface HttpRequest {
  headers: Record<string, string | string[] | undefined>;
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

// Codes wrap anywhere: the agent hint is a long URL without a break, wider than a phone.
const STYLE = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
.card{border:1px solid #ddd;border-radius:12px;padding:1.5rem}.amount{font-size:2rem;font-weight:600}
button{font-size:1.1rem;padding:.7rem 1.6rem;border-radius:8px;border:0;background:#635bff;color:#fff;cursor:pointer}
.muted{color:#666;font-size:.9rem}code{background:#f4f4f4;padding:.1rem .3rem;border-radius:4px;overflow-wrap:anywhere}`;

/**
 * The headers of every sandbox page, as the platform's pages send them: never framed (a framed
 * Pay button could be clicked through a decoy, ADR 0073), no script, the one stylesheet by hash,
 * forms only to this site.
 */
const PAGE_SECURITY_HEADERS = {
  'content-security-policy': [
    "default-src 'none'",
    `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; '),
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
} as const;

/** Sends a sandbox page: never cached (the success page shows a new key once), never framed. */
function sendPage(reply: Reply, html: string): void {
  reply.code(200).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store');
  for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) reply.header(name, value);
  reply.send(html);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${STYLE}</style></head>
<body>${body}</body></html>`;
}

/** The workspace a purchase opened, as the success page tells it (ADR 0078). */
function workspaceBlock(workspace: AccountWorkspaceView | null): string {
  if (!workspace) return '';
  const ends = workspace.pilot
    ? ` The operator pilot runs until <time id="pilot-ends-at" datetime="${esc(workspace.pilot.ends_at)}">${esc(workspace.pilot.ends_at)}</time>.`
    : '';
  return `<p id="workspace" data-tenant-id="${esc(workspace.tenant_id)}" data-plan="${esc(workspace.plan)}">Your workspace is ready: tenant <code>${esc(workspace.tenant_id)}</code> (${esc(workspace.plan)}).${ends} Every key of this account reaches <code>${esc(workspace.companies_url)}</code> now.</p>`;
}

/**
 * The sandbox provider's hosted pages (D16): the checkout page a starter_checkout.url points to,
 * its Pay button (the same fulfilment as Stripe's webhook), a stand-in for the client SDK's
 * setup-intent confirmation, and the success and cancel pages both providers return to.
 */
/**
 * The pages of the sandbox's hosted checkout (the stand-in for Stripe's): the checkout page, the
 * success page (which shows an unbound checkout's new key once) and the cancel page. Its writes
 * are use cases of their own: pay-checkout/, confirm-setup-intent/.
 */
@Controller('api/v1/billing')
export class SandboxController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('sandbox/checkout/:id')
  @Operation({
    summary: 'Sandbox hosted checkout page',
    description: 'HTML: the pack, the amount and a Pay button that completes the purchase (sandbox provider only).',
    tags: ['agent billing'],
    operationId: 'sandboxCheckoutPage',
    params: sessionParams,
    responses: {
      200: { description: 'The checkout page.', contentType: 'text/html' },
      404: { description: 'No such session.' },
    },
  })
  async checkoutPage(@Param() params: z.output<typeof sessionParams>, @Res() reply: Reply): Promise<void> {
    const session = await this.queries.execute(new GetSandboxCheckoutQuery(params.id));
    const paid = session.status === 'complete';
    const action = `${PATHS.sandboxCheckout}/${encodeURIComponent(session.id)}/pay`;
    sendPage(
      reply,
      page(
        `Checkout: ${session.pack_name}`,
        `<div class="card">
<p class="muted">Sandbox checkout — no real money moves.</p>
<h1 id="pack" data-pack-id="${esc(session.pack_id)}">${esc(session.pack_name)}</h1>
<p class="amount" id="amount" data-amount-usd="${usdString(session.amount_cents)}">${usdString(session.amount_cents)} USD</p>
<p>${usdString(session.credits_cents)} USD of prepaid API credits${session.account_id ? ` for account <code>${esc(session.account_id)}</code>` : ''}.</p>
${
  paid
    ? `<p id="status" data-status="complete"><strong>Paid.</strong> The credits are on the account.</p>`
    : `<form method="post" action="${esc(action)}" id="pay-form"><button type="submit" id="pay">Pay ${usdString(session.amount_cents)} USD</button></form>
<p class="muted">Agents: <code>POST ${esc(action)}</code> with <code>Accept: application/json</code>.</p>`
}
<p class="muted">${paid ? '' : `<a href="${PATHS.checkoutCancelled}">Cancel</a> · `}session <code>${esc(session.id)}</code>${paid ? '' : ` · expires ${esc(session.expires_at)}`}</p>
</div>`,
      ),
    );
  }

  @Get('checkout/success')
  @Header('cache-control', 'no-store')
  @Operation({
    summary: 'Checkout success page',
    description:
      'HTML (JSON with Accept: application/json). After an unbound checkout (no key_id) it shows the new account’s API key ONCE: later visits say it was shown. When the pack opened a workspace (pack_2499: the operator pilot, pack_10000: enterprise), `workspace` says it is ready for the account’s keys, with the pilot’s end.',
    tags: ['agent billing'],
    operationId: 'checkoutSuccessPage',
    query: successQuery,
    responses: {
      200: {
        description:
          'HTML, or with Accept: application/json {paid, account_id, key, key_shown_before, balance_usd, workspace}.',
        contentTypes: { 'text/html': z.string(), 'application/json': checkoutSuccessSchema },
      },
    },
  })
  async success(
    @Query() query: z.output<typeof successQuery>,
    @Req() request: HttpRequest,
    @Res() reply: Reply,
  ): Promise<void> {
    const { revealed, accountId, paidSession, balanceCents, workspace } = await this.commands.execute(
      new ShowCheckoutSuccessCommand(
        query.session_id,
        publicBaseUrl(request as HttpRequest & RequestOrigin, this.config),
      ),
    );
    const paidLine = paidSession
      ? `<p id="status" data-status="complete">Paid ${usdString(paidSession.amountCents)} USD for ${esc(paidSession.packName)}.</p>`
      : '';
    if (prefersJson(request.headers.accept, JSON_OVER_PAGE)) {
      const body = {
        paid: balanceCents !== null,
        account_id: accountId,
        key: revealed?.key ? { id: revealed.claim.key_id, api_key: revealed.key } : null,
        key_shown_before: revealed !== null && revealed.key === null,
        balance_usd: balanceCents === null ? null : balanceCents / 100,
        workspace,
      };
      reply.code(200).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
      return;
    }
    const keyBlock = revealed
      ? revealed.key
        ? `<p>Your new API key (shown once, store it now):</p><p><code id="api-key" data-key-id="${esc(revealed.claim.key_id)}">${esc(revealed.key)}</code></p>
<p class="muted">Send it as <code>x-api-key</code>. Account <code>${esc(revealed.claim.account_id)}</code>.</p>`
        : `<p id="api-key-shown">The API key of account <code>${esc(revealed.claim.account_id)}</code> was shown already; it is not shown twice.</p>`
      : '';
    const balance =
      balanceCents === null
        ? '<p>Credits are added as soon as the payment is confirmed (usually seconds); reload this page.</p>'
        : `<p>Balance: <strong id="balance" data-balance-usd="${usdString(balanceCents)}">${usdString(balanceCents)} USD</strong>.</p>`;
    sendPage(
      reply,
      page(
        'Payment received',
        `<div class="card"><h1>Payment received</h1>${paidLine}${balance}${keyBlock}${workspaceBlock(workspace)}
<p class="muted">Check <code>GET ${PATHS.status}</code> with your key for the balance and ledger.</p></div>`,
      ),
    );
  }

  @Get('checkout/cancelled')
  @Operation({
    summary: 'Checkout cancelled page',
    tags: ['agent billing'],
    description:
      'The HTML page the hosted checkout returns to when the buyer cancels: nothing was charged, with a link to start again. Public.',
    operationId: 'checkoutCancelledPage',
    responses: { 200: { description: 'HTML.', contentType: 'text/html' } },
  })
  cancelled(@Res() reply: Reply): void {
    sendPage(
      reply,
      page(
        'Checkout cancelled',
        `<div class="card"><h1>Checkout cancelled</h1><p>Nothing was charged. Open a new checkout with <code>GET ${PATHS.checkoutLink}</code>.</p></div>`,
      ),
    );
  }
}
