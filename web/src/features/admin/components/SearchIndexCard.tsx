// The content index on the overview (api-contract §16): documents indexed,
// waiting and failed, the latest failures with their reasons, and
// "Reindex everything". While documents wait, the counts are asked for again
// every few seconds.
import { Alert, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatCounts } from './StatCounts';
import { errorMessage } from '../../../components/errorMessage';
import { adminApi } from '../api';
import { ConfirmDialog } from './ConfirmDialog';

const POLL_MS = 3_000;
const FAILURES_SHOWN = 5;

export function SearchIndexCard() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  const q = useQuery({
    queryKey: ['admin', 'search-status'],
    queryFn: adminApi.searchStatus,
    refetchInterval: (qr) => ((qr.state.data?.pending ?? 0) > 0 ? POLL_MS : false),
  });
  const s = q.data;
  const counts: ['indexed' | 'pending' | 'failed', number | undefined][] = [
    ['indexed', s?.indexed],
    ['pending', s?.pending],
    ['failed', s?.failed],
  ];
  return (
    <Card withBorder component="section" aria-labelledby="search-index-title">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} fz={16} id="search-index-title">
          {t('admin.searchIndex.title')}
        </Title>
        <Button size="xs" variant="light" onClick={() => setConfirm(true)}>
          {t('admin.searchIndex.reindexAll')}
        </Button>
      </Group>
      {q.isError ? (
        <Alert color="red" role="alert">
          {errorMessage(q.error, t)}
        </Alert>
      ) : (
        <Stack gap="sm">
          <StatCounts idPrefix="search-index" dataAttribute="data-search-stat" items={counts.map(([key, value]) => [key, t(`admin.searchIndex.${key}`), value])} />
          {s && s.recent_failures.length > 0 && (
            <div>
              <Text size="sm" fw={600}>
                {t('admin.searchIndex.recentFailures')}
              </Text>
              <List size="sm" spacing={2}>
                {s.recent_failures.slice(0, FAILURES_SHOWN).map((f, i) => (
                  <List.Item key={i}>
                    <Text span size="sm" fw={500}>
                      {f.name ?? t('admin.searchIndex.noFile')}
                    </Text>
                    <Text span size="sm" c="var(--cirrus-muted)">
                      {' — '}
                      {f.reason}
                    </Text>
                  </List.Item>
                ))}
              </List>
            </div>
          )}
        </Stack>
      )}
      <ConfirmDialog
        opened={confirm}
        onClose={() => setConfirm(false)}
        title={t('admin.searchIndex.reindexAll')}
        consequence={t('admin.searchIndex.reindexAllConsequence')}
        confirmLabel={t('admin.searchIndex.reindex')}
        color="blue"
        onConfirm={async () => {
          const { queued } = await adminApi.reindex();
          notifications.show({ color: 'teal', message: t('admin.searchIndex.queued', { count: queued }) });
          await qc.invalidateQueries({ queryKey: ['admin', 'search-status'] });
        }}
      />
    </Card>
  );
}
