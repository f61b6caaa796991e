// Location through share links (issue 36): a JPEG, PNG and WebP with GPS
// written by exiftool, downloaded through a link with strip_location on (the
// default), read back by exifr and exiftool: no GPS, the rest of the EXIF kept,
// the picture still decodes, same length, ranges agree with the whole. With
// the switch off the bytes are the stored ones. Other files are never touched.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';
import { fetchBytes, newUser, setUp, share, upload, type Ctx, type Person } from '../shares/support.js';

const tools = ['ffmpeg', 'exiftool'].filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);
const skip = tools.length ? `${tools.join(', ')} missing` : false;

const GPS = { lat: 48.85837, lon: -2.294481 };

/** The place in `bytes` as exiftool reads it (it knows WebP, which exifr does not) and, but for WebP, as exifr does; null when neither finds one. */
function placeOf(bytes: Buffer, ext: string, dir: string): Promise<{ lat: number; lon: number } | null> {
  const file = path.join(dir, `read.${ext}`);
  writeFileSync(file, bytes);
  const tags = (JSON.parse(execFileSync('exiftool', ['-j', '-n', '-GPSLatitude', '-GPSLongitude', file]).toString('utf8')) as { GPSLatitude?: number; GPSLongitude?: number }[])[0]!;
  const byExiftool = tags.GPSLatitude === undefined ? null : { lat: tags.GPSLatitude, lon: -Math.abs(tags.GPSLongitude!) };
  if (ext === 'webp') return Promise.resolve(byExiftool);
  return exifr.gps(bytes).then((g) => {
    const byExifr = g ? { lat: g.latitude, lon: g.longitude } : null;
    assert.equal(byExifr === null, byExiftool === null, 'exifr and exiftool agree');
    return byExifr;
  });
}

/** A test card as `ext`, with GPS (EXIF, and XMP for the JPEG), a camera make and a date, written by exiftool. */
function picture(dir: string, ext: string): Buffer {
  const file = path.join(dir, `card.${ext}`);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240', '-frames:v', '1', file]);
  execFileSync('exiftool', [
    '-q', '-overwrite_original',
    `-GPSLatitude=${GPS.lat}`, '-GPSLatitudeRef=N', `-GPSLongitude=${-GPS.lon}`, '-GPSLongitudeRef=W',
    ...(ext === 'jpg' ? [`-XMP:GPSLatitude=${GPS.lat} N`, `-XMP:GPSLongitude=${-GPS.lon} W`] : []),
    '-Make=CirrusCam', '-DateTimeOriginal=2023:07:14 09:08:07',
    file,
  ]);
  return readFileSync(file);
}

