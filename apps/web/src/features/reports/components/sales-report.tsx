import { Text } from '@mantine/core';

/** The Sales report tab (built by the Orders / Sales reports work; a placeholder until then). */
export function SalesReport() {
  return <Text c="dimmed">The sales report is not available yet.</Text>;
}
