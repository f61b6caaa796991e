// The page a sync client opens (Login Flow v2: /index.php/login/v2/flow/<id>;
// v1, the mobile apps: /index.php/login/flow/<id>): sign in as usual (second
// factor and passkeys included), then "Grant access to <client>?". Granting
// makes a WebDAV account for the client; v2 clients then fetch its password
// by polling, v1 clients are sent to nc:// by the server (/done).
import { Alert, Avatar, Anchor, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ApiError, data } from '../../api/client';
import type { components } from '../../api/generated/schema';
import { useSession } from '../../app/session';
import type { PageProps } from '../../app/page-props';
import { useLocation } from '../../app/router';
import { Busy } from '../../components/Busy';
import { CenteredLayout } from '../../components/CenteredLayout';
import { errorMessage } from '../../components/errorMessage';
import { AlertIcon, CheckIcon, ShieldIcon } from '../../components/icons';
import { SignInGate } from '../../components/SignInGate';
import { pageTitle } from '../../features/account/api';

type Flow = components['schemas']['LoginFlow'];
type State = { kind: 'loading' } | { kind: 'gone' } | { kind: 'failed'; message: string } | { kind: 'ask'; flow: Flow } | { kind: 'done'; granted: boolean; client: string };

function Outcome({ icon, color, title, text }: { icon: 'check' | 'shield' | 'alert'; color: string; title: string; text: string }) {
  return (
    <Stack gap="md" align="center" ta="center" role="status">
      <ThemeIcon size={56} radius="xl" color={color} variant="light" aria-hidden="true">
        {icon === 'check' ? <CheckIcon size={30} /> : icon === 'shield' ? <ShieldIcon size={30} /> : <AlertIcon size={30} />}
      </ThemeIcon>
      <Title order={1} fz={22}>
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {text}
      </Text>
    </Stack>
  );
}

export function LoginFlowPage({ params }: PageProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const id = params.id ?? '';
  const v1 = !pathname.includes('/login/v2/');
  const { session, signOut } = useSession();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [busy, setBusy] = useState<'grant' | 'cancel' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const signedInNow = session.status === 'signed-in';

  useEffect(() => {
    document.title = pageTitle(t('loginFlow.title'));
  }, [t]);

  useEffect(() => {
    if (!signedInNow) return;
    let live = true;
    setState({ kind: 'loading' });
    data(api().GET('/api/v4/sync/login-flows/{id}', { params: { path: { id } } })).then(
      (flow) => live && setState({ kind: 'ask', flow }),
      (err: unknown) => live && setState(err instanceof ApiError && (err.status === 404 || err.status === 400) ? { kind: 'gone' } : { kind: 'failed', message: errorMessage(err, t) }),
    );
    return () => {
      live = false;
    };
  }, [id, signedInNow, t]);

  const decide = async (flow: Flow, grant: boolean) => {
    setBusy(grant ? 'grant' : 'cancel');
    setError(null);
    try {
      if (grant) await data(api().POST('/api/v4/sync/login-flows/{id}/grant', { params: { path: { id } } }));
      else await data(api().DELETE('/api/v4/sync/login-flows/{id}', { params: { path: { id } } }));
      // v1: the server hands the app its password in an nc:// redirect.
      if (grant && v1) window.location.assign(`/index.php/login/flow/${encodeURIComponent(id)}/done`);
      setState({ kind: 'done', granted: grant, client: flow.client_name });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) setState({ kind: 'gone' });
      else setError(errorMessage(err, t));
    } finally {
      setBusy(null);
    }
  };

  let body;
  if (session.status !== 'signed-in') body = <SignInGate title={t('loginFlow.signIn')} hint={t('loginFlow.signInHint')} errorTitle={t('common.error')} />;
  else if (state.kind === 'loading') body = <Busy label={t('common.loading')} />;
  else if (state.kind === 'gone') body = <Outcome icon="alert" color="orange" title={t('loginFlow.goneTitle')} text={t('loginFlow.goneText')} />;
  else if (state.kind === 'failed') {
    body = (
      <Alert color="red" variant="light" icon={<AlertIcon size={18} />} role="alert" title={t('common.error')}>
        {state.message}
      </Alert>
    );
  } else if (state.kind === 'done') {
    body = state.granted ? (
      <Outcome icon="check" color="teal" title={t('loginFlow.grantedTitle')} text={t('loginFlow.grantedText', { client: state.client })} />
    ) : (
      <Outcome icon="shield" color="gray" title={t('loginFlow.cancelledTitle')} text={t('loginFlow.cancelledText')} />
    );
  } else {
    const { flow } = state;
    const user = session.user;
    body = (
      <Stack gap="lg">
        <Stack gap="xs" align="center" ta="center">
          <ThemeIcon size={56} radius="xl" variant="light" aria-hidden="true">
            <ShieldIcon size={30} />
          </ThemeIcon>
          {/* React escapes the client's name: it comes from a User-Agent anyone can send. */}
          <Title order={1} fz={22} style={{ overflowWrap: 'anywhere' }}>
            {t('loginFlow.grantTitle', { client: flow.client_name, interpolation: { escapeValue: false } })}
          </Title>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {t('loginFlow.grantText', { client: flow.client_name, interpolation: { escapeValue: false } })}
          </Text>
        </Stack>
        <Paper withBorder radius="md" p="sm" bg="var(--mantine-color-default-hover)">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 12rem' }}>
              <Avatar src={user.avatar_url ?? undefined} name={user.nickname || user.email} size={36} radius="xl" alt="" />
              <div style={{ minWidth: 0 }}>
                <Text size="xs" c="dimmed">
                  {t('loginFlow.signedInAs')}
                </Text>
                <Text fw={600} size="sm" truncate="end">
                  {user.email}
                </Text>
              </div>
            </Group>
            <Anchor component="button" type="button" size="sm" c="var(--cirrus-link-on-tint)" onClick={() => void signOut()} style={{ whiteSpace: 'nowrap' }}>
              {t('loginFlow.notYou')}
            </Anchor>
          </Group>
        </Paper>
        {error && (
          <Alert color="red" variant="light" icon={<AlertIcon size={18} />} role="alert" title={t('common.error')}>
            {error}
          </Alert>
        )}
        <Group grow gap="sm">
          <Button variant="default" onClick={() => void decide(flow, false)} loading={busy === 'cancel'} disabled={busy !== null}>
            {t('loginFlow.cancel')}
          </Button>
          <Button onClick={() => void decide(flow, true)} loading={busy === 'grant'} disabled={busy !== null}>
            {t('loginFlow.grant')}
          </Button>
        </Group>
      </Stack>
    );
  }

  const finished = state.kind === 'done' || state.kind === 'gone';
  return <CenteredLayout footer={finished ? undefined : t('loginFlow.footer')}>{body}</CenteredLayout>;
}
export default LoginFlowPage;
