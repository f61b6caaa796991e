// MIME types from file extensions. The type is derived by the server, never
// taken from the uploader, so a file cannot claim to be something it is not.
const TYPES: Record<string, string> = {
  txt: 'text/plain', md: 'text/markdown', csv: 'text/csv', log: 'text/plain', html: 'text/html', htm: 'text/html',
  css: 'text/css', js: 'text/javascript', mjs: 'text/javascript', json: 'application/json', xml: 'application/xml',
  yaml: 'application/yaml', yml: 'application/yaml', pdf: 'application/pdf', rtf: 'application/rtf',
  zip: 'application/zip', gz: 'application/gzip', tgz: 'application/gzip', tar: 'application/x-tar',
  '7z': 'application/x-7z-compressed', rar: 'application/vnd.rar', bz2: 'application/x-bzip2', xz: 'application/x-xz',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif',
  svg: 'image/svg+xml', bmp: 'image/bmp', ico: 'image/vnd.microsoft.icon', tif: 'image/tiff', tiff: 'image/tiff',
  heic: 'image/heic', mp3: 'audio/mpeg', m4a: 'audio/mp4', wav: 'audio/wav', flac: 'audio/flac', ogg: 'audio/ogg',
  opus: 'audio/opus', mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm',
  mkv: 'video/x-matroska', avi: 'video/x-msvideo', doc: 'application/msword', xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text', ods: 'application/vnd.oasis.opendocument.spreadsheet',
  epub: 'application/epub+zip', wasm: 'application/wasm', ttf: 'font/ttf', otf: 'font/otf', woff: 'font/woff',
  woff2: 'font/woff2',
};

export const DEFAULT_MIME = 'application/octet-stream';

export function mimeFor(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return DEFAULT_MIME;
  return TYPES[name.slice(dot + 1).toLowerCase()] ?? DEFAULT_MIME;
}

/** Types a browser may render inline from our origin without running script. */
export function isInlineSafe(mime: string): boolean {
  if (mime === 'image/svg+xml') return false;
  return /^(image|audio|video)\//.test(mime) || mime === 'application/pdf' || mime === 'text/plain';
}

/**
 * Types a browser never runs, applies or renders as a page of ours: pictures
 * (not SVG), sound, video, PDF, plain text and data files. Everything else a
 * user uploads (scripts, modules, HTML, SVG, XML, CSS, WebAssembly, JSON,
 * fonts, unknown types) is served as application/octet-stream, which with
 * `nosniff` no <script>, <link rel=stylesheet>, import or instantiateStreaming
 * accepts (Fetch standard §3.5 "should response to request be blocked due to
 * nosniff"), so an upload can never load as a script of the app's pages.
 */
const INERT_TYPES = new Set([
  'application/pdf', 'text/plain', 'text/csv', 'text/markdown', 'application/rtf', 'application/yaml',
  'application/zip', 'application/gzip', 'application/x-tar', 'application/x-7z-compressed', 'application/vnd.rar',
  'application/x-bzip2', 'application/x-xz', 'application/msword', 'application/vnd.ms-excel', 'application/vnd.ms-powerpoint',
  'application/epub+zip',
]);

/** The Content-Type user content is served with (issue 19): its own when inert, application/octet-stream otherwise. */
export function servedType(mime: string): string {
  const type = mime.split(';')[0]!.trim().toLowerCase();
  if (type === 'image/svg+xml') return DEFAULT_MIME;
  if (/^(image|audio|video)\/[a-z0-9.+-]+$/.test(type)) return type;
  if (INERT_TYPES.has(type) || /^application\/vnd\.(openxmlformats-officedocument|oasis\.opendocument)\.[a-z0-9.-]+$/.test(type)) return type;
  return DEFAULT_MIME;
}
