// The direction of dependencies (DESIGN §3, docs/architecture.md), checked by `npm test`.
// Lowest first: kernel → eventstore | documents → projections → http → access → webhooks →
// platform | agent-data → runtime → apps. A lib imports only libs below it, through their
// index (or, from spec files, their `testing` entry); siblings never import each other.
const order = [
  'kernel',
  'eventstore|documents',
  'projections',
  'http',
  'access',
  'webhooks',
  'platform|agent-data',
  'runtime',
];

const layerRules = order.map((layer, i) => {
  const allowed = order.slice(0, i).join('|');
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
      comment: 'another lib is reached through its index.ts (production code) or testing.ts (specs), never its files',
      severity: 'error',
      from: { path: '^libs/([^/]+)/' },
      to: { path: '^libs/([^/]+)/src/', pathNot: ['^libs/$1/', '^libs/[^/]+/src/(index|testing)\\.ts$'] },
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
