// What a blob of each media kind gives: a thumbnail source (WebP, at most
// SOURCE_SIZE on its longer side; the sizes served are made from it) and its
// metadata. Pictures and sound are read in-process (sharp with its pixel
// limit, exifr, music-metadata); video, PDF and HEIC through external tools
// in a child process (tools.ts) that are given only the temporary copy, with
// the demuxer forced for video so that a playlist or manifest named .mp4 is
// refused instead of followed (docs/security.md).
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { ToolCaps, ToolResult } from './tools.js';

export type MediaKind = 'image' | 'heif' | 'video' | 'audio' | 'pdf';

/** The longer side of the cached source every thumbnail size is made from. */
export const SOURCE_SIZE = 1024;
/** Decoded pixels at most, for every decoder we run in-process (a 1×1 PNG can claim 100,000×100,000). */
export const MAX_INPUT_PIXELS = 50_000_000;

export interface MediaInfo {
  width?: number;
  height?: number;
  taken_at?: string;
  camera_make?: string;
  camera_model?: string;
  lens?: string;
  exposure_time?: number;
  f_number?: number;
  iso?: number;
  focal_length?: number;
  gps?: { lat: number; lon: number };
  duration?: number;
  codec?: string;
  title?: string;
  artist?: string;
  album?: string;
}

export interface Generated {
  media: MediaInfo;
  /** WebP bytes, or null when this blob has no picture (a song without a cover). */
  thumb: Buffer | null;
  /** Why there is no thumbnail, when there is none. */
  reason?: string;
}

/** The external tools each kind needs, and the Debian package that brings them. */
export const TOOLS: Record<'video' | 'pdf' | 'heif', { tools: string[]; package: string }> = {
  video: { tools: ['ffmpeg', 'ffprobe'], package: 'ffmpeg' },
  pdf: { tools: ['pdftoppm'], package: 'poppler-utils' },
  heif: { tools: ['heif-convert'], package: 'libheif-examples' },
};

const RASTER = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff', 'image/bmp']);
const HEIF = new Set(['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence']);
/** Video types and the one demuxer ffmpeg and ffprobe are allowed to use for each. */
const VIDEO_DEMUXER: Record<string, string> = {
  'video/mp4': 'mov',
  'video/quicktime': 'mov',
  'video/webm': 'matroska',
  'video/x-matroska': 'matroska',
  'video/x-msvideo': 'avi',
};
const FORMAT_WHITELIST = 'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi';
const AUDIO = new Set(['audio/mpeg', 'audio/mp4', 'audio/flac', 'audio/ogg', 'audio/opus', 'audio/wav', 'audio/x-wav', 'audio/aac']);

export function mediaKindOf(mime: string | null): MediaKind | null {
  if (!mime) return null;
  if (RASTER.has(mime)) return 'image';
  if (HEIF.has(mime)) return 'heif';
  if (mime in VIDEO_DEMUXER) return 'video';
  if (AUDIO.has(mime)) return 'audio';
  if (mime === 'application/pdf') return 'pdf';
  return null;
}

export interface GeneratorEnv {
  /** Runs an installed tool (by name) with caps; tools.ts's runTool bound to the paths found at start-up. */
  run(tool: string, args: readonly string[], caps?: Partial<ToolCaps>): Promise<ToolResult>;
  /** A private folder for this blob's intermediate files (removed by the caller). */
  tmpDir: string;
}

type Sharp = (typeof import('sharp'))['default'];
let sharpModule: Promise<Sharp> | undefined;
// Loaded on first use, not at start-up: libvips costs memory every instance pays otherwise.
const loadSharp = (): Promise<Sharp> => (sharpModule ??= import('sharp').then((m) => m.default));

/** A WebP of at most SOURCE_SIZE from any image sharp can decode, within the pixel limit. */
export async function toSource(input: Buffer | string): Promise<{ webp: Buffer; width: number; height: number }> {
  const sharp = await loadSharp();
  const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false });
  const meta = await image.metadata();
  // EXIF orientations 5–8 swap the sides.
  const swap = (meta.orientation ?? 1) >= 5;
  const webp = await image.rotate().resize(SOURCE_SIZE, SOURCE_SIZE, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
  return { webp, width: (swap ? meta.height : meta.width) ?? 0, height: (swap ? meta.width : meta.height) ?? 0 };
}

