// /session/sso: where a provider's round trip ends (GET /session/sso/{id}/callback
// sends the browser here). With `code`, the one-time code becomes a session
// (POST /session/sso/exchange; the second step when the account has
// two-step verification) and the person goes on to `return_to`; with
// `linked`, a provider was linked from Settings; with `error`, the server's
// reason for refusing is shown and nobody is signed in.
import { Alert, Button, Stack, Title } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../api/generated/schema';
import { signInWithSsoCode } from '../../api/session';
import { useSession } from '../../app/session';
import { Link, navigate, useLocation } from '../../app/router';
import { Busy } from '../../components/Busy';
import { CenteredLayout } from '../../components/CenteredLayout';
import { errorMessage } from '../../components/errorMessage';
import { AlertIcon } from '../../components/icons';
import { SignInForm } from '../../components/SignInForm';
import { pageTitle } from '../../features/account/api';

type State = { kind: 'working' } | { kind: 'second-factor'; sessionId: string } | { kind: 'refused'; message: string };

/** A path on this site, or the files (the server checked it already; a page never trusts its query). */
export function safeReturnPath(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : '/files';
}

export default function SsoPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const { signedIn } = useSession();
  const query = useMemo(() => new URLSearchParams(search), [search]);
  const returnTo = safeReturnPath(query.get('return_to'));
  const [state, setState] = useState<State>(() => {
    const refused = query.get('error');
    if (refused) return { kind: 'refused', message: refused };
    if (!query.get('code') && !query.get('linked')) return { kind: 'refused', message: t('auth.sso.missing') };
    return { kind: 'working' };
  });
  const started = useRef(false);

  const finish = (user: User) => {
    signedIn(user);
    navigate(returnTo, { replace: true });
  };

  useEffect(() => {
    document.title = pageTitle(t('auth.signIn'));
  }, [t]);

  useEffect(() => {
    // Once: the code is single-use (React runs effects twice in development).
    if (started.current || state.kind !== 'working') return;
    started.current = true;
    if (query.get('linked')) {
      navigate(returnTo, { replace: true });
      return;
    }
    signInWithSsoCode(query.get('code')!).then(
      (result) => (result.kind === 'second-factor' ? setState({ kind: 'second-factor', sessionId: result.sessionId }) : finish(result.user)),
      (err: unknown) => setState({ kind: 'refused', message: errorMessage(err, t) }),
    );
  });

  return (
    <CenteredLayout>
      {state.kind === 'working' && <Busy label={t('auth.sso.working')} />}
      {state.kind === 'second-factor' && <SignInForm secondFactorSession={state.sessionId} onSignedIn={finish} />}
      {state.kind === 'refused' && (
        <Stack>
          <Title order={1} fz={22}>
            {t('auth.form.couldNotSignIn')}
          </Title>
          <Alert color="red" variant="light" icon={<AlertIcon size={18} />} role="alert">
            {state.message}
          </Alert>
          <Button component={Link} href={returnTo} variant="default">
            {t('auth.sso.back')}
          </Button>
        </Stack>
      )}
    </CenteredLayout>
  );
}
