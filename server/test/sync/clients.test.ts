// The Debian nextcloudcmd and owncloudcmd against Cirrus, unmodified
// (api-contract §14): a first sync of a few hundred files with Unicode, CJK
// and emoji names, an empty file and an empty folder; a round of local and
// server edits, renames, moves and deletes in both directions; each ending
// with the local tree equal byte for byte to the server's (read through the
// file API). Renames and moves keep the file id (a move is a move, not a
// delete and a download), and an unchanged tree costs one PROPFIND, of the
// root, counted through a logging proxy.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { put, list } from '../files/helpers.js';
import { davPerson, type DavPerson } from '../webdav/helpers.js';
import { hasTool, localTree, loggingProxy, runClient, serverTree, treeDiff, type ClientKind } from './helpers.js';

const WORDS = ['café', 'naïve', 'Ünïcødé', '日本語', '中文文件', 'Ελληνικά', 'русский', 'emoji 🎉', '한국어', 'a b', 'x+y', 'percent%25', '(paren)', "it's"];

function makeTree(root: string, files: number): void {
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, `${WORDS[i % WORDS.length]!} ${i % 9}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${WORDS[(i * 5) % WORDS.length]!}-${i}.bin`.normalize('NFC')), randomBytes(1 + ((i * 7919) % 30_000)));
  }
  writeFileSync(path.join(root, 'empty file.txt'), '');
  mkdirSync(path.join(root, 'empty folder 空'), { recursive: true });
}

async function idOf(api: Api, token: string, dir: string, name: string): Promise<string | undefined> {
  const res = await list(api, token, dir, '&page_size=1000');
  return res.body.data.files.find((f) => f.name === name)?.id;
}

async function equalTrees(api: Api, p: DavPerson, local: string): Promise<void> {
  const diff = treeDiff(localTree(local), await serverTree(api, p.token));
  assert.equal(diff, '', `local and server trees differ:\n${diff}`);
}

for (const kind of ['nextcloudcmd', 'owncloudcmd'] as ClientKind[]) {
  describe(`${kind} against Cirrus`, { skip: hasTool(kind) ? false : `${kind} missing (.ci/run installs it)`, timeout: 900_000 }, () => {
    let server: TestServer;
    let work: string;
    before(async () => {
      server = await startServer();
      work = mkdtempSync(path.join(tmpdir(), `cirrus-${kind}-`));
    });
    after(async () => {
      await server?.close();
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it('first sync of 300 Unicode-named files, an empty file and an empty folder; edits, renames, moves and deletes both ways; an unchanged tree costs one PROPFIND', async () => {
      const api = new Api(server.url);
      const p = await davPerson(server);
      const local = path.join(work, 'local');
      const home = path.join(work, 'home');
      mkdirSync(local);
      makeTree(local, 300);
      const proxy = await loggingProxy(server.url);
      try {
        const sync = () => runClient(kind, local, proxy.url, p.email, p.account.password, home);
        await sync();
        await equalTrees(api, p, local);
        // Up: the server has it all; a second client folder downloads the same tree.
        await sync();

        // An unchanged tree: one PROPFIND, of the root; nothing read or written.
        proxy.log.length = 0;
        await sync();
        const davCalls = proxy.log.filter((r) => r.url.startsWith('/remote.php/'));
        const propfinds = davCalls.filter((r) => r.method === 'PROPFIND');
        assert.ok(propfinds.length >= 1, 'the root is asked');
        for (const r of propfinds) assert.match(r.url, /^\/remote\.php\/(dav\/files\/[^/]+|webdav)\/?$/, `no walk below the root: ${r.method} ${r.url}`);
        assert.deepEqual(davCalls.filter((r) => r.method !== 'PROPFIND').map((r) => `${r.method} ${r.url}`), []);

        // Local changes going up.
        const d0 = `${WORDS[0]} 0`;
        const d1 = `${WORDS[1]} 1`;
        const renamedFrom = `${WORDS[(1 * 5) % WORDS.length]}-1.bin`;
        const movedName = `${WORDS[(2 * 5) % WORDS.length]}-2.bin`;
        const d2 = `${WORDS[2]} 2`;
        const renamedId = await idOf(api, p.token, `/${d1}`, renamedFrom);
        const movedId = await idOf(api, p.token, `/${d2}`, movedName);
        assert.ok(renamedId && movedId);
        appendFileSync(path.join(local, d0, `${WORDS[0]}-0.bin`), 'edited locally');
        renameSync(path.join(local, d1, renamedFrom), path.join(local, d1, 'renamed 名前 ✨.bin'));
        renameSync(path.join(local, d2, movedName), path.join(local, d0, movedName));
        rmSync(path.join(local, `${WORDS[3]} 3`, `${WORDS[15 % WORDS.length]}-3.bin`));
        mkdirSync(path.join(local, 'new 新しい 🚀'));
        writeFileSync(path.join(local, 'new 新しい 🚀', 'fresh.txt'), 'fresh');
        renameSync(path.join(local, `${WORDS[4]} 4`), path.join(local, 'folder renamed 改名'));
        rmSync(path.join(local, `${WORDS[5]} 5`), { recursive: true });

        // Server changes coming down (through the file API: another device).
        const s = (rel: string) => `/${rel}`;
        assert.equal((await put(api, p.token, s(`${WORDS[6]} 6/from server 服务器.txt`), 'made on the server')).status, 200);
        assert.equal((await put(api, p.token, s(`${WORDS[7]} 7/${WORDS[35 % WORDS.length]}-7.bin`), 'overwritten on the server')).status, 200);
        const serverRenameId = await idOf(api, p.token, s(`${WORDS[8]} 8`), `${WORDS[40 % WORDS.length]}-8.bin`);
        assert.equal((await api.post('/api/v4/file/rename', { path: s(`${WORDS[8]} 8/${WORDS[40 % WORDS.length]}-8.bin`), new_name: 'server renamed 🎈.bin' }, { token: p.token })).status, 200);
        assert.equal((await api.post('/api/v4/file/move', { paths: [s(`${WORDS[9]} 0/${WORDS[45 % WORDS.length]}-9.bin`)], dst: s(`${WORDS[10]} 1`) }, { token: p.token })).status, 200);
        assert.equal((await api.call('DELETE', '/api/v4/file', { token: p.token, json: { paths: [s(`${WORDS[11]} 2/${WORDS[55 % WORDS.length]}-11.bin`)] } })).status, 200);

        proxy.log.length = 0;
        await sync();
        await equalTrees(api, p, local);
        // Renames and moves kept the file: same id, and the client did not download the renamed file again.
        assert.equal(await idOf(api, p.token, `/${d1}`, 'renamed 名前 ✨.bin'), renamedId);
        assert.equal(await idOf(api, p.token, `/${d0}`, movedName), movedId);
        assert.equal(await idOf(api, p.token, s(`${WORDS[8]} 8`), 'server renamed 🎈.bin'), serverRenameId);
        assert.deepEqual(proxy.log.filter((r) => r.method === 'GET' && decodeURIComponent(r.url).includes('server renamed')).map((r) => r.url), []);
        // Settled: another run changes nothing on either side.
        await sync();
        await equalTrees(api, p, local);
      } finally {
        await proxy.close();
      }
    });
  });
}
