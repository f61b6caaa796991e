// /shares: the links the person created, with views, downloads and expiry;
// copy, edit and delete.
import { ActionIcon, Alert, Badge, Center, CopyButton, Group, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconLock, IconPencil, IconShare, IconTrash } from '@tabler/icons-react';
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

const STATUS_COLOR: Record<Share['status'], string> = { active: 'teal', expired: 'gray', exhausted: 'orange', unavailable: 'red' };

export default function SharesPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { data, isLoading, error } = useQuery({ queryKey: ['shares'], queryFn: () => listShares() });
  const [editing, setEditing] = useState<Share | null>(null);
  const [deleting, setDeleting] = useState<Share | null>(null);
  useEffect(() => {
    document.title = `${t('nav.shares')} · Cirrus`;
  }, [t]);
  const shares = data?.shares ?? [];

  return (
    <Stack>
      <Title order={1} fz={24}>
        {t('nav.shares')}
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
            <Text fw={600}>{t('shares.none')}</Text>
            <Text size="sm" c="dimmed">
              {t('shares.noneHint')}
            </Text>
          </Stack>
        </Center>
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
                <Table.Tr key={s.id}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      {s.has_password && <IconLock size={14} aria-label={t('shares.hasPassword')} />}
                      {s.path ? (
                        <Text component={Link} href={filesUrl(s.path.slice(0, s.path.lastIndexOf('/')) || '/')} size="sm" c="var(--mantine-color-anchor)">
                          {s.name}
                        </Text>
                      ) : (
                        <Text size="sm" c="dimmed">
                          {t('shares.inTrash')}
                        </Text>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOR[s.status]} variant="light">
                      {t(`shares.statusName.${s.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{s.views}</Table.Td>
                  <Table.Td>{s.download_limit ? `${s.downloads} / ${s.download_limit}` : s.downloads}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{s.expires_at ? formatDate(s.expires_at) : t('common.never')}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDate(s.created_at)}</Text>
                  </Table.Td>
                  <Table.Td>
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
                  </Table.Td>
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
