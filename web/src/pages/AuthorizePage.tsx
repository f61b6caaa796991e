// /session/authorize: sign in if needed, then ask for consent and send the
// browser back to the app (auth-interface §4.1, api-contract §5). When the
// request's client_id or redirect_uri is wrong, it shows an error and never
// redirects (RFC 6749 §4.1.2.1).
import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, ErrorCode } from '../api/client';
import { getIssuer, getPushedRequest, submitConsent } from '../api/oauth';
import type { User } from '../api/generated/schema';
import { AppAvatar } from '../components/AppAvatar';
import { Busy } from '../components/Busy';
import { CenteredLayout } from '../components/CenteredLayout';
import { AlertIcon } from '../components/icons';
import { useSession } from '../app/session';
import { SignInForm } from '../components/SignInForm';
import { alreadyConsented, documentStatus, errorRedirectUrl, isNavigableRedirect, parseAuthorizeRequest, redirectHost, type AuthorizeRequest } from '../oauth/authorize-request';
import { useLocation } from '../app/router';
import { ConsentPanel } from './authorize/ConsentPanel';
import { useAppInfo } from './authorize/useAppInfo';
import { pageTitle } from '../features/account/api';

type Outcome =
  | { kind: 'invalid'; message: string }
  | { kind: 'redirecting'; approved: boolean }
  | { kind: 'error'; message: string };

function InvalidRequest({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Title order={1} fz={22}>
        {t('authorize.invalidTitle')}
      </Title>
      <Alert color="red" variant="light" icon={<AlertIcon size={18} />} role="alert" title={t('authorize.cannotContinue')} style={{ overflowWrap: 'anywhere' }}>
        {message}
      </Alert>
      <Text size="sm" c="dimmed">
        {t('authorize.invalidHint')}
      </Text>
      <Anchor href="/" size="sm">
        {t('authorize.goHome')}
      </Anchor>
    </Stack>
  );
}

/**
 * RFC 9126 §4: with `request_uri` the query carries only client_id and
 * request_uri. The page shows the pushed parameters and forwards the two
 * to the consent API, which spends the request_uri.
 */
export function AuthorizePage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const query = useMemo(() => new URLSearchParams(search), [search]);
  const requestUri = query.get('request_uri');
  const clientId = query.get('client_id') ?? '';
  const [pushed, setPushed] = useState<{ for: string; req: AuthorizeRequest } | 'failed' | null>(null);

  useEffect(() => {
    if (requestUri === null) return;
    let current = true;
    getPushedRequest(clientId, requestUri).then(
      (params) => {
        if (!current) return;
        const shown = parseAuthorizeRequest(`?${new URLSearchParams(params)}`);
        setPushed({ for: requestUri, req: { ...shown, params: { client_id: clientId, request_uri: requestUri } } });
      },
      () => current && setPushed('failed'),
    );
    return () => {
      current = false;
    };
  }, [clientId, requestUri]);

  if (requestUri === null) return <AuthorizeFlow req={parseAuthorizeRequest(search)} />;
  if (pushed === 'failed') {
    return (
      <CenteredLayout>
        <InvalidRequest message={t('authorize.badRequestUri')} />
      </CenteredLayout>
    );
  }
  if (pushed === null || pushed.for !== requestUri) {
    return (
      <CenteredLayout>
        <Busy label={t('common.loading')} />
      </CenteredLayout>
    );
  }
  return <AuthorizeFlow req={pushed.req} />;
}

