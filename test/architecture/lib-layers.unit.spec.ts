import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cruise, type IForbiddenRuleType } from 'dependency-cruiser';

// The compiled spec sits in dist/test/architecture: the repository root is three levels up.
const root = new URL('../../..', import.meta.url);
const config = createRequire(import.meta.url)(new URL('.dependency-cruiser.cjs', root).pathname) as {
  forbidden: IForbiddenRuleType[];
};

/**
 * The lib order of .dependency-cruiser.cjs, proven on probes (ADR 0056, ADR 0095): a tree of
 * one-line libs in a temporary directory, each importing another lib's index, cruised with the
 * project's rules. Each probe names the import and the rule it must break (or none).
 */
const PROBES: Array<{ from: string; to: string; rule: string | null }> = [
  // The agent chain: contract → billing → ventures → workspace → surface, never back up.
  { from: 'agent-contract', to: 'agent-billing', rule: 'layer-agent-contract' },
  { from: 'agent-billing', to: 'agent-ventures', rule: 'layer-agent-billing' },
  { from: 'agent-billing', to: 'agent-workspace', rule: 'layer-agent-billing' },
  { from: 'agent-ventures', to: 'agent-workspace', rule: 'layer-agent-ventures' },
  { from: 'agent-workspace', to: 'agent-surface', rule: 'layer-agent-workspace' },
  { from: 'agent-surface', to: 'agent-workspace', rule: null },
  { from: 'agent-workspace', to: 'agent-billing', rule: null },
  { from: 'agent-billing', to: 'agent-contract', rule: null },
  { from: 'agent-contract', to: 'webhooks', rule: null },
  // The platform chain (ADR 0099): identity → platform, never back up.
  { from: 'identity', to: 'platform', rule: 'layer-identity' },
  { from: 'platform', to: 'identity', rule: null },
  { from: 'identity', to: 'webhooks', rule: null },
  // The platform's libs and the agent libs never meet; the base never imports a product.
  { from: 'platform', to: 'agent-contract', rule: 'layer-platform' },
  { from: 'identity', to: 'agent-billing', rule: 'layer-identity' },
  { from: 'agent-contract', to: 'identity', rule: 'layer-agent-contract' },
  { from: 'agent-surface', to: 'platform', rule: 'layer-agent-surface' },
  { from: 'webhooks', to: 'agent-contract', rule: 'layer-webhooks' },
  { from: 'access', to: 'identity', rule: 'layer-access' },
  { from: 'runtime', to: 'agent-surface', rule: null },
  { from: 'runtime', to: 'identity', rule: null },
];

const LIBS = [...new Set(PROBES.flatMap((p) => [p.from, p.to]))];

describe('lib layers (dependency-cruiser), each rule failing on a probe', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lib-layers-'));
    for (const lib of LIBS) {
      const file = join(dir, 'libs', lib, 'src', 'index.ts');
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, `export const name = '${lib}';\n`);
    }
    for (const [i, p] of PROBES.entries()) {
      const file = join(dir, 'libs', p.from, 'src', `probe-${i}.ts`);
      await writeFile(file, `export { name } from '../../${p.to}/src/index.js';\n`);
    }
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('breaks exactly the named rule for each probe, and none for the allowed ones', async () => {
    const result = await cruise(['libs'], {
      baseDir: dir,
      validate: true,
      ruleSet: { forbidden: config.forbidden },
      tsPreCompilationDeps: true,
    });
    const output = result.output as {
      modules: Array<{ source: string; dependencies: Array<{ rules?: Array<{ name: string }> }> }>;
    };
    for (const [i, p] of PROBES.entries()) {
      const module = output.modules.find((m) => m.source === `libs/${p.from}/src/probe-${i}.ts`);
      assert.ok(module, `probe ${i} cruised`);
      const broken = module.dependencies.flatMap((d) => (d.rules ?? []).map((r) => r.name));
      assert.deepEqual(broken, p.rule ? [p.rule] : [], `${p.from} → ${p.to}`);
    }
  });
});
