// The Photos map's tile URL (site setting map_tile_url, issue 36): empty by
// default, refused unless it is an http(s) URL with {z}, {x} and {y}, given
// to the web app by /site/config, and let into the pages' img-src only while
// it is set (the web app's pages are served with no other host otherwise).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';
import { adminToken } from '../files/helpers.js';
import { ROOT_DIR } from '../../src/paths.js';

const WEB_BUILT = existsSync(path.join(ROOT_DIR, 'web/dist/index.html'));

describe('site: map tile URL', () => {
  let server: InjectedServer;
  let api: Api;
  let admin: string;
  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    admin = await adminToken(api);
  });
  after(() => server.close());

  const imgSrc = async () => {
    const res = await server.fetch('/photos', { headers: { accept: 'text/html' } });
    assert.equal(res.status, 200);
    const csp = res.headers.get('content-security-policy') ?? '';
    return /img-src ([^;]*)/.exec(csp)?.[1] ?? '';
  };

  it('is empty by default; bad URLs are 400; a good one is stored, in /site/config, and in the pages\' img-src only while set', async () => {
    const initial = await api.get<{ map_tile_url: string }>('/api/v4/admin/settings', { token: admin });
    assert.equal(initial.body.data.map_tile_url, '');
    assert.equal((await api.get<{ map_tile_url: string }>('/api/v4/site/config')).body.data.map_tile_url, '');
    if (WEB_BUILT) assert.equal(await imgSrc(), "'self' data: blob: https:");

    for (const bad of ['tiles/{z}/{x}/{y}.png', 'https://tile.example.org/{z}/{x}.png', 'javascript:alert(1)//{z}{x}{y}', 'ftp://tile.example.org/{z}/{x}/{y}.png', 'https://u:p@tile.example.org/{z}/{x}/{y}.png', 'https://tile.example.org/{z}/{x}/{y}\n.png']) {
      const res = await api.patch('/api/v4/admin/settings', { map_tile_url: bad }, { token: admin });
      assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
      assert.equal(res.body.code, 40001);
    }
    assert.equal((await api.get<{ map_tile_url: string }>('/api/v4/admin/settings', { token: admin })).body.data.map_tile_url, '', 'nothing refused was stored');

    const url = 'http://127.0.0.1:8099/tiles/{z}/{x}/{y}.png';
    const set = await api.patch<{ map_tile_url: string }>('/api/v4/admin/settings', { map_tile_url: url }, { token: admin });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.data.map_tile_url, url);
    assert.equal((await api.get<{ map_tile_url: string }>('/api/v4/site/config')).body.data.map_tile_url, url);
    if (WEB_BUILT) assert.equal(await imgSrc(), "'self' data: blob: https: http://127.0.0.1:8099");

    const cleared = await api.patch<{ map_tile_url: string }>('/api/v4/admin/settings', { map_tile_url: '' }, { token: admin });
    assert.equal(cleared.body.data.map_tile_url, '');
    if (WEB_BUILT) assert.equal(await imgSrc(), "'self' data: blob: https:");
  });

  it('only administrators change it', async () => {
    const res = await api.patch('/api/v4/admin/settings', { map_tile_url: 'https://tile.example.org/{z}/{x}/{y}.png' });
    assert.equal(res.status, 401);
  });
});
