import { Center, Loader, Stack, Text } from '@mantine/core';

/** A spinner with a visible (and accessible) label. */
export function Busy({ label }: { label: string }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="sm" role="status">
        <Loader aria-hidden="true" />
        <Text size="sm" c="dimmed">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}
