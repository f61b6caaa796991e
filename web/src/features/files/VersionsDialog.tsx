// A file's versions (api-contract §13): the current content and the earlier
// ones, newest first, with their size, date (to the second, and how long
// ago) and who wrote them: the person, and with what (the web app, an app, a
// WebDAV device). Each earlier version can be previewed (images and
// text), downloaded, restored (the current content becomes a version, so
// nothing is lost) or deleted (asked first: that one is gone for good).
import { ActionIcon, Alert, Badge, Group, Image, Loader, Modal, Paper, ScrollArea, Stack, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconEye, IconHistory, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateSeconds, formatRelative, formatSize } from '../../app/format';
import { capacityQuery } from '../../app/StorageBar';
import { errorMessage } from '../../components/errorMessage';
import { isShared } from '../sharing/api';
import { deleteVersion, listVersions, restoreVersion, saveBlob, versionBlob, type FileItem, type FileVersion } from './api';
import { ConfirmDialog } from './dialogs';
import { kindOf } from './icons';

const TEXT_PREVIEW = 64 * 1024;

function useSourceLabel() {
  const { t } = useTranslation();
  return (v: FileVersion) => {
    if (v.source.kind === 'web') return t('versions.source.web');
    if (v.source.kind === 'app') return v.source.name ? t('versions.source.app', { name: v.source.name }) : t('versions.source.anApp');
    if (v.source.kind === 'webdav') return v.source.name ? t('versions.source.webdav', { name: v.source.name }) : t('versions.source.webdavAny');
    return t('versions.source.unknown');
  };
}

function VersionPreview({ item, version }: { item: FileItem; version: FileVersion }) {
  const { t } = useTranslation();
  const kind = kindOf({ type: 'file', name: item.name, mime_type: version.mime_type });
  const { data, error, isLoading } = useQuery({
    queryKey: ['version-preview', version.id],
    queryFn: async () => {
      if (kind === 'image') return { url: URL.createObjectURL(await versionBlob(version.id)), text: null };
      const blob = await versionBlob(version.id, TEXT_PREVIEW);
      return { url: null, text: new TextDecoder('utf-8', { fatal: false }).decode(await blob.arrayBuffer()) };
    },
    enabled: kind === 'image' || kind === 'text' || kind === 'code',
    staleTime: Infinity,
  });
  useEffect(() => () => void (data?.url && URL.revokeObjectURL(data.url)), [data?.url]);
  if (kind !== 'image' && kind !== 'text' && kind !== 'code') return <Text size="sm" c="dimmed">{t('versions.noPreview')}</Text>;
  if (isLoading) return <Loader size="sm" aria-label={t('common.loading')} />;
  if (error || !data) return <Text c="red.8">{errorMessage(error, t)}</Text>;
  if (data.url) return <Image src={data.url} alt={t('versions.previewOf', { date: formatDateSeconds(version.created_at) })} mah={240} fit="contain" />;
  return (
    <ScrollArea.Autosize mah={240} type="auto">
      <pre className="cirrus-version-text" style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontSize: 12 }} tabIndex={0} aria-label={t('versions.previewOf', { date: formatDateSeconds(version.created_at) })}>
        {data.text}
      </pre>
    </ScrollArea.Autosize>
  );
}