function AuthorizeFlow({ req }: { req: AuthorizeRequest }) {
  const { t } = useTranslation();
  const docStatus = useMemo(() => documentStatus(), []);
  const { session, signedIn, signOut } = useSession();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState<'approve' | 'deny' | null>(null);
  const [consentError, setConsentError] = useState<string | null>(null);
  const autoStarted = useRef<string | null>(null);

  const user: User | null = session.status === 'signed-in' ? session.user : null;
  const [appInfo, retryApp] = useAppInfo(req.clientId, user?.id ?? null, session.status !== 'loading');
  const needsSignIn = session.status === 'signed-out';
  const appName = appInfo.status === 'ready' ? appInfo.app.name : t('authorize.theApp');

  // Errors in client_id or redirect_uri: the server answered this page with 400.
  const invalidMessage = useMemo(() => {
    if (!req.clientId) return t('authorize.noClientId');
    if (appInfo.status === 'not-found') return t('authorize.unknownClient');
    if (!req.redirectUri) return t('authorize.noRedirect');
    if (docStatus === 400 && appInfo.status !== 'loading') {
      return t('authorize.badRedirect', { uri: req.redirectUri, app: appName });
    }
    return null;
  }, [req, appInfo.status, docStatus, appName, t]);

  useEffect(() => {
    document.title = appInfo.status === 'ready' ? pageTitle(`${t('authorize.titleApp', { app: appInfo.app.name })}`) : pageTitle(`${t('authorize.title')}`);
  }, [appInfo, t]);

  const decide = async (approve: boolean) => {
    setBusy(approve ? 'approve' : 'deny');
    setConsentError(null);
    try {
      const result = await submitConsent(req.params, approve);
      if (!isNavigableRedirect(result.redirect_uri)) {
        setOutcome({ kind: 'invalid', message: t('authorize.badAnswer') });
        return;
      }
      setOutcome({ kind: 'redirecting', approved: approve && Boolean(result.code) });
      window.location.assign(result.redirect_uri);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.code === ErrorCode.ParamError) setOutcome({ kind: 'invalid', message: err.message });
      else if (err instanceof ApiError && err.status === 401) setConsentError(null); // the session ended; the sign-in form takes over
      else setConsentError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(null);
    }
  };

  // The one error redirect only the page can detect: OIDC prompt=none without a
  // session (OIDC Core §3.1.2.6; the server holds no browser session). Only
  // when the server has vouched for redirect_uri by serving this document with 200.
  const redirectWithError = async (error: string, description: string) => {
    try {
      const issuer = await getIssuer();
      setOutcome({ kind: 'redirecting', approved: false });
      window.location.assign(errorRedirectUrl(req, error, description, issuer));
    } catch {
      setOutcome({ kind: 'error', message: t('authorize.silentNeedsSignIn', { app: appName }) });
    }
  };

  const ready = appInfo.status === 'ready' && invalidMessage === null && outcome === null && session.status !== 'loading';
  const appForUser = ready && user !== null && !needsSignIn && appInfo.forUser === user.id;
  const consented = appForUser && alreadyConsented(req.scopes, appInfo.app.consented_scopes);
  const silent = req.prompt.has('none') && docStatus === 200;
  // Automatic steps run once per account; if one fails, the page falls back to asking.
  const [autoTriedFor, setAutoTriedFor] = useState<string | null>(null);
  const autoKey = user?.id ?? '(signed out)';
  // prompt=none goes to the server too, which answers consent_required unless
  // the scopes were granted before.
  const autoApprove = appForUser && ((consented && !req.prompt.has('consent')) || req.prompt.has('none'));
  const autoPending = autoTriedFor !== autoKey && ((needsSignIn && silent) || autoApprove);

  useEffect(() => {
    if (!ready || !autoPending || autoStarted.current === autoKey) return;
    autoStarted.current = autoKey;
    setAutoTriedFor(autoKey);
    if (needsSignIn) void redirectWithError('login_required', 'The user is not signed in.');
    else void decide(true);
  });

  let body;
  if (invalidMessage !== null) body = <InvalidRequest message={invalidMessage} />;
  else if (outcome?.kind === 'invalid') body = <InvalidRequest message={outcome.message} />;
  else if (outcome?.kind === 'redirecting') body = <Busy label={outcome.approved ? t('authorize.granted', { app: appName }) : t('authorize.returning', { app: appName })} />;
  else if (outcome?.kind === 'error') body = <Alert color="red" role="alert" title={t('authorize.cannotContinue')}>{outcome.message}</Alert>;
  else if (appInfo.status === 'error' || session.status === 'error') {
    const message = appInfo.status === 'error' ? appInfo.message : session.status === 'error' ? session.message : '';
    body = (
      <Stack gap="md">
        <Alert color="red" variant="light" icon={<AlertIcon size={18} />} role="alert" title={t('authorize.loadFailed')}>
          {message}
        </Alert>
        <Button variant="default" onClick={() => (appInfo.status === 'error' ? retryApp() : window.location.reload())}>
          {t('common.retry')}
        </Button>
      </Stack>
    );
  } else if (appInfo.status !== 'ready' || session.status === 'loading') body = <Busy label={t('common.loading')} />;
  else if (autoPending || (autoTriedFor === autoKey && busy === 'approve' && !consentError)) body = <Busy label={t('authorize.returning', { app: appName })} />;
  else if (needsSignIn) {
    body = (
      <SignInForm
        defaultEmail={req.loginHint}
        onSignedIn={signedIn}
        heading={
          <Stack gap={6} align="center" ta="center" mb="xs">
            <AppAvatar name={appInfo.app.name} icon={appInfo.app.icon} size={56} />
            <Title order={1} fz={22}>
              {t('authorize.signInTo', { app: appInfo.app.name })}
            </Title>
            <Text size="sm" c="dimmed">
              {t('authorize.useAccount')}
            </Text>
          </Stack>
        }
      />
    );
  } else if (!user || appInfo.forUser !== user.id) body = <Busy label={t('common.loading')} />;
  else {
    body = (
      <ConsentPanel
        app={appInfo.app}
        user={user}
        scopes={req.scopes}
        redirectHost={redirectHost(req.redirectUri)}
        busy={busy}
        error={consentError}
        onApprove={() => void decide(true)}
        onDeny={() => void decide(false)}
        onSignOut={() => void signOut()}
      />
    );
  }

  const showFooter = invalidMessage === null && outcome === null;
  return <CenteredLayout footer={showFooter ? t('authorize.footer') : undefined}>{body}</CenteredLayout>;
}
export default AuthorizePage;