describe('share links: pictures go out without their location unless the owner chooses', { skip }, () => {
  let ctx: Ctx;
  let owner: Person;
  let dir: string;
  const pictures = new Map<string, Buffer>();

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cirrus-share-gps-'));
    ctx = await setUp();
    owner = await newUser(ctx);
    for (const ext of ['jpg', 'png', 'webp']) {
      const bytes = picture(dir, ext);
      // The fixture can fail: exiftool wrote the place.
      assert.ok(Math.abs((await placeOf(bytes, ext, dir))!.lat - GPS.lat) < 1e-5, `${ext}: the fixture has GPS`);
      pictures.set(ext, bytes);
      await upload(ctx, owner, `/trip/card.${ext}`, bytes);
    }
    await upload(ctx, owner, '/trip/notes.txt', 'GPSLatitude 48.85837 written in a note stays as written');
  });
  after(async () => {
    await ctx?.server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** What exiftool reads in `bytes`: tag name → value. */
  function exiftool(bytes: Buffer, name: string): Record<string, unknown> {
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    return (JSON.parse(execFileSync('exiftool', ['-j', '-a', file]).toString('utf8')) as Record<string, unknown>[])[0]!;
  }

  it('strips GPS from JPEG, PNG and WebP downloads and previews by default, keeps the rest, and the picture still decodes', async () => {
    const link = await share(ctx, owner, { path: '/trip/card.jpg' });
    assert.equal((link as unknown as { strip_location: boolean }).strip_location, true);
    const folder = await share(ctx, owner, { path: '/trip' });
    for (const [ext, stored] of pictures) {
      for (const url of [`/s/${folder.id}?path=${encodeURIComponent(`/card.${ext}`)}`, `/s/${folder.id}?path=${encodeURIComponent(`/card.${ext}`)}&inline=1`]) {
        const res = await fetchBytes(ctx, url);
        assert.equal(res.status, 200, `${url}: ${res.status}`);
        assert.equal(res.body.length, stored.length, `${ext}: the same length`);
        assert.ok(!res.body.equals(stored), `${ext}: the bytes are changed`);
        assert.equal(await placeOf(res.body, ext, dir), null, `${ext}: GPS is still there`);
        const tags = exiftool(res.body, `out.${ext}`);
        assert.deepEqual(Object.keys(tags).filter((k) => /GPS/i.test(k)), [], `${ext}: exiftool finds ${JSON.stringify(tags)}`);
        assert.equal(tags.Make, 'CirrusCam', `${ext}: the camera is kept`);
        assert.equal(tags.Warning, undefined, `${ext}: ${String(tags.Warning)}`);
        const meta = await sharp(res.body).metadata();
        assert.deepEqual([meta.width, meta.height], [320, 240]);
        await sharp(res.body).raw().toBuffer();
      }
    }
    // A single-file link too, and a range agrees with the whole.
    const whole = await fetchBytes(ctx, `/s/${link.id}`);
    assert.equal(await placeOf(whole.body, 'jpg', dir), null);
    const part = await fetchBytes(ctx, `/s/${link.id}`, { headers: { range: 'bytes=0-4095' } });
    assert.equal(part.status, 206);
    assert.deepEqual(part.body, whole.body.subarray(0, 4096));
    // Other bytes than the stored ones get another validator.
    const own = await ctx.api.raw('GET', `/api/v4/file/content?path=${encodeURIComponent('/trip/card.jpg')}`, { token: owner.token });
    assert.equal(own.status, 200);
    assert.ok(whole.headers.get('etag'));
    assert.notEqual(whole.headers.get('etag'), own.headers.get('etag'));
    // A file that is not a picture goes out as stored.
    const note = await fetchBytes(ctx, `/s/${folder.id}?path=${encodeURIComponent('/notes.txt')}`);
    assert.equal(note.body.toString('utf8'), 'GPSLatitude 48.85837 written in a note stays as written');
  });

  it('with the switch off the link sends the stored bytes, GPS and all; switched on again, none', async () => {
    const link = await share(ctx, owner, { path: '/trip/card.png', strip_location: false });
    assert.equal((link as unknown as { strip_location: boolean }).strip_location, false);
    const res = await fetchBytes(ctx, `/s/${link.id}`);
    assert.deepEqual(res.body, pictures.get('png'));
    assert.ok(Math.abs((await placeOf(res.body, 'png', dir))!.lon - GPS.lon) < 1e-5);
    const on = await ctx.api.patch<{ strip_location: boolean }>(`/api/v4/share/${link.id}`, { strip_location: true }, { token: owner.token });
    assert.equal(on.status, 200, on.text);
    assert.equal(on.body.data.strip_location, true);
    assert.equal(await placeOf((await fetchBytes(ctx, `/s/${link.id}`)).body, 'png', dir), null);
    const off = await ctx.api.patch<{ strip_location: boolean }>(`/api/v4/share/${link.id}`, { strip_location: false }, { token: owner.token });
    assert.equal(off.body.data.strip_location, false);
    assert.ok(await placeOf((await fetchBytes(ctx, `/s/${link.id}`)).body, 'png', dir));
    // Not a boolean: 400.
    assert.equal((await ctx.api.patch(`/api/v4/share/${link.id}`, { strip_location: 'no' }, { token: owner.token })).status, 400);
  });
});
