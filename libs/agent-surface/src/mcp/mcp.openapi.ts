import { z } from 'zod';

/**
 * The JSON-RPC 2.0 messages of the MCP endpoint, for its OpenAPI operation only: the MCP SDK
 * parses and checks the messages itself (a malformed one gets its JSON-RPC error), so these
 * document the envelope, not every MCP method's params.
 */
const id = z.union([z.string(), z.number().int()]).describe('The request id, echoed in its response.');

const request = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: id.optional().describe('Absent for a notification (answered 202, no body).'),
    method: z.string().describe('initialize, tools/list, tools/call, notifications/initialized, ping, ...'),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'JsonRpcRequest', description: 'A JSON-RPC 2.0 request or notification.' });

const response = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: id.nullable(),
    result: z.record(z.string(), z.unknown()).optional().describe('The answer (tools/call: a CallToolResult).'),
    error: z
      .looseObject({ code: z.number().int(), message: z.string(), data: z.unknown().optional() })
      .optional()
      .describe('A JSON-RPC error: -32700 parse, -32600 invalid request, -32601 no method, -32602 bad params.'),
  })
  .meta({ id: 'JsonRpcResponse', description: 'A JSON-RPC 2.0 response: result or error.' });

export const mcpRequestSchema = z.union([request, z.array(request).min(1)]);
export const mcpResponseSchema = z.union([response, z.array(response)]);
export const mcpEventStreamSchema = z
  .string()
  .describe('Server-sent events, each `event: message` with one JSON-RPC message as data.');
