// Connected apps: the OAuth grants, with the app's name and icon, what it may
// do (the consent page's plain words), when it was granted, and Revoke.
import { Alert, Button, Card, Group, List, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../app/format';
import { AppAvatar } from '../../components/AppAvatar';
import { errorMessage } from '../../components/errorMessage';
import { useScopeText } from '../../oauth/useScopeText';
import { ConfirmDialog } from '../files/dialogs';
import { getSettings, revokeGrant, type OAuthGrantView } from './api';

export default function AppsTab() {
  const { t } = useTranslation();
  const describeScope = useScopeText();
  const qc = useQueryClient();
  const { data, error, isLoading } = useQuery({ queryKey: ['settings'], queryFn: getSettings });
  const [revoking, setRevoking] = useState<OAuthGrantView | null>(null);
  const grants = data?.oauth_grants ?? [];
  if (isLoading) return <Text size="sm">{t('common.loading')}</Text>;
  if (error)
    return (
      <Alert color="red" role="alert">
        {errorMessage(error, t)}
      </Alert>
    );
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('settings.apps.intro')}
      </Text>
      {grants.length === 0 && <Text>{t('settings.apps.none')}</Text>}
      {grants.map((g) => (
        <Card key={g.client_id} withBorder data-app={g.client_id}>
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <Group align="flex-start" wrap="nowrap">
              <AppAvatar name={g.name} icon={g.icon} size={44} />
              <Stack gap={4}>
                <Text fw={600}>{g.name}</Text>
                <Text size="xs" c="dimmed">
                  {t('settings.apps.grantedAt', { date: formatDate(g.created_at) })}
                </Text>
                <List size="sm" spacing={2}>
                  {g.scopes.map((s) => (
                    <List.Item key={s}>{describeScope(s).title}</List.Item>
                  ))}
                </List>
              </Stack>
            </Group>
            <Button variant="default" color="red" onClick={() => setRevoking(g)} aria-label={t('settings.apps.revokeName', { name: g.name })}>
              {t('settings.apps.revoke')}
            </Button>
          </Group>
        </Card>
      ))}
      <ConfirmDialog
        opened={revoking !== null}
        title={t('settings.apps.revokeTitle', { name: revoking?.name ?? '' })}
        message={t('settings.apps.revokeText', { name: revoking?.name ?? '' })}
        confirmLabel={t('settings.apps.revoke')}
        danger
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          await revokeGrant(revoking!.client_id);
          notifications.show({ color: 'teal', message: t('settings.apps.revoked', { name: revoking!.name }) });
          void qc.invalidateQueries({ queryKey: ['settings'] });
        }}
      />
    </Stack>
  );
}
