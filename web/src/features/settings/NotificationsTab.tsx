// Settings → Notifications: per kind, shown in the app (a switch) and how it
// is mailed (off, at once, in the daily digest). Each change is saved at once.
import { Select, Switch, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Busy } from '../../components/Busy';
import { KINDS, preferencesQuery, savePreferences, type EmailMode, type NotificationKind } from '../notifications/api';

export default function NotificationsTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const prefs = useQuery(preferencesQuery);
  const save = useMutation({
    mutationFn: (change: { kind: NotificationKind; web?: boolean; email?: EmailMode }) => savePreferences({ [change.kind]: { web: change.web, email: change.email } }),
    onSuccess: (data) => queryClient.setQueryData(preferencesQuery.queryKey, data),
  });
  if (!prefs.data) return <Busy label={t('common.loading')} />;
  const modes: EmailMode[] = ['off', 'instant', 'daily'];
  return (
    <>
      <Text size="sm" c="dimmed" mb="md">
        {t('notifications.prefs.intro')}
      </Text>
      <Table.ScrollContainer minWidth={320}>
        <Table verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('notifications.prefs.kind')}</Table.Th>
              <Table.Th>{t('notifications.prefs.web')}</Table.Th>
              <Table.Th>{t('notifications.prefs.email')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {KINDS.map((kind) => {
              const p = prefs.data[kind];
              const name = t(`notifications.kinds.${kind}`);
              return (
                <Table.Tr key={kind}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {name}
                    </Text>
                    {kind === 'security_change' && (
                      <Text size="xs" c="dimmed">
                        {t('notifications.prefs.securityNote')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Switch checked={p.web} aria-label={t('notifications.prefs.webFor', { kind: name })} onChange={(e) => save.mutate({ kind, web: e.currentTarget.checked })} />
                  </Table.Td>
                  <Table.Td miw={150}>
                    <Select
                      size="xs"
                      aria-label={t('notifications.prefs.emailFor', { kind: name })}
                      data={modes.map((m) => ({ value: m, label: t(`notifications.prefs.modes.${m}`) }))}
                      value={p.email}
                      allowDeselect={false}
                      onChange={(v) => v && save.mutate({ kind, email: v as EmailMode })}
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
