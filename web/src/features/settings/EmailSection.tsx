// The account's address: verified or not (with "send me a link"), and a
// change of address (password required; it changes once the link mailed to
// the new address is opened, and the old address gets a notice). Mail flows
// show only when the site can send mail.
import { Alert, Anchor, Badge, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../api/generated/schema';
import { api, data } from '../../api/client';
import { errorMessage } from '../../components/errorMessage';
import { useSiteConfig } from '../account/api';

const requestVerification = () => data(api().POST('/api/v4/user/email/verify'));
const requestChange = (email: string, password: string) => data(api().PATCH('/api/v4/user/email', { body: { email, password } }));

export function EmailSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const site = useSiteConfig();
  const mail = site.data?.mail_enabled ?? false;
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [changing, setChanging] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  const verify = async () => {
    setError(null);
    try {
      await requestVerification();
      setNotice(t('account.email.verifySent', { email: user.email }));
    } catch (err) {
      setError(errorMessage(err, t));
    }
  };
  const change = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await requestChange(email.trim(), password);
      setNotice(t('account.email.changeSent', { email: email.trim() }));
      setChanging(false);
      setEmail('');
      setPassword('');
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap={6}>
      <Group align="flex-end" gap="xs">
        <TextInput label={t('settings.profile.email')} value={user.email} readOnly style={{ flex: 1 }} />
        <Badge color={user.email_verified ? 'teal' : 'gray'} variant="light" mb={8}>
          {user.email_verified ? t('account.email.verified') : t('account.email.unverified')}
        </Badge>
      </Group>
      {mail && (
        <Group gap="md">
          {!user.email_verified && (
            <Anchor component="button" type="button" size="sm" onClick={() => void verify()}>
              {t('account.email.verify')}
            </Anchor>
          )}
          {!changing && (
            <Anchor component="button" type="button" size="sm" onClick={() => setChanging(true)}>
              {t('account.email.change')}
            </Anchor>
          )}
        </Group>
      )}
      {notice && (
        <Alert color="teal" variant="light" role="status">
          {notice}
        </Alert>
      )}
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      {changing && (
        <form onSubmit={change} aria-label={t('account.email.change')}>
          <Stack gap="xs">
            <TextInput label={t('account.email.newAddress')} type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} required withAsterisk={false} autoFocus />
            <PasswordInput label={t('settings.security.current')} value={password} onChange={(e) => setPassword(e.currentTarget.value)} autoComplete="current-password" required withAsterisk={false} />
            <Text size="xs" c="dimmed">
              {t('account.email.changeHint')}
            </Text>
            <Group gap="xs">
              <Button type="submit" loading={busy}>
                {t('account.email.sendLink')}
              </Button>
              <Button variant="default" onClick={() => setChanging(false)}>
                {t('common.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
