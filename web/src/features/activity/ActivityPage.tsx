// The Activity page: what happened in everything the person can read (their
// files, what is shared with them, team folders), newest first, with filters
// by kind and by time.
import { Group, Select, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActivityList } from './ActivityList';
import { ACTIVITY_TYPES } from './api';

const PERIODS = { all: 0, day: 86_400_000, week: 7 * 86_400_000, month: 30 * 86_400_000 } as const;
type Period = keyof typeof PERIODS;

export default function ActivityPage() {
  const { t } = useTranslation();
  const [type, setType] = useState<string>('all');
  const [period, setPeriod] = useState<Period>('all');
  // Fixed while the period is chosen, so the query key (and the list) is stable.
  const [since, setSince] = useState<string | undefined>(undefined);
  const choosePeriod = (p: Period) => {
    setPeriod(p);
    setSince(p === 'all' ? undefined : new Date(Date.now() - PERIODS[p]).toISOString());
  };
  return (
    <Stack gap="md" maw={900}>
      <Title order={1} size="h3">{t('activity.page')}</Title>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t('activity.filterType')}
          value={type}
          onChange={(v) => setType(v ?? 'all')}
          data={[{ value: 'all', label: t('activity.allTypes') }, ...ACTIVITY_TYPES.map((k) => ({ value: k, label: t(`activity.typeName.${k}`) }))]}
          allowDeselect={false}
          w={220}
        />
        <Select
          label={t('activity.filterPeriod')}
          value={period}
          onChange={(v) => choosePeriod((v ?? 'all') as Period)}
          data={(Object.keys(PERIODS) as Period[]).map((p) => ({ value: p, label: t(`activity.period.${p}`) }))}
          allowDeselect={false}
          w={180}
        />
      </Group>
      <ActivityList query={{ ...(type !== 'all' ? { type } : {}), ...(since ? { since } : {}) }} label={t('activity.page')} />
    </Stack>
  );
}
