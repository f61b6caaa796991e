// The uploads panel (bottom right): each file with its progress bar, speed and
// time left, pause / resume / cancel; the whole batch's progress; uploads a
// previous page left unfinished, with a way to resume them. The list is
// virtualised and its rows memoised: a queue of a thousand files renders the
// few rows in view, and a progress event re-renders only its own row.
import { ActionIcon, Button, CloseButton, FileButton, Group, Paper, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconPlayerPause, IconPlayerPlay, IconX } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../../app/format';
import { queryClient } from '../../../app/queryClient';
import { uploads, type PendingRecord, type UploadItem } from './store';

/**
 * While the panel is open it keeps its height (plus its margin) in
 * --cirrus-uploads-space on the root element; the file pages end above it
 * (styles.css), so it never covers a row's size or date.
 */
function useReservedSpace(ref: React.RefObject<HTMLElement | null>, shown: boolean): void {
  useEffect(() => {
    const root = document.documentElement;
    const el = ref.current;
    if (!shown || !el) return;
    const set = () => root.style.setProperty('--cirrus-uploads-space', `${Math.ceil(el.getBoundingClientRect().height) + 16}px`);
    set();
    const observer = new ResizeObserver(set);
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--cirrus-uploads-space');
    };
  }, [ref, shown]);
}

function useUploads(): UploadItem[] {
  return useSyncExternalStore(uploads.subscribe, uploads.get);
}

function timeLeft(item: UploadItem): number | null {
  if (item.speed <= 0) return null;
  return Math.ceil((item.size - item.sent) / item.speed);
}

function formatDuration(seconds: number, lang: string): string {
  const nf = (unit: 'second' | 'minute' | 'hour', v: number) => new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'short' }).format(v);
  if (seconds < 60) return nf('second', seconds);
  if (seconds < 3600) return nf('minute', Math.ceil(seconds / 60));
  return nf('hour', Math.round((seconds / 3600) * 10) / 10);
}

const Row = memo(function Row({ item }: { item: UploadItem }) {
  const { t, i18n } = useTranslation();
  const pct = item.size > 0 ? Math.floor((item.sent / item.size) * 100) : item.status === 'done' ? 100 : 0;
  const left = timeLeft(item);
  const color = item.status === 'error' ? 'red' : item.status === 'done' ? 'teal' : item.status === 'paused' ? 'gray' : 'indigo';
  let status: string;
  if (item.status === 'error') {
    // The rule in the reader's language when there is a sentence for it; the server's own words otherwise.
    const english = i18n.language.startsWith('en');
    const text = item.error?.text;
    const msg = text ? t(text.key, text.params) : english || !item.error?.message ? (item.error?.message ?? '') : t('errors.field.invalid');
    status = t(`uploads.error.${item.error?.kind ?? 'other'}`, { msg });
  }
  else if (item.status === 'uploading')
    status = `${formatSize(item.sent)} / ${formatSize(item.size)} · ${formatSize(item.speed)}/s${left !== null ? ' · ' + t('uploads.left', { time: formatDuration(left, i18n.language) }) : ''}`;
  else status = t(`uploads.status.${item.status}`);
  return (
    <Stack gap={4} data-upload={item.targetPath}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" fw={500} truncate style={{ minWidth: 0 }} title={item.targetPath}>
          {item.name}
        </Text>
        <Group gap={2} wrap="nowrap">
          {(item.status === 'uploading' || item.status === 'queued') && (
            <Tooltip label={t('uploads.pause')}>
              <ActionIcon variant="subtle" color="gray" size="sm" onClick={() => uploads.pause(item.id)} aria-label={t('uploads.pauseName', { name: item.name })}>
                <IconPlayerPause size={14} aria-hidden="true" />
              </ActionIcon>
            </Tooltip>
          )}
          {(item.status === 'paused' || (item.status === 'error' && item.error?.kind !== 'invalidName')) && (
            <Tooltip label={t('uploads.resume')}>
              <ActionIcon variant="subtle" color="gray" size="sm" onClick={() => uploads.resume(item.id)} aria-label={t('uploads.resumeName', { name: item.name })}>
                <IconPlayerPlay size={14} aria-hidden="true" />
              </ActionIcon>
            </Tooltip>
          )}
          {item.status !== 'done' && item.status !== 'canceled' && (
            <Tooltip label={t('uploads.cancel')}>
              <ActionIcon variant="subtle" color="gray" size="sm" onClick={() => uploads.cancel(item.id)} aria-label={t('uploads.cancelName', { name: item.name })}>
                <IconX size={14} aria-hidden="true" />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
      <Progress value={pct} color={color} size="sm" aria-label={t('uploads.progressOf', { name: item.name })} animated={item.status === 'uploading'} />
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="xs" c={item.status === 'error' ? 'red.8' : 'dimmed'} role={item.status === 'error' ? 'alert' : undefined}>
          {status}
        </Text>
        <Text size="xs" c="dimmed" data-testid="upload-percent" style={{ flex: 'none', whiteSpace: 'nowrap' }}>
          {pct} %
        </Text>
      </Group>
      {item.resumedFrom > 0 && (
        <Text size="xs" c="dimmed" data-testid="upload-resumed">
          {t('uploads.resumedAt', { pct: Math.floor((item.resumedFrom / Math.max(1, item.size)) * 100) })}
        </Text>
      )}
    </Stack>
  );
});

/** A row's height before it is measured (name, bar, status line, and the gap). */
const ROW_ESTIMATE = 66;

function UploadList({ list, pending, hidden }: { list: UploadItem[]; pending: PendingRecord[]; hidden: boolean }) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: list.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    getItemKey: (i) => list[i]!.id,
    overscan: 4,
  });
  return (
    // The scrollbar gets its own lane (scrollbar-gutter): it never covers the percentages.
    <div ref={scrollRef} role="group" tabIndex={0} aria-label={t('uploads.title')} style={{ maxHeight: 220, overflowY: 'auto', scrollbarGutter: 'stable', display: hidden ? 'none' : undefined }}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((row) => (
          <div key={row.key} data-index={row.index} ref={virtualizer.measureElement} style={{ position: 'absolute', top: 0, left: 0, right: 4, transform: `translateY(${row.start}px)`, paddingBottom: 12 }}>
            <Row item={list[row.index]!} />
          </div>
        ))}
      </div>
      {pending.length > 0 && (
        <Stack gap="sm" pr={4}>
          {pending.map((p) => (
            <Stack key={p.targetPath} gap={4}>
              <Text size="sm" fw={500} truncate title={p.targetPath}>
                {p.name}
              </Text>
              <Text size="xs" c="dimmed">
                {t('uploads.interrupted')}
              </Text>
              <Group gap="xs">
                <FileButton onChange={(file) => file && uploads.add([{ file, targetPath: p.targetPath }])}>
                  {(props) => (
                    <Button size="compact-xs" variant="light" {...props} title={t('uploads.chooseToResume', { name: p.name })}>
                      {t('uploads.chooseAgain')}
                    </Button>
                  )}
                </FileButton>
                <Button size="compact-xs" variant="subtle" color="gray" onClick={() => uploads.forget(p.targetPath)}>
                  {t('uploads.discard')}
                </Button>
              </Group>
            </Stack>
          ))}
        </Stack>
      )}
    </div>
  );
}

