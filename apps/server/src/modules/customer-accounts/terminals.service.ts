import {
  TERMINAL_STATUS_LABELS,
  type RetireTerminalRequest,
  type Terminal,
  type TerminalList,
  type TerminalListQuery,
  type TerminalStatus,
  type TerminalUpdateRequest,
  type TerminalValidation,
} from '@pos/domain';
import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { withTx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { domainData, products, terminals } from '../../db/schema';
import {
  isRecordVisible,
  requireCustomer,
  requireOrderOf,
  requirePlanOf,
  requireStoreOf,
  serialHolder,
  viewerOf,
  visibleRecordsWhere,
  type Viewer,
} from '../../access';
import { AppError, versionConflict } from '../../http/errors';
import { audit, isoOrNull, orderBy } from './account-context';

const reason = alias(domainData, 'retire_reason');

const terminalColumns = {
  t: terminals,
  productName: products.name,
  reasonCode: reason.code,
  reasonLabel: reason.label,
};

function selectTerminals(db: Db) {
  return db
    .select(terminalColumns)
    .from(terminals)
    .leftJoin(products, eq(products.id, terminals.productId))
    .leftJoin(reason, eq(reason.id, terminals.retireReasonId));
}

type TerminalRow = Awaited<ReturnType<ReturnType<typeof selectTerminals>['execute']>>[number];

function toTerminal(r: TerminalRow): Terminal {
  const t = r.t;
  const status = t.status as TerminalStatus;
  return {
    id: t.id,
    elmer_id: t.elmerId,
    serial_number: t.serialNumber,
    pos_cc_processor_serial_number: t.posCcProcessorSerialNumber,
    customer_id: t.customerId,
    store_id: t.storeId,
    product: t.productId == null ? null : { id: t.productId, name: r.productName ?? `Product ${t.productId}` },
    order_id: t.orderId,
    plan_id: t.planId,
    under_transfer: t.underTransfer,
    status,
    status_label: TERMINAL_STATUS_LABELS[status],
    installed_at: isoOrNull(t.installedAt),
    retired_at: isoOrNull(t.retiredAt),
    retire_reason:
      t.retireReasonId == null ? null : { id: t.retireReasonId, code: r.reasonCode ?? '', label: r.reasonLabel ?? '' },
    version: t.version,
  };
}

async function terminalById(db: Db, id: number): Promise<Terminal> {
  const [row] = await selectTerminals(db).where(eq(terminals.id, id));
  return toTerminal(row!);
}

/** GET …/customerterminals: the customer's terminals by exactly one of order, plan, store or terminal id. */
export async function listTerminals(ctx: ServiceCtx, customerId: number, q: TerminalListQuery): Promise<TerminalList> {
  const db = ctx.app.database.db;
  await requireCustomer(db, viewerOf(ctx), customerId);
  if (q.storeid !== undefined) await requireStoreOf(db, viewerOf(ctx), customerId, q.storeid, 'storeid');
  if (q.custorderid !== undefined) await requireOrderOf(db, viewerOf(ctx), customerId, q.custorderid, 'custorderid');
  if (q.customerplanid !== undefined)
    await requirePlanOf(db, viewerOf(ctx), customerId, q.customerplanid, 'customerplanid');
  const filters: (SQL | undefined)[] = [
    eq(terminals.customerId, customerId),
    q.custorderid === undefined ? undefined : eq(terminals.orderId, q.custorderid),
    q.customerplanid === undefined ? undefined : eq(terminals.planId, q.customerplanid),
    q.storeid === undefined ? undefined : eq(terminals.storeId, q.storeid),
    q.elmer_id === undefined ? undefined : eq(terminals.elmerId, q.elmer_id),
    visibleRecordsWhere(viewerOf(ctx), terminals.storeId),
  ];
  const where = and(...filters);
  const rows = await selectTerminals(db)
    .where(where)
    .orderBy(
      ...orderBy(
        q.sort,
        {
          elmer_id: terminals.elmerId,
          installed_at: terminals.installedAt,
          status: terminals.status,
          serial_number: terminals.serialNumber,
        },
        'elmer_id',
        terminals.id,
      ),
    )
    .limit(q.limit)
    .offset(q.offset);
  const [total] = await db.select({ n: count() }).from(terminals).where(where);
  return { items: rows.map(toTerminal), total: total?.n ?? 0 };
}

async function lockTerminal(tx: Db, viewer: Viewer, id: number, customerId?: number) {
  const [row] = await tx
    .select()
    .from(terminals)
    .where(and(eq(terminals.id, id), customerId === undefined ? undefined : eq(terminals.customerId, customerId)))
    .for('update');
  // Another agent's terminal is answered like a missing one (decision 140).
  if (!row || !(await isRecordVisible(tx, viewer, row)))
    throw new AppError(
      'not_found',
      customerId === undefined
        ? `Terminal ${id} was not found.`
        : `Terminal ${id} of customer ${customerId} was not found.`,
    );
  return row;
}

/**
 * PUT …/customerterminals/{terminalId}: mark/unmark under transfer (the elmer_id sent must be the terminal's) or set
 * the processor serial number. A retired terminal cannot change (409); an unchanged value writes nothing.
 */
export async function updateTerminal(
  ctx: ServiceCtx,
  customerId: number,
  terminalId: number,
  body: TerminalUpdateRequest,
): Promise<Terminal> {
  return withTx(ctx, async (tx) => {
    await requireCustomer(tx, viewerOf(ctx), customerId);
    const row = await lockTerminal(tx, viewerOf(ctx), terminalId, customerId);
    if (row.version !== body.version)
      throw versionConflict(`Terminal ${row.elmerId}`, await terminalById(tx, row.id), body.version);
    if (row.status === 'retired') {
      throw new AppError(
        'conflict',
        `Terminal ${row.elmerId} is retired; a retired terminal cannot be changed.`,
        undefined,
        { current: await terminalById(tx, row.id) },
      );
    }
    const now = ctx.app.clock.now();
    const base = { store_id: row.storeId, terminal_id: row.id, elmer_id: row.elmerId };
    if (body.under_transfer !== undefined) {
      if (body.elmer_id !== row.elmerId) {
        const message = `${body.elmer_id ?? ''} is not the terminal id of this terminal (${row.elmerId}).`;
        throw new AppError('validation_failed', message, { elmer_id: message });
      }
      if (row.underTransfer === body.under_transfer) return terminalById(tx, row.id);
      await tx
        .update(terminals)
        .set({ underTransfer: body.under_transfer, updatedAt: now, version: sql`${terminals.version} + 1` })
        .where(eq(terminals.id, row.id));
      await audit(tx, ctx, now, {
        customerId,
        action: body.under_transfer ? 'mark_under_transfer' : 'unmark_under_transfer',
        entity: 'terminal',
        entityId: row.elmerId,
        before: { ...base, under_transfer: row.underTransfer },
        after: { ...base, under_transfer: body.under_transfer },
      });
    } else {
      const serial = body.pos_cc_processor_serial_number ?? null;
      if (row.posCcProcessorSerialNumber === serial) return terminalById(tx, row.id);
      await tx
        .update(terminals)
        .set({ posCcProcessorSerialNumber: serial, updatedAt: now, version: sql`${terminals.version} + 1` })
        .where(eq(terminals.id, row.id));
      await audit(tx, ctx, now, {
        customerId,
        action: 'update_processor_serial',
        entity: 'terminal',
        entityId: row.elmerId,
        before: { ...base, pos_cc_processor_serial_number: row.posCcProcessorSerialNumber },
        after: { ...base, pos_cc_processor_serial_number: serial },
      });
    }
    return terminalById(tx, row.id);
  });
}

/**
 * DELETE /api/customers/{token}/customerterminals/{terminalId}: retire now, with a retire reason (domain_data type
 * retire_reason). Already retired → 409. No retire-terminals job is queued (decision 055): this call is the
 * retirement; the queue call is the bulk path and would find the terminal retired.
 */
export async function retireTerminal(
  ctx: ServiceCtx,
  terminalId: number,
  body: RetireTerminalRequest,
): Promise<Terminal> {
  return withTx(ctx, async (tx) => {
    const row = await lockTerminal(tx, viewerOf(ctx), terminalId);
    if (row.status === 'retired') {
      throw new AppError('conflict', `Terminal ${row.elmerId} is already retired.`, undefined, {
        current: await terminalById(tx, row.id),
      });
    }
    if (row.version !== body.version)
      throw versionConflict(`Terminal ${row.elmerId}`, await terminalById(tx, row.id), body.version);
    const [why] = await tx
      .select({ id: domainData.id, code: domainData.code, label: domainData.label, active: domainData.active })
      .from(domainData)
      .where(and(eq(domainData.id, body.reason_id), eq(domainData.type, 'retire_reason')));
    if (!why)
      throw new AppError('not_found', `Retire reason ${body.reason_id} was not found.`, {
        reason_id: 'Choose a retire reason from the list.',
      });
    if (!why.active)
      throw new AppError('validation_failed', 'This retire reason is no longer used; choose another.', {
        reason_id: 'This retire reason is no longer used.',
      });
    const now = ctx.app.clock.now();
    await tx
      .update(terminals)
      .set({
        status: 'retired',
        retiredAt: now,
        retireReasonId: why.id,
        underTransfer: false,
        updatedAt: now,
        version: sql`${terminals.version} + 1`,
      })
      .where(eq(terminals.id, row.id));
    const base = { store_id: row.storeId, terminal_id: row.id, elmer_id: row.elmerId };
    await audit(tx, ctx, now, {
      customerId: row.customerId,
      action: 'retire',
      entity: 'terminal',
      entityId: row.elmerId,
      before: {
        ...base,
        status: row.status,
        under_transfer: row.underTransfer,
        retired_at: null,
        retire_reason_id: null,
      },
      after: {
        ...base,
        status: 'retired',
        under_transfer: false,
        retired_at: now.toISOString(),
        retire_reason_id: why.id,
        retire_reason: why.code,
        retire_reason_label: why.label,
      },
    });
    return terminalById(tx, row.id);
  });
}

/**
 * GET /api/customers/{token}/terminals/validate/{a}/{b} (decision 055): a = terminal id (elmer_id), b = serial
 * number. Valid when the terminal exists, is not retired, and the serial is its own or no other terminal's.
 */
export async function validateTerminal(ctx: ServiceCtx, elmerId: string, serial: string): Promise<TerminalValidation> {
  const db = ctx.app.database.db;
  const [found] = await db
    .select({
      id: terminals.id,
      customerId: terminals.customerId,
      storeId: terminals.storeId,
      status: terminals.status,
      serialNumber: terminals.serialNumber,
    })
    .from(terminals)
    .where(eq(terminals.elmerId, elmerId));
  // Another agent's terminal is answered like a missing one; a serial another agent's terminal uses is "in use",
  // without naming that terminal (decision 140).
  const viewer = viewerOf(ctx);
  const terminal = found && (await isRecordVisible(db, viewer, found)) ? found : undefined;
  const reasons: string[] = [];
  if (!terminal) reasons.push(`Terminal ${elmerId} does not exist.`);
  else if (terminal.status === 'retired') reasons.push(`Terminal ${elmerId} is retired.`);
  const held = await serialHolder(db, viewer, serial, elmerId);
  const inUseBy = held?.elmerId ?? null;
  if (held) reasons.push(held.reason);
  return {
    elmer_id: elmerId,
    serial_number: serial,
    valid: reasons.length === 0,
    serial_matches: terminal?.serialNumber === serial,
    serial_in_use_by: inUseBy,
    reasons,
    terminal: terminal
      ? {
          id: terminal.id,
          customer_id: terminal.customerId,
          store_id: terminal.storeId,
          status: terminal.status as TerminalStatus,
        }
      : null,
  };
}
