// /device (RFC 8628 §3.3): sign in if needed, enter the code a TV or a
// command-line tool shows (or arrive with it filled in from
// verification_uri_complete), see the same consent screen as
// /session/authorize, then a done page. The code is never submitted without
// the person pressing Continue (§5.4: a link with a code can be a phishing lure).
import { Button, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { decideDevice, verifyUserCode } from '../../api/device';
import type { DeviceRequest } from '../../api/generated/schema';
import { useSession } from '../../app/session';
import { useLocation } from '../../app/router';
import { CenteredLayout } from '../../components/CenteredLayout';
import { errorMessage } from '../../components/errorMessage';
import { CheckIcon, ShieldIcon } from '../../components/icons';
import { SignInGate } from '../../components/SignInGate';
import { ConsentPanel } from '../authorize/ConsentPanel';
import { pageTitle } from '../../features/account/api';

type Step = { kind: 'enter' } | { kind: 'consent'; request: DeviceRequest } | { kind: 'done'; approved: boolean; app: string };

/** What the person typed, shown as XXXX-XXXX while typing (letters only, upper case). */
export function formatTyped(value: string): string {
  const letters = value.toUpperCase().replace(/[^A-Z]/g, '').slice(0, 8);
  return letters.length > 4 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : letters;
}

function EnterCode({ initial, onFound }: { initial: string; onFound(request: DeviceRequest): void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState(formatTyped(initial));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onFound(await verifyUserCode(code));
    } catch (err) {
      setError(err instanceof ApiError && err.status === 404 ? t('device.notFound') : errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="md">
        <Stack gap={4} ta="center">
          <Title order={1} fz={22}>
            {t('device.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('device.enterHint')}
          </Text>
        </Stack>
        <TextInput
          label={t('device.codeLabel')}
          placeholder="XXXX-XXXX"
          value={code}
          onChange={(e) => setCode(formatTyped(e.currentTarget.value))}
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          size="lg"
          styles={{ input: { textAlign: 'center', letterSpacing: '0.2em', fontFamily: 'var(--mantine-font-family-monospace)' } }}
          error={error ?? undefined}
          // The only field of the page: typing the code needs no click (data-autofocus works only inside a modal).
          autoFocus
        />
        <Button type="submit" loading={busy} disabled={code.replace('-', '').length !== 8}>
          {t('device.continue')}
        </Button>
      </Stack>
    </form>
  );
}

function Done({ approved, app }: { approved: boolean; app: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" align="center" ta="center" role="status">
      <ThemeIcon size={56} radius="xl" color={approved ? 'teal' : 'gray'} variant="light" aria-hidden="true">
        {approved ? <CheckIcon size={30} /> : <ShieldIcon size={30} />}
      </ThemeIcon>
      <Title order={1} fz={22}>
        {approved ? t('device.approvedTitle') : t('device.deniedTitle')}
      </Title>
      <Text size="sm" c="dimmed">
        {approved ? t('device.approvedText', { app }) : t('device.deniedText', { app })}
      </Text>
    </Stack>
  );
}

export function DevicePage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const initial = useMemo(() => new URLSearchParams(search).get('user_code') ?? '', [search]);
  const { session, signOut } = useSession();
  const [step, setStep] = useState<Step>({ kind: 'enter' });
  const [busy, setBusy] = useState<'approve' | 'deny' | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    document.title = pageTitle(`${t('device.title')}`);
  }, [t]);

  const decide = async (request: DeviceRequest, approve: boolean) => {
    setBusy(approve ? 'approve' : 'deny');
    setError(null);
    try {
      const result = await decideDevice(request.user_code, approve);
      setStep({ kind: 'done', approved: result.approved, app: request.app.name });
    } catch (err) {
      setError(err instanceof ApiError && err.status === 404 ? t('device.expired') : errorMessage(err, t));
    } finally {
      setBusy(null);
    }
  };

  let body;
  if (session.status !== 'signed-in') body = <SignInGate title={t('device.signIn')} hint={t('authorize.useAccount')} errorTitle={t('authorize.loadFailed')} />;
  else if (step.kind === 'enter') body = <EnterCode initial={initial} onFound={(request) => setStep({ kind: 'consent', request })} />;
  else if (step.kind === 'consent') {
    const { request } = step;
    body = (
      <ConsentPanel
        app={request.app}
        user={session.user}
        scopes={request.scopes}
        notice={t('device.notice', { code: request.user_code })}
        busy={busy}
        error={error}
        onApprove={() => void decide(request, true)}
        onDeny={() => void decide(request, false)}
        onSignOut={() => void signOut()}
      />
    );
  } else body = <Done approved={step.approved} app={step.app} />;

  return <CenteredLayout footer={step.kind === 'done' ? undefined : t('authorize.footer')}>{body}</CenteredLayout>;
}
export default DevicePage;
