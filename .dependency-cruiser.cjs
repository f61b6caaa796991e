// The layers of server/src and the web app, checked in CI (npm run depcheck;
// docs/architecture.md "Layers"). From the bottom: core (domain errors,
// identity, clock, cache, jobs) and db, crypto; http (the transport: guard,
// error mappings); the features (routes -> service -> repository); the
// composition (app.ts, services.ts, each feature's module.ts, the CLI).
// Migrations sit apart: frozen, they import only Kysely and their own folder.
const fs = require('node:fs');
const path = require('node:path');

// Every folder of server/src is a feature but the layers below them and the
// CLI, so that a new feature folder is held to the feature rules without
// anyone remembering to list it.
const NOT_FEATURES = new Set(['core', 'crypto', 'db', 'http', 'cli']);
const FEATURES = `(${fs
  .readdirSync(path.join(__dirname, 'server/src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !NOT_FEATURES.has(entry.name))
  .map((entry) => entry.name)
  .sort()
  .join('|')})`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'shared-imports-nothing',
      comment: 'shared/ holds pure rules both the server and the web app run (the same function on both sides); it imports nothing, not even node: modules.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { pathNot: '^shared/' },
    },
    {
      name: 'web-uses-only-shared-server-code',
      comment: 'The web app and the server share code through shared/ only: the web app never imports server/.',
      severity: 'error',
      from: { path: '^web/src/' },
      to: { path: '^server/' },
    },
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
      comment: 'core/ depends on nothing of ours (not even db/ types: db/schema.ts adds the row type to core/identity.ts instead).',
      severity: 'error',
      from: { path: '^server/src/core/' },
      to: { path: '^server/src/', pathNot: '^server/src/core/' },
    },
    {
      name: 'migrations-are-frozen',
      comment:
        'A migration does the same thing forever: it imports Kysely, node: modules and files of db/migrations/ only ' +
        '(util.ts, frozen/ copies of the rules it applied), never a feature or a live rule that may change later.',
      severity: 'error',
      from: { path: '^server/src/db/migrations/' },
      to: {
        path: '^server/src/',
        pathNot: '^server/src/db/migrations/|^server/src/db/database[.]ts$',
      },
    },
    {
      name: 'migrations-import-only-kysely',
      comment: 'No package but Kysely in a migration: a package update must not change what an old migration did.',
      severity: 'error',
      from: { path: '^server/src/db/migrations/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], pathNot: '(^|/)node_modules/kysely/' },
    },
    {
      name: 'web-no-circular',
      comment: 'No import cycles in the web app (pages take PageProps from app/page-props.ts, not from the route table).',
      severity: 'error',
      from: { path: '^web/src/' },
      to: { circular: true },
    },
    {
      name: 'web-features-do-not-import-the-route-table',
      comment: 'The route table imports the pages; a page or feature that imports it back makes a cycle through a lazy import.',
      severity: 'error',
      from: { path: '^web/src/', pathNot: '^web/src/app/(App|routes)[.]tsx?$' },
      to: { path: '^web/src/app/routes[.]tsx$' },
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
      comment:
        'Services and rules raise domain errors (core/errors.ts); only route glue imports http/. ' +
        'webdav/, sync/ and ops/ are doors, not domains: each file there speaks HTTP (DAV statuses, probes, /metrics).',
      severity: 'error',
      from: { path: `^server/src/${FEATURES}/`, pathNot: '(routes|module|schemas|send)[.]ts$|^server/src/(webdav|sync|ops)/' },
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