export function VersionsDialog({ item, onClose, onChanged }: { item: FileItem | null; onClose(): void; onChanged(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sourceLabel = useSourceLabel();
  const now = Date.now();
  const [previewing, setPreviewing] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'restore' | 'delete'; version: FileVersion } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const query = useQuery({ queryKey: ['versions', item?.path], queryFn: () => listVersions(item!.path), enabled: item !== null });
  useEffect(() => {
    setPreviewing(null);
    setError(null);
  }, [item?.path]);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['versions', item?.path] });
    await queryClient.invalidateQueries({ queryKey: capacityQuery.queryKey });
    onChanged();
  };
  const download = async (v: FileVersion) => {
    try {
      saveBlob(await versionBlob(v.id), item!.name);
    } catch (err) {
      setError(errorMessage(err, t));
    }
  };

  return (
    <>
      <Modal opened={item !== null && confirm === null} onClose={onClose} title={item ? t('versions.titleNamed', { name: item.name }) : ''} centered size="lg">
        {query.isLoading ? (
          <Loader aria-label={t('common.loading')} />
        ) : query.error ? (
          <Alert color="red" role="alert">
            {errorMessage(query.error, t)}
          </Alert>
        ) : (
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t(item && isShared(item.path) ? 'versions.helpShared' : 'versions.help')}
            </Text>
            {error && (
              <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
                {error}
              </Alert>
            )}
            {(query.data ?? []).length <= 1 && <Text size="sm">{t('versions.none')}</Text>}
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('versions.list')}>
              {(query.data ?? []).map((v) => {
                // To the second: two writes within one minute must not look the same.
                const date = formatDateSeconds(v.created_at);
                return (
                  <Paper component="li" key={v.id} withBorder p="xs" radius="md">
                    <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                      <Stack gap={2} style={{ minWidth: 0 }}>
                        <Group gap={6} wrap="wrap">
                          <Text size="sm" fw={600} component="time" dateTime={v.created_at}>
                            {date}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {formatRelative(v.created_at, now)}
                          </Text>
                          {v.current && (
                            <Badge size="sm" variant="light">
                              {t('versions.current')}
                            </Badge>
                          )}
                        </Group>
                        <Text size="xs" c="dimmed">
                          {formatSize(v.size)} · {v.author ? t('versions.byWith', { author: v.author, source: sourceLabel(v) }) : sourceLabel(v)}
                        </Text>
                      </Stack>
                      {!v.current && (
                        <Group gap={4} wrap="nowrap">
                          <Tooltip label={t('versions.preview')}>
                            <ActionIcon variant="subtle" aria-label={t('versions.previewOf', { date })} aria-pressed={previewing === v.id} onClick={() => setPreviewing(previewing === v.id ? null : v.id)}>
                              <IconEye size={18} aria-hidden="true" />
                            </ActionIcon>
                          </Tooltip>
                          <Tooltip label={t('common.download')}>
                            <ActionIcon variant="subtle" aria-label={t('versions.downloadOf', { date })} onClick={() => void download(v)}>
                              <IconDownload size={18} aria-hidden="true" />
                            </ActionIcon>
                          </Tooltip>
                          <Tooltip label={t('versions.restore')}>
                            <ActionIcon variant="subtle" aria-label={t('versions.restoreOf', { date })} onClick={() => setConfirm({ kind: 'restore', version: v })}>
                              <IconHistory size={18} aria-hidden="true" />
                            </ActionIcon>
                          </Tooltip>
                          <Tooltip label={t('common.delete')}>
                            <ActionIcon variant="subtle" color="red" aria-label={t('versions.deleteOf', { date })} onClick={() => setConfirm({ kind: 'delete', version: v })}>
                              <IconTrash size={18} aria-hidden="true" />
                            </ActionIcon>
                          </Tooltip>
                        </Group>
                      )}
                    </Group>
                    {previewing === v.id && item && (
                      <Paper mt="xs" p="xs" bg="var(--mantine-color-default-hover)">
                        <VersionPreview item={item} version={v} />
                      </Paper>
                    )}
                  </Paper>
                );
              })}
            </Stack>
          </Stack>
        )}
      </Modal>
      <ConfirmDialog
        opened={confirm !== null}
        title={confirm?.kind === 'delete' ? t('versions.deleteTitle') : t('versions.restoreTitle')}
        message={
          confirm ? (confirm.kind === 'delete' ? t('versions.deleteText', { date: formatDateSeconds(confirm.version.created_at) }) : t('versions.restoreText', { date: formatDateSeconds(confirm.version.created_at) })) : ''
        }
        confirmLabel={confirm?.kind === 'delete' ? t('common.delete') : t('versions.restore')}
        danger={confirm?.kind === 'delete'}
        onClose={() => setConfirm(null)}
        onConfirm={async () => {
          if (!confirm || !item) return;
          if (confirm.kind === 'delete') await deleteVersion(confirm.version.id);
          else await restoreVersion(item.path, confirm.version.id);
          setPreviewing(null);
          await refresh();
        }}
      />
    </>
  );
}
