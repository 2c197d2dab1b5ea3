import { notifications } from '@mantine/notifications';
import { isOrderType, type OrderDocument, type OrderInfoRecord, type OrderType } from '@pos/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { isApiError, isVersionConflict } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { orderFlowKeys } from '../api/keys';
import { getOrderQueryOptions, saveOrder } from '../api/order-flow';
import { dropDraft, keepDraft, pendingDraft } from './draft-store';

const RESEND_EVERY_MS = 30_000;

export type SaveOutcome = 'saved' | 'kept' | 'invalid' | 'conflict';

/** A failure the spec treats as a success: no connection or a server problem (decision 090). */
function isTransient(error: unknown): boolean {
  return isApiError(error) && (error.status === 0 || error.status >= 500);
}

/**
 * One order of the flow: the server's copy (or the newer copy kept on this device), saving with the version, field
 * errors of the last save, and the re-sending of a kept copy (on load, when the connection comes back, every 30 s).
 */
export function useOrderFlow(orderId: number) {
  const queryClient = useQueryClient();
  const query = useQuery({ ...getOrderQueryOptions(orderId), enabled: orderId > 0 });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(() => pendingDraft(orderId) !== null);

  const record = query.data;
  const local = pendingDraft(orderId);
  const doc = (local && record && local.version >= record.version ? local.json : record?.json) as
    OrderDocument | undefined;
  const orderType: OrderType = isOrderType(doc?.orderType) ? doc.orderType : 'P';

  const remember = useCallback(
    (update: Partial<OrderInfoRecord>) =>
      queryClient.setQueryData<OrderInfoRecord>(orderFlowKeys.document(orderId), (old) =>
        old ? { ...old, ...update } : old,
      ),
    [orderId, queryClient],
  );

  const resend = useCallback(async () => {
    const draft = pendingDraft(orderId);
    if (!draft) return;
    try {
      const result = await saveOrder(orderId, { json: draft.json, version: draft.version });
      dropDraft(orderId);
      setPending(false);
      remember({ json: draft.json, version: result.version, status: result.status });
      notifications.show({
        color: 'green',
        title: 'Order saved',
        message: 'The changes kept on this device reached the server.',
      });
    } catch (error) {
      if (isTransient(error)) return;
      dropDraft(orderId);
      setPending(false);
      void queryClient.invalidateQueries({ queryKey: orderFlowKeys.document(orderId) });
      const said = describeError(error);
      notifications.show({
        color: 'red',
        title: said.title,
        message: `The changes kept on this device could not be saved: ${said.message}`,
      });
    }
  }, [orderId, queryClient, remember]);

  useEffect(() => {
    if (!pending) return;
    const first = window.setTimeout(() => void resend(), 0);
    const timer = window.setInterval(() => void resend(), RESEND_EVERY_MS);
    const online = () => void resend();
    window.addEventListener('online', online);
    return () => {
      window.clearTimeout(first);
      window.clearInterval(timer);
      window.removeEventListener('online', online);
    };
  }, [pending, resend]);

  const save = useCallback(
    async (next: OrderDocument, options: { submit?: boolean } = {}): Promise<SaveOutcome> => {
      if (!record) return 'invalid';
      const version = pendingDraft(orderId)?.version ?? record.version;
      try {
        const result = await saveOrder(orderId, {
          json: next as Record<string, unknown>,
          version,
          submit: options.submit,
        });
        dropDraft(orderId);
        setPending(false);
        setErrors({});
        if (
          (next.PaymentInstrumentInfo ?? []).some((m) => m.processorSetupIntent) ||
          (next.PaymentInstrumentInfo ?? []).some((m) => /^\d{4,17}$/.test(String(m.achAccountNumber ?? '')))
        ) {
          // The server replaced the card token / bank number with what it keeps: read its copy back.
          await queryClient.invalidateQueries({ queryKey: orderFlowKeys.document(orderId) });
        } else {
          remember({ json: next as Record<string, unknown>, version: result.version, status: result.status });
        }
        return 'saved';
      } catch (error) {
        if (isTransient(error) && !options.submit) {
          // The spec: a failed save is logged and treated as success; the copy waits here until the server has it.
          console.warn(
            `Order ${orderId}: the save failed, the document is kept on this device and will be sent again.`,
            error,
          );
          keepDraft({ orderId, json: next as Record<string, unknown>, version, savedAt: Date.now() });
          setPending(true);
          return 'kept';
        }
        const said = describeError(error);
        if (isVersionConflict(error)) {
          notifications.show({ color: 'red', title: said.title, message: said.message });
          void queryClient.invalidateQueries({ queryKey: orderFlowKeys.document(orderId) });
          return 'conflict';
        }
        setErrors(isApiError(error) ? error.fields : {});
        notifications.show({ color: 'red', title: said.title, message: said.message });
        return 'invalid';
      }
    },
    [orderId, queryClient, record, remember],
  );

  return { query, record, doc, orderType, errors, setErrors, save, pending };
}
