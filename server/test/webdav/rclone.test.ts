// rclone (Debian) with its WebDAV backend as the client: a tree of 200 files
// with Unicode names and one 100 MB file goes up and comes back byte for
// byte; `rclone sync` deletions reach the server; the API sees the same tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { names } from '../files/helpers.js';
import { davPerson, hasTool } from './helpers.js';

function rclone(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('rclone', args, { env: { ...process.env, ...env }, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`rclone ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout + stderr),
    );
  });
}

async function sha256(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((n) => {
    const full = path.join(dir, n);
    return statSync(full).isDirectory() ? walk(full, base) : [path.relative(base, full)];
  });
}

const WORDS = ['café', 'naïve', 'Ünïcødé', '日本語', 'Ελληνικά', 'русский', 'emoji 🎉', 'a b', 'x+y', 'percent%25'];

test('rclone WebDAV backend: 200 Unicode-named files and a 100 MB file up and back byte for byte; sync deletions propagate; the API sees the tree', { skip: hasTool('rclone') ? false : 'rclone missing (.ci/run installs it)', timeout: 900_000 }, async () => {
  const server = await startServer();
  const work = mkdtempSync(path.join(tmpdir(), 'cirrus-rclone-'));
  try {
    const p = await davPerson(server);
    const api = new Api(server.url);
    const src = path.join(work, 'src');
    for (let i = 0; i < 200; i++) {
      const dir = path.join(src, `${WORDS[i % WORDS.length]!} ${i % 7}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `${WORDS[(i * 3) % WORDS.length]!}-${i}.bin`.normalize('NFC')), randomBytes(1 + ((i * 997) % 20_000)));
    }
    // 100 MB in 1 MiB blocks of random bytes.
    const bigPath = path.join(src, 'big 100MB.bin');
    const block = randomBytes(1024 * 1024);
    const big = Buffer.alloc(100 * 1024 * 1024);
    for (let off = 0; off < big.length; off += block.length) block.copy(big, off, 0, Math.min(block.length, big.length - off));
    big.writeUInt32BE(0xdeadbeef, 12345678);
    writeFileSync(bigPath, big);
    const obscured = (await rclone(['obscure', p.account.password], {})).trim();
    const env = {
      RCLONE_CONFIG_CIRRUS_TYPE: 'webdav',
      RCLONE_CONFIG_CIRRUS_URL: `${server.url}/dav/`,
      RCLONE_CONFIG_CIRRUS_VENDOR: 'other',
      RCLONE_CONFIG_CIRRUS_USER: p.email,
      RCLONE_CONFIG_CIRRUS_PASS: obscured,
      RCLONE_CONFIG: path.join(work, 'none.conf'),
    };
    await rclone(['copy', src, 'cirrus:up', '--transfers', '4'], env);
    const back = path.join(work, 'back');
    await rclone(['copy', 'cirrus:up', back, '--transfers', '4'], env);
    const sent = walk(src).sort();
    assert.equal(sent.length, 201);
    assert.deepEqual(walk(back).sort(), sent);
    for (const rel of sent) assert.equal(await sha256(path.join(back, rel)), await sha256(path.join(src, rel)), rel);
    // rclone's own byte comparison against the server.
    await rclone(['check', src, 'cirrus:up', '--download'], env);
    // The API sees the same tree.
    const top = await names(api, p.token, '/up');
    assert.equal(top.length, new Set(sent.map((r) => r.split(path.sep)[0])).size);
    assert.ok(top.includes('big 100MB.bin'));
    // sync: deletions on the source reach the server (into the trash).
    const gone = sent.filter((r) => r.includes('café')).slice(0, 5);
    for (const rel of gone) rmSync(path.join(src, rel));
    await rclone(['sync', src, 'cirrus:up'], env);
    const after = path.join(work, 'after');
    await rclone(['copy', 'cirrus:up', after], env);
    assert.deepEqual(walk(after).sort(), sent.filter((r) => !gone.includes(r)).sort());
    const trash = await api.get<{ files: { name: string }[] }>('/api/v4/file/trash?page_size=1000', { token: p.token });
    for (const rel of gone) assert.ok(trash.body.data.files.some((f) => f.name === path.basename(rel)), `${rel} in the trash`);
  } finally {
    rmSync(work, { recursive: true, force: true });
    await server.close();
  }
});
