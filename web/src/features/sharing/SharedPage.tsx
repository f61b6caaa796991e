// /shared: what others shared with the person. Opening an item browses it in
// the file manager under its "/Shared with me/…" path (the server maps it).
import { Alert, Badge, Card, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconFile, IconFolder } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { filesUrl, navigate } from '../../app/router';
import { formatDate } from '../../app/format';
import { Busy } from '../../components/Busy';
import { errorMessage } from '../../components/errorMessage';
import { pageTitle } from '../account/api';
import { markSharedSeen, SHARED_ROOT, sharedQuery } from './api';
import { useFolderFeed } from '../files/useFeed';

// A grant or revocation arrives in the feed as the mount created or deleted under "Shared with me".
const LIVE_KEYS = [sharedQuery.queryKey, ['shared-badge']] as const;

export default function SharedPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = useQuery(sharedQuery);
  const unseen = (query.data ?? []).some((i) => i.new);
  useFolderFeed(SHARED_ROOT, LIVE_KEYS);

  useEffect(() => {
    document.title = pageTitle(t('nav.sharedWithMe'));
  }, [t]);
  // Opening the page clears the badge (the items keep their "new" mark until the next visit).
  useEffect(() => {
    if (!unseen) return;
    void markSharedSeen().then(() => client.invalidateQueries({ queryKey: ['shared-badge'] }));
  }, [unseen, client]);

  return (
    <Stack gap="md">
      <Title order={1} fz="h3">
        {t('nav.sharedWithMe')}
      </Title>
      {query.isLoading && <Busy label={t('common.loading')} />}
      {query.error && <Alert color="red">{errorMessage(query.error, t)}</Alert>}
      {query.data && query.data.length === 0 && <Text c="dimmed">{t('sharing.nothingShared')}</Text>}
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('nav.sharedWithMe')}>
        {(query.data ?? []).map((item) => {
          const Icon = item.type === 'folder' ? IconFolder : IconFile;
          const open = () => navigate(item.type === 'folder' ? filesUrl(item.path) : filesUrl(item.path.slice(0, item.path.lastIndexOf('/'))) + `?preview=${encodeURIComponent(item.path.slice(item.path.lastIndexOf('/') + 1))}`);
          return (
            <Card key={item.id} component="li" withBorder padding="sm" radius="md">
              <UnstyledButton onClick={open} style={{ width: '100%' }}>
                <Group wrap="nowrap" gap="sm" justify="space-between">
                  <Group wrap="nowrap" gap="sm" style={{ minWidth: 0 }}>
                    <Icon size={22} stroke={1.6} aria-hidden="true" style={{ flexShrink: 0 }} color={item.type === 'folder' ? 'var(--mantine-color-indigo-6)' : undefined} />
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Text fw={600} style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                        {item.name}
                      </Text>
                      <Text size="xs" c="dimmed" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                        {t('sharing.sharedBy', { owner: item.owner.nickname, email: item.owner.email, date: formatDate(item.created_at) })}
                      </Text>
                    </Stack>
                  </Group>
                  <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
                    {item.new && (
                      <Badge color="red" tt="none">
                        {t('sharing.new')}
                      </Badge>
                    )}
                    <Badge variant="light" tt="none" color={item.permission === 'write' ? 'indigo' : 'gray'}>
                      {item.permission === 'write' ? t('sharing.canEdit') : t('sharing.canView')}
                    </Badge>
                  </Group>
                </Group>
              </UnstyledButton>
            </Card>
          );
        })}
      </Stack>
    </Stack>
  );
}
