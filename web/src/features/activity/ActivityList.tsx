// A list of activity events: who did what to which item, how long ago (the
// exact time on hover and for screen readers), newest first, with "Show more"
// for older ones. Used by the item panel and the Activity page.
import { Alert, Button, Group, Loader, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateSeconds, formatRelative } from '../../app/format';
import { errorMessage } from '../../components/errorMessage';
import { listActivity, type ActivityEvent, type ActivityQuery } from './api';

function actorName(e: ActivityEvent, t: (k: string, o?: Record<string, unknown>) => string): string {
  if ('id' in e.actor) return e.actor.nickname || t('activity.formerUser');
  return e.actor.name ? t('activity.anonymousNamed', { name: e.actor.name }) : t('activity.anonymous');
}

export function ActivityList({ query, label }: { query: Omit<ActivityQuery, 'cursor'>; label: string }) {
  const { t } = useTranslation();
  const now = Date.now();
  const q = useInfiniteQuery({
    queryKey: ['activity', query],
    queryFn: ({ pageParam }) => listActivity({ ...query, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: '' as string,
    getNextPageParam: (last) => last.cursor ?? undefined,
  });
  if (q.isLoading) return <Loader size="sm" aria-label={t('common.loading')} />;
  if (q.error) return <Alert color="red" role="alert">{errorMessage(q.error, t)}</Alert>;
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  if (!items.length) return <Text size="sm" c="dimmed">{t('activity.none')}</Text>;
  return (
    <Stack gap="xs">
      <Stack gap={6} component="ul" aria-label={label} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {items.map((e) => (
          <Paper component="li" key={e.id} withBorder p="xs" radius="md">
            <Group justify="space-between" wrap="wrap" gap={4} align="flex-start">
              <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                <Text size="sm">
                  <Text span fw={600}>{actorName(e, t)}</Text> {t(`activity.type.${e.type}`)}
                </Text>
                <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                  {e.old_path ? t('activity.fromTo', { from: e.old_path, to: e.path }) : e.path}
                </Text>
              </Stack>
              <Tooltip label={formatDateSeconds(e.at)}>
                <Text size="xs" c="dimmed" component="time" dateTime={e.at} title={formatDateSeconds(e.at)} tabIndex={0}>
                  {formatRelative(e.at, now)}
                </Text>
              </Tooltip>
            </Group>
          </Paper>
        ))}
      </Stack>
      {q.hasNextPage && (
        <Button variant="default" size="xs" onClick={() => void q.fetchNextPage()} loading={q.isFetchingNextPage}>
          {t('activity.more')}
        </Button>
      )}
    </Stack>
  );
}
