// The uploads in flight through an upload-request link, as its owner sees
// them: each holds its whole size of the owner's storage until it arrives or
// lapses, so the owner can see what is held and cancel it.
import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatSize } from '../../app/format';
import { errorMessage } from '../../components/errorMessage';
import { cancelPendingUpload, pendingUploads, type Share } from './api';

export function PendingUploads({ share }: { share: Share }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const pending = useQuery({ queryKey: ['shares', 'pending', share.id], queryFn: () => pendingUploads(share.id), staleTime: 0 });
  const uploads = pending.data?.uploads ?? [];
  if (uploads.length === 0) return null;

  const cancel = async (upload: string) => {
    setBusy(upload);
    try {
      await cancelPendingUpload(share.id, upload);
    } catch (err) {
      notifications.show({ color: 'red', message: errorMessage(err, t) });
    } finally {
      setBusy(null);
      await Promise.all([client.invalidateQueries({ queryKey: ['shares', 'pending', share.id] }), client.invalidateQueries({ queryKey: ['capacity'] })]);
    }
  };

  return (
    <Stack gap={4} data-testid="pending-uploads">
      <Text size="sm" fw={600}>
        {t('uploadLinks.arriving')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('uploadLinks.arrivingHelp')}
      </Text>
      <Stack gap={2} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0, maxHeight: 180, overflowY: 'auto' }}>
        {uploads.map((u) => (
          <li key={u.id}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <div style={{ minWidth: 0 }}>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {u.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {[
                    t('uploadLinks.arrivingOf', { received: formatSize(u.received), size: formatSize(u.reserved), time: formatDate(u.expires_at) }),
                    u.uploader ? t('uploadLinks.from', { name: u.uploader }) : t('uploadLinks.anonymous'),
                  ].join(' · ')}
                </Text>
              </div>
              <Button
                size="compact-sm"
                variant="light"
                color="red"
                style={{ flexShrink: 0 }}
                loading={busy === u.id}
                onClick={() => void cancel(u.id)}
                aria-label={t('uploadLinks.cancelOf', { name: u.name })}
              >
                {t('common.cancel')}
              </Button>
            </Group>
          </li>
        ))}
      </Stack>
    </Stack>
  );
}
