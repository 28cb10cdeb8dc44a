// The rooms of src/ (its top-level folders, and the leaf files ids.ts, errors.ts and config.ts) and
// what each may never import, as docs/architecture.md states them. `npm run lint` checks src/
// against these rules; imports that break them today and are being moved away are listed in
// .dependency-cruiser-known-violations.json, and any other one fails the lint.

/** A room's path pattern: a folder of src/, or one of the leaf files. */
const room = (name) => (['ids', 'errors', 'config'].includes(name) ? `^src/${name}(\\.ts$|/)` : `^src/${name}/`);
const anyOf = (names) => names.map(room).join('|');

/** Room → the rooms it never imports. Rooms not made yet hold as soon as they appear. */
const NEVER = {
  dispatch: ['http', 'graph', 'cli'],
  auth: ['http', 'dispatch', 'engine', 'graph'],
  schema: ['store', 'declared', 'graph', 'engine', 'http', 'dispatch'],
  declared: ['engine', 'graph', 'http', 'dispatch'],
  engine: ['graph', 'http', 'dispatch', 'declared', 'webhooks', 'seed', 'cli'],
  graph: ['http', 'cli', 'testing'],
  control: ['http', 'cli', 'graph'],
  webhooks: ['http', 'cli', 'graph'],
  media: ['http', 'cli', 'graph'],
  cli: ['testing'],
  testing: ['cli'],
};

/** Room → the only other rooms it may import. */
const ONLY = {
  query: ['errors'],
  store: ['errors', 'config', 'clock', 'ids'],
  clock: [],
  ids: [],
};

const forbidden = [
  ...Object.entries(NEVER).map(([from, never]) => ({
    name: `${from}-never-imports`,
    comment: `${from}/ never imports ${never.join(', ')}`,
    severity: 'error',
    from: { path: room(from) },
    to: { path: anyOf(never) },
  })),
  ...Object.entries(ONLY).map(([from, only]) => ({
    name: `${from}-imports-only`,
    comment: only.length === 0 ? `${from} is a leaf: it imports no other room` : `${from} imports no room but ${only.join(', ')}`,
    severity: 'error',
    from: { path: room(from) },
    to: { path: '^src/', pathNot: anyOf([from, ...only]) },
  })),
  {
    name: 'dispatch-never-imports-fastify',
    comment: 'dispatch/ answers Graph requests without knowing the HTTP server',
    severity: 'error',
    from: { path: room('dispatch') },
    to: { path: '(^|/)node_modules/(fastify|@fastify/)' },
  },
  {
    name: 'no-circular',
    comment: 'modules import each other in a circle',
    severity: 'error',
    from: { path: '^src/' },
    to: { circular: true },
  },
];

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports tie rooms together as much as any other.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
