// The pages a mailed link opens that need no form: /activate?token=… (the
// account is activated and the person signed in) and /verify-email?token=…
// (the address is verified, or changed to the new one). A used or expired
// link says so.
import { Alert, Anchor, Button, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, ErrorCode } from '../../api/client';
import { activateAccount } from '../../api/session';
import { CenteredLayout } from '../../components/CenteredLayout';
import { errorMessage } from '../../components/errorMessage';
import { Link, navigate, useLocation } from '../../app/router';
import { useSession } from '../../app/session';
import { confirmEmail } from './api';
import { pageTitle } from '../account/api';

type State = { kind: 'working' } | { kind: 'done'; email: string } | { kind: 'dead' } | { kind: 'error'; message: string };

function LinkPage({ mode }: { mode: 'activate' | 'verify' }) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const { signedIn } = useSession();
  const token = new URLSearchParams(search).get('token') ?? '';
  const [state, setState] = useState<State>({ kind: 'working' });
  const started = useRef(false);
  useEffect(() => {
    document.title = pageTitle(t(`account.${mode}.title`));
  }, [t, mode]);
  useEffect(() => {
    // The link works once: use it once, even when React runs effects twice.
    if (started.current) return;
    started.current = true;
    if (!/^[A-Za-z0-9_-]+$/.test(token)) {
      setState({ kind: 'dead' });
      return;
    }
    (async () => {
      try {
        if (mode === 'activate') {
          const user = await activateAccount(token);
          signedIn(user);
          setState({ kind: 'done', email: user.email });
        } else {
          const user = await confirmEmail(token);
          setState({ kind: 'done', email: user.email });
        }
      } catch (err) {
        if (err instanceof ApiError && err.code === ErrorCode.CredentialInvalid) setState({ kind: 'dead' });
        else setState({ kind: 'error', message: errorMessage(err, t) });
      }
    })();
  }, [mode, token, signedIn, t]);

  return (
    <CenteredLayout>
      <Stack gap="md">
        <Title order={1} fz={22} ta="center">
          {t(`account.${mode}.title`)}
        </Title>
        {state.kind === 'working' && <Loader size="sm" mx="auto" aria-label={t(`account.${mode}.working`)} />}
        {state.kind === 'done' && (
          <Alert color="teal" variant="light" role="status" title={t(`account.${mode}.doneTitle`)}>
            <Stack gap="xs">
              <Text size="sm">{t(`account.${mode}.done`, { email: state.email })}</Text>
              <Button onClick={() => navigate(mode === 'activate' ? '/files' : '/settings')}>{mode === 'activate' ? t('account.activate.open') : t('account.verify.open')}</Button>
            </Stack>
          </Alert>
        )}
        {state.kind === 'dead' && (
          <Alert color="orange" variant="light" role="alert" title={t('account.reset.deadTitle')}>
            <Text size="sm">{t(`account.${mode}.dead`)}</Text>
          </Alert>
        )}
        {state.kind === 'error' && (
          <Alert color="red" variant="light" role="alert">
            {state.message}
          </Alert>
        )}
        <Anchor component={Link} href="/" size="sm" ta="center">
          {t('account.backToSignIn')}
        </Anchor>
      </Stack>
    </CenteredLayout>
  );
}

export function ActivatePage() {
  return <LinkPage mode="activate" />;
}

export function VerifyEmailPage() {
  return <LinkPage mode="verify" />;
}
