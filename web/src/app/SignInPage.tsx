// Shown in place of any signed-in page when nobody is signed in (or the
// session ended): after signing in, the person stays on the URL they asked for.
import { Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { CenteredLayout } from '../components/CenteredLayout';
import { SignInForm } from '../components/SignInForm';
import { useSession } from './session';
import { useSiteConfig } from '../features/account/api';

export function SignInPage() {
  const { signedIn, session } = useSession();
  const { t } = useTranslation();
  const siteName = useSiteConfig().data?.site_name ?? 'Cirrus';
  useEffect(() => {
    document.title = `${t('auth.signIn')} · ${siteName}`;
  }, [t, siteName]);
  return (
    <CenteredLayout>
      {session.status === 'error' && (
        <Text role="alert" c="red.8" size="sm" mb="sm">
          {session.message}
        </Text>
      )}
      <SignInForm
        onSignedIn={signedIn}
        heading={
          <Stack gap={4} ta="center" mb="xs">
            <Title order={1} fz={22}>
              {t('auth.signIn')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('auth.welcome')}
            </Text>
          </Stack>
        }
      />
    </CenteredLayout>
  );
}
