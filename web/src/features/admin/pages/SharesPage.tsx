// Shares: every share link with its owner, item, views, downloads and expiry; take one down.
import { Anchor, Badge, Button, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, type AdminShare } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ListView, type Column } from '../components/ListView';
import { formatDate } from '../format';

export function SharesPage() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [takingDown, setTakingDown] = useState<AdminShare | null>(null);
  const item = (s: AdminShare) => s.path ?? s.name ?? t('admin.shares.gone');

  const columns: Column<AdminShare>[] = [
    {
      key: 'item',
      label: t('admin.shares.item'),
      sortable: true,
      render: (s) => (
        <div>
          <Text size="sm" fw={500}>
            {item(s)}
          </Text>
          {s.url && (
            <Anchor href={s.url} size="xs" target="_blank" rel="noreferrer noopener">
              {s.id}
            </Anchor>
          )}
        </div>
      ),
    },
    { key: 'owner', label: t('admin.shares.owner'), sortable: true, render: (s) => s.owner?.email ?? '–' },
    { key: 'views', label: t('admin.shares.views'), sortable: true, wide: true, render: (s) => s.views },
    { key: 'downloads', label: t('admin.shares.downloads'), sortable: true, wide: true, render: (s) => (s.download_limit ? `${s.downloads} / ${s.download_limit}` : s.downloads) },
    { key: 'created_at', label: t('admin.shares.created'), sortable: true, wide: true, render: (s) => formatDate(s.created_at, i18n.language) },
    { key: 'expires_at', label: t('admin.shares.expires'), sortable: true, wide: true, render: (s) => (s.expires_at ? formatDate(s.expires_at, i18n.language) : t('admin.shares.never')) },
    { key: 'status', label: t('admin.shares.status'), render: (s) => <Badge variant="dot" color={s.status === 'active' ? 'teal' : 'gray'} style={{ minWidth: 'max-content' }}>{t(`admin.shares.${s.status}`)}</Badge> },
    {
      key: 'actions',
      label: t('admin.common.actions'),
      render: (s) => (
        <Button size="xs" color="red" variant="light" onClick={() => setTakingDown(s)} aria-label={t('admin.shares.takeDownNamed', { item: item(s) })}>
          {t('admin.shares.takeDown')}
        </Button>
      ),
    },
  ];

  return (
    <Stack>
      <Title order={1} fz={24}>
        {t('admin.nav.shares')}
      </Title>
      <ListView
        queryKey="shares"
        load={(p) => adminApi.shares(p)}
        columns={columns}
        rowKey={(s) => s.id}
        searchLabel={t('admin.shares.search')}
        defaultSort={{ by: 'created_at', direction: 'desc' }}
        emptyText={t('admin.shares.empty')}
      />
      <ConfirmDialog
        opened={takingDown !== null}
        onClose={() => setTakingDown(null)}
        title={t('admin.shares.takeDown')}
        consequence={takingDown ? t('admin.shares.takeDownConsequence', { item: item(takingDown), owner: takingDown.owner?.email ?? '–' }) : ''}
        confirmLabel={t('admin.shares.takeDown')}
        onConfirm={async () => {
          if (!takingDown) return;
          await adminApi.takeDownShare(takingDown.id);
          await qc.invalidateQueries({ queryKey: ['admin'] });
        }}
      />
    </Stack>
  );
}
