// Route schemas compile on each route's first request (http/schema-compilers.ts),
// so a schema that cannot compile would only fail when someone calls its route.
// This compiles every registered route's request and response schemas at once,
// with the same compilers the app uses, and checks that a lazily compiled
// validator still reports what is wrong on every request, not only the first.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { serializerBuilder, validatorCompilers } from '../../src/http/schema-compilers.js';

describe('route schemas', () => {
  let server: InjectedServer;
  before(async () => {
    server = await startInjectedServer();
  });
  after(() => server.close());

  it('every route\'s params, query, headers and body schemas compile with the app\'s ajv settings', () => {
    const { compile } = validatorCompilers();
    let compiled = 0;
    for (const route of server.built.routes) {
      for (const httpPart of ['params', 'querystring', 'headers', 'body'] as const) {
        const schema = route.schema?.[httpPart];
        if (!schema) continue;
        assert.doesNotThrow(() => compile({ schema, httpPart, method: route.method, url: route.url }), `${route.method} ${route.url} ${httpPart}`);
        compiled++;
      }
    }
    // The API has a few hundred routes with request schemas; a walk that found none would prove nothing.
    assert.ok(compiled > 150, `only ${compiled} request schemas found`);
  });

  it('every route\'s response schemas compile with Fastify\'s serializer', () => {
    const build = serializerBuilder();
    let compiled = 0;
    for (const route of server.built.routes) {
      for (const [httpStatus, entry] of Object.entries(route.schema?.response ?? {})) {
        const content = (entry as { content?: Record<string, { schema: unknown }> }).content;
        const schemas = content ? Object.entries(content).map(([contentType, c]) => [contentType, c.schema] as const) : [[undefined, entry] as const];
        for (const [contentType, schema] of schemas) {
          assert.doesNotThrow(() => build({ schema, method: route.method, url: route.url, httpStatus, ...(contentType ? { contentType } : {}) } as Parameters<typeof build>[0]), `${route.method} ${route.url} ${httpStatus}`);
          compiled++;
        }
      }
    }
    assert.ok(compiled > 100, `only ${compiled} response schemas found`);
  });

  it('a validator compiled on first use reports the field at fault on its first request and on later ones', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await server.fetch('/api/v4/session/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a@example.com', password: 12345678 }) });
      assert.equal(res.status, 400);
      const body = (await res.json()) as { code: number; msg: string };
      assert.match(body.msg, /password/, `request ${i + 1}: ${body.msg}`);
    }
  });
});
