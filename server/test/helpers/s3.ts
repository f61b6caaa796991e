// A real S3 server for tests: s3rver in a child process on a free loopback
// port, with its own directory. It can be stopped and started again on the
// same port and data (fault tests).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { ROOT_DIR } from '../../src/paths.js';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  env: Record<string, string>;
  client: S3Client;
  /** Every object key in the bucket. */
  keys(prefix?: string): Promise<string[]>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

function spawnS3rver(dir: string, bucket: string, port: number): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [path.join(ROOT_DIR, 'scripts/s3rver.mjs'), dir, bucket, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
  });
}

export async function startS3(bucket = 'cirrus-test'): Promise<TestS3> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-s3-'));
  const first = await spawnS3rver(dir, bucket, 0);
  let child = first.child;
  const port = first.port;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const stopChild = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  };
  return {
    endpoint,
    bucket,
    client,
    env: {
      CIRRUS_STORAGE: 's3',
      CIRRUS_S3_ENDPOINT: endpoint,
      CIRRUS_S3_BUCKET: bucket,
      CIRRUS_S3_ACCESS_KEY_ID: 'S3RVER',
      CIRRUS_S3_SECRET_ACCESS_KEY: 'S3RVER',
      CIRRUS_S3_FORCE_PATH_STYLE: 'true',
    },
    async keys(prefix = '') {
      const out: string[] = [];
      let token: string | undefined;
      do {
        const res = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const o of res.Contents ?? []) out.push(o.Key!);
        token = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (token);
      return out;
    },
    stop: stopChild,
    async start() {
      ({ child } = await spawnS3rver(dir, bucket, port));
    },
    async close() {
      client.destroy();
      await stopChild();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
