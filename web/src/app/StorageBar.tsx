// Storage used of total, from /user/capacity.
import { Progress, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, data as dataOf } from '../api/client';
import type { Capacity } from '../api/generated/schema';
import { formatSize } from './format';

export type { Capacity };

export const capacityQuery = { queryKey: ['capacity'], queryFn: (): Promise<Capacity> => dataOf(api().GET('/api/v4/user/capacity')) };

export function StorageBar() {
  const { t } = useTranslation();
  const { data } = useQuery(capacityQuery);
  if (!data) return null;
  // Rounded: aria-valuenow must be a plain number (a tiny share would print as 1e-7).
  const pct = data.total > 0 ? Math.round(Math.min(100, (data.used / data.total) * 100) * 10) / 10 : 0;
  const label = t('storage.used', { used: formatSize(data.used), total: formatSize(data.total) });
  return (
    <Stack gap={6} p="xs">
      <Text size="xs" fw={600}>
        {t('storage.title')}
      </Text>
      <Progress value={pct} color={pct > 90 ? 'red' : 'indigo'} size="sm" aria-label={label} />
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {data.reserved > 0 && (
        <Text size="xs" c="dimmed">
          {t('storage.reserved', { size: formatSize(data.reserved) })}
        </Text>
      )}
      {data.versions > 0 && (
        <Text size="xs" c="dimmed">
          {t('storage.versions', { size: formatSize(data.versions) })}
        </Text>
      )}
    </Stack>
  );
}
