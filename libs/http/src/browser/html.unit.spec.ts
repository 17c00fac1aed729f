import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeHtml, html, SafeHtml } from './html.js';

describe('html templates', () => {
  it('escapes every interpolation', () => {
    const evil = `"><script>alert('x')</script>&`;
    assert.equal(
      html`<p title="${evil}">${evil}</p>`.value,
      '<p title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</p>',
    );
    assert.equal(escapeHtml('a & b'), 'a &amp; b');
  });

  it('nests fragments without escaping them twice, and renders nothing for null, undefined and false', () => {
    const item = (s: string) => html`<li>${s}</li>`;
    const list = html`<ul>
      ${['a<', 'b'].map(item)}
    </ul>`;
    // (Prettier lays the template out over lines; the whitespace between tags is not the point.)
    assert.equal(list.value.replace(/>\s+</g, '><'), '<ul><li>a&lt;</li><li>b</li></ul>');
    assert.equal(html`<p>${null}${undefined}${false}${0}</p>`.value, '<p>0</p>');
    assert.ok(html`x` instanceof SafeHtml);
  });
});
