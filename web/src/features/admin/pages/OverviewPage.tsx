// Overview: counts, what the site runs on, sign-ups and uploads over the last 30 days, and the content index.
import { AreaChart } from '@mantine/charts';
import { Alert, Badge, Card, Center, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../components/errorMessage';
import { adminApi } from '../api';
import { formatBytes } from '../format';
import { SearchIndexCard } from '../components/SearchIndexCard';
import { MediaStatusCard } from '../components/MediaStatusCard';

export function OverviewPage() {
  const { t, i18n } = useTranslation();
  const q = useQuery({ queryKey: ['admin', 'summary'], queryFn: adminApi.summary });
  if (q.isPending) return <Center py="xl"><Loader aria-label={t('admin.list.loading')} /></Center>;
  if (q.isError) return <Alert color="red" role="alert">{errorMessage(q.error, t)}</Alert>;
  const s = q.data;
  const stats: [string, string][] = [
    ['users', String(s.users)],
    ['files', String(s.files)],
    ['storage', formatBytes(s.storage_used)],
    ['shares', String(s.shares)],
    ['apps', String(s.oauth_apps)],
    ['sessions', String(s.active_sessions)],
  ];
  const data = s.days.map((d) => ({
    day: new Date(`${d.date}T00:00:00Z`).toLocaleDateString(i18n.language, { month: 'short', day: 'numeric', timeZone: 'UTC' }),
    [t('admin.overview.signUps')]: d.sign_ups,
    [t('admin.overview.uploads')]: d.uploads,
  }));
  return (
    <Stack>
      <Title order={1} fz={24}>
        {t('admin.nav.overview')}
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
        {stats.map(([key, value]) => (
          <Card key={key} withBorder padding="md" aria-label={t(`admin.overview.${key}`)}>
            <Text size="xs" c="var(--cirrus-muted)" tt="uppercase" fw={600}>
              {t(`admin.overview.${key}`)}
            </Text>
            <Text fz={26} fw={700} data-stat={key}>
              {value}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <Group gap="xs">
        <Badge variant="dot">{t('admin.overview.version', { version: s.version })}</Badge>
        <Badge variant="dot" color="teal">
          {t('admin.overview.database', { name: s.database === 'postgres' ? 'PostgreSQL' : 'SQLite' })}
        </Badge>
        <Badge variant="dot" color="grape">
          {t('admin.overview.storageDriver', { name: s.storage_driver })}
        </Badge>
      </Group>
      <Card withBorder>
        <Title order={2} fz={16} mb="sm">
          {t('admin.overview.chartTitle')}
        </Title>
        <AreaChart
          h={240}
          data={data}
          dataKey="day"
          series={[
            { name: t('admin.overview.signUps'), color: 'indigo.6' },
            { name: t('admin.overview.uploads'), color: 'teal.6' },
          ]}
          curveType="monotone"
          withLegend
          yAxisProps={{ allowDecimals: false }}
          aria-label={t('admin.overview.chartTitle')}
        />
      </Card>
      <SearchIndexCard />
      <MediaStatusCard />
    </Stack>
  );
}
