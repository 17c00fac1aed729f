import {
  type JSONRPCRequest,
  ListToolsRequestSchema,
  type RequestId,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * The answer to tools/list, serialised once: the tools are fixed when the process starts, and
 * the listing is 42 KB of JSON (a batch of 100 listings was 4.25 MB serialised anew,
 * from a 5.4 KB request without a key). A lone tools/list is answered with these bytes without
 * building a server; a listing inside a batch gets the same result object.
 */
export class ToolsListCache {
  /** What the tools/list handler returns. */
  readonly result: { tools: Tool[] };
  private readonly json: string;

  constructor(tools: Tool[]) {
    this.result = { tools };
    this.json = JSON.stringify(this.result);
  }

  /** Whether `request` is a well-formed tools/list this cache answers. */
  answers(request: JSONRPCRequest): boolean {
    return request.method === 'tools/list' && ListToolsRequestSchema.safeParse(request).success;
  }

  /** The JSON-RPC response to the tools/list request `id`, as sent. */
  body(id: RequestId): string {
    return `{"result":${this.json},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
  }
}
