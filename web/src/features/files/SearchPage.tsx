// /search?q=…: files and folders whose name contains the words and, with
// "Search inside files" on (the default; inside=0 turns it off), documents
// whose text matches, each with its snippet; across the person's whole tree,
// paged from the server. Filters by type and by modified date (type=,
// modified=day|week|month|year) are applied by the server. While some of the
// person's files still wait for their text, the page says so and asks again
// every few seconds. A click selects, a double click (or a tap) opens; the
// right-click menu and the bar offer "Show in folder".
import { ActionIcon, Alert, Button, Group, NativeSelect, Stack, Switch, Text, Title, Tooltip } from '@mantine/core';
import { IconDownload, IconFolderOpen, IconFolderUp, IconTrash } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filesUrl, navigate, useLocation } from '../../app/router';
import { Busy } from '../../components/Busy';
import { errorMessage } from '../../components/errorMessage';
import { parentOf, searchFiles, type FileItem, type SearchHit, type SearchType } from './api';
import { Snippet } from './Snippet';
import { ContextMenu, type MenuAction } from './ContextMenu';
import { ConfirmDialog } from './dialogs';
import { FileTable, sortItems, type Sort } from './FileTable';
import { useFileActions } from './useFileActions';
import { SelectionBar } from './SelectionBar';
import { useSelection } from './useSelection';
import { pageTitle } from '../account/api';

/** The folder that holds `item`, with the item selected there. */
function showInFolder(item: FileItem): void {
  navigate(`${filesUrl(parentOf(item.path))}?select=${encodeURIComponent(item.name)}`);
}

const Preview = lazy(() => import('./Preview'));

const TYPES: SearchType[] = ['document', 'pdf', 'image', 'video', 'audio', 'folder'];
const SPANS = { day: 86_400_000, week: 7 * 86_400_000, month: 30 * 86_400_000, year: 365 * 86_400_000 } as const;
type Span = keyof typeof SPANS;
/** How often the results are asked for again while files are still being indexed. */
const PENDING_POLL_MS = 3_000;

/** This page's URL with some of its parameters changed (an empty value removes one). */
function withParams(search: string, changes: Record<string, string>): string {
  const sp = new URLSearchParams(search);
  for (const [k, v] of Object.entries(changes)) {
    if (v) sp.set(k, v);
    else sp.delete(k);
  }
  return `/search?${sp.toString()}`;
}

