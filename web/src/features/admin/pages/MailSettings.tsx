// Dashboard → Settings → E-mail: the SMTP transport (the password is
// write-only: the server says only whether one is stored), a test message
// that shows the SMTP server's own reply, and the outbox's counts.
import { Alert, Badge, Button, Card, Group, NumberInput, PasswordInput, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../components/errorMessage';
import { adminApi, type SiteSettings } from '../api';

type Security = '' | 'starttls' | 'tls' | 'none';

export function MailSettings({ initial }: { initial: SiteSettings }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const status = useQuery({ queryKey: ['admin', 'mail'], queryFn: adminApi.mailStatus });
  const [host, setHost] = useState(initial.smtp_host);
  const [port, setPort] = useState<number | string>(initial.smtp_port ?? '');
  const [security, setSecurity] = useState<Security>(initial.smtp_security as Security);
  const [user, setUser] = useState(initial.smtp_user);
  const [password, setPassword] = useState('');
  const [from, setFrom] = useState(initial.mail_from);
  const [verification, setVerification] = useState(initial.signup_email_verification);
  const [testTo, setTestTo] = useState('');
  const [busy, setBusy] = useState(false);
  const [testing, setTesting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [testResult, setTestResult] = useState<{ sent: boolean; response: string } | null>(null);

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await adminApi.updateSettings({
        smtp_host: host.trim(),
        smtp_port: typeof port === 'number' ? port : null,
        smtp_security: security,
        smtp_user: user.trim(),
        ...(password ? { smtp_password: password } : {}),
        mail_from: from.trim(),
        signup_email_verification: verification,
      });
      setPassword('');
      await qc.invalidateQueries({ queryKey: ['admin', 'settings'] });
      await qc.invalidateQueries({ queryKey: ['admin', 'mail'] });
      await qc.invalidateQueries({ queryKey: ['site-config'] });
      notifications.show({ color: 'teal', message: t('admin.mail.saved') });
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };

  const test = async () => {
    setTesting(true);
    setTestResult(null);
    setError(null);
    try {
      setTestResult(await adminApi.testMail(testTo.trim()));
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setTesting(false);
    }
  };

  return (
    <Card withBorder>
      <Stack
        component="form"
        aria-label={t('admin.mail.title')}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Title order={2} fz={18}>
          {t('admin.mail.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('admin.mail.intro')}
        </Text>
        {status.data && (
          <Group gap="xs" aria-label={t('admin.mail.status')}>
            <Text size="sm">{status.data.configured ? t('admin.mail.configured') : t('admin.mail.notConfigured')}</Text>
            <Badge variant="light" color="gray">{`${t('admin.mail.queued')}: ${status.data.queued}`}</Badge>
            <Badge variant="light" color="teal">{`${t('admin.mail.sent')}: ${status.data.sent}`}</Badge>
            <Badge variant="light" color={status.data.failed > 0 ? 'red' : 'gray'}>{`${t('admin.mail.failed')}: ${status.data.failed}`}</Badge>
          </Group>
        )}
        <Group grow align="flex-start">
          <TextInput label={t('admin.mail.host')} value={host} onChange={(e) => setHost(e.currentTarget.value)} placeholder="smtp.example.org" />
          <NumberInput label={t('admin.mail.port')} value={port} onChange={setPort} min={1} max={65535} allowDecimal={false} placeholder="587" maw={120} />
        </Group>
        <Select
          label={t('admin.mail.security')}
          value={security}
          allowDeselect={false}
          onChange={(v) => setSecurity((v ?? '') as Security)}
          data={[
            { value: '', label: t('admin.mail.securityDefault') },
            { value: 'starttls', label: t('admin.mail.securityStarttls') },
            { value: 'tls', label: t('admin.mail.securityTls') },
            { value: 'none', label: t('admin.mail.securityNone') },
          ]}
        />
        <TextInput label={t('admin.mail.user')} value={user} onChange={(e) => setUser(e.currentTarget.value)} autoComplete="off" />
        <PasswordInput
          label={t('admin.mail.password')}
          description={initial.smtp_password_set ? t('admin.mail.passwordSet') : t('admin.mail.passwordUnset')}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          autoComplete="new-password"
        />
        <TextInput label={t('admin.mail.from')} description={t('admin.mail.fromHelp')} value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
        <Switch label={t('admin.mail.signupVerification')} description={t('admin.mail.signupVerificationHelp')} checked={verification} onChange={(e) => setVerification(e.currentTarget.checked)} />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={busy}>
            {t('admin.mail.save')}
          </Button>
        </Group>
        <Group align="flex-end">
          <TextInput label={t('admin.mail.testTo')} type="email" value={testTo} onChange={(e) => setTestTo(e.currentTarget.value)} style={{ flex: 1 }} />
          <Button variant="light" onClick={() => void test()} loading={testing} disabled={!testTo.trim()}>
            {t('admin.mail.test')}
          </Button>
        </Group>
        {testResult && (
          <Alert color={testResult.sent ? 'teal' : 'red'} role="status">
            {testResult.sent ? t('admin.mail.testSent', { response: testResult.response }) : t('admin.mail.testFailed', { response: testResult.response })}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
