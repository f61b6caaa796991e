// /trash: deleted items with where they were and when; Restore, Delete
// forever, Empty trash (each with a confirmation when it cannot be undone).
// Rows select as in the file list (click, Ctrl/Cmd-click, Shift-click; a tap
// or the check box on touch). A restore whose name is taken again asks:
// replace, keep both, or cancel.
import { Alert, Button, Center, Checkbox, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMediaQuery } from '@mantine/hooks';
import { IconRestore, IconTrash, IconTrashX } from '@tabler/icons-react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatSize } from '../../app/format';
import { Busy } from '../../components/Busy';
import { errorMessage } from '../../components/errorMessage';
import { emptyTrash, listTrash, parentOf, purgeTrash, restoreTrash, type BatchResult } from './api';
import { ConfirmDialog } from './dialogs';
import { FileIcon } from './icons';
import { useSelection } from './useSelection';
import { pageTitle } from '../account/api';

export default function TrashPage() {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 48em)');
  const qc = useQueryClient();
  const query = useInfiniteQuery({
    queryKey: ['trash'],
    queryFn: ({ pageParam }) => listTrash(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_page_token,
  });
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.files) ?? [], [query.data]);
  // The server's counts, not the loaded rows: "Empty trash" deletes the person's
  // own trash only (team folders' items are deleted for good one by one), so
  // the warning names exactly what it will delete.
  const ownCount = query.data?.pages[0]?.own_count ?? 0;
  const teamCount = query.data?.pages[0]?.team_count ?? 0;
  const selection = useSelection(useMemo(() => items.map((i) => i.id), [items]));
  const selected = selection.selected;
  const lastPointer = useRef('mouse');
  const [confirm, setConfirm] = useState<'purge' | 'empty' | null>(null);
  const [clash, setClash] = useState<{ ids: string[]; names: string[] } | null>(null);
  useEffect(() => {
    document.title = pageTitle(`${t('nav.trash')}`);
  }, [t]);

  const done = (r: BatchResult | null, message: string) => {
    const failed = r?.results.filter((x) => x.code !== 0) ?? [];
    if (failed.length) notifications.show({ color: 'red', title: t('files.someFailed', { count: failed.length }), message: failed.map((f) => f.msg).join('\n') });
    else notifications.show({ color: 'teal', message });
    selection.clear();
    void qc.invalidateQueries({ queryKey: ['trash'] });
    void qc.invalidateQueries({ queryKey: ['folder'] });
    void qc.invalidateQueries({ queryKey: ['capacity'] });
  };

  const restore = async () => {
    try {
      const ids = [...selected];
      // First without overwriting anything: items whose name is taken again come back as 409 and are asked about.
      const r = await restoreTrash(ids, 'fail');
      const clashes = r.results.filter((x) => x.code === 409);
      const rest: BatchResult = { results: r.results.filter((x) => x.code !== 409) };
      const restored = rest.results.filter((x) => x.code === 0).length;
      if (rest.results.length > 0) done(rest, t('trash.restored', { count: restored }));
      if (clashes.length > 0) {
        const clashIds = clashes.map((x) => x.id!);
        setClash({ ids: clashIds, names: clashIds.map((id) => items.find((i) => i.id === id)?.name ?? id) });
      }
    } catch (err) {
      notifications.show({ color: 'red', title: t('common.error'), message: errorMessage(err, t) });
    }
  };

  const resolveClash = async (choice: 'replace' | 'rename') => {
    const c = clash;
    setClash(null);
    if (!c) return;
    try {
      done(await restoreTrash(c.ids, choice), t('trash.restored', { count: c.ids.length }));
    } catch (err) {
      notifications.show({ color: 'red', title: t('common.error'), message: errorMessage(err, t) });
    }
  };

  const allChecked = items.length > 0 && selected.size === items.length;
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={1} fz={24}>
          {t('nav.trash')}
        </Title>
        <Group gap="xs">
          <Button leftSection={<IconRestore size={16} aria-hidden="true" />} variant="default" disabled={selected.size === 0} onClick={() => void restore()}>
            {t('trash.restore')}
          </Button>
          <Button leftSection={<IconTrashX size={16} aria-hidden="true" />} variant="default" color="red" disabled={selected.size === 0} onClick={() => setConfirm('purge')}>
            {t('trash.deleteForever')}
          </Button>
          <Button leftSection={<IconTrash size={16} aria-hidden="true" />} color="red" disabled={ownCount === 0} onClick={() => setConfirm('empty')}>
            {t('trash.empty')}
          </Button>
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {t('trash.hint')}
      </Text>
      {teamCount > 0 && (
        <Text size="sm" c="dimmed" data-testid="team-trash-note">
          {t('trash.teamStays', { count: teamCount })}
        </Text>
      )}
      {query.isLoading ? (
        <Busy label={t('common.loading')} />
      ) : query.error ? (
        <Alert color="red" role="alert" title={t('files.loadFailed')}>
          {errorMessage(query.error, t)}
        </Alert>
      ) : items.length === 0 ? (
        <Center p="xl" style={{ border: '2px dashed var(--mantine-color-default-border)', borderRadius: 12 }}>
          <Stack align="center" gap={4}>
            <IconTrash size={40} stroke={1.3} aria-hidden="true" />
            <Text fw={600}>{t('trash.isEmpty')}</Text>
          </Stack>
        </Center>
      ) : (
        // On a phone, where it was and its size go under the name, so the date it was deleted stays on screen.
        <Table.ScrollContainer minWidth={phone ? 0 : 560}>
          <Table highlightOnHover verticalSpacing="xs" aria-label={t('nav.trash')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={t('trash.selectAll')}
                    checked={allChecked}
                    indeterminate={selected.size > 0 && !allChecked}
                    onChange={() => (allChecked ? selection.clear() : selection.selectAll())}
                  />
                </Table.Th>
                <Table.Th>{t('common.name')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('trash.originalLocation')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('common.size')}</Table.Th>
                <Table.Th>{t('trash.deletedAt')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item, index) => (
                <Table.Tr
                  key={item.id}
                  data-path={item.original_path}
                  aria-selected={selected.has(item.id)}
                  bg={selected.has(item.id) ? 'var(--mantine-primary-color-light)' : undefined}
                  style={{ cursor: 'default', userSelect: 'none' }}
                  onPointerDown={(e) => (lastPointer.current = e.pointerType)}
                  onClick={(e) => {
                    if ((e.target as HTMLElement).closest('input, label')) return;
                    if (lastPointer.current === 'touch') selection.toggle(index);
                    else selection.click(index, { ctrl: e.ctrlKey || e.metaKey, shift: e.shiftKey });
                  }}
                >
                  <Table.Td>
                    <Checkbox aria-label={t('trash.select', { name: item.name })} checked={selected.has(item.id)} onChange={() => selection.toggle(index)} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <FileIcon item={item} />
                      <div style={{ minWidth: 0 }}>
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {item.name}
                        </Text>
                        <Text size="xs" c="dimmed" hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>
                          {parentOf(item.original_path) === '/' ? t('nav.myFiles') : parentOf(item.original_path)}
                          {item.type === 'folder' ? '' : ` · ${formatSize(item.size)}`}
                        </Text>
                      </div>
                    </Group>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text size="sm" c="dimmed">
                      {parentOf(item.original_path) === '/' ? t('nav.myFiles') : parentOf(item.original_path)}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text size="sm" c="dimmed">
                      {item.type === 'folder' ? '—' : formatSize(item.size)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {formatDate(item.trashed_at)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {query.hasNextPage && (
        <Button variant="default" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
          {t('search.more')}
        </Button>
      )}
      <Modal opened={clash !== null} onClose={() => setClash(null)} title={t('trash.clashTitle')} centered>
        {clash && (
          <Stack>
            <Text size="sm">{t('trash.clashText', { count: clash.names.length, names: clash.names.slice(0, 5).join(', ') })}</Text>
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={() => setClash(null)}>
                {t('common.cancel')}
              </Button>
              <Button variant="default" onClick={() => void resolveClash('rename')}>
                {t('trash.keepBoth')}
              </Button>
              <Button color="red" onClick={() => void resolveClash('replace')}>
                {t('trash.replace')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
      <ConfirmDialog
        opened={confirm !== null}
        title={confirm === 'empty' ? t('trash.emptyTitle') : t('trash.deleteForeverTitle', { count: selected.size })}
        message={
          confirm === 'empty'
            ? teamCount > 0
              ? `${t('trash.emptyOwnText', { count: ownCount })} ${t('trash.teamStays', { count: teamCount })}`
              : t('trash.emptyText', { count: ownCount })
            : t('trash.deleteForeverText', { count: selected.size })
        }
        confirmLabel={confirm === 'empty' ? t('trash.empty') : t('trash.deleteForever')}
        danger
        onClose={() => setConfirm(null)}
        onConfirm={async () => {
          if (confirm === 'empty') {
            const r = await emptyTrash();
            done(null, t('trash.emptied', { count: r.deleted }));
          } else {
            const ids = [...selected];
            done(await purgeTrash(ids), t('trash.purged', { count: ids.length }));
          }
        }}
      />
    </Stack>
  );
}
