import { html, type SafeHtml } from '#http';
import type { DeliveryRequestView, DeliveryView, WebhookView } from '#webhooks';
import type { Session } from '../../../../sessions/session.store.js';
import { csrfField, settingsLayout, when } from '../../settings-layout.js';
import { WEBHOOKS_PATH, webhookPath } from '../webhook-pages.js';

export interface ShownDelivery {
  delivery: DeliveryView;
  request: DeliveryRequestView;
}

export interface WebhookPageParts {
  session: Session;
  csrfToken: string;
  webhook: WebhookView;
  deliveries: ShownDelivery[];
  nextCursor: string | null;
  done?: string;
  /** The delivery shown expanded (the one just redelivered). */
  open?: string;
}

const DISABLED_BECAUSE: Record<string, string> = {
  delivery_failed: 'a delivery failed five times',
  gone: 'the receiver answered 410 Gone',
  manual: 'it was disabled here or through the API',
};

/** A delivery's status as the issue names them: succeeded, failed, pending (and the engine's others). */
function status(d: DeliveryView): string {
  if (d.redelivery_pending) return 'pending';
  return d.state;
}

/**
 * GitHub's marker before each delivery and attempt: ✓ succeeded, ✗ failed, … pending; a
 * delivery's is its last attempt's, next to that attempt's response code. A glyph only (hidden
 * from screen readers): the words and the code beside it say the same.
 */
function mark(outcome: string): SafeHtml {
  const [glyph, kind] =
    outcome === 'succeeded' ? ['✓', 'succeeded'] : outcome === 'pending' ? ['…', 'pending'] : ['✗', 'failed'];
  return html`<span class="mark ${kind}" aria-hidden="true">${glyph}</span>`;
}

function deliveryRow(
  webhookId: string,
  csrfToken: string,
  { delivery: d, request }: ShownDelivery,
  open: boolean,
  refresh: string,
): SafeHtml {
  const last = d.attempts.at(-1);
  const shown = status(d);
  return html`<li id="delivery-${d.id}">
    <details ${open ? html`open` : null}>
      <summary>
        ${mark(shown === 'pending' || !last ? shown : last.outcome)} <code>${d.event_type}</code> ·
        <code>${d.id}</code> · ${when(d.created_at)} ·
        <span class="badge ${shown === 'succeeded' ? 'succeeded' : shown === 'pending' ? 'pending' : 'failed'}"
          >${shown}</span
        >
        · ${d.attempts.length} ${d.attempts.length === 1 ? 'attempt' : 'attempts'}
        ${last ? html` · ${last.status_code ?? 'no answer'} · ${last.duration_ms} ms` : null}
      </summary>
      <dl>
        <dt>Event</dt>
        <dd><code>${d.event_type}</code> (<code>${d.event_id}</code>)</dd>
        <dt>Delivery id</dt>
        <dd><code>${d.id}</code></dd>
        <dt>Status</dt>
        <dd>
          ${shown}${d.next_attempt_at && shown === 'pending' ? html`, next attempt ${when(d.next_attempt_at)}` : null}
        </dd>
      </dl>
      ${
        d.attempts.length || d.redelivery_pending
          ? html`<table>
              <thead>
                <tr>
                  <th scope="col">Attempt</th>
                  <th scope="col">Time</th>
                  <th scope="col">Response code</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Outcome</th>
                </tr>
              </thead>
              <tbody>
                ${d.attempts.map(
                  (a) =>
                    html`<tr>
                      <td>${a.number}${a.manual ? ' (redelivery)' : ''}</td>
                      <td>${when(a.attempted_at)}</td>
                      <td>${a.status_code ?? html`<span class="muted">none</span>`}</td>
                      <td>${a.duration_ms} ms</td>
                      <td>${mark(a.outcome)} ${a.outcome}${a.error ? html` (<code>${a.error}</code>)` : null}</td>
                    </tr>`,
                )}
                ${
                  // The redelivery asked for, not made yet: its row now, its outcome on the next look.
                  d.redelivery_pending
                    ? html`<tr class="pending-attempt">
                        <td>${d.attempts.length + 1} (redelivery)</td>
                        <td>${when(d.next_attempt_at)}</td>
                        <td><span class="muted">none yet</span></td>
                        <td></td>
                        <td>${mark('pending')} pending: being sent now (<a href="${refresh}">refresh</a>)</td>
                      </tr>`
                    : null
                }
              </tbody>
            </table>`
          : html`<p class="muted">Not sent yet.</p>`
      }
      <h3>Request</h3>
      ${
        request.headers
          ? html`<p class="muted">Headers of attempt ${request.attempt_number}, signed with the current secret:</p>
              <pre>${request.headers.map(([name, value]) => `${name}: ${value}\n`)}</pre>`
          : null
      }
      ${request.body !== null ? html`<pre>${request.body}</pre>` : html`<p class="muted">The payload is gone.</p>`}
      <h3>Response</h3>
      ${
        last?.response_body
          ? html`<p class="muted">First 2 KB of the body:</p>
              <pre>${last.response_body}</pre>`
          : html`<p class="muted">No response body.</p>`
      }
      <form method="post" action="${webhookPath(webhookId)}/deliveries/${d.id}/redeliver">
        ${csrfField(csrfToken)}
        <button type="submit" class="secondary">Redeliver</button>
      </form>
    </details>
  </li>`;
}

