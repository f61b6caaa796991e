// /notifications: every recent notification (the daily digest links here).
import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/router';
import { Busy } from '../../components/Busy';
import { pageTitle } from '../account/api';
import { markAllRead, notificationsQuery } from './api';
import { NotificationList } from './NotificationList';

export default function NotificationsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery(notificationsQuery);
  const all = useMutation({ mutationFn: markAllRead, onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsQuery.queryKey }) });
  useEffect(() => {
    document.title = pageTitle(t('notifications.title'));
  }, [t]);
  return (
    <Stack maw={720}>
      <Group justify="space-between">
        <Title order={1} fz={24}>
          {t('notifications.title')}
        </Title>
        <Group gap="xs">
          <Button variant="default" size="sm" disabled={(list.data?.unread ?? 0) === 0} loading={all.isPending} onClick={() => all.mutate()}>
            {t('notifications.markAllRead')}
          </Button>
          <Button variant="subtle" size="sm" onClick={() => navigate('/settings/notifications')}>
            {t('notifications.preferences')}
          </Button>
        </Group>
      </Group>
      <Paper withBorder p="xs" radius="md">
        {list.isPending ? <Busy label={t('common.loading')} /> : <NotificationList items={list.data?.items ?? []} />}
      </Paper>
    </Stack>
  );
}
