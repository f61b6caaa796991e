// Closing the server while a big extraction runs (issue 35): close() ends the
// extraction worker at once instead of waiting for the file (up to its 30 s
// time cap), leaves no worker behind, and the file is not marked failed: its
// lease is given back uncounted, and the next server start takes it up again
// at once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';
import { put } from '../files/helpers.js';
import { members, type Member } from '../sharing/helpers.js';
import { makeLongPdf } from './documents.js';

describe('content search: shutdown during an extraction', () => {
  let server: InjectedServer;
  let second: BuiltApp | undefined;
  let api: Api;
  let alice: Member;

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    [alice] = await members(api, 'Alice');
  });
  after(async () => {
    await second?.app.close();
    await server.close();
  });

  it('close() ends a running extraction promptly; the file stays pending, uncounted, and is taken up again after a restart', async () => {
    const word = `big${randomBytes(5).toString('hex').replace(/\d/g, 'q')}`;
    // A PDF of 2,000 pages of text: seconds of extraction in the worker, page by page. (A big plain text
    // no longer does: only its first 4 MB are decoded, which took under the 300 ms below on a quiet machine.)
    const lines = Array.from({ length: 6 }, (_, i) => `${i === 0 ? word : 'lorem'} ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod ${i}`);
    assert.equal((await put(api, alice.token, '/big.pdf', makeLongPdf(2000, lines))).status, 200);
    type Db = typeof server.built.services.db;
    const doc = (db: Db = (second ?? server.built).services.db) =>
      db
        .selectFrom('search_docs')
        .select(['state', 'lease_until', 'attempts', 'reason'])
        .where('blob_id', '=', (eb) => eb.selectFrom('files').select('blob_id').where('name', '=', 'big.pdf').$narrowType<{ blob_id: string }>())
        .executeTakeFirst();
    for (let i = 0; ; i++) {
      const d = await doc();
      if (d?.lease_until) break;
      assert.ok(i < 300, `the extraction starts: ${JSON.stringify(d)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // Past reading the blob: the bytes are in the worker.
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    await server.built.app.close();
    const took = Date.now() - started;
    assert.ok(took < 1500, `close() took ${took} ms with an extraction running`);

    // The same data on a new server: the file is pending again (not failed, the attempt not counted)…
    second = await buildApp(server.config);
    await second.app.ready();
    const again = await doc();
    assert.equal(again?.reason ?? null, null, JSON.stringify(again));
    assert.notEqual(again?.state, 'failed', JSON.stringify(again));
    assert.equal(again?.state, 'pending');
    assert.equal(again?.lease_until ?? null, null, 'the lease was given back');
    assert.equal(Number(again?.attempts), 0, 'the cut-short attempt is not counted');
    // …and the new server takes it up again at once (not after a lease runs out).
    for (let i = 0; ; i++) {
      const d = await doc();
      if (Number(d?.attempts) === 1) break;
      assert.ok(i < 100, `taken up again after the restart: ${JSON.stringify(d)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
});
