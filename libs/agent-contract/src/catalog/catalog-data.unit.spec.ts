import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { DataFileError, parseDataFile } from '#kernel';
import { agentSurfaceFileSchema } from './agent-surface.js';
import { agentErrorsFileSchema } from './error-catalog.js';

const read = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8');

describe('catalogue data files', () => {
  it('the shipped files pass their schemas', () => {
    assert.ok(parseDataFile('agent-surface.data.yaml', read('./agent-surface.data.yaml'), agentSurfaceFileSchema));
    assert.ok(parseDataFile('error-catalog.data.yaml', read('./error-catalog.data.yaml'), agentErrorsFileSchema));
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
});
