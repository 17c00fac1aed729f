import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CatalogContextProvider, type CatalogContext } from '#agent-contract';
import { SITE_DOCUMENT_NAMES, SITE_DOCUMENTS, mcpServerName, renderSiteDocument } from '#agent-surface';
import { FakeClock, loadConfig } from '#kernel';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const BASE = 'https://agents.example.com';

/** The catalogue context of a deployment configured with `env`, as the app builds it. */
function contextFor(env: Record<string, string>): CatalogContext {
  const config = loadConfig({ SVC_DATA_DIR: '/tmp/unused', ...env });
  return new CatalogContextProvider(config, new FakeClock(NOW)).forRequest(undefined);
}

const feed = (ctx: CatalogContext) => JSON.parse(renderSiteDocument('agent_feed', ctx).body) as any;

describe('descriptors follow the configuration', () => {
  it('a meter price override (SVC_METER_PRICES_USD) changes the price in agent-feed.json, and its ETag', () => {
    const defaults = contextFor({});
    const priced = contextFor({ SVC_METER_PRICES_USD: 'read.discovery_top=5.00,read.workspace.memo=0.75' });

    const before = feed(defaults);
    const after = feed(priced);
    const meter = (doc: any, name: string) => doc.meters.find((m: any) => m.meter === name).price_usd;
    const endpoint = (doc: any, name: string) => doc.endpoints.find((e: any) => e.name === name).price_usd;
    const tool = (doc: any, name: string) => doc.mcp.tools.find((t: any) => t.name === name).price_usd;

    assert.equal(meter(before, 'read.discovery_top'), 3.5);
    assert.equal(meter(after, 'read.discovery_top'), 5);
    assert.equal(endpoint(after, 'discovery_top'), 5);
    assert.equal(tool(after, 'svc.get_top_discovery'), 5);
    assert.equal(meter(after, 'read.workspace.memo'), 0.75);
    assert.equal(tool(after, 'svc.workspace.get_memo'), 0.75);
    // Meters not overridden keep the D17 price.
    assert.equal(meter(after, 'read.company_profile'), meter(before, 'read.company_profile'));

    assert.notEqual(renderSiteDocument('agent_feed', priced).etag, renderSiteDocument('agent_feed', defaults).etag);
    // The other documents that quote prices follow too.
    assert.ok(
      renderSiteDocument('llms_txt', priced).body.includes('5.00 USD per successful call (meter read.discovery_top)'),
    );
    assert.ok(renderSiteDocument('legal', priced).body.includes('5.00 USD'));
    const plugin = JSON.parse(renderSiteDocument('ai_plugin', priced).body);
    assert.ok(plugin.description_for_model.includes('costs 5.00 USD (read.discovery_top)'));
    const server = JSON.parse(renderSiteDocument('mcp_server', priced).body);
    const meta = server._meta['io.modelcontextprotocol.registry/publisher-provided'];
    assert.equal(meta.tools.find((t: any) => t.name === 'svc.get_top_discovery').price_usd, 5);
  });

  it('every absolute link of every document starts with SVC_PUBLIC_URL', () => {
    const ctx = contextFor({ SVC_PUBLIC_URL: 'https://agents.example.com/', SVC_CONTACT_EMAIL: 'ops@example.org' });
    for (const name of SITE_DOCUMENT_NAMES) {
      const { body } = renderSiteDocument(name, ctx);
      for (const url of body.match(/https?:\/\/[^\s"'<>()`\\]+/g) ?? []) {
        // Namespaces and schemas of other parties are not links of this service.
        if (/^https?:\/\/(www\.w3\.org|static\.modelcontextprotocol\.io)\//.test(url)) continue;
        assert.ok(url === BASE || url.startsWith(`${BASE}/`), `${name}: ${url}`);
      }
    }
    assert.equal(JSON.parse(renderSiteDocument('ai_plugin', ctx).body).contact_email, 'ops@example.org');
    assert.ok(renderSiteDocument('legal', ctx).body.includes('mailto:ops@example.org'));
    assert.equal(JSON.parse(renderSiteDocument('mcp_server', ctx).body).name, 'com.example.agents/svc');
  });

  it('the same context gives the same bytes and ETag (the ETag stands for the content)', () => {
    const a = contextFor({});
    const b = contextFor({});
    for (const name of SITE_DOCUMENT_NAMES) {
      assert.deepEqual(renderSiteDocument(name, a), renderSiteDocument(name, b), name);
      assert.equal(renderSiteDocument(name, a).contentType, SITE_DOCUMENTS[name].contentType);
    }
  });

  it('names the MCP registry entry by the reverse-DNS of the public host', () => {
    assert.equal(mcpServerName('https://agents.example.com'), 'com.example.agents/svc');
    assert.equal(mcpServerName('http://localhost:3000'), 'localhost/svc');
    assert.equal(mcpServerName('http://127.0.0.1:8080'), '127.0.0.1/svc');
    assert.equal(mcpServerName('http://[::1]:8080'), '--1/svc');
    for (const name of ['com.example.agents/svc', 'localhost/svc', '127.0.0.1/svc', '--1/svc'])
      assert.match(name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
  });

  it('refuses a contact address that is not one', () => {
    assert.throws(() => loadConfig({ SVC_CONTACT_EMAIL: 'not-an-address' }), /SVC_CONTACT_EMAIL/);
  });
});
