// A folder's entries, loaded page by page (keyset paging on the server).
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { listFolder, type FileItem } from './api';

export function folderQueryKey(path: string) {
  return ['folder', path] as const;
}

export function useFolder(path: string) {
  const query = useInfiniteQuery({
    queryKey: folderQueryKey(path),
    queryFn: ({ pageParam }) => listFolder(path, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_page_token,
  });
  const items = useMemo<FileItem[]>(() => query.data?.pages.flatMap((p) => p.files) ?? [], [query.data]);
  return { ...query, items };
}
