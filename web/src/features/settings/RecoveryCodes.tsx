// Two-step recovery codes: shown once (copy or download), and a new set on
// request with the current password (the old set stops working).
import { Alert, Button, Card, Code, Group, PasswordInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../components/errorMessage';
import { renewRecoveryCodes } from './api';

export function RecoveryCodesShown({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const text = codes.join('\n') + '\n';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'cirrus-recovery-codes.txt';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <Card withBorder role="region" aria-label={t('account.recovery.title')}>
      <Stack gap="sm">
        <Title order={3} fz="md">
          {t('account.recovery.title')}
        </Title>
        <Alert color="yellow" variant="light">
          {t('account.recovery.once')}
        </Alert>
        <SimpleGrid cols={2} spacing="xs" data-testid="recovery-codes">
          {codes.map((c) => (
            <Code key={c} fz="md">
              {c}
            </Code>
          ))}
        </SimpleGrid>
        <Group gap="xs">
          <Button variant="light" onClick={() => void copy()}>
            {copied ? t('account.recovery.copied') : t('account.recovery.copy')}
          </Button>
          <Button variant="light" onClick={download}>
            {t('account.recovery.download')}
          </Button>
          <Button onClick={onDone}>{t('account.recovery.saved')}</Button>
        </Group>
      </Stack>
    </Card>
  );
}

export function RenewRecoveryCodes({ left, onCodes }: { left: number; onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await renewRecoveryCodes(password);
      setPassword('');
      setOpen(false);
      onCodes(r.recovery_codes);
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs" align="flex-start">
      <Text size="sm" c={left <= 2 ? 'red.8' : 'dimmed'}>
        {t('account.recovery.left', { count: left })}
      </Text>
      {!open ? (
        <Button variant="default" onClick={() => setOpen(true)}>
          {t('account.recovery.renew')}
        </Button>
      ) : (
        <form onSubmit={submit} aria-label={t('account.recovery.renew')}>
          <Stack gap="xs" maw={420}>
            <Text size="sm">{t('account.recovery.renewHint')}</Text>
            <PasswordInput label={t('settings.security.current')} value={password} onChange={(e) => setPassword(e.currentTarget.value)} autoComplete="current-password" required withAsterisk={false} autoFocus />
            {error && (
              <Text size="sm" c="red.8" role="alert">
                {error}
              </Text>
            )}
            <Group gap="xs">
              <Button type="submit" loading={busy}>
                {t('account.recovery.renew')}
              </Button>
              <Button variant="default" onClick={() => setOpen(false)}>
                {t('common.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
