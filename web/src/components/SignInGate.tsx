// What a page that acts for a signed-in person (a device code, a sync
// client's Login Flow) shows until someone is signed in: a spinner while the
// session loads, the session's error, or the sign-in form (second factor and
// passkeys included) under the page's own heading. Pages render it while
// session.status is not 'signed-in'.
import { Alert, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSession } from '../app/session';
import { Busy } from './Busy';
import { AlertIcon } from './icons';
import { SignInForm } from './SignInForm';

export function SignInGate({ title, hint, errorTitle }: { title: string; hint: string; errorTitle: string }) {
  const { t } = useTranslation();
  const { session, signedIn } = useSession();
  if (session.status === 'error') {
    return (
      <Alert color="red" variant="light" icon={<AlertIcon size={18} />} role="alert" title={errorTitle}>
        {session.message}
      </Alert>
    );
  }
  if (session.status !== 'signed-out') return <Busy label={t('common.loading')} />;
  return (
    <SignInForm
      onSignedIn={signedIn}
      heading={
        <Stack gap={6} align="center" ta="center" mb="xs">
          <Title order={1} fz={22}>
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {hint}
          </Text>
        </Stack>
      }
    />
  );
}
