// Dashboard → Settings → Sign-in providers (docs/features/identity.md): the
// OpenID Connect providers and LDAP directories, each with Test (what worked,
// or the provider's own error), edit, enable/disable and delete; and the
// password_sign_in switch, explained where it is.
import { Alert, Badge, Button, Card, Group as Row, List, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IconCheck, IconPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../components/errorMessage';
import { adminApi, type Group, type IdentityProvider, type ProviderTestResult, type SiteSettings } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { CopyField } from '../components/CopyField';
import { ProviderForm } from '../components/ProviderForm';

const KEY = ['admin', 'identity-providers'];

export function SignInProviders({ initial, groups }: { initial: SiteSettings; groups: Group[] }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const providers = useQuery({ queryKey: KEY, queryFn: adminApi.providers });
  const [editing, setEditing] = useState<IdentityProvider | 'new' | null>(null);
  const [deleting, setDeleting] = useState<IdentityProvider | null>(null);
  const [tests, setTests] = useState<Record<string, ProviderTestResult | string>>({});
  const [testing, setTesting] = useState<string | null>(null);
  const [passwordSignIn, setPasswordSignIn] = useState(initial.password_sign_in);
  const [switchError, setSwitchError] = useState<string | null>(null);

  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: KEY });
    await qc.invalidateQueries({ queryKey: ['site-config'] });
  };

  const test = async (p: IdentityProvider) => {
    setTesting(p.id);
    try {
      const result = await adminApi.testProvider(p.id);
      setTests((all) => ({ ...all, [p.id]: result }));
    } catch (err) {
      setTests((all) => ({ ...all, [p.id]: errorMessage(err, t) }));
    } finally {
      setTesting(null);
    }
  };

  const toggle = async (p: IdentityProvider, enabled: boolean) => {
    try {
      await adminApi.updateProvider(p.id, { enabled });
      await refresh();
    } catch (err) {
      notifications.show({ color: 'red', message: errorMessage(err, t) });
    }
  };

  const switchPasswords = async (on: boolean) => {
    setSwitchError(null);
    setPasswordSignIn(on);
    try {
      await adminApi.updateSettings({ password_sign_in: on });
      await qc.invalidateQueries({ queryKey: ['admin', 'settings'] });
      await qc.invalidateQueries({ queryKey: ['site-config'] });
    } catch (err) {
      setPasswordSignIn(!on);
      setSwitchError(errorMessage(err, t));
    }
  };

  return (
    <Card withBorder component="section" aria-labelledby="sign-in-providers">
      <Stack>
        <Row justify="space-between" align="flex-start">
          <Stack gap={4} style={{ flex: '1 1 16rem' }}>
            <Title order={2} fz={18} id="sign-in-providers">
              {t('admin.providers.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('admin.providers.intro')}
            </Text>
          </Stack>
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
            {t('admin.providers.add')}
          </Button>
        </Row>
        {providers.isError && (
          <Alert color="red" role="alert">
            {errorMessage(providers.error, t)}
          </Alert>
        )}
        {providers.data?.length === 0 && <Text size="sm">{t('admin.providers.none')}</Text>}
        {providers.data?.map((p) => {
          const result = tests[p.id];
          return (
            <Paper key={p.id} withBorder p="sm" component="article" aria-label={p.name}>
              <Stack gap="xs">
                <Row justify="space-between" wrap="wrap" gap="xs">
                  <Row gap="xs" wrap="wrap">
                    <Text fw={600}>{p.name}</Text>
                    <Badge variant="light" color="gray">
                      {p.type === 'oidc' ? t('admin.providers.oidc') : t('admin.providers.ldap')}
                    </Badge>
                    <Badge variant="light" color={p.enabled ? 'teal' : 'gray'}>
                      {p.enabled ? t('admin.providers.on') : t('admin.providers.off')}
                    </Badge>
                  </Row>
                  <Switch aria-label={t('admin.providers.enableNamed', { name: p.name })} checked={p.enabled} onChange={(e) => void toggle(p, e.currentTarget.checked)} />
                </Row>
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {p.type === 'oidc' ? p.issuer : p.url}
                </Text>
                {p.type === 'oidc' && (
                  <CopyField label={t('admin.providers.redirectUri')} description={t('admin.providers.redirectUriHelp')} value={`${window.location.origin}/api/v4/session/sso/${p.id}/callback`} />
                )}
                <Row gap="xs">
                  <Button size="xs" variant="light" loading={testing === p.id} onClick={() => void test(p)} aria-label={t('admin.providers.testNamed', { name: p.name })}>
                    {t('admin.providers.test')}
                  </Button>
                  <Button size="xs" variant="default" onClick={() => setEditing(p)} aria-label={t('admin.providers.editNamed', { name: p.name })}>
                    {t('admin.common.edit')}
                  </Button>
                  <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(p)} aria-label={t('admin.providers.deleteNamed', { name: p.name })}>
                    {t('admin.common.delete')}
                  </Button>
                </Row>
                {result !== undefined && <TestOutcome result={result} />}
              </Stack>
            </Paper>
          );
        })}
        <Switch
          label={t('admin.providers.passwordSignIn')}
          description={t('admin.providers.passwordSignInHelp')}
          checked={passwordSignIn}
          onChange={(e) => void switchPasswords(e.currentTarget.checked)}
        />
        {switchError && (
          <Alert color="red" role="alert">
            {switchError}
          </Alert>
        )}
      </Stack>
      {editing && (
        <ProviderForm
          provider={editing === 'new' ? null : editing}
          groups={groups}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            setTests((all) => {
              const { [saved.id]: _dropped, ...rest } = all;
              return rest;
            });
            notifications.show({ color: 'teal', message: t('admin.providers.saved', { name: saved.name }) });
            void refresh();
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          opened
          onClose={() => setDeleting(null)}
          title={t('admin.providers.deleteTitle', { name: deleting.name })}
          consequence={t('admin.providers.deleteConsequence')}
          confirmLabel={t('admin.common.delete')}
          onConfirm={async () => {
            await adminApi.deleteProvider(deleting.id);
            await refresh();
          }}
        />
      )}
    </Card>
  );
}

/** Each step of a test with what worked or the provider's own error; a refused request shows the server's message. */
function TestOutcome({ result }: { result: ProviderTestResult | string }) {
  const { t } = useTranslation();
  if (typeof result === 'string') {
    return (
      <Alert color="red" role="alert">
        {result}
      </Alert>
    );
  }
  return (
    <Alert color={result.ok ? 'teal' : 'red'} role="status" title={result.ok ? t('admin.providers.testOk') : t('admin.providers.testFailed')}>
      <List spacing={4} size="sm" listStyleType="none">
        {result.steps.map((s) => (
          <List.Item key={s.step} icon={s.ok ? <IconCheck size={16} color="var(--mantine-color-teal-8)" aria-hidden /> : <IconX size={16} color="var(--mantine-color-red-8)" aria-hidden />}>
            <Text span size="sm" fw={600}>
              {`${t(`admin.providers.step_${s.step}`, { defaultValue: s.step })} · ${s.ok ? t('admin.providers.stepOk') : t('admin.providers.stepFailed')}: `}
            </Text>
            <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
              {s.detail}
            </Text>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
