// Security: change the password; two-step verification (enrol with a QR code
// drawn here, the secret also as text; confirm with a code; turn off); the
// signed-in sessions with "sign out" for one and for all others.
import { Alert, Badge, Button, Card, Code, Group, Image, PasswordInput, PinInput, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../app/format';
import { useSession } from '../../app/session';
import { errorMessage, fieldMessage } from '../../components/errorMessage';
import { ApiError, ErrorCode } from '../../api/client';
import { fieldProblem } from '../../api/fieldErrors';
import { PASSWORD } from '../../api/rules';
import { ConfirmDialog } from '../files/dialogs';
import { RecoveryCodesShown, RenewRecoveryCodes } from './RecoveryCodes';
import { PasskeysSection } from './Passkeys';
import { MIN_PASSWORD_SCORE, PasswordStrength, usePasswordScore } from '../../components/PasswordStrength';
import { begin2fa, changePassword, confirm2fa, disable2fa, endOtherSessions, endSession, getSettings, listSessions, type SessionView } from './api';

type PasswordField = 'current' | 'next' | 'repeat';

function PasswordSection() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  // Each problem once, next to its field; what belongs to no field goes under the form.
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<PasswordField, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { session } = useSession();
  const judgement = usePasswordScore(next, session.status === 'signed-in' ? [session.user.email, session.user.nickname] : []);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // The server's rules (api/rules.ts, from the OpenAPI document), checked before sending.
    const found: Partial<Record<PasswordField, string>> = {};
    if (!current) found.current = t('errors.field.required');
    if (next.length < PASSWORD.minLength) found.next = t('errors.field.tooShort', { min: PASSWORD.minLength });
    else if (next.length > PASSWORD.maxLength) found.next = t('errors.field.tooLong', { max: PASSWORD.maxLength });
    else if (judgement !== null && judgement.score < MIN_PASSWORD_SCORE) found.next = t('account.strength.weakError');
    if (!found.next && next !== repeat) found.repeat = t('settings.security.mismatch');
    setFieldErrors(found);
    setError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await changePassword(current, next);
      setCurrent('');
      setNext('');
      setRepeat('');
      notifications.show({ color: 'teal', message: t('settings.security.passwordChanged') });
    } catch (err) {
      const problem = fieldProblem(err);
      if (problem?.field === 'new_password') setFieldErrors({ next: fieldMessage(problem, t) });
      else if (problem?.field === 'current_password' || (err instanceof ApiError && err.code === ErrorCode.WrongCurrentPassword)) setFieldErrors({ current: errorMessage(err, t) });
      else setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={420} gap="sm">
        <Title order={2} fz="lg">
          {t('settings.security.password')}
        </Title>
        <PasswordInput label={t('settings.security.current')} value={current} onChange={(e) => setCurrent(e.currentTarget.value)} autoComplete="current-password" required withAsterisk={false} error={fieldErrors.current} aria-invalid={Boolean(fieldErrors.current)} />
        <PasswordInput label={t('settings.security.new')} value={next} onChange={(e) => setNext(e.currentTarget.value)} autoComplete="new-password" required withAsterisk={false} error={fieldErrors.next} aria-invalid={Boolean(fieldErrors.next)} />
        <PasswordStrength judgement={judgement} />
        <PasswordInput label={t('settings.security.repeat')} value={repeat} onChange={(e) => setRepeat(e.currentTarget.value)} autoComplete="new-password" required withAsterisk={false} error={fieldErrors.repeat} aria-invalid={Boolean(fieldErrors.repeat)} />
        {error && (
          <Alert color="red" role="alert" p="xs">
            {error}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={busy}>
            {t('settings.security.change')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function TwoFactorSection() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { reload } = useSession();
  const settings = useQuery({ queryKey: ['settings'], queryFn: getSettings });
  const [enrol, setEnrol] = useState<{ secret: string; qr: string } | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const enabled = settings.data?.two_fa_enabled ?? false;

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await begin2fa();
      const uri = r.otpauth_url;
      const QR = await import('qrcode');
      setEnrol({ secret: r.secret, qr: await QR.toDataURL(uri, { margin: 1, width: 200 }) });
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };
  const finish = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (enabled) await disable2fa(code);
      else setCodes((await confirm2fa(code)).recovery_codes);
      notifications.show({ color: 'teal', message: enabled ? t('settings.security.twoFaOff') : t('settings.security.twoFaOn') });
      setEnrol(null);
      setCode('');
      void qc.invalidateQueries({ queryKey: ['settings'] });
      reload();
    } catch (err) {
      setError(errorMessage(err, t));
      setCode('');
    } finally {
      setBusy(false);
    }
  };
  const [disabling, setDisabling] = useState(false);
  const codeForm = (label: string, submitLabel: string, color?: string) => (
    <form onSubmit={finish}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm" id="otp-label">
          {label}
        </Text>
        <PinInput length={6} type="number" oneTimeCode autoFocus value={code} onChange={setCode} aria-label={t('settings.security.code')} inputMode="numeric" />
        {error && (
          <Text size="sm" c="red.8" role="alert">
            {error}
          </Text>
        )}
        <Group gap="xs">
          <Button type="submit" loading={busy} disabled={code.length !== 6} color={color}>
            {submitLabel}
          </Button>
          <Button
            variant="default"
            onClick={() => {
              setEnrol(null);
              setDisabling(false);
              setCode('');
              setError(null);
            }}
          >
            {t('common.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );

  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Title order={2} fz="lg">
          {t('settings.security.twoFa')}
        </Title>
        {settings.data && (
          <Badge color={enabled ? 'teal' : 'gray'} variant="light">
            {enabled ? t('settings.security.on') : t('settings.security.off')}
          </Badge>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {t('settings.security.twoFaHint')}
      </Text>
      {!enabled && !enrol && (
        <Group>
          <Button onClick={() => void start()} loading={busy}>
            {t('settings.security.enable')}
          </Button>
        </Group>
      )}
      {!enabled && enrol && (
        <Card withBorder>
          <Stack>
            <Text size="sm">{t('settings.security.scan')}</Text>
            <Image src={enrol.qr} alt={t('settings.security.qrAlt')} w={200} h={200} />
            <Text size="sm">{t('settings.security.orEnter')}</Text>
            <Code fz="md" data-testid="totp-secret">
              {enrol.secret}
            </Code>
            {codeForm(t('settings.security.enterCode'), t('settings.security.confirm'))}
          </Stack>
        </Card>
      )}
      {codes && (
        <RecoveryCodesShown
          codes={codes}
          onDone={() => {
            setCodes(null);
            void qc.invalidateQueries({ queryKey: ['settings'] });
          }}
        />
      )}
      {enabled && !disabling && !codes && <RenewRecoveryCodes left={settings.data?.recovery_codes_left ?? 0} onCodes={setCodes} />}
      {enabled && !disabling && !codes && (
        <Group>
          <Button variant="default" color="red" onClick={() => setDisabling(true)}>
            {t('settings.security.disable')}
          </Button>
        </Group>
      )}
      {enabled && disabling && codeForm(t('settings.security.enterCodeToDisable'), t('settings.security.disable'), 'red')}
    </Stack>
  );
}

function describe(s: SessionView, t: (k: string) => string): string {
  const parts = [s.browser, s.os].filter(Boolean);
  return parts.length ? parts.join(' · ') : t('settings.sessions.unknownDevice');
}

function SessionsSection() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { data, error, isLoading } = useQuery({ queryKey: ['sessions'], queryFn: listSessions });
  const [confirmAll, setConfirmAll] = useState(false);
  const sessions = data?.sessions ?? [];
  const end = async (s: SessionView) => {
    try {
      await endSession(s.id);
      notifications.show({ color: 'teal', message: t('settings.sessions.ended') });
    } catch (err) {
      notifications.show({ color: 'red', message: errorMessage(err, t) });
    }
    void qc.invalidateQueries({ queryKey: ['sessions'] });
  };
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} fz="lg">
          {t('settings.sessions.title')}
        </Title>
        <Button variant="default" color="red" size="xs" disabled={sessions.filter((s) => !s.current).length === 0} onClick={() => setConfirmAll(true)}>
          {t('settings.sessions.endOthers')}
        </Button>
      </Group>
      {isLoading && <Text size="sm">{t('common.loading')}</Text>}
      {error && (
        <Alert color="red" role="alert">
          {errorMessage(error, t)}
        </Alert>
      )}
      {sessions.length > 0 && (
        // A plain scroll box the keyboard can reach (the only row may have no
        // button to focus: axe scrollable-region-focusable on a phone).
        <Table.ScrollContainer minWidth={640} scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': t('settings.sessions.title') } }}>
          <Table verticalSpacing="xs" aria-label={t('settings.sessions.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.sessions.device')}</Table.Th>
                <Table.Th>{t('settings.sessions.address')}</Table.Th>
                <Table.Th>{t('settings.sessions.signedIn')}</Table.Th>
                <Table.Th>{t('settings.sessions.lastUsed')}</Table.Th>
                <Table.Th>
                  <span className="sr-only">{t('shares.actions')}</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.map((s) => (
                <Table.Tr key={s.id} data-session={s.id}>
                  <Table.Td>
                    <Group gap={6}>
                      <Text size="sm">{describe(s, t)}</Text>
                      {s.current && (
                        <Badge size="sm" variant="light" color="teal">
                          {t('settings.sessions.thisDevice')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {s.ip ?? '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDate(s.created_at)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDate(s.last_used_at)}</Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    {!s.current && (
                      <Button size="compact-sm" variant="subtle" color="red" onClick={() => void end(s)} aria-label={t('settings.sessions.endOne', { name: describe(s, t) })}>
                        {t('auth.signOut')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmDialog
        opened={confirmAll}
        title={t('settings.sessions.endOthers')}
        message={t('settings.sessions.endOthersText')}
        confirmLabel={t('settings.sessions.endOthers')}
        danger
        onClose={() => setConfirmAll(false)}
        onConfirm={async () => {
          const r = await endOtherSessions();
          notifications.show({ color: 'teal', message: t('settings.sessions.endedMany', { count: r.ended }) });
          void qc.invalidateQueries({ queryKey: ['sessions'] });
        }}
      />
    </Stack>
  );
}

export default function SecurityTab() {
  useEffect(() => undefined, []);
  return (
    <Stack gap={40}>
      <PasswordSection />
      <TwoFactorSection />
      <PasskeysSection />
      <SessionsSection />
    </Stack>
  );
}
