// A folder's entries, loaded page by page in the chosen order (keyset paging
// on the server, so a 100,000-entry folder sorted by size is still paged, not
// fetched whole and sorted here).
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { listFolder, type FileItem } from './api';
import type { Sort } from './FileTable';

export function folderQueryKey(path: string, sort: Sort) {
  return ['folder', path, sort.key, sort.dir] as const;
}

export function useFolder(path: string, sort: Sort) {
  const query = useInfiniteQuery({
    queryKey: folderQueryKey(path, sort),
    queryFn: ({ pageParam }) => listFolder(path, pageParam, sort),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_page_token,
    // Re-sorting keeps the old rows on screen until the new order arrives, instead of a spinner.
    placeholderData: (prev, prevQuery) => (prevQuery?.queryKey[1] === path ? keepPreviousData(prev) : undefined),
  });
  const items = useMemo<FileItem[]>(() => query.data?.pages.flatMap((p) => p.files) ?? [], [query.data]);
  return { ...query, items };
}
