// An item of the Photos page at full size: a picture from the content route
// (a signed same-origin URL), a video with the browser's controls. Previous
// and next by the buttons or the arrow keys, Escape or the close button
// closes (the page puts the focus back on the item's tile).
import { ActionIcon, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight, IconDownload, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../components/errorMessage';
import { signedUrl } from '../files/api';
import { isVideo, type PhotoItem } from './api';

interface Props {
  item: PhotoItem;
  prev?: PhotoItem;
  next?: PhotoItem;
  onNavigate(item: PhotoItem): void;
  onClose(): void;
}

function Details({ item }: { item: PhotoItem }) {
  const { i18n } = useTranslation();
  const m = item.media;
  const when = item.taken_at ?? item.created_at;
  // The clock time where it was taken (see layout.ts dayOf) is shown as written, without the reader's zone.
  const local = item.taken_at ? /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})/.exec(item.taken_at) : null;
  const date = local
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(`${local[1]}T${local[2]}:${local[3]}:00Z`))
    : new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full', timeStyle: 'short' }).format(new Date(when));
  const camera = [m?.camera_make, m?.camera_model].filter(Boolean).join(' ');
  const dims = m?.width && m?.height ? `${m.width} × ${m.height}` : null;
  return (
    <Text size="sm" c="gray.3" data-testid="lightbox-details">
      {[date, camera, dims].filter(Boolean).join(' · ')}
    </Text>
  );
}

export default function Lightbox({ item, prev, next, onNavigate, onClose }: Props) {
  const { t } = useTranslation();
  useHotkeys([
    ['ArrowLeft', () => prev && onNavigate(prev)],
    ['ArrowRight', () => next && onNavigate(next)],
  ]);
  const { data: link, error } = useQuery({ queryKey: ['signed', item.path, item.id, item.size], queryFn: () => signedUrl(item.path, true), staleTime: 30 * 60_000 });
  const url = link?.url;

  let body;
  if (error) body = <Text c="red.3">{errorMessage(error, t)}</Text>;
  else if (!url) body = <Loader color="gray.3" aria-label={t('common.loading')} />;
  else if (isVideo(item)) body = <video key={url} src={url} controls autoPlay className="lightbox-media" aria-label={item.name} data-testid="lightbox-video" />;
  else body = <img key={url} src={url} alt={item.name} className="lightbox-media" data-testid="lightbox-image" />;

  return (
    <Modal.Root opened onClose={onClose} fullScreen returnFocus={false} transitionProps={{ duration: 0 }}>
      <Modal.Overlay />
      <Modal.Content className="lightbox" aria-label={item.name}>
        <Modal.Body className="lightbox-body">
          <Group justify="space-between" wrap="nowrap" gap="xs" className="lightbox-bar">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text fw={600} c="white" truncate="end" data-testid="lightbox-name">
                {item.name}
              </Text>
              <Details item={item} />
            </Stack>
            <Group gap="xs" wrap="nowrap">
              {url && (
                <ActionIcon component="a" href={url} download={item.name} variant="subtle" color="gray.0" size="lg" aria-label={t('photos.download')}>
                  <IconDownload size={20} aria-hidden="true" />
                </ActionIcon>
              )}
              <ActionIcon variant="subtle" color="gray.0" size="lg" onClick={onClose} aria-label={t('photos.close')} data-autofocus>
                <IconX size={22} aria-hidden="true" />
              </ActionIcon>
            </Group>
          </Group>
          <div className="lightbox-stage">
            <ActionIcon className="lightbox-nav lightbox-prev" variant="filled" color="dark.5" radius="xl" size="xl" disabled={!prev} onClick={() => prev && onNavigate(prev)} aria-label={t('photos.previous')}>
              <IconChevronLeft size={24} aria-hidden="true" />
            </ActionIcon>
            {body}
            <ActionIcon className="lightbox-nav lightbox-next" variant="filled" color="dark.5" radius="xl" size="xl" disabled={!next} onClick={() => next && onNavigate(next)} aria-label={t('photos.next')}>
              <IconChevronRight size={24} aria-hidden="true" />
            </ActionIcon>
          </div>
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
