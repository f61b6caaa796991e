// The operations of the file manager, shared by the folder view and search:
// download, delete to the trash, rename, move/copy; each refreshes what it changed.
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../components/errorMessage';
import { deleteItems, downloadArchive, joinPath, moveItems, parentOf, renameItem, signedUrl, startDownload, type BatchResult, type FileItem } from './api';

export function useFileActions() {
  const qc = useQueryClient();
  const { t } = useTranslation();

  const refresh = (...folders: string[]) => {
    for (const f of new Set(folders)) void qc.invalidateQueries({ queryKey: ['folder', f] });
    void qc.invalidateQueries({ queryKey: ['search'] });
    void qc.invalidateQueries({ queryKey: ['capacity'] });
  };

  /** Notifies about items of a batch that failed (the others went through). */
  const reportBatch = (r: BatchResult) => {
    const failed = r.results.filter((x) => x.code !== 0);
    if (failed.length) notifications.show({ color: 'red', title: t('files.someFailed', { count: failed.length }), message: failed.map((f) => `${f.path ?? f.id}: ${f.msg}`).join('\n') });
  };

  const fail = (err: unknown) => notifications.show({ color: 'red', title: t('common.error'), message: errorMessage(err, t) });

  return {
    refresh,
    /** One file as itself; a folder or several items as one ZIP named after `zipName` (the folder they are in). */
    async download(items: FileItem[], zipName?: string) {
      try {
        const only = items.length === 1 ? items[0]! : null;
        if (only && only.type === 'file') startDownload((await signedUrl(only.path)).url, only.name);
        else if (items.length > 0) await downloadArchive(items.map((i) => i.path), only ? only.name : zipName || t('files.zipName'));
      } catch (err) {
        fail(err);
      }
    },
    async remove(items: FileItem[]) {
      try {
        const r = await deleteItems(items.map((i) => i.path));
        reportBatch(r);
        notifications.show({ color: 'teal', message: t('files.movedToTrash', { count: items.length }) });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        fail(err);
      } finally {
        refresh(...items.map((i) => parentOf(i.path)));
        void qc.invalidateQueries({ queryKey: ['trash'] });
      }
    },
    async rename(item: FileItem, name: string) {
      await renameItem(item.path, name);
      refresh(parentOf(item.path));
    },
    async move(items: FileItem[], dst: string, copy: boolean) {
      const r = await moveItems(
        items.map((i) => i.path),
        dst,
        copy,
      );
      reportBatch(r);
      refresh(dst, ...items.map((i) => parentOf(i.path)));
      notifications.show({ color: 'teal', message: t(copy ? 'files.copied' : 'files.moved', { count: items.length, dst: dst === '/' ? t('nav.myFiles') : dst }) });
    },
    joinPath,
  };
}
