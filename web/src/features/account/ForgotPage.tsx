// "Forgot password?": ask for a reset link. The answer is the same whether
// the address is registered or not, so the page always says "check your mail".
import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CenteredLayout } from '../../components/CenteredLayout';
import { errorMessage } from '../../components/errorMessage';
import { Link, useLocation } from '../../app/router';
import { requestReset } from './api';
import { pageTitle } from '../account/api';

export default function ForgotPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const [email, setEmail] = useState(new URLSearchParams(search).get('email') ?? '');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    document.title = pageTitle(`${t('account.forgot.title')}`);
  }, [t]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await requestReset(email.trim());
      setSent(true);
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <CenteredLayout>
      <form onSubmit={submit} aria-label={t('account.forgot.title')}>
        <Stack gap="md">
          <Stack gap={4} ta="center">
            <Title order={1} fz={22}>
              {t('account.forgot.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('account.forgot.intro')}
            </Text>
          </Stack>
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          {sent ? (
            <Alert color="teal" variant="light" role="status" title={t('account.forgot.sentTitle')}>
              {t('account.forgot.sent', { email: email.trim() })}
            </Alert>
          ) : (
            <>
              <TextInput label={t('auth.form.email')} type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} autoComplete="username" required withAsterisk={false} autoFocus />
              <Button type="submit" loading={busy} fullWidth>
                {t('account.forgot.send')}
              </Button>
            </>
          )}
          <Anchor component={Link} href="/" size="sm" ta="center">
            {t('account.backToSignIn')}
          </Anchor>
        </Stack>
      </form>
    </CenteredLayout>
  );
}
