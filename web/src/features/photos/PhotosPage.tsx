// /photos: the person's pictures and videos, newest taken first, grouped by
// day, as a virtualised grid of square thumbnails (only the rows in view are
// in the DOM; pages of the keyset listing are fetched as the end comes into
// view, and placeholder rows stand for the items not loaded yet, counted by
// the first page's `total`, so the scrollbar spans the whole timeline). A tile opens the lightbox and puts `?item=<id>` in the address, so a
// link opens the same item and Back closes it. With a map tile URL set by the
// administrator, a Map button shows the geotagged items (PhotoMap.tsx);
// without one there is no map and nothing is asked of any other site.
import './photos.css';
import { Alert, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useElementSize, useMergedRef } from '@mantine/hooks';
import { IconMap, IconPhoto } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, navigate, useLocation } from '../../app/router';
import { errorMessage } from '../../components/errorMessage';
import { pageTitle, useSiteConfig } from '../account/api';
import { listPhotos, photoById, PHOTOS_PAGE, type PhotoItem } from './api';
import { columnsFor, DAY_ROW_HEIGHT, layoutRows } from './layout';
import { Tile } from './Tile';

const Lightbox = lazy(() => import('./Lightbox'));
const PhotoMap = lazy(() => import('./PhotoMap'));

const GAP = 4;

function DayHeading({ day, count }: { day: string; count: number }) {
  const { t, i18n } = useTranslation();
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const label = new Intl.DateTimeFormat(i18n.language, { weekday: 'short', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d)));
  return (
    <Group className="photo-day" gap="xs" align="baseline" wrap="nowrap">
      <Title order={2} fz="md" fw={600} data-testid="photo-day" data-day={day}>
        {label}
      </Title>
      <Text size="xs" c="dimmed">
        {t('photos.items', { count })}
      </Text>
    </Group>
  );
}

