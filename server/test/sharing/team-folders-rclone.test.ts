// rclone (Debian, WebDAV backend) as a real client of a team folder: it lists
// the team folder at the top of the member's tree, its uploads count toward
// the team's quota (not the member's), a read override refuses them, and a
// WebDAV account can be rooted in the team folder itself.
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
import { adminToken } from './helpers.js';

function rclone(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('rclone', args, { env: { ...process.env, ...env }, timeout: 120_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`rclone ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout + stderr),
    );
  });
}

const lines = (out: string) => out.trim().split('\n').filter((l) => l && !l.includes('NOTICE')).sort();

test('rclone in a team folder: listed at the top, uploads charged to the team, a read override refuses, an account rooted in it', { skip: hasTool('rclone') ? false : 'rclone missing', timeout: 300_000 }, async () => {
  const server = await startServer();
  const work = mkdtempSync(path.join(tmpdir(), 'cirrus-team-rclone-'));
  try {
    const api = new Api(server.url);
    const admin = await adminToken(api);
    const person = await davPerson(server);
    const me = await api.get<{ id: string; group: { id: number } }>('/api/v4/user/me', { token: person.token });
    const made = await api.put<{ id: string }>('/api/v4/admin/team-folder', { group_id: me.body.data.group.id, name: 'Studio', storage_quota: 1 << 20 }, { token: admin });
    assert.equal(made.status, 200, made.text);
    const teamUsed = async () => (await api.get<{ storage_used: number }>(`/api/v4/admin/team-folder/${made.body.data.id}`, { token: admin })).body.data.storage_used;
    await put(api, person.token, '/Studio/plan.txt', 'the plan');
    await put(api, person.token, '/mine.txt', 'mine');
    const src = path.join(work, 'src');
    mkdirSync(path.join(src, 'nested'), { recursive: true });
    writeFileSync(path.join(src, 'a.txt'), 'a'.repeat(1000));
    writeFileSync(path.join(src, 'nested', '日本語.txt'), 'b'.repeat(2000));
    const env = async (pass: string) => ({
      RCLONE_CONFIG_CIRRUS_TYPE: 'webdav',
      RCLONE_CONFIG_CIRRUS_URL: `${server.url}/dav/`,
      RCLONE_CONFIG_CIRRUS_VENDOR: 'other',
      RCLONE_CONFIG_CIRRUS_USER: person.email,
      RCLONE_CONFIG_CIRRUS_PASS: (await rclone(['obscure', pass], {})).trim(),
      RCLONE_CONFIG: path.join(work, 'none.conf'),
    });
    const full = await env(person.account.password);
    assert.deepEqual(lines(await rclone(['lsf', 'cirrus:'], full)), ['Studio/', 'mine.txt']);
    const own = (await capacity(api, person.token)).used;
    const before = await teamUsed();
    await rclone(['copy', src, 'cirrus:Studio/up'], full);
    assert.deepEqual(await names(api, person.token, '/Studio/up'), ['nested', 'a.txt']);
    assert.equal((await teamUsed()) - before, 3000);
    assert.equal((await capacity(api, person.token)).used, own);
    assert.match(await rclone(['lsf', '-R', 'cirrus:Studio'], full), /up\/nested\/日本語\.txt/);
    // Read only: rclone's PUTs are refused and nothing changes.
    const me2 = me.body.data.id;
    assert.equal((await api.put(`/api/v4/admin/team-folder/${made.body.data.id}/member/${me2}`, { permission: 'read' }, { token: admin })).status, 200);
    await assert.rejects(rclone(['copy', src, 'cirrus:Studio/again', '--retries', '1', '--low-level-retries', '1'], full));
    assert.deepEqual(await names(api, person.token, '/Studio'), ['up', 'plan.txt']);
    assert.equal((await api.put(`/api/v4/admin/team-folder/${made.body.data.id}/member/${me2}`, { permission: null }, { token: admin })).status, 200);
    // An account rooted in the team folder sees just that folder.
    const rooted = await createAccount(api, person.token, { name: 'studio only', path: '/Studio' });
    assert.deepEqual(lines(await rclone(['lsf', 'cirrus:'], await env(rooted.password))), ['plan.txt', 'up/']);
  } finally {
    rmSync(work, { recursive: true, force: true });
    await server.close();
  }
});
