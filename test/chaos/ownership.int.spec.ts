import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pct } from './support/bad-values.js';
import { type ChaosApi, type ChaosRequest, type Principal, startChaosApi } from './support/chaos-api.js';
import {
  byStatus,
  dumpViolations,
  excerptOf,
  type KnownBug,
  report,
  triage,
  type Violation,
} from './support/checks.js';
import {
  exampleOf,
  label,
  type Operation,
  operationsOf,
  type Schema,
  SchemaResolver,
} from './support/openapi-operations.js';
import {
  agentResources,
  knownValues,
  platformResources,
  resourceKind,
  type Resources,
  VALID_BODIES,
  workspaceResources,
} from './support/resources.js';
import { differences, sibling } from './support/same-answer.js';

/** Reported bugs not fixed yet (see support/checks.ts): empty it as the fixes land. */
const KNOWN_BUGS: KnownBug[] = [];

/** Ids that are not owned by an account, and why their routes are not swept. */
const NOT_OWNED: Record<string, string> = {
  universe_company: 'the public company universe',
  registry_target: 'a public registry pack name',
  checkout_session: 'a hosted checkout page, anonymous by design (the id is the capability)',
  setup_intent: 'confirmed with its client secret, anonymous by design',
};

/** Body and query fields that reference a resource, and its kind. */
const REFERENCES: Record<string, string> = {
  repository_id: 'repository',
  agent_id: 'agent',
  run_id: 'run',
  subscription_id: 'subscription',
  setup_intent_id: 'setup_intent',
  key_id: 'agent_key',
};

/**
 * Referencing fields that take another account's id on purpose, and why: each is skipped (and
 * reported as skipped) instead of compared with a never-issued id.
 */
const FOREIGN_BY_DESIGN: Record<string, string> = {
  'GET /api/v1/agents/checkout-link key_id':
    "binds a checkout to any active key (spec payment flow 3: a person's browser pays for an agent's key; ADR 0058)",
};

type Who = Record<Operation['surface'], Principal>;

/**
 * "ownership": every route that takes an id, called by account A with the id of
 * a resource of account B (or tenant B) and with a never-issued id of the same shape, must answer
 * both alike (status, code, body once the ids are written alike, charge), accept neither, and
 * append nothing. Body and query fields that reference resources get the same treatment.
 */
