import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { type LiveProcess, startApiProcess } from './support/processes.js';

const execFileAsync = promisify(execFile);

/**
 * The official MCP conformance suite, run against the built service. Its CLI needs Node 22 or
 * later, so npx takes `node@22` from the npm registry for it (pinned with the suite; the service
 * itself runs on this process's Node). Only the scenarios about what every server must do: the
 * others test the suite's own fixture tools (`test_image_content`, prompts, resources …), which
 * this service does not have.
 */
const NODE = 'node@22.23.3';
const SUITE = '@modelcontextprotocol/conformance@0.1.16';
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

describe('the MCP endpoint against the official conformance suite', () => {
  let dataDir: string;
  let api: LiveProcess;
  let url: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-e2e-mcp-conformance-'));
    ({ api, url } = await startApiProcess({ SVC_DATA_DIR: dataDir }));
  });

  after(async () => {
    await api?.stop('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  });

  for (const scenario of SCENARIOS)
    it(`passes ${scenario}`, async () => {
      const { stdout } = await execFileAsync(
        'npx',
        [
          '--yes',
          '-p',
          NODE,
          '-p',
          SUITE,
          'conformance',
          'server',
          '--url',
          `${url}/api/v1/mcp`,
          '--scenario',
          scenario,
        ],
        { timeout: 180_000, maxBuffer: 4 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
      ).catch((error: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(`${scenario}: ${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
      });
      const result = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(stdout);
      assert.ok(result, `no result line from the suite:\n${stdout}`);
      const [, passed, total, failed] = result.map(Number);
      assert.ok(total! > 0, `${scenario} ran no check:\n${stdout}`);
      assert.equal(failed, 0, stdout);
      assert.equal(passed, total, stdout);
    });
});
