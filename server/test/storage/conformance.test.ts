// One conformance suite for every StorageDriver (the local disk and S3 on a
// real s3rver): the same tests, both drivers. The upload service relies on
// exactly these properties: appends resume from the recorded durable state
// (bytes past it are discarded), an interrupted source keeps what arrived,
// a blob is invisible until commit, any instance can continue a staging area
// another one started, and ranged reads return exactly the bytes asked for.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { LocalStorage } from '../../src/files/storage/local.js';
import { S3Storage } from '../../src/files/storage/s3.js';
import { StagingInterrupted, type StagingState, type StorageDriver } from '../../src/files/storage/driver.js';
import { startS3, type TestS3 } from '../helpers/s3.js';

const MiB = 1024 * 1024;
// S3's smallest part; the payloads below cross several part boundaries.
const PART = 5 * MiB;

interface Subject {
  /** A driver; a second call gives another instance on the same store (another server). */
  make(): Promise<StorageDriver>;
  close(): Promise<void>;
}

async function* chunks(data: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, Math.min(i + size, data.length));
}

async function* failingAfter(data: Buffer, size: number): AsyncGenerator<Uint8Array> {
  yield* chunks(data, size);
  throw new Error('connection reset');
}

async function drain(stream: Readable): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const c of stream) out.push(c as Buffer);
  return Buffer.concat(out);
}

let n = 0;
const ids = () => {
  n++;
  const tag = `${process.pid}${n}${randomBytes(6).toString('hex')}`;
  return { upload: `up${tag}`, blob: `bl${tag}` };
};

const subjects: Record<string, () => Promise<Subject>> = {
  local: async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'cirrus-conf-'));
    return {
      async make() {
        const d = new LocalStorage(root);
        await d.init();
        return d;
      },
      async close() {
        rmSync(root, { recursive: true, force: true });
      },
    };
  },
  s3: async () => {
    const s3: TestS3 = await startS3();
    const made: S3Storage[] = [];
    return {
      async make() {
        const d = new S3Storage({ endpoint: s3.endpoint, region: 'us-east-1', bucket: s3.bucket, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true, partSize: PART });
        made.push(d);
        return d;
      },
      async close() {
        for (const d of made) d.destroy();
        await s3.close();
      },
    };
  },
};

