// The frame of the sign-in and authorization pages: the brand above one centred card.
import { Box, Card, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';
import { CloudIcon } from './icons';
import { useSiteConfig } from '../features/account/api';

export function BrandMark() {
  // The name the administrator gave the site (Dashboard → Settings), Cirrus until it is known.
  const site = useSiteConfig();
  return (
    <Group gap={8} justify="center">
      <ThemeIcon size={34} radius="md" variant="gradient" gradient={{ from: 'indigo.6', to: 'cyan.5', deg: 135 }}>
        <CloudIcon size={20} />
      </ThemeIcon>
      <Text fw={700} fz="xl">
        {site.data?.site_name ?? 'Cirrus'}
      </Text>
    </Group>
  );
}

export function CenteredLayout({ children, footer }: { children: ReactNode; footer?: ReactNode }) {
  return (
    <Box className="cirrus-backdrop">
      <Stack component="main" w="100%" maw={460} gap="lg" px="md" py={48}>
        <BrandMark />
        <Card withBorder shadow="md" radius="lg" p="xl">
          {children}
        </Card>
        {footer && (
          <Text size="xs" c="dimmed" ta="center">
            {footer}
          </Text>
        )}
      </Stack>
    </Box>
  );
}
