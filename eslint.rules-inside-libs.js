// The rules inside a lib (DESIGN §3–4, STYLE 3 and 12, ADR 0093, ADR 0095), which the lib graph
// of .dependency-cruiser.cjs cannot see: deciders and kernel stay framework-free, controllers
// talk only to the buses, and a lib's index names its exports. Proven by probes: test/architecture/rules-inside-libs.unit.spec.ts
// lints a violating file for each and expects the rule's message.

/**
 * What a decider may import: kernel, the agent side's pure vocabulary (packs, objectives: ADR 0095)
 * and files of its own lib (its events, pure helpers).
 */
const deciderImports = {
  regex: '^(?!#kernel$|#agent-contract/vocabulary$|\\.{1,2}/)',
  message:
    'A decider is pure: it imports #kernel (and #agent-contract/vocabulary) and its own events and helpers only, never a framework, a store or another lib (ADR 0093).',
};

/**
 * What kernel may import: its own files, Node's modules, zod (config, data files) and yaml (the
 * catalogue's data files, ADR 0094: a parser, no framework or store), nothing else.
 */
const kernelImports = {
  regex: '^(?!zod$|yaml$|node:|\\.{1,2}/)',
  message: 'libs/kernel is pure TypeScript: no framework, no storage client, no package but zod and yaml (ADR 0093).',
};

/** Storage a controller must not reach around the buses. */
const controllerImports = {
  regex: '^(#eventstore|#documents|#projections|mongodb|better-sqlite3|@eventstore/)',
  message: 'A controller sends a command or a query through the buses; it reads no store (ADR 0093).',
};

/**
 * What a controller may be given: the buses, and what the HTTP edge itself needs (the clock and
 * configuration for the envelope and links, ids, the session cookie, flash messages between a
 * redirect and its page).
 */
const CONTROLLER_INJECTABLES = [
  'CommandBus',
  'QueryBus',
  'Clock',
  'AppConfig',
  'IdGenerator',
  'SessionCookie',
  'OneTimeFlashStore',
  'NewKeyFlashStore',
];

const controllerInjection = {
  selector: `MethodDefinition[kind='constructor'] TSParameterProperty TSTypeReference > Identifier.typeName:not([name=/^(${CONTROLLER_INJECTABLES.join('|')})$/])`,
  message:
    'A controller talks to the buses only: send a command or a query instead of injecting a read model, service or store (ADR 0093).',
};

/**
 * Controllers not yet behind the buses, each with why. Shrink this list; never add to it
 * without an ADR.
 */
export const CONTROLLERS_ALLOWED_TO_INJECT = [
  // Health probes the stores and leases themselves: there is no domain behind it to ask.
  'libs/runtime/src/health/health.controller.ts',
  // The OpenAPI document is rendered from route metadata, not from domain state.
  'libs/http/src/openapi/docs.controller.ts',
  // MCP is a transport for the tools (each a bus operation); its service runs the JSON-RPC exchange.
  'libs/agent-surface/src/mcp/mcp.http.controller.ts',
  // oidc-provider's metadata and interaction pages (the provider is the "bus" there).
  'libs/identity/src/oauth/server/oauth-metadata.http.controller.ts',
  'libs/identity/src/oauth/consent/oauth-consent.http.controller.ts',
];

/** A lib's public face names what others may use (STYLE 12, ADR 0095): no `export *` in its index. */
const namedExportsOnly = {
  selector: 'ExportAllDeclaration',
  message:
    "A lib's index names each export (no `export *`), so its public face is what other libs use and nothing more (ADR 0095).",
};

/** Flat-config entries; spread into eslint.config.js after the general rules. */
export const rulesInsideLibs = [
  {
    files: ['**/*.decider.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [deciderImports] }] },
  },
  {
    files: ['libs/kernel/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [kernelImports] }] },
  },
  {
    files: ['libs/*/src/index.ts'],
    rules: { 'no-restricted-syntax': ['error', namedExportsOnly] },
  },
  {
    files: ['**/*.controller.ts'],
    ignores: CONTROLLERS_ALLOWED_TO_INJECT,
    rules: {
      'no-restricted-imports': ['error', { patterns: [controllerImports] }],
      'no-restricted-syntax': ['error', controllerInjection],
    },
  },
];
