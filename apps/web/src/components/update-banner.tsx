import { Group, Paper, Text } from '@mantine/core';

/** Spec §4: 'New update is available.' with 'page will be reloaded in N sec' while `secondsLeft` counts down. */
export function UpdateBanner({ secondsLeft }: { readonly secondsLeft: number | null }) {
  if (secondsLeft === null) return null;
  return (
    <Paper
      role="status"
      radius={0}
      bg="blue.0"
      px="md"
      py="xs"
      style={{ borderBottom: '1px solid var(--mantine-color-blue-3)' }}
    >
      <Group gap="xs" justify="center">
        <Text fw={700} size="sm">
          New update is available.
        </Text>
        <Text size="sm">page will be reloaded in {secondsLeft} sec</Text>
      </Group>
    </Paper>
  );
}
