// /search?q=…: files and folders whose name contains the words, across the
// person's whole tree, paged from the server.
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filesUrl, navigate, useLocation } from '../../app/router';
import { Busy } from '../../components/Busy';
import { errorMessage } from '../../components/errorMessage';
import { searchFiles, type FileItem } from './api';
import { FileTable, sortItems, type Sort } from './FileTable';
import { useFileActions } from './useFileActions';
import { useSelection } from './useSelection';

const Preview = lazy(() => import('./Preview'));

export default function SearchPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const q = new URLSearchParams(search).get('q')?.trim() ?? '';
  const query = useInfiniteQuery({
    queryKey: ['search', q],
    queryFn: ({ pageParam }) => searchFiles(q, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_page_token,
    enabled: q.length > 0,
  });
  const [sort, setSort] = useState<Sort>({ key: 'name', dir: 'asc' });
  const items = useMemo(() => sortItems(query.data?.pages.flatMap((p) => p.files) ?? [], sort), [query.data, sort]);
  const selection = useSelection(useMemo(() => items.map((i) => i.id), [items]));
  const [preview, setPreview] = useState<FileItem | null>(null);
  const actions = useFileActions();
  useEffect(() => {
    document.title = `${t('search.title')} · Cirrus`;
  }, [t]);

  return (
    <div className="cirrus-page">
      <Title order={1} fz={24}>
        {q ? t('search.resultsFor', { q }) : t('search.title')}
      </Title>
      {selection.selected.size > 0 && (
        <Group gap="xs" role="toolbar" aria-label={t('files.selectionActions', { count: selection.selected.size })}>
          {/* Results come from many folders: one ZIP, where equal names are told apart (" (2)"). */}
          <Button variant="default" leftSection={<IconDownload size={16} aria-hidden="true" />} onClick={() => void actions.download(items.filter((i) => selection.selected.has(i.id)))}>
            {selection.selected.size > 1 || items.find((i) => selection.selected.has(i.id))?.type === 'folder' ? t('files.downloadZip') : t('common.download')}
          </Button>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('files.selected', { count: selection.selected.size })}
          </Text>
        </Group>
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
          onOpen={(item) => (item.type === 'folder' ? navigate(filesUrl(item.path)) : setPreview(item))}
          onContextMenu={() => undefined}
          onDelete={() => void actions.remove(items.filter((i) => selection.selected.has(i.id)))}
          onRename={() => undefined}
          hasMore={query.hasNextPage}
          loadingMore={query.isFetchingNextPage}
          loadMore={() => void query.fetchNextPage()}
          label={t('search.resultsFor', { q })}
          locationColumn
          empty={
            <Stack p="xl" align="center">
              <Text c="dimmed">{t('search.none', { q })}</Text>
            </Stack>
          }
        />
      )}
      {preview && (
        <Suspense fallback={null}>
          <Preview item={preview} siblings={items} onNavigate={setPreview} onClose={() => setPreview(null)} onDownload={(i) => void actions.download([i])} />
        </Suspense>
      )}
    </div>
  );
}
