import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONRPCRequest, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ToolsListCache } from './tools-list.cache.js';

describe('ToolsListCache', () => {
  it('serialises the tools once, and answers each tools/list with those bytes and its own id', () => {
    let serialised = 0;
    const tool = { name: 'svc.x', inputSchema: { type: 'object' } } as Tool;
    // toJSON runs each time JSON.stringify meets the tool: it counts the serialisations.
    Object.defineProperty(tool, 'toJSON', {
      value: () => (serialised++, { name: tool.name, inputSchema: tool.inputSchema }),
    });
    const cache = new ToolsListCache([tool]);
    const answers = [cache.body(1), cache.body('b'), cache.body(1)];
    assert.equal(serialised, 1);
    assert.deepEqual(JSON.parse(answers[0]!), {
      jsonrpc: '2.0',
      id: 1,
      result: { tools: [{ name: 'svc.x', inputSchema: { type: 'object' } }] },
    });
    assert.equal(JSON.parse(answers[1]!).id, 'b');
    assert.equal(answers[2], answers[0]);
  });

  it('answers only a well-formed tools/list', () => {
    const cache = new ToolsListCache([]);
    const req = (r: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, ...r }) as JSONRPCRequest;
    assert.equal(cache.answers(req({ method: 'tools/list' })), true);
    assert.equal(cache.answers(req({ method: 'tools/list', params: { cursor: 'c' } })), true);
    assert.equal(cache.answers(req({ method: 'tools/list', params: { cursor: 5 } })), false);
    assert.equal(cache.answers(req({ method: 'tools/call', params: { name: 'x' } })), false);
  });
});
