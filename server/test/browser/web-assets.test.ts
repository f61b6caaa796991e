// The built web app as the server delivers it: the page with its security
// headers, and the hashed assets without any token.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { ROOT_DIR } from '../../src/paths.js';

const ASSETS = path.join(ROOT_DIR, 'web/dist/assets');

describe('web app: page and assets', () => {
  let server: TestServer;
  let api: Api;
  before(async () => {
    assert.ok(existsSync(ASSETS), 'web/dist is built (npm run build:web)');
    server = await startServer();
    api = new Api(server.url);
  });
  after(() => server.close());

  it('every built asset is served without a token, cacheable for a year', async () => {
    // The build's .br/.gz copies are what these names are sent as (compression.test.ts).
    const files = readdirSync(ASSETS).filter((f) => !/\.(br|gz)$/.test(f));
    assert.ok(files.some((f) => f.endsWith('.js')) && files.some((f) => f.endsWith('.css')));
    for (const file of files) {
      const res = await api.raw('GET', `/assets/${file}`);
      assert.equal(res.status, 200, file);
      assert.match(res.headers.get('cache-control') ?? '', /immutable/);
      assert.match(res.headers.get('content-type') ?? '', file.endsWith('.js') ? /javascript/ : /css/);
    }
  });

  it('the built page references only its own assets, with no inline script', async () => {
    const res = await api.raw('GET', '/');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self';/);
    const scripts = [...res.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.ok(scripts.length > 0);
    for (const [, attrs, body] of scripts) {
      assert.match(attrs!, /src="\/assets\/[^"]+\.js"/);
      assert.equal(body!.trim(), '', 'no inline script');
    }
    assert.doesNotMatch(res.text, /https?:\/\//, 'no third-party URL in the page');
    for (const file of readdirSync(ASSETS).filter((f) => f.endsWith('.css'))) {
      const css = (await api.raw('GET', `/assets/${file}`)).text;
      assert.doesNotMatch(css, /@import|url\(\s*['"]?https?:/, `${file} loads nothing remote`);
    }
  });

  it('asset paths other than a flat file name are 400/40001; unknown files are 404 envelopes', async () => {
    for (const bad of ['/assets/..%2f..%2fpackage.json', '/assets/a/b.js', '/assets/.hidden']) {
      const res = await api.get(bad);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.code, 40001);
    }
    const missing = await api.get('/assets/nope-123.js');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 404);
  });
});
