// One OAuth app: what its developer needs (Client ID, the endpoints, with copy
// buttons), the secret once after creation or regeneration, and edit, enable/
// disable, regenerate and delete, each stating its consequence.
import { Alert, Anchor, Badge, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../components/errorMessage';
import { AppAvatar } from '../../../components/AppAvatar';
import { Link, navigate } from '../../../app/router';
import { adminApi, type OAuthApp } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { CopyField } from '../components/CopyField';
import { OAuthAppForm, SecretOnce } from '../components/OAuthAppForm';
import { takeSecret } from './secret-once';

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
}

async function discovery(): Promise<Discovery> {
  const res = await fetch('/.well-known/openid-configuration', { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return (await res.json()) as Discovery;
}

export function OAuthAppPage({ id }: { id?: string }) {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: ['admin', 'app', id], queryFn: () => adminApi.app(id!) });
  const [secret, setSecret] = useState<string | undefined>(() => takeSecret(id!));
  if (q.isPending) return <Center py="xl"><Loader aria-label={t('admin.list.loading')} /></Center>;
  if (q.isError) return <Alert color="red" role="alert">{errorMessage(q.error, t)}</Alert>;
  return <AppDetail app={q.data} secret={secret} onSecret={setSecret} />;
}

function AppDetail({ app, secret, onSecret }: { app: OAuthApp; secret?: string; onSecret: (s: string) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const endpoints = useQuery({ queryKey: ['discovery'], queryFn: discovery, staleTime: Infinity });
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState<'regenerate' | 'disable' | 'delete' | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ['admin'] });

  return (
    <Stack maw={820}>
      <Anchor component={Link} href="/admin/apps" size="sm">
        ← {t('admin.nav.apps')}
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Group wrap="nowrap">
          <AppAvatar name={app.name} icon={app.icon} size={56} />
          <div>
            <Title order={1} fz={24}>
              {app.name}
            </Title>
            <Group gap={6} mt={4}>
              <Badge variant="dot" color={app.is_enabled ? 'teal' : 'gray'}>
                {app.is_enabled ? t('admin.apps.isEnabled') : t('admin.apps.isDisabled')}
              </Badge>
              <Badge variant="dot">{app.is_public ? t('admin.apps.publicBadge') : t('admin.apps.confidentialBadge')}</Badge>
            </Group>
          </div>
        </Group>
        <Group gap="xs">
          <Button variant="default" onClick={() => setEditing((e) => !e)}>
            {editing ? t('admin.common.cancel') : t('admin.common.edit')}
          </Button>
          {!app.is_public && (
            <Button variant="default" onClick={() => setConfirm('regenerate')}>
              {t('admin.apps.regenerate')}
            </Button>
          )}
          {app.is_enabled ? (
            <Button variant="default" onClick={() => setConfirm('disable')}>
              {t('admin.apps.disable')}
            </Button>
          ) : (
            <Button
              variant="default"
              onClick={async () => {
                await adminApi.updateApp(app.id, { is_enabled: true });
                await refresh();
              }}
            >
              {t('admin.apps.enable')}
            </Button>
          )}
          <Button variant="light" color="red" onClick={() => setConfirm('delete')}>
            {t('admin.common.delete')}
          </Button>
        </Group>
      </Group>
      {secret && <SecretOnce secret={secret} />}
      {editing ? (
        <Card withBorder>
          <OAuthAppForm
            app={app}
            submitLabel={t('admin.common.save')}
            onSubmit={async (fields) => {
              await adminApi.updateApp(app.id, fields);
              await refresh();
              setEditing(false);
              notifications.show({ color: 'teal', message: t('admin.apps.saved') });
            }}
          />
        </Card>
      ) : (
        <Card withBorder>
          <Stack>
            <Title order={2} fz={16}>
              {t('admin.apps.forDevelopers')}
            </Title>
            <CopyField label={t('admin.apps.field.clientId')} value={app.id} />
            {endpoints.data && (
              <>
                <CopyField label={t('admin.apps.authorizeUrl')} value={endpoints.data.authorization_endpoint} />
                <CopyField label={t('admin.apps.tokenUrl')} value={endpoints.data.token_endpoint} />
                <CopyField label={t('admin.apps.userinfoUrl')} value={endpoints.data.userinfo_endpoint} />
                <CopyField label={t('admin.apps.discoveryUrl')} value={`${endpoints.data.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`} />
              </>
            )}
            <div>
              <Text size="sm" fw={600}>
                Redirect URIs
              </Text>
              {app.redirect_uris.map((u) => (
                <Text key={u} ff="monospace" size="sm">
                  {u}
                </Text>
              ))}
            </div>
            <div>
              <Text size="sm" fw={600}>
                {t('admin.apps.scopes')}
              </Text>
              <Group gap={4} mt={4}>
                {app.scopes.map((s) => (
                  <Badge key={s} variant="outline" tt="none">
                    {s}
                  </Badge>
                ))}
              </Group>
            </div>
          </Stack>
        </Card>
      )}
      <ConfirmDialog
        opened={confirm === 'regenerate'}
        onClose={() => setConfirm(null)}
        title={t('admin.apps.regenerate')}
        consequence={t('admin.apps.regenerateConsequence', { name: app.name })}
        confirmLabel={t('admin.apps.regenerate')}
        onConfirm={async () => {
          const updated = await adminApi.updateApp(app.id, { regenerate_secret: true });
          if (updated.secret) onSecret(updated.secret);
          await refresh();
        }}
      />
      <ConfirmDialog
        opened={confirm === 'disable'}
        onClose={() => setConfirm(null)}
        title={t('admin.apps.disable')}
        consequence={t('admin.apps.disableConsequence', { name: app.name })}
        confirmLabel={t('admin.apps.disable')}
        onConfirm={async () => {
          await adminApi.updateApp(app.id, { is_enabled: false });
          await refresh();
        }}
      />
      <ConfirmDialog
        opened={confirm === 'delete'}
        onClose={() => setConfirm(null)}
        title={t('admin.apps.deleteTitle')}
        consequence={t('admin.apps.deleteConsequence', { name: app.name })}
        confirmLabel={t('admin.common.delete')}
        onConfirm={async () => {
          await adminApi.deleteApp(app.id);
          await refresh();
          navigate('/admin/apps');
        }}
      />
    </Stack>
  );
}
