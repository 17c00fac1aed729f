// The direction of dependencies (DESIGN §3, docs/architecture.md), checked by `npm test`.
// Lowest first: kernel → eventstore | documents → projections → http → access → webhooks, then
// the products: the platform as identity → platform (ADR 0099), and the agent side as a chain of
// bounded contexts (ADR 0095) agent-contract → agent-billing → agent-ventures → agent-workspace →
// agent-surface; runtime above them all, then the apps. A lib imports only libs below it, through
// their index (or, from spec files, their `testing` entry); the two chains never import each
// other, so the platform's libs and the agent libs never meet. Proven by probes: test/architecture/lib-layers.unit.spec.ts.
const base = ['kernel', 'eventstore|documents', 'projections', 'http', 'access', 'webhooks'];
const products = [
  ['identity', 'platform'],
  ['agent-contract', 'agent-billing', 'agent-ventures', 'agent-workspace', 'agent-surface'],
];

/** Each layer and the libs it may import. */
const layers = [
  ...base.map((layer, i) => ({ layer, allowed: base.slice(0, i) })),
  ...products.flatMap((chain) => chain.map((layer, j) => ({ layer, allowed: [...base, ...chain.slice(0, j)] }))),
  { layer: 'runtime', allowed: [...base, ...products.flat()] },
];

const layerRules = layers.map(({ layer, allowed: list }) => {
  const allowed = list.join('|');
  return {
    name: `layer-${layer.replace('|', '-or-')}`,
    comment: `libs/${layer} may import only ${allowed ? `libs/(${allowed})` : 'no other lib'}`,
    severity: 'error',
    from: { path: `^libs/(${layer})/` },
    to: {
      path: '^libs/([^/]+)/',
      pathNot: [`^libs/$1/`, ...(allowed ? [`^libs/(${allowed})/`] : [])],
    },
  };
});

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    ...layerRules,
    {
      name: 'lib-public-face',
      comment:
        "another lib is reached through its index.ts (production code), testing.ts (specs) or, for deciders, agent-contract's pure vocabulary.ts, never its files",
      severity: 'error',
      from: { path: '^libs/([^/]+)/' },
      to: {
        path: '^libs/([^/]+)/src/',
        pathNot: ['^libs/$1/', '^libs/[^/]+/src/(index|testing)\\.ts$', '^libs/agent-contract/src/vocabulary\\.ts$'],
      },
    },
    {
      name: 'testing-only-in-specs',
      comment: "test helpers (a lib's testing entry and testing/ folder) are for spec files and other helpers only",
      severity: 'error',
      from: { path: '^(libs|apps)/', pathNot: ['\\.spec\\.ts$', '/testing(/|\\.ts$)'] },
      to: { path: '^libs/[^/]+/src/(testing\\.ts$|testing/)' },
    },
    {
      name: 'apps-are-thin',
      comment: 'no app imports another app',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/([^/]+)/', pathNot: '^apps/$1/' },
    },
    {
      name: 'libs-never-import-apps-or-tests',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^(apps|test)/' },
    },
    {
      name: 'apps-through-runtime',
      comment: 'an app reaches product libs through the composition root or their index',
      severity: 'error',
      from: { path: '^apps/' },
      to: { path: '^libs/[^/]+/src/', pathNot: '^libs/[^/]+/src/(index|testing)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js'],
    },
    reporterOptions: {
      dot: { collapsePattern: '^(libs|apps)/[^/]+' },
    },
  },
};
