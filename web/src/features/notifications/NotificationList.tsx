// The notifications, newest first: each says what happened and opens its
// subject (marking it read); unread ones are marked by a dot and bold text.
import { Box, Group, Stack, Text, ThemeIcon, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconApps, IconDeviceDesktop, IconDownload, IconShieldLock, IconUpload, IconUsers } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/router';
import { markRead, notificationsQuery, type Notification, type NotificationKind } from './api';

const ICONS: Record<NotificationKind, typeof IconUsers> = {
  shared_with_me: IconUsers,
  upload_request_received: IconUpload,
  link_downloaded: IconDownload,
  quota_almost_full: IconAlertTriangle,
  new_device_sign_in: IconDeviceDesktop,
  app_authorized: IconApps,
  security_change: IconShieldLock,
};

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** The sentence of one notification, from its `data`. */
export function useDescribe(): (n: Notification) => string {
  const { t } = useTranslation();
  return (n) => {
    const d = n.data;
    switch (n.type) {
      case 'upload_request_received':
        return t('notifications.text.upload_request_received', { count: Number(d.count ?? 1), folder: str(d.folder) });
      case 'new_device_sign_in':
        return t('notifications.text.new_device_sign_in', { device: [str(d.browser), str(d.os)].filter(Boolean).join(', ') || t('notifications.unknownDevice'), ip: str(d.ip) });
      case 'security_change':
        return t(`notifications.change.${str(d.change)}`, { defaultValue: t('notifications.text.security_change') });
      default:
        return t(`notifications.text.${n.type}`, { owner: str(d.owner), name: str(d.name), percent: str(d.percent), app: str(d.app) });
    }
  };
}

export function NotificationList({ items, onOpen }: { items: Notification[]; onOpen?: () => void }) {
  const { t, i18n } = useTranslation();
  const describe = useDescribe();
  const queryClient = useQueryClient();
  const read = useMutation({
    mutationFn: (id: string) => markRead(id, true),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsQuery.queryKey }),
  });
  if (items.length === 0) {
    return (
      <Text c="dimmed" size="sm" ta="center" py="lg">
        {t('notifications.empty')}
      </Text>
    );
  }
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Stack gap={2} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={t('notifications.title')}>
      {items.map((n) => {
        const Icon = ICONS[n.type];
        const text = describe(n);
        return (
          <Box component="li" key={n.id}>
            <UnstyledButton
              w="100%"
              p="xs"
              style={{ borderRadius: 'var(--mantine-radius-md)' }}
              className="notification-item"
              data-unread={n.read ? undefined : 'true'}
              onClick={() => {
                if (!n.read) read.mutate(n.id);
                onOpen?.();
                const link = str(n.data.link);
                if (link.startsWith('/')) navigate(link);
              }}
            >
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <ThemeIcon variant="light" radius="xl" size={32} color={n.type === 'quota_almost_full' || n.type === 'security_change' || n.type === 'new_device_sign_in' ? 'orange' : 'blue'}>
                  <Icon size={18} aria-hidden="true" />
                </ThemeIcon>
                <Box style={{ flex: 1, minWidth: 0 }}>
                  {!n.read && <VisuallyHidden>{`${t('notifications.unread')}: `}</VisuallyHidden>}
                  <Text size="sm" fw={n.read ? 400 : 600} style={{ overflowWrap: 'anywhere' }}>
                    {text}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {when.format(new Date(n.at))}
                  </Text>
                </Box>
                {!n.read && <Box aria-hidden="true" mt={6} w={8} h={8} style={{ borderRadius: '50%', background: 'var(--mantine-color-blue-filled)', flex: 'none' }} />}
              </Group>
            </UnstyledButton>
          </Box>
        );
      })}
    </Stack>
  );
}
