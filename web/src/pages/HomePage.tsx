// The start of the app for people: who is signed in, or the sign-in form.
// Files, settings and administration will grow from here.
import { Alert, Avatar, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { CenteredLayout } from '../components/CenteredLayout';
import { useSession } from '../components/SessionProvider';
import { SignInForm } from '../components/SignInForm';
import { Busy } from '../components/Busy';

export function HomePage() {
  const { session, signedIn, signOut, reload } = useSession();
  useEffect(() => {
    document.title = 'Cirrus';
  }, []);

  if (session.status === 'loading') return <CenteredLayout><Busy label="Loading…" /></CenteredLayout>;
  if (session.status === 'error') {
    return (
      <CenteredLayout>
        <Stack gap="md">
          <Alert color="red" role="alert" title="Could not load your account">
            {session.message}
          </Alert>
          <Button variant="default" onClick={reload}>
            Try again
          </Button>
        </Stack>
      </CenteredLayout>
    );
  }
  if (session.status === 'signed-out') {
    return (
      <CenteredLayout>
        <SignInForm
          onSignedIn={signedIn}
          heading={
            <Stack gap={4} ta="center" mb="xs">
              <Title order={1} fz={22}>
                Sign in
              </Title>
              <Text size="sm" c="dimmed">
                Welcome back to your files.
              </Text>
            </Stack>
          }
        />
      </CenteredLayout>
    );
  }

  const { user } = session;
  return (
    <CenteredLayout>
      <Stack gap="lg" align="center" ta="center">
        <Avatar name={user.nickname || user.email} color="initials" size={72} radius="xl" />
        <div>
          <Title order={1} fz={22}>
            {user.nickname || user.email}
          </Title>
          <Text c="dimmed" size="sm">
            {user.email}
          </Text>
        </div>
        <Group gap="xs" justify="center">
          <Badge variant="light">{user.group.name}</Badge>
          {user.is_admin && (
            <Badge variant="light" color="grape">
              Administrator
            </Badge>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          UID <Text span ff="monospace" size="xs">{user.id}</Text>
        </Text>
        <Button variant="default" onClick={() => void signOut()} fullWidth>
          Sign out
        </Button>
      </Stack>
    </CenteredLayout>
  );
}
