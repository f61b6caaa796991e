// Media fixtures made at test time with Debian's tools (ffmpeg, exiftool,
// heif-enc) and by hand (PDFs), in a temporary folder, and hostile ones.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, gzipSync } from 'node:zlib';

export const EXIF = {
  lat: 48.85837,
  lon: -2.294481,
  make: 'CirrusCam',
  model: 'Model 7',
  lens: 'Prime 35mm F2.8',
  taken: '2023:07:14 09:08:07',
  offset: '+02:00',
};

export interface Fixtures {
  dir: string;
  jpeg: Buffer;
  mp4: Buffer;
  mp3: Buffer;
  heic: Buffer;
  pdf: Buffer;
  remove(): void;
}

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 });

/** The Debian tools the fixtures and the server's generators need. */
const MEDIA_TOOLS = ['ffmpeg', 'ffprobe', 'pdftoppm', 'heif-convert', 'heif-enc', 'exiftool'];
/** The skip reason on a machine without them (a plain `npm test`; .ci/run installs them). */
export const mediaToolsSkip: string | false = (() => {
  const missing = MEDIA_TOOLS.filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);
  return missing.length ? `${missing.join(', ')} missing (.ci/run installs ffmpeg, poppler-utils, libheif-examples, libimage-exiftool-perl)` : false;
})();

export function makeFixtures(): Fixtures {
  const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-media-'));
  const at = (name: string) => path.join(dir, name);
  // A test card (bars, gradients, text): a picture that is not flat.
  run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x480', '-frames:v', '1', at('card.png')]);
  run('ffmpeg', ['-v', 'error', '-y', '-i', at('card.png'), '-q:v', '3', at('photo.jpg')]);
  run('exiftool', [
    '-q', '-overwrite_original',
    `-GPSLatitude=${Math.abs(EXIF.lat)}`, `-GPSLatitudeRef=${EXIF.lat >= 0 ? 'N' : 'S'}`,
    `-GPSLongitude=${Math.abs(EXIF.lon)}`, `-GPSLongitudeRef=${EXIF.lon >= 0 ? 'E' : 'W'}`,
    `-Make=${EXIF.make}`, `-Model=${EXIF.model}`, `-LensModel=${EXIF.lens}`,
    `-DateTimeOriginal=${EXIF.taken}`, `-OffsetTimeOriginal=${EXIF.offset}`,
    '-ExposureTime=1/250', '-FNumber=2.8', '-ISO=200', '-FocalLength=35',
    at('photo.jpg'),
  ]);
  // Five seconds of video with a creation time; the moov atom at the end (ffmpeg's default).
  run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=5:size=640x360:rate=10', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast',
    '-metadata', 'creation_time=2024-05-01T10:20:30Z', at('clip.mp4')]);
  // Three seconds of sound with ID3 tags and the test card as its front cover.
  run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', '-i', at('card.png'), '-map', '0:a', '-map', '1:v', '-c:a', 'libmp3lame', '-b:a', '64k',
    '-c:v', 'png', '-disposition:v', 'attached_pic', '-id3v2_version', '3', '-metadata', 'title=Test Tone', '-metadata', 'artist=The Oscillators', '-metadata', 'album=Sine Waves',
    '-metadata:s:v', 'comment=Cover (front)', at('song.mp3')]);
  run('heif-enc', ['-q', '60', at('card.png'), '-o', at('card.heic')]);
  const files = {
    jpeg: readFileSync(at('photo.jpg')),
    mp4: readFileSync(at('clip.mp4')),
    mp3: readFileSync(at('song.mp3')),
    heic: readFileSync(at('card.heic')),
    pdf: makePdf(),
  };
  return { dir, ...files, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A one-page PDF written by hand: a blue and a red rectangle on white (`count` claims more pages). */
export function makePdf(count = 1): Buffer {
  const content = '0 0 1 rg 20 20 160 120 re f 1 0 0 rg 200 100 180 140 re f';
  const objects = [
    '<</Type/Catalog/Pages 2 0 R>>',
    `<</Type/Pages/Kids[3 0 R]/Count ${count}>>`,
    '<</Type/Page/Parent 2 0 R/MediaBox[0 0 400 300]/Contents 4 0 R>>',
    `<</Length ${content.length}>>stream\n${content}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A PNG whose header claims width × height pixels (a decompression bomb's header), with a valid CRC. */
export function claimingPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', Buffer.alloc(16)), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * An HLS playlist (what `ffmpeg -i x.mp4` probes and follows) naming a local
 * file by URL. Only a segment with an allowed extension (.ts): ffmpeg 5.1.4+
 * refuses the whole playlist when one entry (say /etc/passwd) has another,
 * which would hide whether the forced demuxer is what protects us.
 */
export function manifest(target: string): Buffer {
  return Buffer.from(`#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\nfile://${target}\n#EXT-X-ENDLIST\n`);
}

/** A segment file for the manifest to name, with its access time set in the past so that any read shows. */
export function canary(dir: string): string {
  const file = path.join(dir, 'canary.ts');
  run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=64x64:rate=5', '-c:v', 'mpeg2video', '-f', 'mpegts', file]);
  return file;
}

/** A compression bomb (gzip): `mib` MiB of zeros in about a thousandth of that; the test names it .heic. */
export function zipBomb(mib: number): Buffer {
  return gzipSync(Buffer.alloc(mib * 1024 * 1024), { level: 9 });
}
