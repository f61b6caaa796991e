// /files/<path>: the file manager. Breadcrumbs, toolbar, the virtualized
// list or grid, right-click menu, dialogs, drag and drop uploads.
import { ActionIcon, Alert, Anchor, Breadcrumbs, Button, Center, Group, Menu, Modal, SegmentedControl, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import {
  IconActivity, IconArrowsMove, IconCopy, IconDots, IconDownload, IconEye, IconFolderPlus, IconHistory, IconFolderUp, IconInfoCircle, IconLayoutGrid, IconList, IconPencil, IconShare, IconTrash, IconUpload,
} from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifications } from '@mantine/notifications';
import { ApiError } from '../../api/client';
import { filesUrl, Link, navigate, useLocation } from '../../app/router';
import type { PageProps } from '../../app/page-props';
import { Busy } from '../../components/Busy';
import { errorMessage } from '../../components/errorMessage';
import { ShareDialog } from '../shares/ShareDialog';
import { isShared, SHARED_ROOT } from '../sharing/api';
import { useSharedMarks } from '../sharing/useSharedMarks';
import { createFolder, joinPath, type FileItem } from './api';
import { ContextMenu, type MenuAction } from './ContextMenu';
import { ConfirmDialog, DetailsDialog, NameDialog } from './dialogs';
import { VersionsDialog } from './VersionsDialog';
import { ActivityDialog } from '../activity/ActivityDialog';
import { filesFromDrop, filesFromInput, type PickedFile } from './drop';
import { FileTable, type Sort } from './FileTable';
import { FolderPicker } from './FolderPicker';
import { uploads } from './uploads/store';
import { plan, prepare, type ConflictChoice } from './uploads/prepare';
import { useFileActions } from './useFileActions';
import { useFolder } from './useFolder';
import { useFolderFeed } from './useFeed';
import { useFolderAccess } from './useFolderAccess';
import { SelectionBar } from './SelectionBar';
import { useSelection } from './useSelection';
import { pageTitle } from '../account/api';

const Preview = lazy(() => import('./Preview'));

type Dialog =
  | { kind: 'newFolder' }
  | { kind: 'rename'; item: FileItem }
  | { kind: 'move' | 'copy'; items: FileItem[] }
  | { kind: 'delete'; items: FileItem[] }
  | { kind: 'share'; item: FileItem }
  | { kind: 'details'; item: FileItem }
  | { kind: 'versions'; item: FileItem }
  | { kind: 'activity'; item: FileItem }
  | { kind: 'preview'; item: FileItem }
  | { kind: 'conflict'; names: string[]; picked: PickedFile[] }
  | null;

const VIEW_KEY = 'cirrus.files.view';
const SORT_KEY = 'cirrus.files.sort';

function readSort(): Sort {
  const [key, dir] = (localStorage.getItem(SORT_KEY) ?? '').split(' ');
  return (key === 'name' || key === 'size' || key === 'updated_at') && (dir === 'asc' || dir === 'desc') ? { key, dir } : { key: 'name', dir: 'asc' };
}

