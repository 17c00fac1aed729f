import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';

const root = new URL('../../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'docs-names-'));

/** Runs the lint `npm run lint` runs on the README and ADRs, on one probe document. */
function lint(text: string, ext = 'md'): { status: number | null; stderr: string } {
  const file = join(dir, `probe-${Math.random().toString(36).slice(2)}.${ext}`);
  writeFileSync(file, text);
  const run = spawnSync(process.execPath, [join(root, 'scripts/docs-names.mjs'), file], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: run.status, stderr: run.stderr };
}

describe('docs names lint (scripts/docs-names.mjs, in npm run lint): probes', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('fails on a made-up lib, path or setting, naming each', () => {
    const { status, stderr } = lint(
      [
        '# 9999. Probe',
        'Uses `#made-up-lib` and #other-made-up beside `#kernel` and `#kernel/testing`.',
        'See `libs/made-up/src/thing.ts`, scripts/made-up.mjs and `libs/http/src/http/public-url.ts`.',
        'Set `SVC_MADE_UP_SETTING`; `SVC_DATA_DIR` exists.',
      ].join('\n'),
    );
    assert.equal(status, 1, stderr);
    for (const bad of [
      '#made-up-lib',
      '#other-made-up',
      'libs/made-up/src/thing.ts',
      'scripts/made-up.mjs',
      'SVC_MADE_UP_SETTING',
    ])
      assert.ok(stderr.includes(bad), `${bad} reported:\n${stderr}`);
    for (const good of ['#kernel ', 'public-url', 'SVC_DATA_DIR'])
      assert.ok(!stderr.includes(good), `${good} not reported`);
  });

  it('passes names that exist, patterns of paths, anchors and headings', () => {
    const { status, stderr } = lint(
      [
        '# 9998. Probe',
        '## Decision',
        'In `libs/identity/src/oauth/server/*.ts` and `test/bench/benches-smoke-*.e2e.spec.ts`;',
        'see [the index](#decision) and `/api/v1/agents/errors#METHOD_NOT_ALLOWED`; `SVC_PUBLIC_URL`.',
      ].join('\n'),
    );
    assert.equal(status, 0, stderr);
  });

  it('lets a superseded record keep a name that is gone when it lists it as history', () => {
    const text = 'Helpers lived in `#gone-lib` (now `#http`).\n';
    assert.equal(lint(text).status, 1);
    assert.equal(lint(`${text}<!-- docs-names: history #gone-lib -->\n`).status, 0);
  });

  it('fails on a code comment that cites a tracker issue by number, and passes one that cites an ADR', () => {
    // Put together, so that this file itself cites none.
    const cited = lint([`/** Lifetimes (${'issue'} 16, item 7). */`, 'export const a = 1;'].join('\n'), 'ts');
    assert.equal(cited.status, 1);
    assert.match(cited.stderr, /:1: cites an issue number/);
    assert.equal(lint('// Lifetimes of the tokens (ADR 0066).\nexport const a = 1;\n', 'ts').status, 0);
  });

  it("fails when nest-cli.json's projects and the apps and libs on disk differ, naming each", async () => {
    const { nestProjects } = (await import(pathToFileURL(join(root, 'scripts/docs-names.mjs')).href)) as {
      nestProjects(dir: string): string[];
    };
    const repo = mkdtempSync(join(dir, 'repo-'));
    for (const src of ['apps/api/src', 'libs/kernel/src', 'libs/fresh/src'])
      mkdirSync(join(repo, src), { recursive: true });
    const project = (type: string, root: string) => ({ type, root, entryFile: 'main', sourceRoot: `${root}/src` });
    const write = (projects: object) => writeFileSync(join(repo, 'nest-cli.json'), JSON.stringify({ projects }));
    write({
      api: project('application', 'apps/api'),
      kernel: project('library', 'libs/kernel'),
      gone: project('library', 'libs/gone'),
    });
    assert.deepEqual(nestProjects(repo), [
      'nest-cli.json: libs/fresh is not a project',
      'nest-cli.json: project gone names libs/gone, which does not exist',
    ]);
    write({
      api: project('application', 'apps/api'),
      kernel: project('library', 'libs/kernel'),
      fresh: project('library', 'libs/fresh'),
    });
    assert.deepEqual(nestProjects(repo), []);
    assert.deepEqual(nestProjects(root), [], "this repository's nest-cli.json");
  });
});
