// rclone (Debian, WebDAV backend) as a real client of a folder shared with
// its user: uploads land in the owner's tree and quota, a read grant refuses
// them, and a WebDAV account can be rooted in the shared folder itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { capacity, names, put } from '../files/helpers.js';
import { createAccount, davPerson, hasTool } from '../webdav/helpers.js';
import { adminToken, grant, member, sharedWith } from './helpers.js';

function rclone(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('rclone', args, { env: { ...process.env, ...env }, timeout: 120_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`rclone ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout + stderr),
    );
  });
}

test('rclone into a shared folder: write grant uploads to the owner, read grant refuses, an account rooted in the share', { skip: hasTool('rclone') ? false : 'rclone missing', timeout: 300_000 }, async () => {
  const server = await startServer();
  const work = mkdtempSync(path.join(tmpdir(), 'cirrus-share-rclone-'));
  try {
    const api = new Api(server.url);
    const admin = await adminToken(api);
    const alice = await member(api, admin, { nickname: 'Alice' });
    await put(api, alice.token, '/team/plan.txt', 'the plan');
    await put(api, alice.token, '/archive/old.txt', 'old');
    const bob = await davPerson(server);
    assert.equal((await grant(api, alice, { path: '/team', user: bob.email, permission: 'write' })).status, 200);
    assert.equal((await grant(api, alice, { path: '/archive', user: bob.email, permission: 'read' })).status, 200);
    const [team, archive] = (await sharedWith(api, bob)).map((i) => i.path);
    const src = path.join(work, 'src');
    mkdirSync(path.join(src, 'nested'), { recursive: true });
    writeFileSync(path.join(src, 'a.txt'), 'a'.repeat(1000));
    writeFileSync(path.join(src, 'nested', '日本語.txt'), 'b'.repeat(2000));
    const env = (user: string, pass: string, url: string) => ({
      RCLONE_CONFIG_CIRRUS_TYPE: 'webdav',
      RCLONE_CONFIG_CIRRUS_URL: url,
      RCLONE_CONFIG_CIRRUS_VENDOR: 'other',
      RCLONE_CONFIG_CIRRUS_USER: user,
      RCLONE_CONFIG_CIRRUS_PASS: pass,
      RCLONE_CONFIG: path.join(work, 'none.conf'),
    });
    const bobEnv = env(bob.email, (await rclone(['obscure', bob.account.password], {})).trim(), `${server.url}/dav/`);
    const before = await capacity(api, alice.token);
    await rclone(['copy', src, `cirrus:${team!.slice(1)}/up`], bobEnv);
    assert.deepEqual(await names(api, alice.token, '/team/up'), ['nested', 'a.txt']);
    assert.deepEqual(await names(api, alice.token, '/team/up/nested'), ['日本語.txt']);
    assert.equal((await capacity(api, alice.token)).used - before.used, 3000);
    const listed = await rclone(['lsf', '-R', `cirrus:${team!.slice(1)}`], bobEnv);
    assert.match(listed, /plan\.txt/);
    assert.match(listed, /up\/nested\/日本語\.txt/);
    // A read grant: rclone's PUTs are refused and nothing changes.
    await assert.rejects(rclone(['copy', src, `cirrus:${archive!.slice(1)}/up`, '--retries', '1', '--low-level-retries', '1'], bobEnv));
    assert.deepEqual(await names(api, alice.token, '/archive'), ['old.txt']);
    // A WebDAV account rooted in the shared folder sees just that folder.
    const rooted = await createAccount(api, bob.token, { name: 'team only', path: team! });
    const rootedEnv = env(bob.email, (await rclone(['obscure', rooted.password], {})).trim(), `${server.url}/dav/`);
    const top = await rclone(['lsf', 'cirrus:'], rootedEnv);
    assert.deepEqual(top.trim().split('\n').filter((l) => !l.includes('NOTICE')).sort(), ['plan.txt', 'up/']);
  } finally {
    rmSync(work, { recursive: true, force: true });
    await server.close();
  }
});
