// E-mail and password, then the authenticator code when the account has
// two-step verification (envelope code 203). Errors show the server's message.
// Or a passkey: the button, or the e-mail field's autofill (conditional UI),
// through the browser's WebAuthn API (api/webauthn.ts, no library).
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ApiError, ErrorCode } from '../api/client';
import { conditionalMediationAvailable, isCancelled, passkeysAvailable, signIn, signInSecondFactor, signInWithPasskey, ssoStartUrl } from '../api/session';
import type { User } from '../api/generated/schema';
import { AlertIcon } from './icons';
import { Link } from '../app/router';
import { resendActivation, useSiteConfig } from '../features/account/api';
import { errorMessage } from './errorMessage';

function messageOf(err: unknown, t: TFunction): string {
  // A wrong password or code says all there is to say in the reader's language;
  // other errors (a lockout with its wait, a disabled account) keep the server's detail.
  if (err instanceof ApiError && (err.code === ErrorCode.SignInFailed || err.code === ErrorCode.WrongOtp)) return t(`errors.${err.code}`);
  if (err instanceof ApiError) return errorMessage(err, t);
  return t('auth.form.failed');
}

export interface SignInFormProps {
  onSignedIn(user: User): void;
  heading?: ReactNode;
  defaultEmail?: string;
  /** Start at the second step: a provider's sign-in answered 203 with this session id. */
  secondFactorSession?: string;
}

