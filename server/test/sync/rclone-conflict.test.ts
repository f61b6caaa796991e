// Two more real clients' scenarios (api-contract §14): rclone's `nextcloud`
// vendor mode on /remote.php/dav/files/<id>/ sends a tree up and reads it
// back byte for byte, keeping modification times (X-OC-Mtime) and comparing
// SHA-1 sums from `oc:checksums`; and nextcloudcmd meeting a file edited both
// on the server and locally between two syncs keeps both versions (its
// conflict copy), nothing lost.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { download, put } from '../files/helpers.js';
import { davPerson } from '../webdav/helpers.js';
import { hasTool, isClientFile, localTree, runClient, serverTree, treeDiff } from './helpers.js';

function rclone(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('rclone', args, { env: { ...process.env, ...env }, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`rclone ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout + stderr),
    );
  });
}

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((n) => {
    const full = path.join(dir, n);
    return statSync(full).isDirectory() ? walk(full, base) : [path.relative(base, full)];
  });
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const WORDS = ['café', '日本語', 'emoji 🎉', 'русский', 'a b', 'x+y'];

describe('sync: rclone nextcloud vendor and a conflict with nextcloudcmd', { timeout: 600_000 }, () => {
  let server: TestServer;
  let api: Api;
  let work: string;
  before(async () => {
    server = await startServer();
    api = new Api(server.url);
    work = mkdtempSync(path.join(tmpdir(), 'cirrus-sync-more-'));
  });
  after(async () => {
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('rclone --webdav-vendor nextcloud: a tree up and back byte for byte, times kept (a second copy moves nothing), SHA-1 sums from oc:checksums match', { skip: hasTool('rclone') ? false : 'rclone missing (.ci/run installs it)' }, async () => {
    const p = await davPerson(server);
    const src = path.join(work, 'src');
    for (let i = 0; i < 40; i++) {
      const dir = path.join(src, `${WORDS[i % WORDS.length]!} ${i % 4}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `${WORDS[(i * 5) % WORDS.length]!}-${i}.bin`), randomBytes(1 + ((i * 7919) % 40_000)));
    }
    writeFileSync(path.join(src, 'empty.txt'), '');
    writeFileSync(path.join(src, 'large 4MiB.bin'), randomBytes(4 * 1024 * 1024));
    const env = {
      RCLONE_CONFIG_NC_TYPE: 'webdav',
      RCLONE_CONFIG_NC_URL: `${server.url}/remote.php/dav/files/${p.id}/`,
      RCLONE_CONFIG_NC_VENDOR: 'nextcloud',
      RCLONE_CONFIG_NC_USER: p.email,
      RCLONE_CONFIG_NC_PASS: (await rclone(['obscure', p.account.password], {})).trim(),
      RCLONE_CONFIG: path.join(work, 'none.conf'),
    };
    await rclone(['copy', src, 'nc:up', '--transfers', '4'], env);
    const back = path.join(work, 'back');
    await rclone(['copy', 'nc:up', back, '--transfers', '4'], env);
    const sent = walk(src).sort();
    assert.equal(sent.length, 42);
    assert.deepEqual(walk(back).sort(), sent);
    for (const rel of sent) assert.equal(sha(readFileSync(path.join(back, rel))), sha(readFileSync(path.join(src, rel))), rel);
    // rclone compares size and time first: kept times mean nothing is sent again.
    const again = await rclone(['copy', src, 'nc:up', '-v'], env);
    assert.match(again, /There was nothing to transfer/, again);
    // `check` without --download compares the hashes the server lists (oc:checksums, SHA-1): every file, none unchecked.
    const checked = await rclone(['check', src, 'nc:up'], env);
    assert.match(checked, new RegExp(`${sent.length} matching files`), checked);
    assert.doesNotMatch(checked, /could not be checked|no hashes in common/, checked);
    // And the API sees the same bytes.
    assert.equal(sha((await download(api, p.token, '/up/large 4MiB.bin')).body), sha(readFileSync(path.join(src, 'large 4MiB.bin'))));
  });

  it('nextcloudcmd: one file edited on the server and locally between two syncs; both versions survive (the conflict copy), and the trees settle', { skip: hasTool('nextcloudcmd') ? false : 'nextcloudcmd missing (.ci/run installs it)' }, async () => {
    const p = await davPerson(server);
    const local = path.join(work, 'conflict');
    const home = path.join(work, 'conflict-home');
    mkdirSync(local);
    writeFileSync(path.join(local, 'notes 笔记.txt'), 'first version\n');
    writeFileSync(path.join(local, 'other.txt'), 'untouched\n');
    const sync = () => runClient('nextcloudcmd', local, server.url, p.email, p.account.password, home);
    await sync();
    assert.equal(treeDiff(localTree(local), await serverTree(api, p.token)), '');

    const serverEdit = 'edited on the server, longer than before\n';
    const localEdit = 'edited locally\n';
    assert.equal((await put(api, p.token, '/notes 笔记.txt', serverEdit)).status, 200);
    writeFileSync(path.join(local, 'notes 笔记.txt'), localEdit);
    await sync();

    const names = readdirSync(local).filter((n) => !isClientFile(n));
    const copies = names.filter((n) => /conflict/i.test(n));
    assert.equal(copies.length, 1, `one conflict copy: ${names.join(', ')}`);
    // The server's version takes the name; the local edit is kept beside it.
    assert.equal(readFileSync(path.join(local, 'notes 笔记.txt'), 'utf8'), serverEdit);
    assert.equal(readFileSync(path.join(local, copies[0]!), 'utf8'), localEdit);
    assert.equal((await download(api, p.token, '/notes 笔记.txt')).body.toString(), serverEdit, 'the server kept its version');
    assert.equal(readFileSync(path.join(local, 'other.txt'), 'utf8'), 'untouched\n');

    // Another run settles: nothing is lost or duplicated, and whatever the client sends of the conflict copy is byte-equal.
    await sync();
    const after = readdirSync(local).filter((n) => !isClientFile(n));
    assert.deepEqual(after.sort(), names.sort());
    const server_ = await serverTree(api, p.token);
    const local_ = localTree(local);
    for (const [rel, hash] of server_) assert.equal(local_.get(rel), hash, `the server's ${rel} is local too`);
  });
});