describe('chaos: ownership sweep (real HTTP, every route with an id)', () => {
  let chaos: ChaosApi;
  let document: Schema;
  const a = {} as Who;
  const b = {} as Who;
  let mine: Resources;
  let theirs: Resources;

  before(async () => {
    chaos = await startChaosApi();
    for (const [who, tag] of [
      [a, 'mine'],
      [b, 'theirs'],
    ] as const) {
      who.platform = await chaos.platformPrincipal();
      who.agent = await chaos.agentPrincipal();
      who.workspace = await chaos.tenantPrincipal(`${tag} capital`);
    }
    const make = async (who: Who, tag: string) => ({
      ...(await platformResources(chaos, who.platform, tag)),
      ...(await agentResources(chaos, who.agent, tag)),
      ...(await workspaceResources(chaos, who.workspace, tag)),
    });
    mine = await make(a, 'mine');
    theirs = await make(b, 'theirs');
    const res = await fetch(`${chaos.api.url}/docs/api/openapi.v1.json`);
    document = (await res.json()) as Schema;
  });
  after(async () => {
    await chaos?.close();
  });

  /** B's ids of a kind: its resources, and for keys also B's keys of the other surfaces. */
  function foreignIds(kind: string): string[] {
    switch (kind) {
      case 'doomed_api_key':
        return [theirs.doomed_api_key!, b.agent.keyId, b.workspace.keyId];
      case 'doomed_agent_key':
      case 'agent_key':
        return [theirs.doomed_agent_key!, b.agent.keyId, b.workspace.keyId, b.platform.keyId];
      default:
        return theirs[kind] ? [theirs[kind]] : [];
    }
  }

  it('answers a foreign id exactly like one that never existed, and appends nothing', async () => {
    const { operations } = operationsOf(document);
    const refs = new SchemaResolver(document);
    const violations: Violation[] = [];
    const statuses = new Map<number, number>();
    const skipped = new Set<string>();
    const seen: Record<string, string> = {};
    let routes = 0;
    let pairs = 0;

    /**
     * Sends the pair. A path id (`strict`) must be refused, both times, with nothing appended; a
     * referencing field may be accepted (a list filter finds nothing), but not to write.
     */
    async function compare(
      op: Operation,
      what: string,
      pair: [ChaosRequest, ChaosRequest],
      ids: [string, string],
      strict: boolean,
    ) {
      const as = a[op.surface];
      const head = await chaos.head();
      const foreign = await chaos.send(pair[0], as);
      const middle = await chaos.head();
      const never = await chaos.send(pair[1], as);
      const headAfter = await chaos.head();
      pairs += 1;
      seen[`${label(op)} ${what}`] = `${foreign.status} ${String(foreign.json?.code)} / ${never.status}`;
      for (const s of [foreign.status, never.status]) statuses.set(s, (statuses.get(s) ?? 0) + 1);
      const problems: string[] = [];
      if (foreign.status >= 500 || never.status >= 500) problems.push('5xx');
      if (strict && foreign.status < 400) problems.push('the foreign id was accepted');
      if (strict && never.status < 400) problems.push('the never-issued id was accepted');
      const both2xx = foreign.status < 300 && never.status < 300;
      const diffs = differences(foreign, never, { foreign: [ids[0]], never: [ids[1]] });
      problems.push(...(both2xx ? diffs.filter((d) => !d.startsWith('bodies differ')) : diffs));
      const wrote = [
        { who: 'the foreign', answer: foreign, moved: middle !== head },
        { who: 'the never-issued', answer: never, moved: headAfter !== middle },
      ].filter((w) => w.moved);
      for (const w of wrote) {
        const events = (await chaos.appendedSince(head)).join(', ');
        if (w.answer.status >= 400) problems.push(`a refusal of ${w.who} id appended: ${events}`);
        else problems.push(`${w.who} id was accepted to write: ${events}`);
      }
      if (problems.length)
        violations.push({
          operation: label(op),
          input: what,
          target: pair[0].target,
          status: foreign.status,
          problem: `${problems.join('; ')} (never-issued answered ${never.status})`,
          excerpt: `foreign: ${excerptOf(foreign, 160)} | never: ${excerptOf(never, 160)}`,
        });
      if (headAfter !== head) await chaos.settle();
    }

    const request = (op: Operation, segments: Record<string, string>, body: unknown, query = ''): ChaosRequest => ({
      method: op.method,
      target: op.path.replace(/\{([^}]+)\}/g, (_, n: string) => pct(segments[n] ?? '')) + (query ? `?${query}` : ''),
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });

    for (const op of operations) {
      const own = Object.fromEntries(op.pathParams.map((p) => [p.name, mine[resourceKind(op, p.name)] ?? '']));
      const body = op.body ? (VALID_BODIES[label(op)] ?? exampleOf(refs, op.body, knownValues(mine))) : undefined;
      const kinds = op.pathParams.map((p) => resourceKind(op, p.name));
      const publicKind = kinds.find((k) => NOT_OWNED[k]);
      if (publicKind) {
        skipped.add(`${label(op)} (${NOT_OWNED[publicKind]})`);
        continue;
      }
      // Path ids: each owned one foreign in turn (the others the caller's own), then all at once.
      const owned = op.pathParams.filter((p) => resourceKind(op, p.name) !== 'follow_up_key');
      if (owned.length) routes += 1;
      const variants = owned.length > 1 ? [...owned.map((p) => [p]), owned] : owned.length ? [owned] : [];
      for (const params of variants) {
        const candidates = foreignIds(resourceKind(op, params[0]!.name));
        for (const candidate of candidates) {
          const foreign = { ...own };
          const never = { ...own };
          for (const p of params) {
            const id = params.length === 1 ? candidate : (foreignIds(resourceKind(op, p.name))[0] ?? '');
            foreign[p.name] = id;
            never[p.name] = sibling(id);
          }
          const what = `path ${params.map((p) => `${p.name}=${foreign[p.name]}`).join(', ')}`;
          const ids: [string, string] = [
            params.map((p) => foreign[p.name]).join(),
            params.map((p) => never[p.name]).join(),
          ];
          await compare(op, what, [request(op, foreign, body), request(op, never, body)], ids, true);
          if (params.length > 1) break;
        }
      }
      // Fields that reference a resource, in the query or the body (the rest valid and the caller's own).
      const references = [
        ...op.queryParams.filter((p) => REFERENCES[p.name]).map((p) => ({ where: 'query' as const, name: p.name })),
        ...Object.entries<Schema>(op.body ? (refs.resolve(op.body).properties ?? {}) : {})
          .filter(([name, schema]) => REFERENCES[name] || String(schema.pattern ?? '').includes('wco_'))
          .map(([name]) => ({ where: 'body' as const, name })),
      ];
      for (const ref of references) {
        const byDesign = FOREIGN_BY_DESIGN[`${label(op)} ${ref.name}`];
        if (byDesign) {
          skipped.add(`${label(op)} ${ref.name} (${byDesign})`);
          continue;
        }
        const kind = REFERENCES[ref.name] ?? 'workspace_company';
        for (const candidate of foreignIds(kind).slice(0, 2)) {
          const never = sibling(candidate);
          const pair = [candidate, never].map((id) =>
            ref.where === 'query'
              ? request(op, own, body, `${ref.name}=${pct(id)}`)
              : request(op, own, { ...(body as object), [ref.name]: id }),
          ) as [ChaosRequest, ChaosRequest];
          await compare(op, `${ref.where} ${ref.name}=${candidate}`, pair, [candidate, never], false);
        }
      }
    }

    dumpViolations(violations, seen);
    const { fresh, knownCounts, stale } = triage(violations, KNOWN_BUGS);
    const knownText = Object.entries(knownCounts)
      .map(([id, n]) => `${id}×${n}`)
      .join(' ');
    console.log(
      `chaos ownership: ${fresh.length || stale.length ? 'FAILED' : 'ok'} ${routes} routes with ids, ${pairs} pairs ` +
        `(${pairs * 2} requests), by status ${byStatus(statuses)}, violations ${fresh.length}` +
        (knownText ? `, known bugs ${knownText}` : '') +
        `, skipped ${[...skipped].join('; ') || 'none'}`,
    );
    assert.ok(fresh.length === 0 && stale.length === 0, report('chaos ownership', fresh, stale));
  });
});
