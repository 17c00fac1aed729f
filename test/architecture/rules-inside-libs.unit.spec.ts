import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

// The compiled spec sits in dist/test/architecture: the repository root is three levels up.
const root = new URL('../../..', import.meta.url);

type FlatConfig = Record<string, unknown>;

async function rulesInsideLibs(): Promise<FlatConfig[]> {
  const module = (await import(new URL('eslint.rules-inside-libs.js', root).href)) as {
    rulesInsideLibs: FlatConfig[];
  };
  return module.rulesInsideLibs;
}

/**
 * Lints `code` as if it were the file at `path` (nothing is written), with the rules inside libs
 * only: TypeScript syntax, no type information (these rules need none).
 */
async function probe(path: string, code: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root.pathname,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser as never } },
      ...(await rulesInsideLibs()),
    ],
  });
  const [result] = await eslint.lintText(code, { filePath: path });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const CONTROLLER_INJECTING = `
import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { RunLookup } from '../run-lookup.js';
@Controller('v1')
export class ProbeController {
  constructor(
    private readonly queries: QueryBus,
    private readonly runs: RunLookup,
  ) {}
}
`;

describe('rules inside libs (ADR 0093), each failing on a probe', () => {
  it('are part of the ESLint configuration npm run lint uses', async () => {
    const config = ((await import(new URL('eslint.config.js', root).href)) as { default: FlatConfig[] }).default;
    for (const entry of await rulesInsideLibs()) assert.ok(config.includes(entry), JSON.stringify(entry.files));
  });

  it('a decider imports no framework, no store and no other lib but kernel', async () => {
    const path = 'libs/agent-billing/src/probe/probe.decider.ts';
    for (const specifier of [
      '@nestjs/common',
      '#eventstore',
      '#documents',
      '#http',
      'mongodb',
      '#access',
      '#agent-contract',
    ]) {
      const messages = await probe(path, `import { x } from '${specifier}';\nexport const y = x;\n`);
      assert.equal(messages.length, 1, specifier);
      assert.match(messages[0]!, /^no-restricted-imports: .*A decider is pure/, specifier);
    }
    assert.deepEqual(
      await probe(
        path,
        `import { Errors } from '#kernel';\nimport { OBJECTIVE_PACK } from '#agent-contract/vocabulary';\nimport type { ProbeEvent } from './probe.events.js';\nexport const y: [unknown, ProbeEvent?] = [Errors, OBJECTIVE_PACK];\n`,
      ),
      [],
    );
  });

  it('kernel imports no framework and no storage client: only Node and zod', async () => {
    const path = 'libs/kernel/src/probe/probe.ts';
    for (const specifier of ['@nestjs/common', 'mongodb', 'better-sqlite3', 'fastify']) {
      const messages = await probe(path, `import { x } from '${specifier}';\nexport const y = x;\n`);
      assert.equal(messages.length, 1, specifier);
      assert.match(messages[0]!, /^no-restricted-imports: .*libs\/kernel is pure TypeScript/, specifier);
    }
    assert.deepEqual(
      await probe(
        path,
        `import { z } from 'zod';\nimport { randomBytes } from 'node:crypto';\nexport const y = [z, randomBytes];\n`,
      ),
      [],
    );
  });

  it('a controller is given the buses, not a read model, service or store', async () => {
    const messages = await probe('libs/platform/src/runs/probe/probe.http.controller.ts', CONTROLLER_INJECTING);
    assert.equal(messages.length, 1, messages.join('\n'));
    assert.match(messages[0]!, /^no-restricted-syntax: A controller talks to the buses only/);
    const store = await probe(
      'libs/platform/src/runs/probe/probe.http.controller.ts',
      `import { ProjectionStore } from '#projections';\nexport const y = ProjectionStore;\n`,
    );
    assert.match(store.join('\n'), /^no-restricted-imports: .*reads no store/);
  });

  it("a lib's index names its exports: no export * (ADR 0095)", async () => {
    const messages = await probe('libs/agent-billing/src/index.ts', `export * from './credits/credits.events.js';\n`);
    assert.equal(messages.length, 1, messages.join('\n'));
    assert.match(messages[0]!, /^no-restricted-syntax: A lib's index names each export/);
    assert.deepEqual(
      await probe('libs/agent-billing/src/index.ts', `export { creditsStream } from './credits/credits.events.js';\n`),
      [],
    );
    // Only the index: a file inside a lib may gather its own pieces.
    assert.deepEqual(
      await probe('libs/agent-billing/src/credits/all.ts', `export * from './credits.events.js';\n`),
      [],
    );
  });

  it('lets the allow-listed controllers be, and nothing else', async () => {
    assert.deepEqual(await probe('libs/runtime/src/health/health.controller.ts', CONTROLLER_INJECTING), []);
    assert.equal((await probe('libs/runtime/src/health/other.controller.ts', CONTROLLER_INJECTING)).length, 1);
  });
});
