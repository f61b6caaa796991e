// What the person may do in the folder they are looking at, so the page offers
// only that (a "Can view" share or team folder hides every write action, and
// the page says why). The server still checks every request; this is what it
// would answer, known beforehand.
import { useQuery } from '@tanstack/react-query';
import { fileInfo } from './api';
import { isShared, SHARED_ROOT, sharedQuery } from '../sharing/api';

export type FolderAccess =
  /** the person's own files, or a share / team folder they may edit */
  | { kind: 'write' }
  /** a share or team folder they may only view; `owner` names who shared it */
  | { kind: 'read'; owner?: string }
  /** "Shared with me" itself: a list of what others shared, nothing to add */
  | { kind: 'shared-root' };

const WRITE: FolderAccess = { kind: 'write' };

export function useFolderAccess(path: string): FolderAccess {
  const shared = isShared(path);
  const top = '/' + (path.split('/').filter(Boolean)[0] ?? '');
  const mounts = useQuery({ ...sharedQuery, enabled: shared });
  // Only a top-level folder of My files can be a team folder; its info carries the member's permission.
  const team = useQuery({ queryKey: ['file-info', top], queryFn: () => fileInfo(top), enabled: !shared && top !== '/', staleTime: 60_000 });
  if (path === SHARED_ROOT) return { kind: 'shared-root' };
  if (shared) {
    const mount = (mounts.data ?? []).find((m) => path === m.path || path.startsWith(m.path + '/'));
    // Until the list arrives nothing is offered that might be refused.
    if (!mount) return { kind: 'read' };
    return mount.permission === 'write' ? WRITE : { kind: 'read', owner: mount.owner.nickname };
  }
  if (team.data?.team_folder?.permission === 'read') return { kind: 'read' };
  return WRITE;
}
