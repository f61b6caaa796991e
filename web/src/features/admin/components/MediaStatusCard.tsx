// Thumbnails and metadata on the overview (api-contract §16): which kinds are
// made, and for a kind that is off the tool that is missing and the Debian
// package that brings it; blobs looked at, waiting and failed. While blobs
// wait, the counts are asked for again every few seconds.
import { Alert, Badge, Card, Code, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { StatCounts } from './StatCounts';
import { errorMessage } from '../../../components/errorMessage';
import { adminApi } from '../api';

const POLL_MS = 3_000;

export function MediaStatusCard() {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['admin', 'media-status'],
    queryFn: adminApi.mediaStatus,
    refetchInterval: (qr) => ((qr.state.data?.counts.pending ?? 0) > 0 ? POLL_MS : false),
  });
  const s = q.data;
  const counts: ['done' | 'pending' | 'failed', number | undefined][] = [
    ['done', s?.counts.done],
    ['pending', s?.counts.pending],
    ['failed', s?.counts.failed],
  ];
  const off = s?.kinds.filter((k) => !k.enabled) ?? [];
  return (
    <Card withBorder component="section" aria-labelledby="media-status-title" data-testid="media-status">
      <Title order={2} fz={16} id="media-status-title" mb="sm">
        {t('admin.mediaStatus.title')}
      </Title>
      {q.isError ? (
        <Alert color="red" role="alert">
          {errorMessage(q.error, t)}
        </Alert>
      ) : (
        <Stack gap="sm">
          <StatCounts idPrefix="media-status" dataAttribute="data-media-stat" items={counts.map(([key, value]) => [key, t(`admin.mediaStatus.${key}`), value])} />
          {s && (
            <Table.ScrollContainer minWidth={0}>
              <Table verticalSpacing={4} aria-labelledby="media-status-title">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('admin.mediaStatus.kind')}</Table.Th>
                    <Table.Th>{t('admin.mediaStatus.state')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {s.kinds.map((k) => (
                    <Table.Tr key={k.kind} data-media-kind={k.kind}>
                      <Table.Td>{t(`admin.mediaStatus.kinds.${k.kind}`)}</Table.Td>
                      <Table.Td>
                        {k.enabled ? (
                          <Badge color="teal" variant="light">
                            {t('admin.mediaStatus.on')}
                          </Badge>
                        ) : (
                          <Stack gap={2} align="flex-start">
                            <Badge color="gray" variant="light">
                              {t('admin.mediaStatus.off')}
                            </Badge>
                            <Text size="sm">
                              {t('admin.mediaStatus.missing', { tools: k.missing.join(', ') })}{' '}
                              {k.package && (
                                <>
                                  {t('admin.mediaStatus.install')} <Code>apt install {k.package}</Code>
                                </>
                              )}
                            </Text>
                          </Stack>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {off.length > 0 && (
            <Text size="sm" c="var(--cirrus-muted)">
              {t('admin.mediaStatus.offNote')}
            </Text>
          )}
        </Stack>
      )}
    </Card>
  );
}
