import { z } from 'zod';
import { ORDER_STATUS_CODES, type OrderStatusCode } from '../codes/order-status';
import { NOTE_TYPES, type NoteType } from '../codes/order';
import { idParam } from './customers';
import { recordIdSchema } from './jobs';

/**
 * Order status reasons, notes and status changes (spec §7 Orders, decisions 071–073):
 *   GET  /api/customers/orderstatus/{token}?status=                 → orderStatusReasonsInfo
 *   GET  /api/customers/orderstatus/history/{orderId}/{token}       → orderStatusHistoryInfo
 *   GET  /api/customers/ordernotes/{orderId}/{token}                → orderNotesInfo (newest first)
 *   POST /api/customers/ordernotes/{orderId}/{token}  orderNoteCreateRequest → orderNoteInfo
 *   PUT  /api/customers/ordernotes/{token}            orderStatusChangeRequest → orderStatusChangeInfo
 */

const STATUS_MESSAGE = 'Choose an order status code of spec §4.';
export const orderStatusCodeSchema = z.enum(ORDER_STATUS_CODES as [OrderStatusCode, ...OrderStatusCode[]], {
  message: STATUS_MESSAGE,
});
const noteTypeSchema = z.enum(NOTE_TYPES as [NoteType, ...NoteType[]]);
const isoDateTime = z.string();

export const NOTE_MAX_LENGTH = 4000;
const noteText = z
  .string({ message: 'Enter the note.' })
  .trim()
  .min(1, { message: 'Enter the note.' })
  .max(NOTE_MAX_LENGTH, { message: `A note is at most ${NOTE_MAX_LENGTH} characters.` });

export const orderIdTokenParams = z.object({ orderId: idParam, token: z.string() });

export const orderStatusReasonsQuery = z.object({ status: orderStatusCodeSchema.optional() }).strict();
export type OrderStatusReasonsQuery = z.infer<typeof orderStatusReasonsQuery>;

export const statusReasonItem = z.object({ id: z.number().int(), reason: z.string(), sort_order: z.number().int() });
/** Status reasons grouped by status (only statuses that have reasons), in workflow order. */
export const orderStatusReasonsInfo = z.object({
  statuses: z.array(z.object({ status: orderStatusCodeSchema, label: z.string(), reasons: z.array(statusReasonItem) })),
});
export type OrderStatusReasonsInfo = z.infer<typeof orderStatusReasonsInfo>;

export const orderNoteItem = z.object({
  id: z.number().int(),
  order_id: z.number().int(),
  note_type: noteTypeSchema,
  status_reason_id: z.number().int().nullable(),
  reason: z.string().nullable(),
  body: z.string(),
  created_by_email: z.string(),
  created_at: isoDateTime,
});
export type OrderNoteItem = z.infer<typeof orderNoteItem>;
export const orderNotesInfo = z.object({ notes: z.array(orderNoteItem) });
export const orderNoteInfo = z.object({ note: orderNoteItem });

export const orderNoteCreateRequest = z.object({ note: noteText }).strict();
export type OrderNoteCreateRequest = z.infer<typeof orderNoteCreateRequest>;

export const orderStatusHistoryItem = z.object({
  id: z.number().int(),
  order_id: z.number().int(),
  from_status: orderStatusCodeSchema.nullable(),
  to_status: orderStatusCodeSchema,
  status_reason_id: z.number().int().nullable(),
  reason: z.string().nullable(),
  note: z.string().nullable(),
  changed_by_email: z.string(),
  changed_at: isoDateTime,
});
export const orderStatusHistoryInfo = z.object({ history: z.array(orderStatusHistoryItem) });

/** A terminal's serial number as Operations types it (never a placeholder `PENDING-…`). */
export const terminalSerialNumber = z
  .string()
  .trim()
  .min(1, 'Enter the serial number.')
  .max(64, 'At most 64 characters.')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, 'Letters, digits, dots, dashes and slashes only.')
  .refine((v) => !/^PENDING-/i.test(v), 'Enter the serial number printed on the terminal.');

/** PUT /api/customers/ordernotes/{token}: move an order to `status` (reason where the table needs one). */
export const orderStatusChangeRequest = z
  .object({
    order_id: recordIdSchema,
    status: orderStatusCodeSchema,
    status_reason_id: recordIdSchema.optional(),
    note: noteText.optional(),
    version: z.number({ message: 'Send the version of the order you opened.' }).int().nonnegative(),
    /**
     * The serial numbers of the order's terminals, in order, entered by Operations at Installation (issue 29 item 4,
     * decision 150): kept on the order and given to the terminals onboarding makes at Complete.
     */
    terminal_serials: z.array(terminalSerialNumber).max(999).optional(),
  })
  .strict();
export type OrderStatusChangeRequest = z.infer<typeof orderStatusChangeRequest>;

export const orderStatusSummary = z.object({
  id: z.number().int(),
  status: orderStatusCodeSchema,
  version: z.number().int(),
  submitted_at: isoDateTime.nullable(),
  completed_at: isoDateTime.nullable(),
  updated_at: isoDateTime,
});
export type OrderStatusSummary = z.infer<typeof orderStatusSummary>;
export const orderStatusChangeInfo = z.object({ order: orderStatusSummary, history: orderStatusHistoryItem });
export type OrderStatusChangeInfo = z.infer<typeof orderStatusChangeInfo>;
