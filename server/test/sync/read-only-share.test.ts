// A read-only share stays read-only through the real clients (issue 33,
// api-contract §14): Debian's nextcloudcmd and owncloudcmd sync a person's
// whole tree, which holds a folder another person shared with them to view.
// The folder and its file come down; the owner's edit comes down too. The
// person's local edit, a new file and a deletion inside it never reach the
// server (the owner's file is byte for byte what it was, nothing is added or
// removed), because oc:permissions tell the client it may not; the client puts
// the server's file back.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { download, put, list } from '../files/helpers.js';
import { davPerson, type DavPerson } from '../webdav/helpers.js';
import { grant } from '../sharing/helpers.js';
import { hasTool, runClient, type ClientKind } from './helpers.js';

/** Runs a sync; a client may end with a non-zero status when it refused local changes it may not upload. */
async function syncAllowingRefusals(kind: ClientKind, local: string, url: string, p: DavPerson, home: string): Promise<void> {
  try {
    await runClient(kind, local, url, p.email, p.account.password, home);
  } catch (err) {
    // Only the refusals of a read-only folder may make it fail: anything else is a real failure.
    const message = (err as Error).message;
    if (!/permission|not allowed|read-only|readonly/i.test(message)) throw err;
  }
}

for (const kind of ['nextcloudcmd', 'owncloudcmd'] as ClientKind[]) {
  describe(`${kind}: a read-only share stays read-only`, { skip: hasTool(kind) ? false : `${kind} missing (.ci/run installs it)`, timeout: 600_000 }, () => {
    let server: TestServer;
    let work: string;
    before(async () => {
      server = await startServer();
      work = mkdtempSync(path.join(tmpdir(), `cirrus-ro-${kind}-`));
    });
    after(async () => {
      await server?.close();
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it('comes down with the owner\'s edits; local edits, additions and deletions inside it never reach the server', async () => {
      const api = new Api(server.url);
      const owner = await davPerson(server);
      const reader = await davPerson(server);
      assert.equal((await put(api, owner.token, '/Team/plan.txt', 'the plan, v1')).status, 200);
      assert.equal((await put(api, owner.token, '/Team/keep.txt', 'keep me')).status, 200);
      assert.equal((await grant(api, owner, { path: '/Team', user: reader.email, permission: 'read' })).status, 200);
      assert.equal((await put(api, reader.token, '/mine.txt', 'my own')).status, 200);

      const local = path.join(work, 'local');
      const home = path.join(work, 'home');
      mkdirSync(local);
      await syncAllowingRefusals(kind, local, server.url, reader, home);
      // The shared folder is where the reader's tree shows it.
      const virtual = readdirSync(local).find((n) => n !== 'mine.txt' && !n.startsWith('.'))!;
      assert.ok(virtual, readdirSync(local).join(', '));
      const label = readdirSync(path.join(local, virtual)).find((n) => n.endsWith('Team'))!;
      assert.ok(label, readdirSync(path.join(local, virtual)).join(', '));
      const shared = path.join(local, virtual, label);
      assert.equal(readFileSync(path.join(shared, 'plan.txt'), 'utf8'), 'the plan, v1');

      // The owner edits: it comes down.
      assert.equal((await put(api, owner.token, '/Team/plan.txt', 'the plan, v2')).status, 200);
      await syncAllowingRefusals(kind, local, server.url, reader, home);
      assert.equal(readFileSync(path.join(shared, 'plan.txt'), 'utf8'), 'the plan, v2');

      // The reader edits, adds and deletes inside it, and edits their own file.
      writeFileSync(path.join(shared, 'plan.txt'), 'changed by the reader');
      writeFileSync(path.join(shared, 'added.txt'), 'added by the reader');
      rmSync(path.join(shared, 'keep.txt'));
      writeFileSync(path.join(local, 'mine.txt'), 'my own, edited');
      await syncAllowingRefusals(kind, local, server.url, reader, home);
      await syncAllowingRefusals(kind, local, server.url, reader, home);

      // The owner's folder is exactly what it was.
      const names = (await list(api, owner.token, '/Team')).body.data.files.map((f) => f.name).sort();
      assert.deepEqual(names, ['keep.txt', 'plan.txt']);
      assert.equal((await download(api, owner.token, '/Team/plan.txt')).body.toString(), 'the plan, v2');
      assert.equal((await download(api, owner.token, '/Team/keep.txt')).body.toString(), 'keep me');
      // The reader's own file went up as usual.
      assert.equal((await download(api, reader.token, '/mine.txt')).body.toString(), 'my own, edited');
      // The client put the server's files back.
      assert.equal(readFileSync(path.join(shared, 'plan.txt'), 'utf8'), 'the plan, v2');
      assert.ok(existsSync(path.join(shared, 'keep.txt')), 'the deleted file came back');
    });
  });
}
