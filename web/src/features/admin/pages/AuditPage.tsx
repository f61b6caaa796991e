// Audit log: what happened and who did it (api-contract §17). Filters (action
// or prefix, actor UID, a time window), newest first with "Load older" (the
// server's cursor), export as JSON lines or CSV with the same filters, verify
// the hash chain, and how long rows are kept (the site setting).
import { Alert, Button, Card, Code, Group, Loader, NumberInput, ScrollArea, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '@mantine/hooks';
import { errorMessage } from '../../../components/errorMessage';
import { adminApi, type AuditEvent, type AuditQuery } from '../api';
import { formatDate } from '../format';

/** A datetime-local value (the browser's time zone) as RFC 3339, or undefined. */
function rfc3339(local: string): string | undefined {
  if (!local) return undefined;
  const ms = Date.parse(local);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function AuditPage() {
  const { t, i18n } = useTranslation();
  const [action, setAction] = useState('');
  const [actor, setActor] = useState('');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [debounced] = useDebouncedValue({ action: action.trim(), actor: actor.trim(), since, until }, 300);
  const query: AuditQuery = {
    ...(debounced.action ? { action: debounced.action } : {}),
    ...(debounced.actor ? { actor: debounced.actor } : {}),
    ...(rfc3339(debounced.since) ? { since: rfc3339(debounced.since) } : {}),
    ...(rfc3339(debounced.until) ? { until: rfc3339(debounced.until) } : {}),
  };
  const rows = useInfiniteQuery({
    queryKey: ['admin', 'audit', query],
    queryFn: ({ pageParam }) => adminApi.audit({ ...query, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: '' as string,
    getNextPageParam: (last) => last.cursor ?? undefined,
  });
  const verify = useMutation({ mutationFn: adminApi.verifyAudit });
  const [exporting, setExporting] = useState<'jsonl' | 'csv' | null>(null);
  const exportAs = async (format: 'jsonl' | 'csv') => {
    setExporting(format);
    try {
      save(await adminApi.exportAudit(query, format), `cirrus-audit-${new Date().toISOString().slice(0, 10)}.${format}`);
    } catch (err) {
      notifications.show({ color: 'red', message: errorMessage(err, t) });
    } finally {
      setExporting(null);
    }
  };
  const items: AuditEvent[] = rows.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <Stack>
      <Title order={1} fz={24}>
        {t('admin.nav.audit')}
      </Title>
      <Text c="var(--cirrus-muted)" size="sm">
        {t('admin.audit.intro')}
      </Text>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput label={t('admin.audit.action')} placeholder="session." value={action} onChange={(e) => setAction(e.currentTarget.value)} description={t('admin.audit.actionHint')} w={200} />
        <TextInput label={t('admin.audit.actor')} value={actor} onChange={(e) => setActor(e.currentTarget.value)} w={200} />
        <TextInput type="datetime-local" label={t('admin.audit.since')} value={since} onChange={(e) => setSince(e.currentTarget.value)} w={210} />
        <TextInput type="datetime-local" label={t('admin.audit.until')} value={until} onChange={(e) => setUntil(e.currentTarget.value)} w={210} />
      </Group>
      <Group gap="sm" wrap="wrap">
        <Button variant="default" onClick={() => void exportAs('jsonl')} loading={exporting === 'jsonl'}>
          {t('admin.audit.exportJsonl')}
        </Button>
        <Button variant="default" onClick={() => void exportAs('csv')} loading={exporting === 'csv'}>
          {t('admin.audit.exportCsv')}
        </Button>
        <Button onClick={() => verify.mutate()} loading={verify.isPending}>
          {t('admin.audit.verify')}
        </Button>
      </Group>
      <div aria-live="polite">
        {verify.isError && <Alert color="red" role="alert">{errorMessage(verify.error, t)}</Alert>}
        {verify.data && (verify.data.ok ? (
          <Alert color="teal" title={t('admin.audit.intact')}>{t('admin.audit.intactBody', { count: verify.data.checked })}</Alert>
        ) : (
          <Alert color="red" title={t('admin.audit.broken')}>{t('admin.audit.brokenBody', { seq: verify.data.first_bad_seq, count: verify.data.checked })}</Alert>
        ))}
      </div>
      {rows.isPending ? (
        <Loader aria-label={t('admin.list.loading')} />
      ) : rows.isError ? (
        <Alert color="red" role="alert">{errorMessage(rows.error, t)}</Alert>
      ) : items.length === 0 ? (
        <Text c="var(--cirrus-muted)" ta="center" py="xl">{t('admin.audit.empty')}</Text>
      ) : (
        // Focusable, so that keyboard users can scroll the wide table on a phone.
        <ScrollArea type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('admin.audit.tableRegion') }}>
          <Table striped verticalSpacing="xs" miw={640} aria-label={t('admin.nav.audit')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.audit.seq')}</Table.Th>
                <Table.Th>{t('admin.audit.time')}</Table.Th>
                <Table.Th>{t('admin.audit.action')}</Table.Th>
                <Table.Th>{t('admin.audit.actor')}</Table.Th>
                <Table.Th>{t('admin.audit.target')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('admin.audit.ip')}</Table.Th>
                <Table.Th visibleFrom="md">{t('admin.audit.userAgent')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((r) => (
                <Table.Tr key={r.seq}>
                  <Table.Td>{r.seq}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(r.at, i18n.language)}</Table.Td>
                  <Table.Td>
                    {/* Code, not a badge: a badge cuts long names short on a phone. */}
                    <Code color={r.action.endsWith('_failed') ? 'red.1' : r.action.startsWith('admin.') ? 'violet.1' : 'blue.1'} style={{ whiteSpace: 'nowrap' }}>
                      {r.action}
                    </Code>
                  </Table.Td>
                  <Table.Td>{r.actor_id ? <Code>{r.actor_id}</Code> : <Text size="sm" c="var(--cirrus-muted)">{t('admin.audit.nobody')}</Text>}</Table.Td>
                  {/* Wide enough for "site: settings" whole; a long id still wraps rather than widening the table. */}
                  <Table.Td style={{ minWidth: 170, overflowWrap: 'anywhere' }}>
                    <Text size="sm">{r.target_type}{r.target_id ? `: ${r.target_id}` : ''}</Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{r.ip}</Table.Td>
                  <Table.Td visibleFrom="md" style={{ maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={r.user_agent}>
                    {r.user_agent}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      {rows.hasNextPage && (
        <Group justify="center">
          <Button variant="default" onClick={() => void rows.fetchNextPage()} loading={rows.isFetchingNextPage}>
            {t('admin.audit.older')}
          </Button>
        </Group>
      )}
      <Retention />
    </Stack>
  );
}

function Retention() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const settings = useQuery({ queryKey: ['admin', 'settings'], queryFn: adminApi.settings });
  const [days, setDays] = useState<number | string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!settings.data) return null;
  const value = days ?? settings.data.audit_retention_days;
  const saveDays = async () => {
    setBusy(true);
    try {
      await adminApi.updateSettings({ audit_retention_days: Number(value) || 0 });
      await qc.invalidateQueries({ queryKey: ['admin', 'settings'] });
      notifications.show({ color: 'teal', message: t('admin.settings.saved') });
    } catch (err) {
      notifications.show({ color: 'red', message: errorMessage(err, t) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card withBorder>
      <Group align="flex-end" gap="sm">
        <NumberInput label={t('admin.audit.retention')} description={t('admin.audit.retentionHint')} min={0} max={36500} allowDecimal={false} value={value} onChange={setDays} w={260} />
        <Button onClick={() => void saveDays()} loading={busy}>
          {t('admin.common.save')}
        </Button>
      </Group>
    </Card>
  );
}