export async function generate(kind: MediaKind, mime: string, file: string, env: GeneratorEnv): Promise<Generated> {
  switch (kind) {
    case 'image':
      return image(file);
    case 'heif':
      return heif(file, env);
    case 'video':
      return video(file, VIDEO_DEMUXER[mime] ?? 'mov', env);
    case 'audio':
      return audio(file);
    case 'pdf':
      return pdf(file, env);
  }
}

/** Raster pictures: the metadata only; their thumbnails are made on request from the original, as before. */
async function image(file: string): Promise<Generated> {
  const sharp = await loadSharp();
  const meta = await sharp(file, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'none' }).metadata();
  const swap = (meta.orientation ?? 1) >= 5;
  const media: MediaInfo = { width: swap ? meta.height : meta.width, height: swap ? meta.width : meta.height, ...(await exif(file)) };
  return { media: clean(media), thumb: null };
}

async function heif(file: string, env: GeneratorEnv): Promise<Generated> {
  const out = path.join(env.tmpDir, 'decoded.png');
  const res = await env.run('heif-convert', [file, out]);
  const media = await exif(file);
  if (!res.ok) return { media: clean(media), thumb: null, reason: `heif-convert: ${res.reason}` };
  // heif-convert has applied the rotation stored in the file.
  const source = await toSource(await readFile(out));
  return { media: clean({ ...media, width: source.width, height: source.height }), thumb: source.webp };
}

interface Probe {
  streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; tags?: Record<string, string>; side_data_list?: { rotation?: number }[] }[];
  format?: { duration?: string; tags?: Record<string, string> };
}

async function video(file: string, demuxer: string, env: GeneratorEnv): Promise<Generated> {
  // -f forces the demuxer: nothing is probed, so an HLS/DASH/concat text named .mp4 fails to parse instead of
  // being followed; the format and protocol allow-lists forbid any other demuxer and any URL but this one file.
  const input = ['-f', demuxer, '-format_whitelist', FORMAT_WHITELIST, '-protocol_whitelist', 'file', '-i', `file:${file}`];
  const probe = await env.run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...input]);
  if (!probe.ok) return { media: {}, thumb: null, reason: `ffprobe: ${probe.reason}` };
  let info: Probe;
  try {
    info = JSON.parse(probe.stdout.toString('utf8')) as Probe;
  } catch {
    return { media: {}, thumb: null, reason: 'ffprobe: unreadable answer' };
  }
  const stream = info.streams?.find((s) => s.codec_type === 'video');
  const duration = Number(info.format?.duration);
  const tags = { ...stream?.tags, ...info.format?.tags };
  const rotation = Math.abs(stream?.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation ?? Number(tags.rotate ?? 0));
  const swap = rotation === 90 || rotation === 270;
  const media: MediaInfo = {
    width: swap ? stream?.height : stream?.width,
    height: swap ? stream?.width : stream?.height,
    codec: stream?.codec_name,
    duration: Number.isFinite(duration) && duration > 0 ? round(duration, 3) : undefined,
    taken_at: rfc3339(tags.creation_time),
    gps: iso6709(tags['com.apple.quicktime.location.ISO6709'] ?? tags.location),
  };
  if (!stream) return { media: clean(media), thumb: null, reason: 'no video stream' };
  const at = media.duration ? media.duration * 0.1 : 0;
  const scale = `scale=w='min(${SOURCE_SIZE},iw)':h='min(${SOURCE_SIZE},ih)':force_original_aspect_ratio=decrease`;
  const frame = await env.run('ffmpeg', ['-nostdin', '-v', 'error', '-threads', '1', '-ss', at.toFixed(3), ...input, '-map', '0:v:0', '-frames:v', '1', '-vf', scale, '-f', 'image2pipe', '-c:v', 'png', 'pipe:1']);
  if (!frame.ok || frame.stdout.length === 0) return { media: clean(media), thumb: null, reason: `ffmpeg: ${frame.reason ?? 'no frame'}` };
  const source = await toSource(frame.stdout);
  return { media: clean(media), thumb: source.webp };
}

async function audio(file: string): Promise<Generated> {
  const { parseFile } = await import('music-metadata');
  const meta = await parseFile(file, { duration: true, skipCovers: false });
  const media: MediaInfo = {
    duration: meta.format.duration && Number.isFinite(meta.format.duration) ? round(meta.format.duration, 3) : undefined,
    codec: meta.format.codec,
    title: meta.common.title,
    artist: meta.common.artist,
    album: meta.common.album,
  };
  const picture = meta.common.picture?.[0];
  if (!picture) return { media: clean(media), thumb: null, reason: 'no cover art' };
  const source = await toSource(Buffer.from(picture.data));
  return { media: clean(media), thumb: source.webp };
}

