// OAuth Apps: the registered applications (icon, name, client ID, scopes,
// enabled, created) and the way to New OAuth App.
import { Badge, Button, Group, Stack, Text, Title, Anchor } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AppAvatar } from '../../../components/AppAvatar';
import { Link } from '../../../app/router';
import { adminApi, type OAuthApp } from '../api';
import { ListView, type Column } from '../components/ListView';
import { formatDate } from '../format';

export function OAuthAppsPage() {
  const { t, i18n } = useTranslation();
  const columns: Column<OAuthApp>[] = [
    {
      key: 'name',
      label: t('admin.apps.app'),
      sortable: true,
      render: (a) => (
        <Group gap="sm" wrap="nowrap">
          <AppAvatar name={a.name} icon={a.icon} size={32} />
          <Anchor component={Link} href={`/admin/apps/${encodeURIComponent(a.id)}`} fw={500} size="sm">
            {a.name}
          </Anchor>
        </Group>
      ),
    },
    { key: 'id', label: 'Client ID', wide: true, render: (a) => <Text ff="monospace" size="xs">{a.id}</Text> },
    {
      key: 'scopes',
      label: t('admin.apps.scopes'),
      wide: true,
      render: (a) => (
        <Group gap={4}>
          {a.scopes.map((s) => (
            <Badge key={s} size="xs" variant="outline" tt="none">
              {s}
            </Badge>
          ))}
        </Group>
      ),
    },
    { key: 'enabled', label: t('admin.apps.status'), render: (a) => <Badge variant="dot" color={a.is_enabled ? 'teal' : 'gray'}>{a.is_enabled ? t('admin.apps.isEnabled') : t('admin.apps.isDisabled')}</Badge> },
    { key: 'created_at', label: t('admin.users.created'), sortable: true, wide: true, render: (a) => formatDate(a.created_at, i18n.language) },
  ];
  return (
    <Stack>
      <Title order={1} fz={24}>
        {t('admin.nav.apps')}
      </Title>
      <ListView
        queryKey="apps"
        load={adminApi.apps}
        columns={columns}
        rowKey={(a) => a.id}
        searchLabel={t('admin.apps.search')}
        defaultSort={{ by: 'created_at', direction: 'desc' }}
        emptyText={t('admin.apps.empty')}
        toolbar={
          <Button component={Link} href="/admin/apps/new" leftSection={<IconPlus size={16} />}>
            {t('admin.apps.new')}
          </Button>
        }
      />
    </Stack>
  );
}