export default function SearchPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const q = params.get('q')?.trim() ?? '';
  const inside = params.get('inside') !== '0';
  const type = TYPES.find((x) => x === params.get('type'));
  const span = (Object.keys(SPANS) as Span[]).find((x) => x === params.get('modified'));
  const filtered = type !== undefined || span !== undefined;
  const setParams = (changes: Record<string, string>) => navigate(withParams(search, changes), { replace: true });
  const query = useInfiniteQuery({
    queryKey: ['search', q, inside, type, span],
    queryFn: ({ pageParam }) =>
      searchFiles(q, { scope: inside ? 'all' : 'name', type, modifiedAfter: span && new Date(Date.now() - SPANS[span]).toISOString() }, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_page_token,
    enabled: q.length > 0,
    refetchInterval: (qr) => ((qr.state.data?.pages[0]?.indexing_pending ?? 0) > 0 ? PENDING_POLL_MS : false),
  });
  const pending = inside ? (query.data?.pages[0]?.indexing_pending ?? 0) : 0;
  const [sort, setSort] = useState<Sort>({ key: 'name', dir: 'asc' });
  const items: SearchHit[] = useMemo(() => sortItems(query.data?.pages.flatMap((p) => p.files) ?? [], sort), [query.data, sort]);
  const selection = useSelection(useMemo(() => items.map((i) => i.id), [items]));
  const [preview, setPreview] = useState<FileItem | null>(null);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<FileItem[] | null>(null);
  const actions = useFileActions();
  const sel = items.filter((i) => selection.selected.has(i.id));
  const one = sel.length === 1 ? sel[0]! : null;
  const open = (item: FileItem) => (item.type === 'folder' ? navigate(filesUrl(item.path)) : setPreview(item));
  const downloadLabel = sel.length > 1 || one?.type === 'folder' ? t('files.downloadZip') : t('common.download');
  const menuActions: MenuAction[] = [
    ...(one ? [{ key: 'open', label: t('common.open'), icon: <IconFolderUp size={16} aria-hidden="true" />, onClick: () => open(one) }] : []),
    ...(one ? [{ key: 'show', label: t('search.showInFolder'), icon: <IconFolderOpen size={16} aria-hidden="true" />, onClick: () => showInFolder(one) }] : []),
    { key: 'download', label: downloadLabel, icon: <IconDownload size={16} aria-hidden="true" />, onClick: () => void actions.download(sel) },
    { key: 'delete', label: t('common.delete'), icon: <IconTrash size={16} aria-hidden="true" />, onClick: () => setConfirmDelete(sel), danger: true, divider: true },
  ];
  const barIcon = (label: string, icon: React.ReactNode, onClick: () => void, disabled = false) => (
    <Tooltip label={label}>
      <ActionIcon variant="default" size="lg" onClick={onClick} disabled={disabled} aria-label={label}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
  useEffect(() => {
    document.title = pageTitle(`${t('search.title')}`);
  }, [t]);

  return (
    <div className="cirrus-page">
      {/* Results come from many folders: several download as one ZIP, where equal names are told apart (" (2)"). */}
      <SelectionBar
        count={sel.length}
        onClear={selection.clear}
        actions={
          <>
            {barIcon(downloadLabel, <IconDownload size={18} aria-hidden="true" />, () => void actions.download(sel))}
            {barIcon(t('search.showInFolder'), <IconFolderOpen size={18} aria-hidden="true" />, () => one && showInFolder(one), !one)}
            {barIcon(t('common.delete'), <IconTrash size={18} aria-hidden="true" />, () => setConfirmDelete(sel))}
          </>
        }
      >
        <Title order={1} fz={24} lineClamp={1}>
          {q ? t('search.resultsFor', { q }) : t('search.title')}
        </Title>
      </SelectionBar>
      {q && (
        <Group gap="sm" wrap="wrap" align="center">
          <Switch label={t('search.inside')} checked={inside} onChange={(e) => setParams({ inside: e.currentTarget.checked ? '' : '0' })} />
          <NativeSelect
            aria-label={t('search.type')}
            size="xs"
            value={type ?? ''}
            onChange={(e) => setParams({ type: e.currentTarget.value })}
            data={[{ value: '', label: t('search.anyType') }, ...TYPES.map((x) => ({ value: x, label: t(`search.types.${x}`) }))]}
          />
          <NativeSelect
            aria-label={t('search.modified')}
            size="xs"
            value={span ?? ''}
            onChange={(e) => setParams({ modified: e.currentTarget.value })}
            data={[{ value: '', label: t('search.anyTime') }, ...(Object.keys(SPANS) as Span[]).map((x) => ({ value: x, label: t(`search.spans.${x}`) }))]}
          />
        </Group>
      )}
      {pending > 0 && (
        <Alert color="blue" role="status" py={6}>
          {t('search.indexing', { count: pending })}
        </Alert>
      )}
      {!q ? (
        <Text c="dimmed">{t('search.enterQuery')}</Text>
      ) : query.isLoading ? (
        <Busy label={t('common.loading')} />
      ) : query.error ? (
        <Alert color="red" role="alert">
          {errorMessage(query.error, t)}
        </Alert>
      ) : (
        <FileTable
          items={items}
          view="list"
          selection={selection}
          sort={sort}
          onSort={setSort}
          onOpen={open}
          onContextMenu={(item, e) => item && setMenuAt({ x: e.clientX, y: e.clientY })}
          onDelete={() => sel.length > 0 && setConfirmDelete(sel)}
          onRename={() => undefined}
          hasMore={query.hasNextPage}
          loadingMore={query.isFetchingNextPage}
          loadMore={() => void query.fetchNextPage()}
          label={t('search.resultsFor', { q })}
          locationColumn
          detail={(item: SearchHit) => (item.snippet ? <Snippet html={item.snippet} /> : null)}
          empty={
            <Stack p="xl" align="center" gap="xs" data-testid="search-empty">
              <Text fw={600}>{t('search.noneTitle')}</Text>
              <Text c="dimmed" ta="center">
                {inside ? t('search.none', { q }) : t('search.noneByName', { q })}
              </Text>
              {pending > 0 && (
                <Text c="dimmed" ta="center">
                  {t('search.noneYet')}
                </Text>
              )}
              <Group gap="xs" justify="center">
                {!inside && (
                  <Button variant="light" size="xs" onClick={() => setParams({ inside: '' })}>
                    {t('search.turnOnInside')}
                  </Button>
                )}
                {filtered && (
                  <Button variant="light" size="xs" onClick={() => setParams({ type: '', modified: '' })}>
                    {t('search.clearFilters')}
                  </Button>
                )}
              </Group>
            </Stack>
          }
        />
      )}
      <ContextMenu at={menuAt} actions={menuActions} onClose={() => setMenuAt(null)} />
      <ConfirmDialog
        opened={confirmDelete !== null}
        title={t('files.deleteTitle', { count: confirmDelete?.length ?? 0 })}
        message={confirmDelete?.length === 1 ? t('files.deleteOne', { name: confirmDelete[0]!.name }) : t('files.deleteMany', { count: confirmDelete?.length ?? 0 })}
        confirmLabel={t('files.moveToTrash')}
        danger
        onClose={() => setConfirmDelete(null)}
        onConfirm={async () => {
          if (confirmDelete) await actions.remove(confirmDelete);
        }}
      />
      {preview && (
        <Suspense fallback={null}>
          <Preview item={preview} siblings={items} onNavigate={setPreview} onClose={() => setPreview(null)} onDownload={(i) => void actions.download([i])} />
        </Suspense>
      )}
    </div>
  );
}