export default function PhotosPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const itemId = new URLSearchParams(search).get('item');
  const site = useSiteConfig().data;
  const mapUrl = site?.map_tile_url ?? '';
  const mapAttribution = site?.map_attribution ?? '';
  const [showMap, setShowMap] = useState(false);

  useEffect(() => {
    document.title = pageTitle(t('photos.title'));
  }, [t]);

  const list = useInfiniteQuery({
    queryKey: ['photos'],
    queryFn: ({ pageParam }) => listPhotos(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
  const items = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  // ---- the grid ----
  const scrollRef = useRef<HTMLDivElement>(null);
  const { ref: sizeRef, width } = useElementSize();
  const mergedRef = useMergedRef(scrollRef, sizeRef);
  const inner = Math.max(0, width - 2 * GAP);
  const cols = columnsFor(inner || 900);
  const tile = Math.floor(((inner || 900) - GAP * (cols - 1)) / cols);
  // Placeholders for every item not loaded yet (the first page says how many there are), so the
  // scrollbar spans the whole timeline from the start; at least a page's worth while more exist.
  const total = list.data?.pages[0]?.total ?? 0;
  const pending = hasNextPage ? Math.max(PHOTOS_PAGE, total - items.length) : 0;
  const { rows, rowOfItem } = useMemo(() => layoutRows(items, cols, pending), [items, cols, pending]);
  const firstPlaceholder = rows.findIndex((r) => r.kind === 'placeholder');

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'day' ? DAY_ROW_HEIGHT : tile + GAP),
    overscan: 4,
    paddingStart: GAP,
  });
  useEffect(() => virtualizer.measure(), [virtualizer, tile]);
  const virtualRows = virtualizer.getVirtualItems();
  const lastRow = virtualRows[virtualRows.length - 1]?.index ?? 0;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && firstPlaceholder >= 0 && lastRow >= firstPlaceholder - 10) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, firstPlaceholder, lastRow, fetchNextPage]);

  // ---- the lightbox, driven by ?item= ----
  const openedHere = useRef(false);
  const lastOpen = useRef<string | null>(null);
  const index = itemId ? items.findIndex((i) => i.id === itemId) : -1;
  // A link to an item no loaded page holds: asked for by id once the first page is in.
  const linked = useQuery({ queryKey: ['photo', itemId], queryFn: () => photoById(itemId!), enabled: itemId !== null && index < 0 && list.isSuccess, retry: false });
  const current = index >= 0 ? items[index] : itemId ? linked.data : undefined;

  const open = useCallback((item: PhotoItem) => {
    openedHere.current = true;
    navigate(`/photos?item=${encodeURIComponent(item.id)}`);
  }, []);
  const goTo = (item: PhotoItem) => navigate(`/photos?item=${encodeURIComponent(item.id)}`, { replace: true });
  const close = () => {
    // Opened from the grid: Back is the same as closing; a link opened here straight away: drop the parameter.
    if (openedHere.current) window.history.back();
    else navigate('/photos', { replace: true });
  };

  useEffect(() => {
    if (itemId) {
      lastOpen.current = itemId;
      return;
    }
    openedHere.current = false;
    const id = lastOpen.current;
    lastOpen.current = null;
    if (!id) return;
    // The focus goes back to the tile of the item last shown (scrolled into view first).
    const at = items.findIndex((i) => i.id === id);
    if (at >= 0 && rowOfItem[at] !== undefined) virtualizer.scrollToIndex(rowOfItem[at], { align: 'auto' });
    requestAnimationFrame(() => requestAnimationFrame(() => scrollRef.current?.querySelector<HTMLElement>(`[data-id="${CSS.escape(id)}"]`)?.focus()));
    // Runs only when the item changes (closes), not when pages arrive.
  }, [itemId]);

  // Brings the next page when the lightbox reaches the last loaded item.
  useEffect(() => {
    if (index >= 0 && index >= items.length - 2 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [index, items.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const empty = list.isSuccess && items.length === 0 && !hasNextPage;

  return (
    <div className="cirrus-page photos-page">
      <Group justify="space-between" wrap="nowrap">
        <Title order={1} size="h3">
          {t('photos.title')}
        </Title>
        {mapUrl !== '' && !empty && (
          <Button variant={showMap ? 'filled' : 'default'} leftSection={<IconMap size={16} aria-hidden="true" />} onClick={() => setShowMap((s) => !s)} aria-pressed={showMap}>
            {t('photos.map')}
          </Button>
        )}
      </Group>
      {list.isError && (
        <Alert color="red" role="alert">
          {errorMessage(list.error, t)}
        </Alert>
      )}
      {linked.isError && (
        <Alert color="yellow" role="status" withCloseButton onClose={() => navigate('/photos', { replace: true })} closeButtonLabel={t('photos.close')}>
          {t('photos.notFound')}
        </Alert>
      )}
      {showMap && mapUrl !== '' && (
        <Suspense fallback={<Loader aria-label={t('common.loading')} />}>
          <PhotoMap tileUrl={mapUrl} attribution={mapAttribution} onOpen={(id) => navigate(`/photos?item=${encodeURIComponent(id)}`)} />
        </Suspense>
      )}
      {list.isPending ? (
        <Center style={{ flex: 1 }}>
          <Loader aria-label={t('common.loading')} />
        </Center>
      ) : empty ? (
        <Center className="photos-empty" data-testid="photos-empty">
          <Stack align="center" gap="xs" ta="center" maw={420}>
            <IconPhoto size={48} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
            <Title order={2} size="h4">
              {t('photos.emptyTitle')}
            </Title>
            <Text c="dimmed">{t('photos.emptyText')}</Text>
            <Button component={Link} href="/files" variant="light">
              {t('photos.goToFiles')}
            </Button>
          </Stack>
        </Center>
      ) : (
        <div ref={mergedRef} className="photos-scroll" tabIndex={0} role="region" aria-label={t('photos.gridLabel')} data-testid="photos-grid">
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualRows.map((v) => {
              const row = rows[v.index]!;
              return (
                <div key={v.key} data-index={v.index} className="photo-row" style={{ height: v.size, transform: `translateY(${v.start}px)`, gap: GAP }}>
                  {row.kind === 'day' ? (
                    <DayHeading day={row.day} count={row.count} />
                  ) : row.kind === 'tiles' ? (
                    items.slice(row.start, row.end).map((item) => <Tile key={item.id} item={item} size={tile} day={row.day} onOpen={open} />)
                  ) : (
                    Array.from({ length: cols }, (_, i) => <div key={i} className="photo-placeholder" style={{ width: tile, height: tile }} />)
                  )}
                </div>
              );
            })}
          </div>
        </div>
      )}
      {current && (
        <Suspense fallback={null}>
          <Lightbox item={current} prev={index > 0 ? items[index - 1] : undefined} next={index >= 0 ? items[index + 1] : undefined} onNavigate={goTo} onClose={close} />
        </Suspense>
      )}
    </div>
  );
}
