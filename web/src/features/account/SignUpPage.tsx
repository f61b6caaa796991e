// Sign-up, linked from the sign-in page while sign-up is open. With
// activation on, the page says to open the mailed link; otherwise the new
// account is signed in at once.
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { signIn } from '../../api/session';
import { CenteredLayout } from '../../components/CenteredLayout';
import { errorMessage } from '../../components/errorMessage';
import { MIN_PASSWORD_SCORE, PasswordStrength, usePasswordScore } from '../../components/PasswordStrength';
import { Link, navigate } from '../../app/router';
import { useSession } from '../../app/session';
import i18n from 'i18next';
import { Busy } from '../../components/Busy';
import { pageTitle, useSiteConfig } from '../account/api';

export default function SignUpPage() {
  const { t } = useTranslation();
  const { signedIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [waiting, setWaiting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const judgement = usePasswordScore(password, [email]);
  const site = useSiteConfig();
  useEffect(() => {
    document.title = pageTitle(`${t('account.signup.title')}`);
  }, [t]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const user = await data(api('none').POST('/api/v4/user', { body: { email: email.trim(), password }, headers: { 'accept-language': i18n.language || 'en' } }));
      if (user.status === 'inactive') {
        setWaiting(user.email);
        setPassword('');
        return;
      }
      const result = await signIn(email.trim(), password);
      if (result.kind === 'signed-in') {
        signedIn(result.user);
        navigate('/files');
      } else navigate('/');
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };

  // Sign-up closed: say so, and what to do, instead of a form that can only be refused.
  if (!site.data) {
    return (
      <CenteredLayout>
        <Busy label={t('common.loading')} />
      </CenteredLayout>
    );
  }
  if (!site.data.signup_enabled && !waiting) {
    return (
      <CenteredLayout>
        <Stack gap="md">
          <Title order={1} fz={22} ta="center">
            {t('account.signup.closedTitle')}
          </Title>
          <Alert color="gray" variant="light" role="status">
            {t('account.signup.closedText')}
          </Alert>
          <Button component={Link} href="/" fullWidth>
            {t('account.signup.signIn')}
          </Button>
        </Stack>
      </CenteredLayout>
    );
  }

  return (
    <CenteredLayout>
      <form onSubmit={submit} aria-label={t('account.signup.title')}>
        <Stack gap="md">
          <Title order={1} fz={22} ta="center">
            {t('account.signup.title')}
          </Title>
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          {waiting ? (
            <Alert color="teal" variant="light" role="status" title={t('account.forgot.sentTitle')}>
              {t('account.signup.checkMail', { email: waiting })}
            </Alert>
          ) : (
            <>
              <TextInput label={t('auth.form.email')} type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} autoComplete="username" required withAsterisk={false} autoFocus />
              <PasswordInput label={t('auth.form.password')} value={password} onChange={(e) => setPassword(e.currentTarget.value)} autoComplete="new-password" required withAsterisk={false} minLength={8} maxLength={128} />
              <PasswordStrength judgement={judgement} />
              <Button type="submit" loading={busy} fullWidth disabled={!password || (judgement !== null && judgement.score < MIN_PASSWORD_SCORE)}>
                {t('account.signup.submit')}
              </Button>
            </>
          )}
          <Text size="sm" ta="center">
            <Anchor component={Link} href="/">
              {t('account.signup.haveAccount')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </CenteredLayout>
  );
}
