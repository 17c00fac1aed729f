import { html, type SafeHtml } from '#http';
import { contentSecurityPolicy, pageScript } from './page-layout.js';

/**
 * The Copy buttons, a progressive enhancement: each `button[data-copy]` copies the read-only
 * field its `data-copy` names and says so in the element `data-copy-status` names. Without
 * script (or a clipboard) the buttons stay hidden and the value is a field to select. Allowed by
 * its hash in the CSP of the pages that show a value once (`COPY_PAGE_CSP`).
 */
export const COPY_SCRIPT = pageScript(
  `(function(){if(!navigator.clipboard)return;document.querySelectorAll('button[data-copy]').forEach(function(b){` +
    `var f=document.getElementById(b.getAttribute('data-copy')),s=document.getElementById(b.getAttribute('data-copy-status'));` +
    `if(!f||!s)return;b.hidden=false;f.addEventListener('focus',function(){f.select()});` +
    `b.addEventListener('click',function(){navigator.clipboard.writeText(f.value).then(function(){s.textContent='Copied.'},function(){f.select();s.textContent='Select the value and copy it.'})})})})();`,
);

/** The usual CSP plus the Copy buttons' script by its hash. */
export const COPY_PAGE_CSP = contentSecurityPolicy([COPY_SCRIPT]);

/** A hidden Copy button for the field `fieldId`, with its polite status line. */
export function copyButton(fieldId: string, label = 'Copy'): SafeHtml {
  return html`<div class="actions">
    <button type="button" class="secondary" data-copy="${fieldId}" data-copy-status="${fieldId}-copied" hidden>
      ${label}
    </button>
    <span id="${fieldId}-copied" role="status" aria-live="polite"></span>
  </div>`;
}
