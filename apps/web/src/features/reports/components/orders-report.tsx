import { Text } from '@mantine/core';

/** The Orders report tab (built by the Orders / Sales reports work; a placeholder until then). */
export function OrdersReport() {
  return <Text c="dimmed">The orders report is not available yet.</Text>;
}
