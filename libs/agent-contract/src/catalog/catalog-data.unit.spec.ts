import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { DataFileError, parseDataFile } from '#kernel';
import { agentSurfaceFileSchema } from './agent-surface.js';
import { agentErrorsFileSchema } from './error-catalog.js';
import { OPERATOR_PILOT_DAYS } from './objectives.js';
import { CREDIT_PACKS, packsFileSchema } from './packs.js';
import { REVENUE_TIERS, SERVICE_CATALOG, servicesFileSchema } from './services.js';

const read = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8');

describe('catalogue data files', () => {
  it('the shipped files pass their schemas', () => {
    assert.ok(parseDataFile('agent-surface.data.yaml', read('./agent-surface.data.yaml'), agentSurfaceFileSchema));
    assert.ok(parseDataFile('error-catalog.data.yaml', read('./error-catalog.data.yaml'), agentErrorsFileSchema));
    assert.ok(parseDataFile('packs.data.yaml', read('./packs.data.yaml'), packsFileSchema));
    assert.ok(parseDataFile('services.data.yaml', read('./services.data.yaml'), servicesFileSchema));
  });

  it('a meter that does not exist stops the load, naming the file and the row', () => {
    const text = read('./agent-surface.data.yaml').replace('meter: read.discovery_top', 'meter: read.discovery_tpo');
    assert.throws(
      () => parseDataFile('agent-surface.data.yaml', text, agentSurfaceFileSchema),
      (error: Error) =>
        error instanceof DataFileError && /^agent-surface\.data\.yaml: endpoints\.\d+\.meter: /.test(error.message),
    );
  });

  it('a tool standing for an endpoint the table lacks stops the load', () => {
    const text = read('./agent-surface.data.yaml').replace('endpoint: discovery_top', 'endpoint: discovery_bottom');
    assert.throws(
      () => parseDataFile('agent-surface.data.yaml', text, agentSurfaceFileSchema),
      /tools\.\d+\.endpoint: no endpoint named discovery_bottom/,
    );
  });

  it('a code catalogued twice or a status outside 4xx/5xx stops the load', () => {
    const twice = read('./error-catalog.data.yaml').replace('code: MALFORMED_URL', 'code: MALFORMED_JSON');
    assert.throws(
      () => parseDataFile('e', twice, agentErrorsFileSchema),
      /errors\.\d+\.code: duplicate code MALFORMED_JSON/,
    );
    const status = read('./error-catalog.data.yaml').replace('status: 413', 'status: 200');
    assert.throws(() => parseDataFile('e', status, agentErrorsFileSchema), /errors\.\d+\.status/);
  });

  it('packs: every pack id once, in order, granting at least what it costs', () => {
    const swapped = read('./packs.data.yaml').replace('pack_id: pack_99', 'pack_id: pack_499');
    assert.throws(
      () => parseDataFile('p', swapped, packsFileSchema),
      /packs: packs must be pack_29, pack_99, pack_499, pack_2499, pack_10000 in that order, got pack_29, pack_499, pack_499/,
    );
    const cheap = read('./packs.data.yaml').replace('credits_cents: 11000', 'credits_cents: 9000');
    assert.throws(
      () => parseDataFile('p', cheap, packsFileSchema),
      /packs\.1\.credits_cents: grants less than it costs/,
    );
    const flag = read('./packs.data.yaml').replace('fastest_revenue: true,', 'fastest_revenu: true,');
    assert.throws(() => parseDataFile('p', flag, packsFileSchema), /packs\.0\.recommendation/);
  });

  it('services: an endpoint, a tool or a service that does not exist stops the load', () => {
    const services = read('./services.data.yaml');
    const endpoint = services.replace('[/api/v1/discovery/top]', '[/api/v1/discovery/bottom]');
    assert.throws(
      () => parseDataFile('s', endpoint, servicesFileSchema),
      /services\.0\.included_endpoints\.0: no endpoint \/api\/v1\/discovery\/bottom/,
    );
    const tool = services.replace('[svc.get_top_discovery]', '[svc.get_bottom_discovery]');
    assert.throws(() => parseDataFile('s', tool, servicesFileSchema), /included_mcp_methods\.0: no MCP tool/);
    const tier = services.replace('primary_service_keys: [find, evaluate]', 'primary_service_keys: [find, evaluat]');
    assert.throws(() => parseDataFile('s', tier, servicesFileSchema), /revenue_tiers\.0\.primary_service_keys\.1/);
  });

  it('services: a pack sold under another objective, or a step whose meter is not its endpoint’s, stops the load', () => {
    const services = read('./services.data.yaml');
    const sale = services.replace(
      'pack_id: pack_499\n    objective: growth',
      'pack_id: pack_499\n    objective: starter',
    );
    assert.throws(
      () => parseDataFile('s', sale, servicesFileSchema),
      /revenue_tiers\.1\.objective: pack_499 is sold as growth/,
    );
    const meter = services.replace(
      'mcp_tool: svc.get_company, meter: read.company_profile',
      'mcp_tool: svc.get_company, meter: read.company_score',
    );
    assert.throws(
      () => parseDataFile('s', meter, servicesFileSchema),
      /quickstart_workflows\.1\.steps\.0\.meter: GET \/companies\/\{id\} charges read\.company_profile/,
    );
  });

  it('services: the pilot length is filled in from code, and an unknown placeholder stops the load', () => {
    assert.equal(
      SERVICE_CATALOG.find((s) => s.key === 'operator_pilot')?.name,
      `Operator pilot (${OPERATOR_PILOT_DAYS} days)`,
    );
    assert.ok(
      REVENUE_TIERS.some((t) => t.included.includes('Autopay when the balance falls under {{autopay_threshold}}')),
    );
    const typo = read('./services.data.yaml').replace(
      'Operator pilot ({{operator_pilot_days}} days)',
      'Operator pilot ({{pilot_days}} days)',
    );
    assert.throws(() => parseDataFile('s', typo, servicesFileSchema), /services\.2\.name: unknown placeholder/);
    assert.equal(CREDIT_PACKS.length, 5);
  });
});
