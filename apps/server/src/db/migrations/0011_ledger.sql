-- The ledger of every invoice (decision 112): the SQL twin of invoiceBalance in packages/domain/src/rules/ledger.ts.
-- Sums per invoice through the invoice_id indexes (LATERAL), so a read filtered by invoice or customer touches only
-- that invoice's rows. Money in: charges in S, receipt allocations. Money out: refund/chargeback/reversal
-- transactions in S or B, approved refund memos (R). Credit: approved C memos, approved A memos (signed).
-- Applied payments first, then credits, then write-offs; the rest is open (0 once reversed: reversed_at is set).
CREATE VIEW "invoice_balances" AS
SELECT
  i.id AS invoice_id,
  i.customer_id,
  i.total_cents,
  p.paid AS paid_cents,
  c.credited AS credited_cents,
  w.written_off AS written_off_cents,
  CASE WHEN i.reversed_at IS NULL THEN 0 ELSE r.remaining END AS reversed_cents,
  d.debited AS debited_cents,
  (d.money_in - p.paid) + (d.credit_in - c.credited) AS overpaid_cents,
  CASE WHEN i.reversed_at IS NULL THEN r.remaining ELSE 0 END AS open_cents,
  CASE WHEN i.reversed_at IS NOT NULL THEN 'R' WHEN r.remaining > 0 THEN 'N' ELSE 'P' END AS status,
  -- The invoice's stored figures beside the derivation (the ledger check compares them).
  i.paid_cents AS stored_paid_cents,
  i.status AS stored_status
FROM invoices i
CROSS JOIN LATERAL (
  SELECT coalesce(sum(CASE
    WHEN t.kind = 'charge' AND t.status = 'S' THEN t.amount_cents
    WHEN t.kind IN ('refund', 'chargeback', 'reversal') AND t.status IN ('S', 'B') THEN -t.amount_cents
    ELSE 0 END), 0)::bigint AS net
  FROM transactions t WHERE t.invoice_id = i.id
) tx
CROSS JOIN LATERAL (
  SELECT coalesce(sum(a.amount_cents), 0)::bigint AS received FROM receipt_allocations a WHERE a.invoice_id = i.id
) ra
CROSS JOIN LATERAL (
  SELECT
    coalesce(sum(CASE WHEN m.type = 'R' THEN abs(m.amount_cents) ELSE 0 END), 0)::bigint AS refunded,
    coalesce(sum(CASE WHEN m.type = 'C' THEN abs(m.amount_cents) WHEN m.type = 'A' THEN m.amount_cents ELSE 0 END), 0)::bigint AS credit
  FROM credit_memos m WHERE m.invoice_id = i.id AND m.status = 'A'
) cm
CROSS JOIN LATERAL (
  SELECT coalesce(sum(abs(wo.amount_cents)), 0)::bigint AS write_off FROM write_offs wo WHERE wo.invoice_id = i.id
) wsum
CROSS JOIN LATERAL (SELECT tx.net + ra.received - cm.refunded AS money) mo
CROSS JOIN LATERAL (
  SELECT greatest(0, -mo.money) + greatest(0, -cm.credit) AS debited,
    greatest(0, mo.money) AS money_in,
    greatest(0, cm.credit) AS credit_in
) d
CROSS JOIN LATERAL (SELECT i.total_cents + d.debited AS owed) o
CROSS JOIN LATERAL (SELECT least(d.money_in, o.owed) AS paid) p
CROSS JOIN LATERAL (SELECT least(d.credit_in, o.owed - p.paid) AS credited) c
CROSS JOIN LATERAL (SELECT least(wsum.write_off, o.owed - p.paid - c.credited) AS written_off) w
CROSS JOIN LATERAL (SELECT o.owed - c.credited - p.paid - w.written_off AS remaining) r;
