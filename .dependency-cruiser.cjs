// The layers of server/src, checked in CI (npm run depcheck; docs/architecture.md
// "Layers"). From the bottom: core (domain errors, identity, clock, cache,
// jobs) and db, crypto; http (the transport: guard, error mappings); the
// features (routes -> service -> repository); the composition (app.ts,
// services.ts, each feature's module.ts, the CLI).
const FEATURES = '(accounts|sessions|site|oauth|files|shares)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles: a cycle means two modules that cannot be understood (or tested) apart.',
      severity: 'error',
      from: { path: '^server/src/' },
      to: { circular: true },
    },
    {
      name: 'http-imports-no-feature',
      comment: 'http/ is the transport every feature uses; it knows no feature (identity and scopes come from core/).',
      severity: 'error',
      from: { path: '^server/src/http/' },
      to: { path: `^server/src/(${FEATURES}|cli)/|^server/src/(app|services|web|main|config)[.]ts$` },
    },
    {
      name: 'core-is-the-bottom',
      comment: 'core/ depends on nothing of ours but the table types.',
      severity: 'error',
      from: { path: '^server/src/core/' },
      to: { path: '^server/src/', pathNot: '^server/src/(core/|db/schema[.]ts$)' },
    },
    {
      name: 'no-other-features-repository',
      comment: 'Features talk through services: a repository is used by its own feature only.',
      severity: 'error',
      from: { path: `^server/src/${FEATURES}/` },
      to: { path: 'repository[.]ts$', pathNot: '^server/src/$1/' },
    },
    {
      name: 'kysely-only-in-the-data-layer',
      comment:
        'SQL lives in repositories (and db/, migrations); module.ts and services.ts only hand the database to them. ' +
        'sessions/login-throttle.ts is being replaced by the shared throttle helper (issue 13, security-hardening).',
      severity: 'error',
      from: {
        path: '^server/src/',
        pathNot: '([^/]*repository[.]ts$|^server/src/db/|/module[.]ts$|^server/src/services[.]ts$|^server/src/sessions/login-throttle[.]ts$)',
      },
      to: { path: '(^|/)node_modules/kysely/|^server/src/db/(database|compiled|migrate|probe)[.]ts$' },
    },
    {
      name: 'domain-knows-no-http',
      comment: 'Services and rules raise domain errors (core/errors.ts); only route glue imports http/.',
      severity: 'error',
      from: { path: `^server/src/${FEATURES}/`, pathNot: '(routes|module|schemas|send)[.]ts$' },
      to: { path: '^server/src/http/' },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^server/src/.*[.]d[.]ts$' },
  },
};
