// Which of the person's items are shared, for the mark in My files: by link
// (the share links they made) and with people or groups (their grants), by
// the item's path in their tree. Both lists are read once and refreshed when
// a share dialog changes them (the ['shares'] and ['access-given'] queries).
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { listShares } from '../shares/api';
import { givenQuery } from './api';

export interface SharedKinds {
  link: boolean;
  people: boolean;
}

/** Link pages read for the marks at most (100 links each). */
const MAX_LINK_PAGES = 20;

async function allLinkPaths(): Promise<string[]> {
  const paths: string[] = [];
  let token: string | null = null;
  for (let i = 0; i < MAX_LINK_PAGES; i++) {
    const page = await listShares(token);
    for (const s of page.shares) if (s.path) paths.push(s.path);
    token = page.next_page_token ?? null;
    if (!token) break;
  }
  return paths;
}

export function useSharedMarks(enabled = true): ReadonlyMap<string, SharedKinds> {
  const links = useQuery({ queryKey: ['shares', 'marks'], queryFn: allLinkPaths, enabled, staleTime: 60_000 });
  const grants = useQuery({ ...givenQuery, enabled, staleTime: 60_000 });
  return useMemo(() => {
    const marks = new Map<string, SharedKinds>();
    const mark = (path: string, kind: keyof SharedKinds) => marks.set(path, { ...(marks.get(path) ?? { link: false, people: false }), [kind]: true });
    for (const p of links.data ?? []) mark(p, 'link');
    for (const g of grants.data ?? []) if (g.item.path) mark(g.item.path, 'people');
    return marks;
  }, [links.data, grants.data]);
}
