// The bell in the app header: the unread count (live through the
// notifications stream), and a panel with the latest notifications, "mark
// all read", and links to the full list and the preferences.
import { ActionIcon, Button, Divider, Group, Indicator, Popover, ScrollArea, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/router';
import { markAllRead, notificationsQuery } from './api';
import { NotificationList } from './NotificationList';
import { useNotificationStream } from './useNotificationStream';

export function NotificationBell() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  useNotificationStream();
  const queryClient = useQueryClient();
  const list = useQuery(notificationsQuery);
  const unread = list.data?.unread ?? 0;
  const all = useMutation({ mutationFn: markAllRead, onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsQuery.queryKey }) });
  const label = unread > 0 ? t('notifications.bellUnread', { count: unread }) : t('notifications.bell');
  return (
    <Indicator label={unread > 99 ? '99+' : unread} size={18} color="red.9" disabled={unread === 0} offset={4}>
      <Popover opened={opened} onChange={setOpened} position="bottom-end" width={360} shadow="md" trapFocus>
        <Popover.Target>
          {/* The target is the button itself: the popover's aria-expanded and aria-controls belong on it, not on the badge's wrapper. */}
          <ActionIcon variant="subtle" size="lg" radius="xl" aria-label={label} onClick={() => setOpened((o) => !o)}>
            <IconBell size={20} aria-hidden="true" />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p="xs" maw="calc(100vw - 16px)">
          <Group justify="space-between" px="xs" pb={4}>
            <Text fw={600} size="sm" component="h2" m={0}>
              {t('notifications.title')}
            </Text>
            <Button size="compact-xs" variant="subtle" disabled={unread === 0} loading={all.isPending} onClick={() => all.mutate()}>
              {t('notifications.markAllRead')}
            </Button>
          </Group>
          <Divider />
          <ScrollArea.Autosize mah={400} type="auto">
            <NotificationList items={list.data?.items ?? []} onOpen={() => setOpened(false)} />
          </ScrollArea.Autosize>
          <Divider />
          <Group justify="space-between" pt={4}>
            <Button size="compact-sm" variant="subtle" onClick={() => (setOpened(false), navigate('/notifications'))}>
              {t('notifications.seeAll')}
            </Button>
            <Button size="compact-sm" variant="subtle" onClick={() => (setOpened(false), navigate('/settings/notifications'))}>
              {t('notifications.preferences')}
            </Button>
          </Group>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
