// /session/logout (OpenID Connect RP-Initiated Logout 1.0): an app sends the
// browser here to sign the person out. Only with a live id_token_hint naming
// the person signed in here does it happen at once; otherwise (no hint, a
// stale one, someone else's, or nobody signed in) the person is asked first,
// and "Stay signed in" goes nowhere (§2). The app's
// session family ends on the server, this browser's Cirrus session ends here,
// and the browser goes back to the app's registered post-logout URI (with
// state), or sees a signed-out page. A request the server refused (an
// unregistered URI) shows an error and never redirects.
import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkLogout, endAppSession, type LogoutParams } from '../../api/logout';
import type { LogoutView } from '../../api/generated/schema';
import { useSession } from '../../app/session';
import { useLocation } from '../../app/router';
import { Busy } from '../../components/Busy';
import { CenteredLayout } from '../../components/CenteredLayout';
import { errorMessage } from '../../components/errorMessage';
import { AlertIcon } from '../../components/icons';
import { pageTitle } from '../../features/account/api';

type State =
  | { kind: 'loading' }
  | { kind: 'invalid'; message: string }
  | { kind: 'ask'; view: LogoutView }
  | { kind: 'working' }
  | { kind: 'stayed'; signedIn: boolean }
  | { kind: 'done' };

export function LogoutPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const params = useMemo<LogoutParams>(() => {
    const q = new URLSearchParams(search);
    const out: LogoutParams = {};
    for (const name of ['id_token_hint', 'post_logout_redirect_uri', 'state', 'client_id'] as const) {
      const v = q.get(name);
      if (v !== null) out[name] = v;
    }
    return out;
  }, [search]);
  const { session, signOut } = useSession();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const started = useRef(false);

  const finish = async () => {
    setState({ kind: 'working' });
    try {
      const { redirect_uri } = await endAppSession(params);
      if (session.status === 'signed-in' || session.status === 'loading') await signOut();
      if (redirect_uri) window.location.assign(redirect_uri);
      else setState({ kind: 'done' });
    } catch (err) {
      setState({ kind: 'invalid', message: errorMessage(err, t) });
    }
  };

  useEffect(() => {
    document.title = pageTitle(`${t('logout.title')}`);
  }, [t]);

  useEffect(() => {
    if (started.current || session.status === 'loading') return;
    started.current = true;
    checkLogout(params).then(
      (view) => {
        if (view.confirm) setState({ kind: 'ask', view });
        else void finish();
      },
      (err: unknown) => setState({ kind: 'invalid', message: errorMessage(err, t) }),
    );
  });

  let body;
  if (state.kind === 'loading' || state.kind === 'working') body = <Busy label={t('logout.working')} />;
  else if (state.kind === 'invalid') {
    body = (
      <Stack gap="md">
        <Title order={1} fz={22}>
          {t('logout.invalidTitle')}
        </Title>
        <Alert color="red" variant="light" icon={<AlertIcon size={18} />} role="alert" style={{ overflowWrap: 'anywhere' }}>
          {state.message}
        </Alert>
        <Anchor href="/" size="sm">
          {t('authorize.goHome')}
        </Anchor>
      </Stack>
    );
  } else if (state.kind === 'ask') {
    const app = state.view.client?.name;
    const signedIn = state.view.reason !== 'not_signed_in';
    body = (
      <Stack gap="md">
        <Title order={1} fz={22}>
          {t('logout.askTitle')}
        </Title>
        <Text size="sm">{app ? t('logout.askApp', { app }) : t('logout.ask')}</Text>
        {state.view.reason === 'other_account' && (
          <Alert color="orange" variant="light" icon={<AlertIcon size={18} />}>
            {t('logout.otherAccount')}
          </Alert>
        )}
        {!signedIn && (
          <Text size="sm" c="dimmed">
            {t('logout.notSignedIn')}
          </Text>
        )}
        <Group grow gap="sm">
          {/* Staying never follows post_logout_redirect_uri: the request was not confirmed. */}
          <Button variant="default" onClick={() => setState({ kind: 'stayed', signedIn })}>
            {signedIn ? t('logout.stay') : t('logout.cancel')}
          </Button>
          <Button onClick={() => void finish()}>{signedIn ? t('logout.signOut') : t('logout.continue')}</Button>
        </Group>
      </Stack>
    );
  } else {
    body = (
      <Stack gap="md" role="status">
        <Title order={1} fz={22}>
          {state.kind === 'done' ? t('logout.doneTitle') : state.signedIn ? t('logout.stayedTitle') : t('logout.cancelledTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {state.kind === 'done' ? t('logout.doneText') : t('logout.stayedText')}
        </Text>
        <Anchor href="/" size="sm">
          {t('authorize.goHome')}
        </Anchor>
      </Stack>
    );
  }
  return <CenteredLayout>{body}</CenteredLayout>;
}
export default LogoutPage;