export function SignInForm({ onSignedIn, heading, defaultEmail = '', secondFactorSession }: SignInFormProps) {
  const { t } = useTranslation();
  const [email, setEmail] = useState(defaultEmail);
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  const [sessionId, setSessionId] = useState<string | null>(secondFactorSession ?? null);
  // The second step takes a recovery code instead of the authenticator's code.
  const [recovery, setRecovery] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // 40018: the right password, but the account waits for its activation link.
  const [inactive, setInactive] = useState<string | null>(null);
  const [resent, setResent] = useState(false);
  // "Forgot password?" only where the site can send the mail.
  const site = useSiteConfig();
  const providers = site.data?.sign_in_providers ?? [];
  // Passkeys: not on an IP address (browsers refuse WebAuthn there).
  const [passkeys] = useState(passkeysAvailable);
  // The pending conditional request (the autofill); the button aborts it first.
  const conditional = useRef<AbortController | null>(null);
  const [autofillRound, setAutofillRound] = useState(0);
  const signedIn = useRef(onSignedIn);
  signedIn.current = onSignedIn;

  const passkeyFailed = (err: unknown) => {
    if (isCancelled(err)) return;
    setError(err instanceof ApiError ? messageOf(err, t) : t('passkeys.failed'));
  };

  useEffect(() => {
    if (!passkeys || sessionId) return;
    const controller = new AbortController();
    conditional.current = controller;
    void conditionalMediationAvailable().then((available) => {
      if (!available || controller.signal.aborted) return;
      signInWithPasskey(controller.signal).then(
        (user) => signedIn.current(user),
        (err: unknown) => {
          if (!controller.signal.aborted) passkeyFailed(err);
        },
      );
    });
    return () => controller.abort();
  }, [passkeys, sessionId, autofillRound]);

  const passkeyButton = async () => {
    conditional.current?.abort();
    setBusy(true);
    setError(null);
    setInactive(null);
    try {
      onSignedIn(await signInWithPasskey());
    } catch (err) {
      if (err instanceof ApiError && err.code === ErrorCode.NotActivated) setInactive(String((err.data as { email?: string } | null)?.email ?? ''));
      else passkeyFailed(err);
      // The autofill offers passkeys again.
      setAutofillRound((n) => n + 1);
    } finally {
      setBusy(false);
    }
  };

  const submitPassword = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setInactive(null);
    setResent(false);
    try {
      const result = await signIn(email.trim(), password);
      if (result.kind === 'second-factor') {
        setSessionId(result.sessionId);
        setPassword('');
      } else {
        onSignedIn(result.user);
      }
    } catch (err) {
      if (err instanceof ApiError && err.code === ErrorCode.NotActivated) setInactive(email.trim());
      else setError(messageOf(err, t));
    } finally {
      setBusy(false);
    }
  };

  const submitOtp = async (event: FormEvent) => {
    event.preventDefault();
    if (!sessionId) return;
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signInSecondFactor(sessionId, otp.trim()));
    } catch (err) {
      setError(messageOf(err, t));
      setOtp('');
    } finally {
      setBusy(false);
    }
  };

  const errorAlert = error && (
    <Alert color="red" variant="light" icon={<AlertIcon size={18} />} role="alert" title={t('auth.form.couldNotSignIn')}>
      {error}
    </Alert>
  );

  if (sessionId) {
    return (
      <form onSubmit={submitOtp} aria-label={t('auth.form.twoStep')}>
        <Stack gap="md">
          <div>
            <Text fw={700} fz="lg">
              {t('auth.form.twoStep')}
            </Text>
            <Text size="sm" c="dimmed">
              {recovery ? t('account.recovery.enter') : t('auth.form.enterCode')}
            </Text>
          </div>
          {errorAlert}
          {recovery ? (
            <TextInput
              key="recovery"
              label={t('account.recovery.code')}
              value={otp}
              onChange={(e) => setOtp(e.currentTarget.value.trim().slice(0, 11))}
              autoComplete="off"
              placeholder="abcde-12345"
              required
              withAsterisk={false}
              autoFocus
            />
          ) : (
            <TextInput
              key="totp"
              label={t('auth.form.code')}
              value={otp}
              onChange={(e) => setOtp(e.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder="123456"
              required
              withAsterisk={false}
              autoFocus
              styles={{ input: { letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' } }}
            />
          )}
          <Button type="submit" loading={busy} disabled={recovery ? otp.replace(/[- ]/g, '').length !== 10 : otp.length !== 6} fullWidth>
            {t('auth.form.verify')}
          </Button>
          <Anchor
            component="button"
            type="button"
            size="sm"
            ta="center"
            onClick={() => {
              setRecovery(!recovery);
              setOtp('');
              setError(null);
            }}
          >
            {recovery ? t('account.recovery.useTotp') : t('account.recovery.use')}
          </Anchor>
          <Anchor
            component="button"
            type="button"
            size="sm"
            ta="center"
            onClick={() => {
              setSessionId(null);
              setOtp('');
              setError(null);
            }}
          >
            {t('auth.form.otherAccount')}
          </Anchor>
        </Stack>
      </form>
    );
  }

  return (
    <form onSubmit={submitPassword} aria-label={t('auth.signIn')}>
      <Stack gap="md">
        {heading}
        {errorAlert}
        {inactive && (
          <Alert color="yellow" variant="light" role="alert" title={t('account.notActivated.title')}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{resent ? t('account.notActivated.sent') : t('account.notActivated.text', { email: inactive })}</Text>
              {!resent && (
                <Button size="xs" variant="light" onClick={() => void resendActivation(inactive).then(() => setResent(true), (err: unknown) => setError(messageOf(err, t)))}>
                  {t('account.notActivated.resend')}
                </Button>
              )}
            </Stack>
          </Alert>
        )}
        <TextInput
          // With a directory, a uid is a login too: no e-mail format check by the browser.
          label={site.data?.directory_sign_in ? t('auth.form.login') : t('auth.form.email')}
          type={site.data?.directory_sign_in ? 'text' : 'email'}
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          autoComplete={passkeys ? 'username webauthn' : 'username'}
          required
          withAsterisk={false}
          autoFocus={!defaultEmail}
        />
        <PasswordInput
          label={t('auth.form.password')}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          autoComplete="current-password"
          required
          withAsterisk={false}
          autoFocus={Boolean(defaultEmail)}
        />
        <Button type="submit" loading={busy} fullWidth>
          {t('auth.signIn')}
        </Button>
        {(passkeys || providers.length > 0) && (
          <Text size="sm" c="dimmed" ta="center">
            {t('passkeys.or')}
          </Text>
        )}
        {providers.map((p) => (
          <Button
            key={p.id}
            component="a"
            // A full navigation: the server sends the browser to the provider, which comes back to this page.
            href={ssoStartUrl(p.id, window.location.pathname + window.location.search)}
            variant="default"
            fullWidth
          >
            {t('auth.form.withProvider', { name: p.name })}
          </Button>
        ))}
        {passkeys && (
          <Button type="button" variant="default" onClick={() => void passkeyButton()} disabled={busy} fullWidth>
            {t('passkeys.signIn')}
          </Button>
        )}
        {site.data?.mail_enabled && (
          <Anchor component={Link} href={email.trim() ? `/forgot?email=${encodeURIComponent(email.trim())}` : '/forgot'} size="sm" ta="center">
            {t('account.forgotLink')}
          </Anchor>
        )}
        {site.data?.signup_enabled && (
          <Anchor component={Link} href="/signup" size="sm" ta="center">
            {t('account.signup.link')}
          </Anchor>
        )}
      </Stack>
    </form>
  );
}