/** One webhook: its settings, its actions, "Send test event" and Recent deliveries. */
export function webhookPage({
  session,
  csrfToken,
  webhook,
  deliveries,
  nextCursor,
  done,
  open,
}: WebhookPageParts): SafeHtml {
  const path = webhookPath(webhook.id);
  const refresh = (id: string) => `${path}?open=${encodeURIComponent(id)}#delivery-${encodeURIComponent(id)}`;
  return settingsLayout({
    session,
    csrfToken,
    current: 'webhooks',
    title: 'Webhook',
    main: html`<p><a href="${WEBHOOKS_PATH}">Webhooks</a></p>
      <h1>Webhook</h1>
      ${done ? html`<p class="ok" role="status">${done}</p>` : null}
      <dl>
        <dt>Payload URL</dt>
        <dd><code>${webhook.url}</code></dd>
        <dt>Events</dt>
        <dd>${webhook.events.map((e, i) => html`${i ? ', ' : ''}<code>${e}</code>`)}</dd>
        <dt>Status</dt>
        <dd>
          ${
            webhook.active
              ? 'Active'
              : html`<span class="failed">Disabled</span> ${when(webhook.disabled_at)}${
                    webhook.disabled_reason
                      ? html` because ${DISABLED_BECAUSE[webhook.disabled_reason] ?? webhook.disabled_reason}`
                      : null
                  }`
          }
        </dd>
        <dt>Created</dt>
        <dd>${when(webhook.created_at)}</dd>
      </dl>
      <div class="actions">
        <a href="${path}/edit">Edit</a>
        <form method="post" action="${path}/active">
          ${csrfField(csrfToken)}
          <input type="hidden" name="active" value="${webhook.active ? 'false' : 'true'}" />
          <button type="submit" class="secondary">${webhook.active ? 'Disable' : 'Enable'}</button>
        </form>
        <form method="post" action="${path}/test">
          ${csrfField(csrfToken)}
          <button type="submit">Send test event</button>
        </form>
        <a href="${path}/delete">Delete</a>
      </div>
      <h2 id="recent-deliveries">Recent deliveries</h2>
      ${
        deliveries.length
          ? html`<ul class="deliveries">
              ${deliveries.map((d) =>
                deliveryRow(webhook.id, csrfToken, d, d.delivery.id === open, refresh(d.delivery.id)),
              )}
            </ul>`
          : html`<p>No deliveries yet. "Send test event" sends one.</p>`
      }
      ${
        nextCursor
          ? html`<p>
              <a href="${path}?cursor=${encodeURIComponent(nextCursor)}#recent-deliveries">Older deliveries</a>
            </p>`
          : null
      }`,
  });
}
