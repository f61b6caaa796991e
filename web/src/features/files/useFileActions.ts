// The operations of the file manager, shared by the folder view and search:
// download, delete to the trash, rename, move/copy; each refreshes what it
// changed. A delete and a move offer Undo in their toast (restore from the
// trash; move back), as Google Drive does.
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../components/errorMessage';
import { deleteItems, downloadArchive, joinPath, moveItems, parentOf, renameItem, restoreTrash, signedUrl, startDownload, type BatchResult, type FileItem } from './api';
import { showUndoToast } from './UndoToast';

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
        // Trashed items keep their ids: Undo restores exactly these.
        const gone = items.filter((_, i) => r.results[i]?.code === 0);
        if (gone.length > 0) {
          showUndoToast(t('files.movedToTrash', { count: gone.length }), t('files.undo'), async () => {
            try {
              reportBatch(await restoreTrash(gone.map((i) => i.id)));
              notifications.show({ color: 'teal', message: t('trash.restored', { count: gone.length }) });
            } catch (err) {
              fail(err);
            } finally {
              refresh(...gone.map((i) => parentOf(i.path)));
              void qc.invalidateQueries({ queryKey: ['trash'] });
            }
          });
        }
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
      // Moving an item into the folder it is in changes nothing: no request, no "Moved" toast.
      const todo = copy ? items : items.filter((i) => parentOf(i.path) !== dst);
      if (todo.length === 0) return;
      const r = await moveItems(
        todo.map((i) => i.path),
        dst,
        copy,
      );
      reportBatch(r);
      refresh(dst, ...todo.map((i) => parentOf(i.path)));
      const done = todo.flatMap((item, i) => {
        const file = r.results[i]?.code === 0 ? r.results[i]!.file : undefined;
        return file ? [{ from: parentOf(item.path), to: file.path }] : [];
      });
      if (done.length === 0) return;
      const message = t(copy ? 'files.copied' : 'files.moved', { count: done.length, dst: dst === '/' ? t('nav.myFiles') : dst });
      if (copy) {
        notifications.show({ color: 'teal', message });
        return;
      }
      showUndoToast(message, t('files.undo'), async () => {
        try {
          // Back to where each came from (one request per original folder).
          const byFolder = new Map<string, string[]>();
          for (const d of done) byFolder.set(d.from, [...(byFolder.get(d.from) ?? []), d.to]);
          for (const [folder, paths] of byFolder) reportBatch(await moveItems(paths, folder, false));
          notifications.show({ color: 'teal', message: t('files.movedBack', { count: done.length }) });
        } catch (err) {
          fail(err);
        } finally {
          refresh(dst, ...done.map((d) => d.from));
        }
      });
    },
    joinPath,
  };
}
