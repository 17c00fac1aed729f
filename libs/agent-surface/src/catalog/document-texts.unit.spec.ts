import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { OPERATOR_PILOT_DAYS } from '#agent-contract';
import { DataFileError, parseDataFile } from '#kernel';
import { documentTextsFileSchema, fillText, TEXTS } from './document-texts.js';

const read = () => readFileSync(new URL('./document-texts.data.yaml', import.meta.url), 'utf8');
const parse = (text: string) => parseDataFile('document-texts.data.yaml', text, documentTextsFileSchema);
const ctx = { baseUrl: 'https://svc.example', env: 'live' as const, rateLimitPerMinute: 42 };

describe('document texts (document-texts.data.yaml)', () => {
  it('the shipped file passes its schema', () => {
    assert.ok(parse(read()));
  });

  it('a placeholder naming an operation the table lacks, or an unknown value, stops the load with its field', () => {
    const endpoint = read().replace('{{endpoint:create_key}}, switch', '{{endpoint:create_keys}}, switch');
    assert.throws(
      () => parse(endpoint),
      (e: Error) =>
        e instanceof DataFileError &&
        /trust\.keys\.3: unknown placeholder \{\{endpoint:create_keys\}\}/.test(e.message),
    );
    const value = read().replace('More than {{rate_limit_per_minute}}', 'More than {{rate_limit}}');
    assert.throws(() => parse(value), /recovery\.by_status\.4\.cause: unknown placeholder \{\{rate_limit\}\}/);
  });

  it('every auth level and pack capability needs its text, and nothing else is accepted', () => {
    assert.throws(() => parse(read().replace(/^ {2}tenant_key: .*\n/m, '')), /auth_levels\.tenant_key/);
    assert.throws(() => parse(read().replace('  autopay: Meant', '  auto-pay: Meant')), /pack_capabilities/);
    assert.throws(
      () => parse(read().replace('flows:\n  - key: instant', 'flows:\n  - kee: instant')),
      /payment_flows\.0/,
    );
  });

  it('a short description over 100 characters (registries cut it) stops the load', () => {
    const long = read().replace(
      "short_description: 'Venture intelligence for agents:",
      "short_description: 'Venture intelligence for agents and for everyone else who happens to read this:",
    );
    assert.throws(() => parse(long), /service\.short_description: at most 100 characters/);
  });

  it('fillText puts in the deployment’s URLs and values; single braces stay text', () => {
    assert.equal(fillText(ctx, TEXTS.trust.audit).slice(0, 45), 'GET https://svc.example/api/v1/agents/status ');
    assert.match(fillText(ctx, TEXTS.trust.keys[0]!), /^Keys look like svc_live_ \+/);
    assert.match(fillText(ctx, TEXTS.payment_flows[2]!.steps[0]!), /or \{url\} with Accept/);
    assert.equal(fillText(ctx, 'pay at {{recovery_checkout}}', { recovery_checkout: 'X' }), 'pay at X');
    assert.throws(() => fillText(ctx, 'pay at {{recovery_checkout}}'), /no value for \{\{recovery_checkout\}\}/);
    assert.ok(TEXTS.pay_templates.operator_pilot.use_case.startsWith(`${OPERATOR_PILOT_DAYS}-day operator pilot:`));
  });
});
