// Preview of a file: images, text and code (first 256 KB), PDF in the
// browser's viewer, audio and video streamed (the signed URL serves Range).
// Next / previous walk the files of the folder (also with the arrow keys).
import { ActionIcon, Button, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight, IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../app/format';
import { errorMessage } from '../../components/errorMessage';
import { signedUrl, type FileItem } from './api';
import { FileIcon, kindOf } from './icons';

const TEXT_LIMIT = 256 * 1024;
/** Larger text is shown plain: highlighting it would hold up the page for too long. */
const HIGHLIGHT_LIMIT = 100 * 1024;

export function TextView({ url, name, code, size }: { url: string; name: string; code: boolean; size: number }) {
  const { t } = useTranslation();
  const { data, error, isLoading } = useQuery({
    // An empty file has no first byte to ask for (the server answers a range over nothing with 416).
    enabled: size > 0,
    queryKey: ['preview-text', url, code],
    queryFn: async () => {
      const res = await fetch(url, { headers: { range: `bytes=0-${TEXT_LIMIT - 1}` } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const buf = await res.arrayBuffer();
      const text = new TextDecoder('utf-8', { fatal: false }).decode(buf);
      let html: string | null = null;
      if (code && buf.byteLength <= HIGHLIGHT_LIMIT) {
        // The highlighter is its own chunk, fetched the first time code is previewed.
        const { highlight, languageFor } = await import('./highlight');
        const language = languageFor(name);
        if (language) html = highlight(text, language);
      }
      return { text, html, truncated: buf.byteLength >= TEXT_LIMIT };
    },
  });
  if (size === 0) return <Text c="dimmed">{t('files.preview.empty')}</Text>;
  if (isLoading) return <Loader aria-label={t('common.loading')} />;
  if (error || !data) return <Text c="red.8">{errorMessage(error, t)}</Text>;
  return (
    <Stack gap={4} w="100%">
      {data.html !== null ? (
        // highlight.js escapes the source; its output adds only <span class="hljs-…">.
        <pre className="cirrus-code hljs" tabIndex={0} aria-label={t('files.preview.text')} data-highlighted="true" dangerouslySetInnerHTML={{ __html: data.html }} />
      ) : (
        <pre className="cirrus-code" tabIndex={0} aria-label={t('files.preview.text')}>
          {data.text}
        </pre>
      )}
      {data.truncated && (
        <Text size="xs" c="dimmed">
          {t('files.preview.truncated', { size: formatSize(TEXT_LIMIT) })}
        </Text>
      )}
    </Stack>
  );
}

export function Preview({ item, siblings, onNavigate, onClose, onDownload }: { item: FileItem; siblings: FileItem[]; onNavigate(item: FileItem): void; onClose(): void; onDownload(item: FileItem): void }) {
  const { t } = useTranslation();
  const files = siblings.filter((f) => f.type === 'file');
  const index = files.findIndex((f) => f.id === item.id);
  const prev = index > 0 ? files[index - 1] : undefined;
  const next = index >= 0 && index < files.length - 1 ? files[index + 1] : undefined;
  useHotkeys([
    ['ArrowLeft', () => prev && onNavigate(prev)],
    ['ArrowRight', () => next && onNavigate(next)],
  ]);
  const kind = kindOf(item);
  const { data: link, error } = useQuery({ queryKey: ['signed', item.path, item.updated_at], queryFn: () => signedUrl(item.path, true), staleTime: 30 * 60_000 });
  const url = link?.url;

  let body;
  if (error) body = <Text c="red.8">{errorMessage(error, t)}</Text>;
  else if (!url) body = <Loader aria-label={t('common.loading')} />;
  else if (kind === 'image') body = <img src={url} alt={item.name} style={{ maxWidth: '100%', maxHeight: '70vh', objectFit: 'contain' }} />;
  else if (kind === 'video') body = <video src={url} controls style={{ maxWidth: '100%', maxHeight: '70vh' }} aria-label={item.name} />;
  else if (kind === 'audio') body = <audio src={url} controls aria-label={item.name} />;
  else if (kind === 'pdf') body = <iframe src={url} title={item.name} style={{ width: '100%', height: '70vh', border: 0 }} />;
  else if (kind === 'text' || kind === 'code') body = <TextView url={url} name={item.name} code={kind === 'code'} size={item.size} />;
  else
    body = (
      <Stack align="center">
        <FileIcon item={item} size={64} />
        <Text c="dimmed">{t('files.preview.none')}</Text>
      </Stack>
    );

  return (
    <Modal opened onClose={onClose} title={item.name} size="80rem" centered styles={{ title: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } }}>
      <Stack>
        <Center mih={200}>{body}</Center>
        <Group justify="space-between">
          <ActionIcon variant="default" size="lg" disabled={!prev} onClick={() => prev && onNavigate(prev)} aria-label={t('files.preview.previous')}>
            <IconChevronLeft size={18} aria-hidden="true" />
          </ActionIcon>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {formatSize(item.size)}
            </Text>
            <Button leftSection={<IconDownload size={16} aria-hidden="true" />} variant="light" onClick={() => onDownload(item)}>
              {t('common.download')}
            </Button>
          </Group>
          <ActionIcon variant="default" size="lg" disabled={!next} onClick={() => next && onNavigate(next)} aria-label={t('files.preview.next')}>
            <IconChevronRight size={18} aria-hidden="true" />
          </ActionIcon>
        </Group>
      </Stack>
    </Modal>
  );
}
export default Preview;
