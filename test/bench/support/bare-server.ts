// Bare Fastify answering constant bodies: what the benches compare the api against. A full run
// serves it from a child server (`*-server.js bare`), so it never shares a core with the load; a
// smoke run, whose figures mean nothing, serves it in the bench's process (ADR 0097). This module
// loads Fastify only, so a bench imports it without loading the api.
import Fastify from 'fastify';
import { listenLocal } from './bench-kit.js';

/** One route of a bare server: method, path (Fastify's syntax) and the body it answers. */
export type BareRoute = [method: 'GET' | 'POST' | 'PATCH', path: string, body: unknown];

/** Listens on 127.0.0.1, a free port, answering each route's body; the URL and how to close it. */
export async function serveBare(routes: BareRoute[]): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false });
  for (const [method, path, body] of routes) app.route({ method, url: path, handler: async () => body });
  return { url: await listenLocal(app), close: () => app.close() };
}

/** The agent-billing bench's: the paid test route's body. */
export const billingBareRoutes = (): BareRoute[] => [
  [
    'GET',
    '/api/v1/test-paid/discovery',
    { data: [{ rank: 1, company: 'Acme Robotics' }], account_id: 'acct_01JBENCHBENCHBENCHBENCHBENC' },
  ],
];

/** The MCP bench's: the discovery page and the tools/call answer, as the api sent them. */
export const mcpBareRoutes = (bodies: { rest: unknown; mcp: unknown }): BareRoute[] => [
  ['GET', '/api/v1/discovery/top', bodies.rest],
  ['POST', '/api/v1/mcp', bodies.mcp],
];

/** The workspace bench's: a page of the stream and a memo answer, as the api sent them. */
export const workspaceBareRoutes = (bodies: { events: unknown; memo: unknown }): BareRoute[] => [
  ['GET', '/api/v1/workspace/events', bodies.events],
  ['PATCH', '/api/v1/workspace/companies/:id/memo', bodies.memo],
];