export default function FilesPage({ params }: PageProps) {
  const path = params['*'] && params['*'] !== '/' ? params['*'] : '/';
  const { t } = useTranslation();
  const [sort, setSort] = useState<Sort>(readSort);
  const folder = useFolder(path, sort);
  // Changes from other devices and tabs refresh this listing (the change feed).
  useFolderFeed(path);
  const [view, setView] = useState<'list' | 'grid'>(() => (localStorage.getItem(VIEW_KEY) === 'grid' ? 'grid' : 'list'));
  // The server sorts (and pages in that order); the list shows what it sends.
  const items = folder.items;
  const ids = useMemo(() => items.map((i) => i.id), [items]);
  const selection = useSelection(ids);
  const selectedItems = useMemo(() => items.filter((i) => selection.selected.has(i.id)), [items, selection.selected]);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const [dropActive, setDropActive] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const actions = useFileActions();
  const segs = path.split('/').filter(Boolean);
  const inShared = isShared(path);
  // Marks on what the person shares (by link, with people): only their own tree has any.
  const sharedMarks = useSharedMarks(!inShared);
  const access = useFolderAccess(path);
  // Write actions are offered only where the server would allow them.
  const canWrite = access.kind === 'write';
  const folderName = path === SHARED_ROOT ? t('nav.sharedWithMe') : (segs[segs.length - 1] ?? t('nav.myFiles'));

  useEffect(() => {
    document.title = pageTitle(`${folderName}`);
  }, [folderName]);
  useEffect(() => localStorage.setItem(VIEW_KEY, view), [view]);
  useEffect(() => localStorage.setItem(SORT_KEY, `${sort.key} ${sort.dir}`), [sort]);
  useEffect(() => {
    // The folder-picker input needs the non-standard attribute set on the element.
    folderInput.current?.setAttribute('webkitdirectory', '');
  }, []);

  // ?select=<name> (search's "Show in folder"): that item comes selected, once.
  const { search } = useLocation();
  const selectName = new URLSearchParams(search).get('select');
  // ?preview=<name> ("Shared with me" opening a shared file): the preview opens on it, once.
  const previewName = new URLSearchParams(search).get('preview');
  useEffect(() => {
    const name = selectName ?? previewName;
    if (!name) return;
    // By the last segment of the path: in "Shared with me" an item's name is the owner's, its path segment the label.
    const index = items.findIndex((i) => i.path.slice(i.path.lastIndexOf('/') + 1) === name);
    if (index < 0) return;
    selection.only(index);
    if (previewName) setDialog({ kind: 'preview', item: items[index]! });
    navigate(filesUrl(path), { replace: true });
  }, [selectName, previewName, items, path]);

  const open = useCallback(
    (item: FileItem) => {
      if (item.type === 'folder') navigate(filesUrl(item.path));
      else setDialog({ kind: 'preview', item });
    },
    [],
  );

  const startUpload = useCallback(
    async (picked: PickedFile[], choice?: ConflictChoice, conflicts?: string[]) => {
      if (picked.length === 0) return;
      try {
        let names = conflicts;
        if (!names) {
          // One bad name does not stop the others: it is listed, by name and with the reason, in the uploads panel.
          const prepared = await prepare(path, picked);
          uploads.reject(prepared.rejected.map((r) => ({ file: r.file, name: r.relative, targetPath: r.targetPath, reason: r.reason, text: r.text })));
          picked = prepared.picked;
          names = prepared.conflicts;
          if (picked.length === 0) return;
        }
        if (names.length > 0 && !choice) {
          setDialog({ kind: 'conflict', names, picked });
          return;
        }
        uploads.add(await plan(path, picked, names, choice ?? 'replace'));
      } catch (err) {
        setDialog(null);
        actions.refresh(path);
        throw err;
      }
    },
    [path, actions],
  );

  const sel = selectedItems;
  const one = sel.length === 1 ? sel[0]! : null;
  // A team folder itself is the administrator's to share, rename, move or delete (the server refuses it too).
  // So is an item in "Shared with me" itself: its owner manages it.
  const locked = sel.some((i) => i.team_folder !== undefined) || !canWrite;
  const asZip = sel.length > 1 || one?.type === 'folder';
  const downloadLabel = asZip ? t('files.downloadZip') : t('common.download');
  const download = () => void actions.download(sel, folderName);
  const menuActions: MenuAction[] = [];
  if (sel.length > 0) {
    if (one) menuActions.push({ key: 'open', label: t('common.open'), icon: <IconFolderUp size={16} aria-hidden="true" />, onClick: () => open(one) });
    menuActions.push({ key: 'download', label: downloadLabel, icon: <IconDownload size={16} aria-hidden="true" />, onClick: download });
    if (one && !inShared && !locked) menuActions.push({ key: 'share', label: t('files.share'), icon: <IconShare size={16} aria-hidden="true" />, onClick: () => setDialog({ kind: 'share', item: one }) });
    if (one && !locked) menuActions.push({ key: 'rename', label: t('files.rename'), icon: <IconPencil size={16} aria-hidden="true" />, onClick: () => setDialog({ kind: 'rename', item: one }), divider: true });
    if (!locked) menuActions.push({ key: 'move', label: t('files.moveTo'), icon: <IconArrowsMove size={16} aria-hidden="true" />, onClick: () => setDialog({ kind: 'move', items: sel }) });
    menuActions.push({ key: 'copy', label: t('files.copyTo'), icon: <IconCopy size={16} aria-hidden="true" />, onClick: () => setDialog({ kind: 'copy', items: sel }) });
    // Google Drive's "Make a copy": "name (copy).ext" beside the original.
    if (canWrite) menuActions.push({
      key: 'makeCopy',
      label: t('files.makeCopy'),
      icon: <IconCopy size={16} aria-hidden="true" />,
      onClick: () => void actions.move(sel, path, true).catch((err: unknown) => notifications.show({ color: 'red', title: t('common.error'), message: errorMessage(err, t) })),
    });
    if (one) menuActions.push({ key: 'details', label: t('files.details'), icon: <IconInfoCircle size={16} aria-hidden="true" />, onClick: () => setDialog({ kind: 'details', item: one }) });
    if (one) menuActions.push({ key: 'activity', label: t('activity.menu'), icon: <IconActivity size={16} aria-hidden="true" />, onClick: () => setDialog({ kind: 'activity', item: one }) });
    if (one?.type === 'file') menuActions.push({ key: 'versions', label: t('versions.menu'), icon: <IconHistory size={16} aria-hidden="true" />, onClick: () => setDialog({ kind: 'versions', item: one }) });
    if (!locked) menuActions.push({ key: 'delete', label: t('common.delete'), icon: <IconTrash size={16} aria-hidden="true" />, onClick: () => setDialog({ kind: 'delete', items: sel }), danger: true, divider: true });
  } else if (canWrite) {
    menuActions.push({ key: 'newFolder', label: t('files.newFolder'), icon: <IconFolderPlus size={16} aria-hidden="true" />, onClick: () => setDialog({ kind: 'newFolder' }) });
    menuActions.push({ key: 'upload', label: t('files.uploadFiles'), icon: <IconUpload size={16} aria-hidden="true" />, onClick: () => fileInput.current?.click() });
    menuActions.push({ key: 'uploadFolder', label: t('files.uploadFolder'), icon: <IconFolderUp size={16} aria-hidden="true" />, onClick: () => folderInput.current?.click() });
  }

  const onDrop = async (e: DragEvent) => {
    e.preventDefault();
    setDropActive(false);
    if (!canWrite) {
      setUploadError(t('files.access.noUpload'));
      return;
    }
    try {
      await startUpload(await filesFromDrop(e.dataTransfer));
    } catch (err) {
      setUploadError(errorMessage(err, t));
    }
  };
  const [uploadError, setUploadError] = useState<string | null>(null);

  const notFound = folder.error instanceof ApiError && folder.error.status === 404;
  const toolbarIcon = (key: string, label: string, icon: React.ReactNode, onClick: () => void, disabled = false, visibleFrom?: 'sm') => (
    <Tooltip label={label} key={key}>
      <ActionIcon variant="default" size="lg" onClick={onClick} disabled={disabled} aria-label={label} visibleFrom={visibleFrom}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );

  return (
    <div
      className={`cirrus-page${dropActive ? ' cirrus-drop-active' : ''}`}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) {
          e.preventDefault();
          setDropActive(true);
        }
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDropActive(false);
      }}
      onDrop={(e) => void onDrop(e)}
    >
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Breadcrumbs separatorMargin={6} aria-label={t('files.location')} styles={{ root: { flexWrap: 'wrap', minWidth: 0 } }}>
          {/* Inside what others shared, the trail starts at "Shared with me" (/shared), not at My files. */}
          {inShared ? (
            <Anchor component={Link} href="/shared" fw={500}>
              {t('nav.sharedWithMe')}
            </Anchor>
          ) : (
            <Anchor component={Link} href="/files" fw={segs.length === 0 ? 700 : 500} c={segs.length === 0 ? 'var(--mantine-color-text)' : undefined}>
              {t('nav.myFiles')}
            </Anchor>
          )}
          {segs.map((s, i) => (inShared && i === 0 ? null : (
            <Anchor
              key={i}
              component={Link}
              href={filesUrl('/' + segs.slice(0, i + 1).join('/'))}
              fw={i === segs.length - 1 ? 700 : 500}
              c={i === segs.length - 1 ? 'var(--mantine-color-text)' : undefined}
              aria-current={i === segs.length - 1 ? 'page' : undefined}
            >
              {s}
            </Anchor>
          )))}
        </Breadcrumbs>
      </Group>
      <VisuallyHidden>
        <h1>{folderName}</h1>
      </VisuallyHidden>
      {!canWrite && (
        <Group gap={8} wrap="nowrap" align="flex-start" data-testid="folder-access">
          <IconEye size={18} aria-hidden="true" style={{ flexShrink: 0, marginTop: 2 }} color="var(--mantine-color-dimmed)" />
          <Text size="sm" c="dimmed">
            {access.kind === 'shared-root' ? t('files.access.sharedRoot') : access.owner ? t('files.access.viewOnlyBy', { owner: access.owner }) : t('files.access.viewOnly')}
          </Text>
        </Group>
      )}
      <SelectionBar
        count={sel.length}
        onClear={selection.clear}
        actions={
          <>
            {toolbarIcon('download', downloadLabel, <IconDownload size={18} aria-hidden="true" />, download)}
            {!inShared && toolbarIcon('share', t('files.share'), <IconShare size={18} aria-hidden="true" />, () => one && setDialog({ kind: 'share', item: one }), !one || inShared || locked)}
            {canWrite && toolbarIcon('move', t('files.moveTo'), <IconArrowsMove size={18} aria-hidden="true" />, () => setDialog({ kind: 'move', items: sel }), locked)}
            {canWrite && toolbarIcon('delete', t('common.delete'), <IconTrash size={18} aria-hidden="true" />, () => setDialog({ kind: 'delete', items: sel }), locked)}
            {/* On a phone the rest go in a menu, so the bar stays one line. */}
            {canWrite && toolbarIcon('rename', t('files.rename'), <IconPencil size={18} aria-hidden="true" />, () => one && setDialog({ kind: 'rename', item: one }), !one || locked, 'sm')}
            {toolbarIcon('copy', t('files.copyTo'), <IconCopy size={18} aria-hidden="true" />, () => setDialog({ kind: 'copy', items: sel }), false, 'sm')}
            {toolbarIcon('details', t('files.details'), <IconInfoCircle size={18} aria-hidden="true" />, () => one && setDialog({ kind: 'details', item: one }), !one, 'sm')}
            <Menu position="bottom-end">
              <Menu.Target>
                <ActionIcon variant="default" size="lg" aria-label={t('files.moreActions')} hiddenFrom="sm">
                  <IconDots size={18} aria-hidden="true" />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                {canWrite && (
                  <Menu.Item leftSection={<IconPencil size={16} aria-hidden="true" />} disabled={!one || locked} onClick={() => one && setDialog({ kind: 'rename', item: one })}>
                    {t('files.rename')}
                  </Menu.Item>
                )}
                <Menu.Item leftSection={<IconCopy size={16} aria-hidden="true" />} onClick={() => setDialog({ kind: 'copy', items: sel })}>
                  {t('files.copyTo')}
                </Menu.Item>
                <Menu.Item leftSection={<IconInfoCircle size={16} aria-hidden="true" />} disabled={!one} onClick={() => one && setDialog({ kind: 'details', item: one })}>
                  {t('files.details')}
                </Menu.Item>
                <Menu.Item leftSection={<IconHistory size={16} aria-hidden="true" />} disabled={one?.type !== 'file'} onClick={() => one && setDialog({ kind: 'versions', item: one })}>
                  {t('versions.menu')}
                </Menu.Item>
                <Menu.Item leftSection={<IconActivity size={16} aria-hidden="true" />} disabled={!one} onClick={() => one && setDialog({ kind: 'activity', item: one })}>
                  {t('activity.menu')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </>
        }
      >
        {canWrite ? <Group gap="xs" wrap="nowrap">
          <Button leftSection={<IconFolderPlus size={16} aria-hidden="true" />} variant="default" onClick={() => setDialog({ kind: 'newFolder' })}>
            {t('files.newFolder')}
          </Button>
          <Menu position="bottom-start">
            <Menu.Target>
              <Button leftSection={<IconUpload size={16} aria-hidden="true" />}>{t('files.upload')}</Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconUpload size={16} aria-hidden="true" />} onClick={() => fileInput.current?.click()}>
                {t('files.uploadFiles')}
              </Menu.Item>
              <Menu.Item leftSection={<IconFolderUp size={16} aria-hidden="true" />} onClick={() => folderInput.current?.click()}>
                {t('files.uploadFolder')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group> : <span />}
        <SegmentedControl
          size="xs"
          value={view}
          onChange={(v) => setView(v as 'list' | 'grid')}
          aria-label={t('files.view')}
          data={[
            { value: 'list', label: <IconList size={16} aria-label={t('files.listView')} /> },
            { value: 'grid', label: <IconLayoutGrid size={16} aria-label={t('files.gridView')} /> },
          ]}
        />
      </SelectionBar>
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        data-testid="upload-files-input"
        onChange={(e) => {
          const picked = filesFromInput(e.currentTarget.files);
          e.currentTarget.value = '';
          void startUpload(picked).catch((err: unknown) => setUploadError(errorMessage(err, t)));
        }}
      />
      <input
        ref={folderInput}
        type="file"
        multiple
        hidden
        data-testid="upload-folder-input"
        onChange={(e) => {
          const picked = filesFromInput(e.currentTarget.files);
          e.currentTarget.value = '';
          void startUpload(picked).catch((err: unknown) => setUploadError(errorMessage(err, t)));
        }}
      />
      {uploadError && (
        <Alert color="red" withCloseButton onClose={() => setUploadError(null)} role="alert">
          {uploadError}
        </Alert>
      )}
      {folder.isLoading ? (
        <Busy label={t('common.loading')} />
      ) : folder.error ? (
        <Alert color={notFound ? 'yellow' : 'red'} title={notFound ? t('files.notFound') : t('files.loadFailed')} role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{notFound ? t('files.notFoundHint') : errorMessage(folder.error, t)}</Text>
            {notFound ? (
              <Button size="xs" variant="light" component={Link} href="/files">
                {t('files.goToMyFiles')}
              </Button>
            ) : (
              <Button size="xs" variant="light" onClick={() => void folder.refetch()}>
                {t('common.retry')}
              </Button>
            )}
          </Stack>
        </Alert>
      ) : (
        <FileTable
          items={items}
          view={view}
          selection={selection}
          sort={sort}
          onSort={setSort}
          onOpen={open}
          onContextMenu={(_item, e: MouseEvent) => setMenuAt({ x: e.clientX, y: e.clientY })}
          onDelete={() => selectedItems.length && !locked && setDialog({ kind: 'delete', items: selectedItems })}
          onRename={() => one && !locked && setDialog({ kind: 'rename', item: one })}
          hasMore={folder.hasNextPage}
          loadingMore={folder.isFetchingNextPage}
          loadMore={() => void folder.fetchNextPage()}
          label={t('files.listLabel', { name: folderName })}
          shared={inShared ? undefined : sharedMarks}
          empty={
            <Center className="cirrus-empty" style={{ flex: 1, border: '2px dashed var(--mantine-color-default-border)', borderRadius: 12 }} p="xl" onContextMenu={(e) => { e.preventDefault(); setMenuAt({ x: e.clientX, y: e.clientY }); }}>
              <Stack align="center" gap="xs" ta="center">
                <IconUpload size={40} stroke={1.3} aria-hidden="true" color="var(--mantine-color-dimmed)" />
                <Text fw={600}>{t('files.empty')}</Text>
                {canWrite && (
                  <Text size="sm" c="dimmed">
                    {t('files.emptyHint')}
                  </Text>
                )}
              </Stack>
            </Center>
          }
        />
      )}
      <ContextMenu at={menuAt} actions={menuActions} onClose={() => setMenuAt(null)} />

      <NameDialog
        opened={dialog?.kind === 'newFolder'}
        title={t('files.newFolder')}
        label={t('files.folderName')}
        initial={t('files.untitledFolder')}
        submitLabel={t('files.create')}
        onClose={() => setDialog(null)}
        onSubmit={async (name) => {
          await createFolder(joinPath(path, name));
          actions.refresh(path);
        }}
      />
      <NameDialog
        opened={dialog?.kind === 'rename'}
        title={t('files.rename')}
        label={t('files.newName')}
        initial={dialog?.kind === 'rename' ? dialog.item.name : ''}
        submitLabel={t('files.rename')}
        onClose={() => setDialog(null)}
        onSubmit={async (name) => {
          if (dialog?.kind === 'rename') await actions.rename(dialog.item, name);
        }}
      />
      <FolderPicker
        opened={dialog?.kind === 'move' || dialog?.kind === 'copy'}
        title={dialog?.kind === 'copy' ? t('files.copyTitle', { count: dialog.items.length }) : t('files.moveTitle', { count: dialog?.kind === 'move' ? dialog.items.length : 0 })}
        confirmLabel={dialog?.kind === 'copy' ? t('files.copyHere') : t('files.moveHere')}
        start={path}
        exclude={dialog?.kind === 'move' || dialog?.kind === 'copy' ? dialog.items.map((i) => i.path) : []}
        already={dialog?.kind === 'move' ? path : undefined}
        onClose={() => setDialog(null)}
        onPick={async (dst) => {
          if (dialog?.kind === 'move' || dialog?.kind === 'copy') await actions.move(dialog.items, dst, dialog.kind === 'copy');
        }}
      />
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('files.deleteTitle', { count: dialog?.kind === 'delete' ? dialog.items.length : 0 })}
        message={dialog?.kind === 'delete' ? (dialog.items.length === 1 ? t('files.deleteOne', { name: dialog.items[0]!.name }) : t('files.deleteMany', { count: dialog.items.length })) : ''}
        confirmLabel={t('files.moveToTrash')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind === 'delete') await actions.remove(dialog.items);
        }}
      />
      {dialog?.kind === 'share' && <ShareDialog path={dialog.item.path} name={dialog.item.name} folder={dialog.item.type === 'folder'} onClose={() => setDialog(null)} />}
      <DetailsDialog item={dialog?.kind === 'details' ? dialog.item : null} onClose={() => setDialog(null)} onVersions={(item) => setDialog({ kind: 'versions', item })} />
      <VersionsDialog item={dialog?.kind === 'versions' ? dialog.item : null} onClose={() => setDialog(null)} onChanged={() => actions.refresh(path)} />
      <ActivityDialog item={dialog?.kind === 'activity' ? dialog.item : null} onClose={() => setDialog(null)} />
      {dialog?.kind === 'preview' && (
        <Suspense fallback={null}>
          <Preview item={dialog.item} siblings={items} onNavigate={(item) => setDialog({ kind: 'preview', item })} onClose={() => setDialog(null)} onDownload={(item) => void actions.download([item])} />
        </Suspense>
      )}
      <Modal opened={dialog?.kind === 'conflict'} onClose={() => setDialog(null)} title={t('uploads.conflictTitle')} centered>
        {dialog?.kind === 'conflict' && (
          <Stack>
            <Text size="sm">{t('uploads.conflictText', { count: dialog.names.length, names: dialog.names.slice(0, 5).join(', ') })}</Text>
            <Group justify="flex-end" gap="xs">
              {(['skip', 'keep', 'replace'] as const).map((choice) => (
                <Button
                  key={choice}
                  variant={choice === 'replace' ? 'filled' : 'default'}
                  color={choice === 'replace' ? 'red' : undefined}
                  onClick={() => {
                    const d = dialog;
                    setDialog(null);
                    void startUpload(d.picked, choice, d.names).catch((err: unknown) => setUploadError(errorMessage(err, t)));
                  }}
                >
                  {t(`uploads.choice.${choice}`)}
                </Button>
              ))}
            </Group>
          </Stack>
        )}
      </Modal>
    </div>
  );
}
