// Which extractor reads a file, from its name and type. Code and markup
// files are text; a file without a known extension is sniffed ("sniff": text
// when it looks like text, skipped otherwise).

export type Kind = 'text' | 'html' | 'pdf' | 'docx' | 'xlsx' | 'pptx' | 'odf' | 'sniff' | 'none';

const TEXT_EXT = new Set(
  (
    'txt text md markdown mdx rst adoc org tex csv tsv log ini cfg conf toml yaml yml json jsonc json5 xml svg ' +
    'js mjs cjs jsx ts mts cts tsx vue svelte css scss sass less py pyw rb php pl pm lua r jl go rs c h cc cpp cxx hh hpp ' +
    'java kt kts scala groovy gradle cs fs vb swift m mm dart ex exs erl hrl hs elm clj cljs lisp el sql sh bash zsh fish ps1 bat cmd ' +
    'make mk cmake dockerfile tf hcl proto graphql gql properties env srt vtt diff patch'
  ).split(' '),
);
const NO_TEXT_EXT = new Set(
  'jpg jpeg png gif webp bmp tif tiff heic heif avif ico mp3 m4a aac flac ogg opus wav mp4 m4v mov mkv webm avi zip gz tgz bz2 xz 7z rar zst iso dmg exe dll so bin woff woff2 ttf otf eot sqlite db psd ai eps doc xls ppt'.split(' '),
);

export function kindOf(name: string, mime: string | null): Kind {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (ext === 'html' || ext === 'htm' || ext === 'xhtml') return 'html';
  if (ext === 'pdf') return 'pdf';
  if (ext === 'docx' || ext === 'docm') return 'docx';
  if (ext === 'xlsx' || ext === 'xlsm') return 'xlsx';
  if (ext === 'pptx' || ext === 'pptm') return 'pptx';
  if (ext === 'odt' || ext === 'ods' || ext === 'odp') return 'odf';
  if (TEXT_EXT.has(ext)) return 'text';
  if (NO_TEXT_EXT.has(ext)) return 'none';
  if (mime === 'application/pdf') return 'pdf';
  if (mime === 'text/html') return 'html';
  if (mime?.startsWith('text/')) return 'text';
  return 'sniff';
}
