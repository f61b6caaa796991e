// /shares ("Shared by me"): what the person shares with people and groups
// (sharing/GivenGrants: who, permission, change, remove), then the links they
// created, with views, downloads and expiry; copy, edit and delete. A table on wide screens; on a phone one card per
// link, so its actions and dates stay on screen (as Google Drive's list does).
import { ActionIcon, Alert, Badge, Center, CopyButton, Group, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconLock, IconPencil, IconShare, IconTrash, IconCloudUpload } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../app/format';
import { filesUrl, Link } from '../../app/router';
import { Busy } from '../../components/Busy';
import { errorMessage } from '../../components/errorMessage';
import { ConfirmDialog } from '../files/dialogs';
import { deleteShare, listShares, type Share } from './api';
import { ShareDialog } from './ShareDialog';
import { pageTitle } from '../account/api';
import { GivenGrants } from '../sharing/GivenGrants';

const STATUS_COLOR: Record<Share['status'], string> = { active: 'teal', expired: 'gray', exhausted: 'orange', unavailable: 'red' };

export default function SharesPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { data, isLoading, error } = useQuery({ queryKey: ['shares'], queryFn: () => listShares() });
  const [editing, setEditing] = useState<Share | null>(null);
  const [deleting, setDeleting] = useState<Share | null>(null);
  useEffect(() => {
    document.title = pageTitle(`${t('nav.shares')}`);
  }, [t]);
  const shares = data?.shares ?? [];
  const phone = useMediaQuery('(max-width: 48em)');

  const nameOf = (s: Share) => (
    <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
      {s.has_password && <IconLock size={14} aria-label={t('shares.hasPassword')} style={{ flex: 'none' }} />}
      {s.upload_only && <IconCloudUpload size={14} aria-label={t('uploadLinks.uploadRequest')} style={{ flex: 'none' }} />}
      {s.path ? (
        <Text component={Link} href={filesUrl(s.path.slice(0, s.path.lastIndexOf('/')) || '/')} size="sm" c="var(--mantine-color-anchor)" style={{ overflowWrap: 'anywhere' }}>
          {s.name}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          {t('shares.inTrash')}
        </Text>
      )}
    </Group>
  );
  const statusOf = (s: Share) => (
    <Badge color={STATUS_COLOR[s.status]} variant="light" style={{ flex: 'none' }}>
      {t(`shares.statusName.${s.status}`)}
    </Badge>
  );
  const downloadsOf = (s: Share) => (s.upload_only ? t('uploadLinks.receivedShort', { n: s.uploads }) : s.download_limit ? `${s.downloads} / ${s.download_limit}` : String(s.downloads));
  // A phone card's counts: one sentence per count, so each is pluralised in its own language
  // (an upload link receives files: it has no downloads to count).
  const cardCountsOf = (s: Share) =>
    [
      t('shares.card.views', { count: s.views }),
      s.upload_only
        ? t('shares.card.received', { count: s.uploads })
        : s.download_limit
          ? t('shares.card.downloadsOf', { count: s.downloads, limit: s.download_limit })
          : t('shares.card.downloads', { count: s.downloads }),
    ].join(' · ');
  const expiresOf = (s: Share) => (s.expires_at ? formatDate(s.expires_at) : t('shares.expiresNever'));
  const actionsOf = (s: Share) => (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <CopyButton value={s.url}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('common.copied') : t('shares.copyLink')}>
            <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={t('shares.copyLinkOf', { name: s.name ?? s.id })}>
              {copied ? <IconCheck size={16} aria-hidden="true" /> : <IconCopy size={16} aria-hidden="true" />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
      <Tooltip label={t('common.edit')}>
        <ActionIcon variant="subtle" color="gray" onClick={() => setEditing(s)} aria-label={t('shares.editOf', { name: s.name ?? s.id })}>
          <IconPencil size={16} aria-hidden="true" />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('common.delete')}>
        <ActionIcon variant="subtle" color="red" onClick={() => setDeleting(s)} aria-label={t('shares.deleteOf', { name: s.name ?? s.id })}>
          <IconTrash size={16} aria-hidden="true" />
        </ActionIcon>
      </Tooltip>
    </Group>
  );

  return (
    <Stack>
      <Title order={1} fz={24}>
        {t('nav.shares')}
      </Title>
      <GivenGrants />
      <Title order={2} fz={18} mt="md">
        {t('shares.linksTitle')}
      </Title>
      {isLoading ? (
        <Busy label={t('common.loading')} />
      ) : error ? (
        <Alert color="red" role="alert">
          {errorMessage(error, t)}
        </Alert>
      ) : shares.length === 0 ? (
        <Center p="xl" style={{ border: '2px dashed var(--mantine-color-default-border)', borderRadius: 12 }}>
          <Stack align="center" gap={4} ta="center">
            <IconShare size={40} stroke={1.3} aria-hidden="true" />
            <Text fw={600}>{t('shares.noLinks')}</Text>
            <Text size="sm" c="dimmed">
              {t('shares.noneHint')}
            </Text>
          </Stack>
        </Center>
      ) : phone ? (
        <Stack gap="sm" component="ul" aria-label={t('nav.shares')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {shares.map((s) => (
            <Paper component="li" key={s.id} withBorder radius="md" p="sm" data-share={s.id}>
              <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                {nameOf(s)}
                {statusOf(s)}
              </Group>
              <Text size="xs" c="dimmed" mt={6}>
                {s.expires_at ? t('shares.card.expires', { date: formatDate(s.expires_at) }) : t('shares.expiresNever')} · {t('shares.card.created', { date: formatDate(s.created_at) })}
              </Text>
              <Group justify="space-between" wrap="nowrap" mt={4}>
                <Text size="xs" c="dimmed">
                  {cardCountsOf(s)}
                </Text>
                {actionsOf(s)}
              </Group>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table highlightOnHover verticalSpacing="xs" aria-label={t('nav.shares')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('common.name')}</Table.Th>
                <Table.Th>{t('shares.status')}</Table.Th>
                <Table.Th>{t('shares.views')}</Table.Th>
                <Table.Th>{t('shares.downloads')}</Table.Th>
                <Table.Th>{t('shares.expires')}</Table.Th>
                <Table.Th>{t('common.created')}</Table.Th>
                <Table.Th>
                  <span className="sr-only">{t('shares.actions')}</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shares.map((s) => (
                <Table.Tr key={s.id} data-share={s.id}>
                  <Table.Td>{nameOf(s)}</Table.Td>
                  <Table.Td>{statusOf(s)}</Table.Td>
                  <Table.Td>{s.views}</Table.Td>
                  <Table.Td>{downloadsOf(s)}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{expiresOf(s)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDate(s.created_at)}</Text>
                  </Table.Td>
                  <Table.Td>{actionsOf(s)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {editing && <ShareDialog share={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('shares.deleteTitle')}
        message={t('shares.deleteText', { name: deleting?.name ?? '' })}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await deleteShare(deleting!.id);
          notifications.show({ color: 'teal', message: t('shares.deleted') });
          void qc.invalidateQueries({ queryKey: ['shares'] });
        }}
      />
    </Stack>
  );
}
