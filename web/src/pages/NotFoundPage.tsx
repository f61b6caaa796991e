import { Anchor, Stack, Text, Title } from '@mantine/core';
import { CenteredLayout } from '../components/CenteredLayout';
import { Link } from '../app/router';

export function NotFoundPage() {
  return (
    <CenteredLayout>
      <Stack gap="sm" ta="center">
        <Title order={1} fz={22}>
          Page not found
        </Title>
        <Text size="sm" c="dimmed">
          There is nothing at this address.
        </Text>
        <Anchor component={Link} href="/">
          Go to Cirrus
        </Anchor>
      </Stack>
    </CenteredLayout>
  );
}
