// "Shared by me", people and groups: every grant on the person's items (and
// those they made as a resharer), with the item, who has access and the
// permission; the permission can be changed (PUT /file/access again) and the
// grant removed (DELETE /file/access/:id). A list on every screen size: one
// line per grant, wrapping on a phone.
import { ActionIcon, Alert, Group, Loader, Paper, Select, Stack, Text, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash, IconUser, IconUsersGroup } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filesUrl, Link } from '../../app/router';
import { errorMessage } from '../../components/errorMessage';
import { ConfirmDialog } from '../files/dialogs';
import { givenQuery, grantAccess, revokeAccess, type GivenGrant } from './api';

export function GivenGrants() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const query = useQuery(givenQuery);
  const [removing, setRemoving] = useState<GivenGrant | null>(null);
  const grants = query.data ?? [];
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['access-given'] });
    void qc.invalidateQueries({ queryKey: ['file-access'] });
  };
  const who = (g: GivenGrant) => (g.user ? (g.user.nickname ? `${g.user.nickname} <${g.user.email}>` : g.user.email) : t('sharing.groupNamed', { name: g.group?.name ?? '' }));
  const change = async (g: GivenGrant, permission: 'read' | 'write') => {
    if (!g.item.path || permission === g.permission) return;
    try {
      await grantAccess({ path: g.item.path, permission, ...(g.group ? { group: g.group.id } : { user: g.user!.id }) });
      notifications.show({ color: 'teal', message: t('sharing.permissionChanged', { name: who(g) }) });
      refresh();
    } catch (err) {
      notifications.show({ color: 'red', title: t('common.error'), message: errorMessage(err, t) });
    }
  };
  const permissions = [
    { value: 'read', label: t('sharing.canView') },
    { value: 'write', label: t('sharing.canEdit') },
  ];

  return (
    <Stack gap="xs" component="section" aria-labelledby="given-grants-title">
      <Title order={2} fz={18} id="given-grants-title">
        {t('sharing.givenTitle')}
      </Title>
      {query.isLoading ? (
        <Loader size="sm" aria-label={t('common.loading')} />
      ) : query.error ? (
        <Alert color="red" role="alert">
          {errorMessage(query.error, t)}
        </Alert>
      ) : grants.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('sharing.givenNone')}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" aria-label={t('sharing.givenTitle')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {grants.map((g) => (
            <Paper component="li" key={g.id} withBorder radius="md" p="xs" data-grant={g.id}>
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Stack gap={2} style={{ minWidth: 0, flex: '1 1 240px' }}>
                  {g.item.path ? (
                    <Text component={Link} href={filesUrl(g.item.path.slice(0, g.item.path.lastIndexOf('/')) || '/')} size="sm" fw={600} c="var(--mantine-color-anchor)" style={{ overflowWrap: 'anywhere' }}>
                      {g.item.name}
                    </Text>
                  ) : (
                    <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {g.item.name} <Text span size="sm" c="dimmed">{t('shares.inTrash')}</Text>
                    </Text>
                  )}
                  <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                    {g.group ? <IconUsersGroup size={16} aria-hidden="true" style={{ flex: 'none' }} /> : <IconUser size={16} aria-hidden="true" style={{ flex: 'none' }} />}
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {who(g)}
                    </Text>
                  </Group>
                </Stack>
                <Group gap={6} wrap="nowrap">
                  <Select
                    w={130}
                    size="xs"
                    aria-label={t('sharing.permissionOf', { name: who(g), item: g.item.name })}
                    data={permissions}
                    value={g.permission}
                    disabled={!g.item.path}
                    allowDeselect={false}
                    onChange={(v) => void change(g, v === 'write' ? 'write' : 'read')}
                  />
                  <Tooltip label={t('sharing.removeAccess')}>
                    <ActionIcon variant="subtle" color="red" onClick={() => setRemoving(g)} aria-label={t('sharing.removeFrom', { name: who(g), item: g.item.name })}>
                      <IconTrash size={16} aria-hidden="true" />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      <ConfirmDialog
        opened={removing !== null}
        title={t('sharing.removeTitle')}
        message={removing ? t('sharing.removeText', { name: who(removing), item: removing.item.name }) : ''}
        confirmLabel={t('sharing.removeAccess')}
        danger
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          await revokeAccess(removing!.id);
          notifications.show({ color: 'teal', message: t('sharing.removed') });
          refresh();
        }}
      />
    </Stack>
  );
}
