// An icon for each kind of file, from its MIME type.
import { IconFile, IconFolderShare, IconFileCode, IconFileMusic, IconFileText, IconFileTypePdf, IconFileZip, IconFolderFilled, IconMovie, IconPhoto } from '@tabler/icons-react';
import type { FileItem } from './api';

export type Kind = 'folder' | 'image' | 'video' | 'audio' | 'pdf' | 'text' | 'code' | 'archive' | 'other';

const CODE = /(\.(js|mjs|cjs|ts|mts|cts|tsx|jsx|json|py|rb|go|rs|java|c|h|cc|cpp|cxx|hpp|cs|php|sh|bash|zsh|yml|yaml|toml|ini|cfg|conf|xml|html|htm|css|scss|sql|md|kt|kts|swift|diff|patch|dockerfile)|^dockerfile)$/i;

export function kindOf(item: Pick<FileItem, 'type' | 'mime_type' | 'name'>): Kind {
  if (item.type === 'folder') return 'folder';
  const m = item.mime_type ?? '';
  // The server sends SVG (it can hold script) as application/octet-stream, which no <img> renders: show its source.
  if (m === 'image/svg+xml') return 'code';
  if (m.startsWith('image/')) return 'image';
  if (m.startsWith('video/')) return 'video';
  if (m.startsWith('audio/')) return 'audio';
  if (m === 'application/pdf') return 'pdf';
  if (CODE.test(item.name)) return 'code';
  if (m.startsWith('text/')) return 'text';
  if (/zip|x-tar|gzip|x-7z|x-rar/.test(m)) return 'archive';
  return 'other';
}

const NO_SHRINK = { flex: 'none' } as const;

export function FileIcon({ item, size = 20 }: { item: Pick<FileItem, 'type' | 'mime_type' | 'name'> & { team_folder?: FileItem['team_folder'] }; size?: number }) {
  // Never shrunk by a long name beside it in a flex row (it would become a dot).
  const props = { size, stroke: 1.6, 'aria-hidden': true, style: NO_SHRINK, className: 'cirrus-file-icon' } as const;
  if (item.team_folder) return <IconFolderShare {...props} color="var(--mantine-color-indigo-7)" />;
  switch (kindOf(item)) {
    case 'folder':
      return <IconFolderFilled size={size} aria-hidden="true" color="var(--mantine-color-yellow-6)" style={NO_SHRINK} className="cirrus-file-icon" />;
    case 'image':
      return <IconPhoto {...props} color="var(--mantine-color-teal-7)" />;
    case 'video':
      return <IconMovie {...props} color="var(--mantine-color-grape-7)" />;
    case 'audio':
      return <IconFileMusic {...props} color="var(--mantine-color-pink-7)" />;
    case 'pdf':
      return <IconFileTypePdf {...props} color="var(--mantine-color-red-7)" />;
    case 'code':
      return <IconFileCode {...props} color="var(--mantine-color-blue-7)" />;
    case 'text':
      return <IconFileText {...props} color="var(--mantine-color-gray-7)" />;
    case 'archive':
      return <IconFileZip {...props} color="var(--mantine-color-orange-7)" />;
    default:
      return <IconFile {...props} color="var(--mantine-color-gray-7)" />;
  }
}