for (const [name, open] of Object.entries(subjects)) {
  describe(`storage driver conformance: ${name}`, () => {
    let subject: Subject;
    let driver: StorageDriver;

    before(async () => {
      subject = await open();
      driver = await subject.make();
    });
    after(() => subject.close());

    async function stage(data: Buffer, pieces: number[]): Promise<{ id: ReturnType<typeof ids>; state: StagingState }> {
      const id = ids();
      await driver.createStaging(id.upload, id.blob);
      let state: StagingState = { offset: 0, crc32: 0 };
      let at = 0;
      for (const len of pieces) {
        state = await driver.append(id.upload, state, chunks(data.subarray(at, at + len), 64 * 1024 + 7));
        at += len;
      }
      return { id, state };
    }

    it('appends in pieces across part boundaries, commits, and reads back every byte and range', async () => {
      const data = randomBytes(12 * MiB + 12345);
      const pieces = [1000, 3 * MiB, 4 * MiB + 17, data.length - (1000 + 3 * MiB + 4 * MiB + 17)];
      const { id, state } = await stage(data, pieces);
      assert.equal(state.offset, data.length);
      assert.equal(state.crc32, crc32(data));
      await driver.commit(id.upload, id.blob, state.offset);
      assert.ok(!(await driver.listStaging()).includes(id.upload), 'commit consumes the staging area');
      assert.ok((await drain(await driver.read(id.blob))).equals(data));
      for (const [start, end] of [[0, 0], [PART - 1, PART], [5, 5 * MiB + 3], [data.length - 10, data.length - 1]] as const) {
        const got = await drain(await driver.read(id.blob, { start, end }));
        assert.ok(got.equals(data.subarray(start, end + 1)), `range ${start}-${end}`);
      }
      await driver.deleteBlob(id.blob);
      await assert.rejects(async () => drain(await driver.read(id.blob)));
      await driver.deleteBlob(id.blob); // idempotent
    });

    it('concurrent appends each keep their own bytes', async () => {
      const bodies = Array.from({ length: 6 }, (_, i) => randomBytes(2 * MiB + 1000 * i + 3));
      const staged = await Promise.all(bodies.map((data, i) => stage(data, [data.length - 4099 * i, 4099 * i])));
      for (const [i, { id, state }] of staged.entries()) {
        const data = bodies[i]!;
        assert.equal(state.offset, data.length);
        assert.equal(state.crc32, crc32(data));
        await driver.commit(id.upload, id.blob, state.offset);
        assert.ok((await drain(await driver.read(id.blob))).equals(data), `upload ${i} reads back whole`);
        await driver.deleteBlob(id.blob);
      }
    });

    it('reports durable progress during a long append, and a resume from a reported state (a crash after it) yields every byte (issue 11 defect 4)', async () => {
      const data = randomBytes(3 * PART + 4 * MiB + 321);
      const id = ids();
      await driver.createStaging(id.upload, id.blob);
      const reported: StagingState[] = [];
      const first = Math.floor(MiB / 3);
      // A first request leaves an unfinished part (a tail) behind; the second runs long.
      let state = await driver.append(id.upload, { offset: 0, crc32: 0 }, chunks(data.subarray(0, first), 64 * 1024));
      await driver.append(id.upload, state, chunks(data.subarray(first), 64 * 1024 + 7), async (s) => void reported.push({ ...s }));
      assert.ok(reported.length >= 2, `progress was reported during the append (${reported.length} times)`);
      for (const r of reported) {
        assert.ok(r.offset > first && r.offset <= data.length, `offset ${r.offset} lies inside what was sent`);
        assert.equal(r.crc32, crc32(data.subarray(0, r.offset)), `the CRC reported at ${r.offset} is that of the bytes before it`);
      }
      // A crash right after the last report: the upload resumes from that state alone.
      const last = reported.at(-1)!;
      state = await driver.append(id.upload, last, chunks(data.subarray(last.offset), 64 * 1024));
      assert.equal(state.offset, data.length);
      assert.equal(state.crc32, crc32(data));
      await driver.commit(id.upload, id.blob, state.offset);
      assert.ok((await drain(await driver.read(id.blob))).equals(data));
      await driver.deleteBlob(id.blob);
    });

    it('a failure to record progress stops the append and keeps what arrived', async () => {
      const data = randomBytes(3 * PART + 777);
      const id = ids();
      await driver.createStaging(id.upload, id.blob);
      let calls = 0;
      const refused = new Error('lock lost');
      const err = await driver
        .append(id.upload, { offset: 0, crc32: 0 }, chunks(data, 64 * 1024), async () => {
          if (++calls === 1) throw refused;
        })
        .then(
          () => null,
          (e: unknown) => e,
        );
      assert.ok(err instanceof StagingInterrupted, 'the append stops like an interrupted source');
      assert.equal((err as StagingInterrupted).cause, refused);
      const kept = (err as StagingInterrupted).state;
      assert.ok(kept.offset > 0 && kept.offset < data.length);
      assert.equal(kept.crc32, crc32(data.subarray(0, kept.offset)));
      const done = await driver.append(id.upload, kept, chunks(data.subarray(kept.offset), 64 * 1024));
      assert.equal(done.crc32, crc32(data));
      await driver.deleteStaging(id.upload);
    });

    it('a blob is invisible until commit; a deleted staging area never becomes one', async () => {
      const data = randomBytes(PART + 99);
      const { id, state } = await stage(data, [data.length]);
      assert.equal(state.offset, data.length);
      assert.ok((await driver.listStaging()).includes(id.upload));
      await assert.rejects(async () => drain(await driver.read(id.blob)));
      await driver.deleteStaging(id.upload);
      await driver.deleteStaging(id.upload); // idempotent
      assert.ok(!(await driver.listStaging()).includes(id.upload));
      await assert.rejects(async () => drain(await driver.read(id.blob)));
    });

    it('an interrupted source keeps what arrived, and the upload resumes from there', async () => {
      const data = randomBytes(7 * MiB + 333);
      const id = ids();
      await driver.createStaging(id.upload, id.blob);
      const cut = 6 * MiB + 5;
      let state: StagingState = { offset: 0, crc32: 0 };
      await assert.rejects(driver.append(id.upload, state, failingAfter(data.subarray(0, cut), 100_000)), (err: unknown) => {
        assert.ok(err instanceof StagingInterrupted);
        state = err.state;
        return true;
      });
      assert.equal(state.offset, cut);
      assert.equal(state.crc32, crc32(data.subarray(0, cut)));
      state = await driver.append(id.upload, state, chunks(data.subarray(cut), 4096));
      await driver.commit(id.upload, id.blob, state.offset);
      assert.ok((await drain(await driver.read(id.blob))).equals(data));
    });

    it('bytes past the recorded state (a crash before the record) are discarded by the next append', async () => {
      const a = randomBytes(PART + 10);
      const b = randomBytes(2 * MiB);
      const c = randomBytes(PART + 1);
      const id = ids();
      await driver.createStaging(id.upload, id.blob);
      const afterA = await driver.append(id.upload, { offset: 0, crc32: 0 }, chunks(a, 65536));
      await driver.append(id.upload, afterA, chunks(b, 65536)); // never recorded
      const end = await driver.append(id.upload, afterA, chunks(c, 65536));
      const expected = Buffer.concat([a, c]);
      assert.equal(end.offset, expected.length);
      assert.equal(end.crc32, crc32(expected));
      await driver.commit(id.upload, id.blob, end.offset);
      assert.ok((await drain(await driver.read(id.blob))).equals(expected));
    });

    it('another instance on the same store continues and commits an upload this one started', async () => {
      const data = randomBytes(PART * 2 + 777);
      const id = ids();
      await driver.createStaging(id.upload, id.blob);
      const half = await driver.append(id.upload, { offset: 0, crc32: 0 }, chunks(data.subarray(0, PART + 5), 50_000));
      const other = await subject.make();
      const end = await other.append(id.upload, half, chunks(data.subarray(PART + 5), 50_000));
      await other.commit(id.upload, id.blob, end.offset);
      assert.ok((await drain(await driver.read(id.blob))).equals(data));
      assert.ok(!(await other.listStaging()).includes(id.upload));
    });

    it('adopts a local file as a staging area (server-side import); the local file is gone', async () => {
      const data = randomBytes(PART + 4321);
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'cirrus-adopt-')), 'import.bin');
      writeFileSync(file, data);
      const id = ids();
      await driver.createStaging(id.upload, id.blob);
      await driver.adoptStaging(id.upload, file);
      assert.equal(existsSync(file), false);
      await driver.commit(id.upload, id.blob, data.length);
      assert.ok((await drain(await driver.read(id.blob))).equals(data));
    });

    it('small uploads (less than one part, an exact part) commit and read back', async () => {
      for (const size of [1, 1000, PART]) {
        const data = randomBytes(size);
        const { id, state } = await stage(data, [size]);
        await driver.commit(id.upload, id.blob, state.offset);
        assert.ok((await drain(await driver.read(id.blob))).equals(data), `size ${size}`);
      }
    });

    it('answers the health check', async () => {
      await driver.check();
    });
  });
}