async function pdf(file: string, env: GeneratorEnv): Promise<Generated> {
  const root = path.join(env.tmpDir, 'page');
  // Page one only, scaled so its longer side is SOURCE_SIZE whatever size the page claims.
  const res = await env.run('pdftoppm', ['-f', '1', '-l', '1', '-scale-to', String(SOURCE_SIZE), '-png', '-singlefile', file, root]);
  if (!res.ok) return { media: {}, thumb: null, reason: `pdftoppm: ${res.reason}` };
  const source = await toSource(await readFile(`${root}.png`));
  return { media: { width: source.width, height: source.height }, thumb: source.webp };
}

interface ExifTags {
  Make?: string;
  Model?: string;
  LensModel?: string;
  ExposureTime?: number;
  FNumber?: number;
  ISO?: number;
  FocalLength?: number;
  DateTimeOriginal?: string;
  CreateDate?: string;
  OffsetTimeOriginal?: string;
  latitude?: number;
  longitude?: number;
}

async function exif(file: string): Promise<MediaInfo> {
  const { default: exifr } = await import('exifr');
  let tags: ExifTags | undefined;
  try {
    // Raw values (reviveValues: false): dates as written, so no server time zone is applied to them.
    tags = (await exifr.parse(file, { tiff: true, ifd0: {}, exif: true, gps: true, xmp: false, icc: false, iptc: false, reviveValues: false, translateValues: false })) as ExifTags | undefined;
  } catch {
    return {};
  }
  if (!tags) return {};
  const lat = tags.latitude;
  const lon = tags.longitude;
  return {
    camera_make: text(tags.Make),
    camera_model: text(tags.Model),
    lens: text(tags.LensModel),
    exposure_time: num(tags.ExposureTime),
    f_number: num(tags.FNumber),
    iso: num(tags.ISO),
    focal_length: num(tags.FocalLength),
    taken_at: exifDate(tags.DateTimeOriginal ?? tags.CreateDate, tags.OffsetTimeOriginal),
    gps: typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && !(lat === 0 && lon === 0) ? { lat: round(lat, 7), lon: round(lon, 7) } : undefined,
  };
}

function text(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex -- NULs and control characters padded into EXIF strings are dropped
  const t = v.replace(/[\u0000-\u001f]/g, '').trim();
  return t ? t.slice(0, 200) : undefined;
}

function num(v: unknown): number | undefined {
  const n = Array.isArray(v) ? Number(v[0]) : Number(v);
  return typeof v !== 'undefined' && Number.isFinite(n) && n >= 0 ? round(n, 6) : undefined;
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** "2024:05:01 10:20:30" with an optional "+02:00": RFC 3339; without an offset the clock time is taken as UTC. */
export function exifDate(value: unknown, offset: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value.trim());
  if (!m) return undefined;
  const off = typeof offset === 'string' && /^[+-]\d{2}:\d{2}$/.test(offset.trim()) ? offset.trim() : 'Z';
  const iso = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${off}`;
  const t = Date.parse(iso);
  if (!Number.isFinite(t) || Number(m[1]) < 1900) return undefined;
  return off === 'Z' ? new Date(t).toISOString().replace('.000Z', 'Z') : iso;
}

function rfc3339(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const t = Date.parse(value);
  // 1904-01-01 (QuickTime's zero) and earlier mean "not set".
  if (!Number.isFinite(t) || t <= Date.parse('1904-01-02T00:00:00Z')) return undefined;
  return new Date(t).toISOString().replace('.000Z', 'Z');
}

/** "+37.3349-122.0090+000.000/" (ISO 6709, as phones write it into videos). */
function iso6709(value: string | undefined): { lat: number; lon: number } | undefined {
  const m = value ? /^([+-]\d+(?:\.\d+)?)([+-]\d+(?:\.\d+)?)/.exec(value) : null;
  if (!m) return undefined;
  const lat = Number(m[1]);
  const lon = Number(m[2]);
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : undefined;
}

/** Drops the fields that are not known. */
function clean(m: MediaInfo): MediaInfo {
  return Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined && v !== null && !(typeof v === 'number' && !Number.isFinite(v)))) as MediaInfo;
}