export function UploadPanel() {
  const list = useUploads();
  const { t } = useTranslation();
  const [pending, setPending] = useState(() => uploads.pending());
  const [hidden, setHidden] = useState(false);
  const [collapsed, setCollapsed] = useState(false);
  const panel = useRef<HTMLElement>(null);
  useEffect(() => uploads.subscribe(() => setPending(uploads.pending())), []);
  useEffect(
    () =>
      // Once when the queue has run out, not once per file: a thousand refreshes of a growing folder
      // made each file cost more than the last. While it runs, the change feed (useFeed.ts) keeps an
      // open folder current, coalesced.
      uploads.onDrained(() => {
        // Every folder: a folder upload creates parents that the listings above must show.
        void queryClient.invalidateQueries({ queryKey: ['folder'] });
        void queryClient.invalidateQueries({ queryKey: ['capacity'] });
      }),
    [],
  );
  useEffect(() => {
    if (list.some((i) => i.status !== 'done' && i.status !== 'canceled')) setHidden(false);
  }, [list]);
  const visible = list.filter((i) => i.status !== 'canceled');
  const shown = !((visible.length === 0 && pending.length === 0) || hidden);
  useReservedSpace(panel, shown);
  if (!shown) return null;
  // Files refused before sending (a bad name) are listed but are not part of the bytes to send.
  const counted = visible.filter((i) => i.error?.kind !== 'invalidName');
  const total = counted.reduce((a, i) => a + i.size, 0);
  const sent = counted.reduce((a, i) => a + (i.status === 'done' ? i.size : i.sent), 0);
  const pct = total > 0 ? Math.floor((sent / total) * 100) : 100;
  const active = visible.filter((i) => i.status === 'uploading' || i.status === 'queued').length;
  return (
    <Paper
      ref={panel}
      component="section"
      aria-label={t('uploads.title')}
      shadow="lg"
      withBorder
      p="sm"
      radius="md"
      style={{ position: 'fixed', right: 16, bottom: 16, width: 'min(380px, calc(100vw - 32px))', zIndex: 150 }}
    >
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Text fw={600} size="sm">
          {active > 0 ? t('uploads.uploading', { count: active }) : t('uploads.title')}
        </Text>
        <Group gap={4} wrap="nowrap">
          {visible.some((i) => i.status === 'done') && (
            <Button size="compact-xs" variant="subtle" onClick={() => uploads.clearFinished()}>
              {t('uploads.clear')}
            </Button>
          )}
          <ActionIcon variant="subtle" color="gray" size="sm" onClick={() => setCollapsed((c) => !c)} aria-expanded={!collapsed} aria-label={collapsed ? t('uploads.expand') : t('uploads.collapse')}>
            {collapsed ? <IconChevronUp size={14} aria-hidden="true" /> : <IconChevronDown size={14} aria-hidden="true" />}
          </ActionIcon>
          {active === 0 && <CloseButton size="sm" onClick={() => setHidden(true)} aria-label={t('common.close')} />}
        </Group>
      </Group>
      {visible.length > 0 && (
        <Stack gap={4} mb={collapsed ? 0 : 'sm'}>
          <Progress value={pct} size="md" aria-label={t('uploads.total')} />
          <Text size="xs" c="dimmed">
            {t('uploads.totalText', { sent: formatSize(sent), total: formatSize(total), pct })}
          </Text>
        </Stack>
      )}
      <UploadList list={visible} pending={pending} hidden={collapsed} />
    </Paper>
  );
}
