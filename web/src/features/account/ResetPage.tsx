// The page a reset mail links to: /reset?token=…. A used or expired link says
// so and offers a fresh one; otherwise a new password (with its strength),
// then straight to sign-in.
import { Alert, Anchor, Button, Loader, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, ErrorCode } from '../../api/client';
import { CenteredLayout } from '../../components/CenteredLayout';
import { errorMessage } from '../../components/errorMessage';
import { MIN_PASSWORD_SCORE, PasswordStrength, usePasswordScore } from '../../components/PasswordStrength';
import { Link, useLocation } from '../../app/router';
import { checkResetLink, completeReset } from './api';
import { pageTitle } from '../account/api';

export default function ResetPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const token = new URLSearchParams(search).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [dead, setDead] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const judgement = usePasswordScore(password);
  const link = useQuery({ queryKey: ['reset-link', token], queryFn: () => checkResetLink(token), enabled: /^[A-Za-z0-9_-]+$/.test(token), retry: false, staleTime: Infinity });
  useEffect(() => {
    document.title = pageTitle(`${t('account.reset.title')}`);
  }, [t]);

  const linkDead = dead || !/^[A-Za-z0-9_-]+$/.test(token) || link.data?.valid === false;
  const mismatch = confirm !== '' && confirm !== password;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (mismatch) return;
    setBusy(true);
    setError(null);
    try {
      await completeReset(token, password);
      setDone(true);
      setPassword('');
      setConfirm('');
    } catch (err) {
      if (err instanceof ApiError && err.code === ErrorCode.CredentialInvalid) setDead(true);
      else setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (done) {
    body = (
      <Alert color="teal" variant="light" role="status" title={t('account.reset.doneTitle')}>
        <Stack gap="xs">
          <Text size="sm">{t('account.reset.done')}</Text>
          <Button component={Link} href="/" fullWidth>
            {t('auth.signIn')}
          </Button>
        </Stack>
      </Alert>
    );
  } else if (linkDead) {
    body = (
      <Alert color="orange" variant="light" role="alert" title={t('account.reset.deadTitle')}>
        <Stack gap="xs">
          <Text size="sm">{t('account.reset.dead')}</Text>
          <Button component={Link} href="/forgot" variant="light">
            {t('account.reset.askAgain')}
          </Button>
        </Stack>
      </Alert>
    );
  } else if (link.isPending) {
    body = <Loader size="sm" mx="auto" aria-label={t('common.loading', { defaultValue: 'Loading' })} />;
  } else {
    body = (
      <>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <PasswordInput label={t('account.reset.newPassword')} value={password} onChange={(e) => setPassword(e.currentTarget.value)} autoComplete="new-password" required withAsterisk={false} autoFocus minLength={8} maxLength={128} />
        <PasswordStrength judgement={judgement} />
        <PasswordInput
          label={t('account.reset.confirm')}
          value={confirm}
          onChange={(e) => setConfirm(e.currentTarget.value)}
          autoComplete="new-password"
          required
          withAsterisk={false}
          error={mismatch ? t('account.reset.mismatch') : undefined}
        />
        <Button type="submit" loading={busy} fullWidth disabled={!password || mismatch || (judgement !== null && judgement.score < MIN_PASSWORD_SCORE)}>
          {t('account.reset.save')}
        </Button>
      </>
    );
  }

  return (
    <CenteredLayout>
      <form onSubmit={submit} aria-label={t('account.reset.title')}>
        <Stack gap="md">
          <Title order={1} fz={22} ta="center">
            {t('account.reset.title')}
          </Title>
          {body}
          {!done && (
            <Anchor component={Link} href="/" size="sm" ta="center">
              {t('account.backToSignIn')}
            </Anchor>
          )}
        </Stack>
      </form>
    </CenteredLayout>
  );
}
