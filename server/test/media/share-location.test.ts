// Location through share links (issue 36): a JPEG, PNG, WebP and HEIC with
// GPS written by exiftool, downloaded through a link with strip_location on
// (the default), alone and inside the folder's ZIP, read back by exifr and
// exiftool: no GPS, the rest of the EXIF kept, the picture still decodes
// (sharp; heif-convert for HEIC), same length, ranges agree with the whole,
// the ZIP's CRCs check (unzip -t). A TIFF, which cannot be stripped safely, is
// refused alone and left out of the ZIP. With the switch off, and for the
// owner, the bytes are the stored ones. Other files are never touched.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';
import { fetchBytes, newUser, setUp, share, upload, type Ctx, type Person } from '../shares/support.js';

const tools = ['ffmpeg', 'exiftool', 'heif-enc', 'heif-convert', 'unzip'].filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);
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

/** A test card as `ext`, with GPS (EXIF, and XMP for the JPEG and HEIC), a camera make and a date, written by exiftool. */
function picture(dir: string, ext: string): Buffer {
  const file = path.join(dir, `card.${ext}`);
  if (ext === 'heic') {
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240', '-frames:v', '1', path.join(dir, 'for-heic.png')]);
    execFileSync('heif-enc', ['-q', '60', path.join(dir, 'for-heic.png'), '-o', file], { stdio: 'ignore' });
  } else {
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240', '-frames:v', '1', file]);
  }
  execFileSync('exiftool', [
    '-q', '-overwrite_original',
    `-GPSLatitude=${GPS.lat}`, '-GPSLatitudeRef=N', `-GPSLongitude=${-GPS.lon}`, '-GPSLongitudeRef=W',
    ...(ext === 'jpg' || ext === 'heic' ? [`-XMP:GPSLatitude=${GPS.lat} N`, `-XMP:GPSLongitude=${-GPS.lon} W`] : []),
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
  let tiff: Buffer;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cirrus-share-gps-'));
    ctx = await setUp();
    owner = await newUser(ctx);
    for (const ext of ['jpg', 'png', 'webp', 'heic']) {
      const bytes = picture(dir, ext);
      // The fixture can fail: exiftool wrote the place.
      assert.ok(Math.abs((await placeOf(bytes, ext, dir))!.lat - GPS.lat) < 1e-5, `${ext}: the fixture has GPS`);
      pictures.set(ext, bytes);
      await upload(ctx, owner, `/trip/card.${ext}`, bytes);
    }
    await upload(ctx, owner, '/trip/notes.txt', 'GPSLatitude 48.85837 written in a note stays as written');
    // The JPEG again under a name that says nothing: read by its first bytes, stripped all the same.
    await upload(ctx, owner, '/trip/days/renamed.bin', pictures.get('jpg')!);
    tiff = picture(dir, 'tif');
    assert.ok(await placeOf(tiff, 'tif', dir), 'tif: the fixture has GPS');
    await upload(ctx, owner, '/trip/days/scan.tif', tiff);
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

  /** Fails unless `bytes` decode to the 320×240 card (sharp; heif-convert for HEIC, which sharp's build cannot read). */
  async function decodes(bytes: Buffer, ext: string): Promise<void> {
    let picture = bytes;
    if (ext === 'heic') {
      writeFileSync(path.join(dir, 'decode.heic'), bytes);
      execFileSync('heif-convert', [path.join(dir, 'decode.heic'), path.join(dir, 'decoded.png')], { stdio: 'ignore' });
      picture = readFileSync(path.join(dir, 'decoded.png'));
    }
    const meta = await sharp(picture).metadata();
    assert.deepEqual([meta.width, meta.height], [320, 240], `${ext}: decodes`);
    await sharp(picture).raw().toBuffer();
  }

  it('strips GPS from JPEG, PNG, WebP and HEIC downloads and previews by default, keeps the rest, and the picture still decodes', async () => {
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
        await decodes(res.body, ext);
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

  it("strips GPS from every picture inside the folder's ZIP (CRCs right), leaves out the TIFF it cannot strip; the owner's own ZIP keeps all", async () => {
    const folder = await share(ctx, owner, { path: '/trip' });
    const zip = await fetchBytes(ctx, `/s/${folder.id}`);
    assert.equal(zip.status, 200);
    assert.equal(zip.headers.get('content-type'), 'application/zip');
    const out = path.join(dir, 'unzipped');
    rmSync(out, { recursive: true, force: true });
    writeFileSync(path.join(dir, 'link.zip'), zip.body);
    // unzip -t checks each entry's bytes against the CRC-32 in its headers.
    execFileSync('unzip', ['-tq', path.join(dir, 'link.zip')]);
    execFileSync('unzip', ['-q', path.join(dir, 'link.zip'), '-d', out]);
    const listed = execFileSync('unzip', ['-Z1', path.join(dir, 'link.zip')]).toString('utf8').trim().split('\n').sort();
    assert.deepEqual(listed, ['trip/', 'trip/card.heic', 'trip/card.jpg', 'trip/card.png', 'trip/card.webp', 'trip/days/', 'trip/days/renamed.bin', 'trip/notes.txt'], 'scan.tif is left out');
    for (const [ext, stored] of pictures) {
      const got = readFileSync(path.join(out, 'trip', `card.${ext}`));
      assert.equal(got.length, stored.length);
      assert.equal(await placeOf(got, ext, dir), null, `${ext} in the ZIP: GPS is still there`);
      const tags = exiftool(got, `zip.${ext}`);
      assert.deepEqual(Object.keys(tags).filter((k) => /GPS/i.test(k)), [], `${ext} in the ZIP: exiftool finds ${JSON.stringify(tags)}`);
      assert.equal(tags.Make, 'CirrusCam');
      assert.equal(tags.Warning, undefined, `${ext}: ${String(tags.Warning)}`);
      await decodes(got, ext);
    }
    assert.equal(await placeOf(readFileSync(path.join(out, 'trip', 'days', 'renamed.bin')), 'jpg', dir), null, 'a renamed JPEG is stripped too');
    assert.equal(readFileSync(path.join(out, 'trip', 'notes.txt'), 'utf8'), 'GPSLatitude 48.85837 written in a note stays as written');
    // A range of the ZIP agrees with the whole (the edited bytes and CRCs are the same every time).
    const part = await fetchBytes(ctx, `/s/${folder.id}`, { headers: { range: `bytes=100-${zip.body.length - 1}` } });
    assert.equal(part.status, 206);
    assert.deepEqual(part.body, zip.body.subarray(100));

    // The owner's own archive of the folder holds the stored bytes, GPS and the TIFF included.
    const own = await fetchBytes(ctx, `/api/v4/file/archive?path=${encodeURIComponent('/trip')}`, { headers: { authorization: `Bearer ${owner.token}` } });
    assert.equal(own.status, 200);
    writeFileSync(path.join(dir, 'own.zip'), own.body);
    rmSync(out, { recursive: true, force: true });
    execFileSync('unzip', ['-q', path.join(dir, 'own.zip'), '-d', out]);
    for (const [ext, stored] of pictures) assert.deepEqual(readFileSync(path.join(out, 'trip', `card.${ext}`)), stored, `${ext}: the owner's copy is the stored one`);
    assert.deepEqual(readFileSync(path.join(out, 'trip', 'days', 'scan.tif')), tiff);

    // A link with the switch off: the stored bytes, the TIFF too.
    const open = await share(ctx, owner, { path: '/trip', strip_location: false });
    const raw = await fetchBytes(ctx, `/s/${open.id}`);
    writeFileSync(path.join(dir, 'open.zip'), raw.body);
    rmSync(out, { recursive: true, force: true });
    execFileSync('unzip', ['-q', path.join(dir, 'open.zip'), '-d', out]);
    assert.deepEqual(readFileSync(path.join(out, 'trip', 'card.heic')), pictures.get('heic'));
    assert.deepEqual(readFileSync(path.join(out, 'trip', 'days', 'scan.tif')), tiff);
  });

  it('refuses a TIFF it cannot strip (403, never the stored bytes), and sends it when the owner shares places', async () => {
    const link = await share(ctx, owner, { path: '/trip/days/scan.tif' });
    const res = await fetchBytes(ctx, `/s/${link.id}`);
    assert.equal(res.status, 403);
    assert.equal(res.json?.code, 403);
    assert.match(res.json?.msg ?? '', /location/);
    assert.ok(!res.body.includes(tiff.subarray(0, 64)));
    const head = await ctx.server.fetch(`/s/${link.id}`, { method: 'HEAD' });
    assert.equal(head.status, 403);
    const open = await share(ctx, owner, { path: '/trip/days/scan.tif', strip_location: false });
    const sent = await fetchBytes(ctx, `/s/${open.id}`);
    assert.equal(sent.status, 200);
    assert.deepEqual(sent.body, tiff);
    // The owner's own download keeps everything.
    const own = await fetchBytes(ctx, `/api/v4/file/content?path=${encodeURIComponent('/trip/card.heic')}`, { headers: { authorization: `Bearer ${owner.token}` } });
    assert.equal(own.status, 200);
    assert.deepEqual(own.body, pictures.get('heic'));
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
