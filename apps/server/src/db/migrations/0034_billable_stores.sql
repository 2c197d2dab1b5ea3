-- Issue 29 item 5, decision 149: test and demo stores (store types T and D) are never billed, charged, dunned or
-- counted in a report. Hand-written (no snapshot). The rule is the domain's isBillableStoreType; its SQL twin is
-- db/billable-stores.sql.ts (an anti-probe of the partial index below).
-- Only the test and demo stores: a handful of rows, so "not a test or demo store" is a hashed anti-join or one probe.
CREATE INDEX IF NOT EXISTS "stores_not_billable_idx" ON "stores" USING btree ("id") WHERE "store_type" IN ('T', 'D');--> statement-breakpoint
-- The report facts (decision 137) count only billable stores' invoices and charges: decision 137's triggers with the
-- rows of test and demo stores left out (a record with no store is counted).
CREATE OR REPLACE FUNCTION report_invoice_facts_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_invoice_month_facts (month, type, currency, country, invoice_count, invoiced_cents, reversed_cents, collected_cents)
    SELECT date_trunc('month', r.issued_on)::date, r.type, r.currency, coalesce((SELECT s.country FROM stores s WHERE s.id = r.store_id), (SELECT c.country FROM customers c WHERE c.id = r.customer_id), ''), count(*),
      coalesce(sum(r.total_cents) FILTER (WHERE r.reversed_at IS NULL), 0), coalesce(sum(r.total_cents) FILTER (WHERE r.reversed_at IS NOT NULL), 0),
      sum(r.paid_cents)
    FROM new_rows r
    WHERE NOT EXISTS (SELECT 1 FROM stores nbs WHERE nbs.id = r.store_id AND nbs.store_type IN ('T', 'D'))
    GROUP BY 1, 2, 3, 4;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO report_invoice_month_facts (month, type, currency, country, invoice_count, invoiced_cents, reversed_cents, collected_cents)
    SELECT date_trunc('month', r.issued_on)::date, r.type, r.currency, coalesce((SELECT s.country FROM stores s WHERE s.id = r.store_id), (SELECT c.country FROM customers c WHERE c.id = r.customer_id), ''), -count(*),
      -coalesce(sum(r.total_cents) FILTER (WHERE r.reversed_at IS NULL), 0), -coalesce(sum(r.total_cents) FILTER (WHERE r.reversed_at IS NOT NULL), 0),
      -sum(r.paid_cents)
    FROM old_rows r
    WHERE NOT EXISTS (SELECT 1 FROM stores nbs WHERE nbs.id = r.store_id AND nbs.store_type IN ('T', 'D'))
    GROUP BY 1, 2, 3, 4;
  ELSE
    INSERT INTO report_invoice_month_facts (month, type, currency, country, invoice_count, invoiced_cents, reversed_cents, collected_cents)
    SELECT d.month, d.type, d.currency, d.country, sum(d.n), sum(d.invoiced), sum(d.reversed), sum(d.collected)
    FROM (
      SELECT date_trunc('month', r.issued_on)::date AS month, r.type, r.currency, coalesce((SELECT s.country FROM stores s WHERE s.id = r.store_id), (SELECT c.country FROM customers c WHERE c.id = r.customer_id), '') AS country, 1 AS n,
        CASE WHEN r.reversed_at IS NULL THEN r.total_cents ELSE 0 END AS invoiced,
        CASE WHEN r.reversed_at IS NULL THEN 0 ELSE r.total_cents END AS reversed, r.paid_cents AS collected
      FROM new_rows r
      WHERE NOT EXISTS (SELECT 1 FROM stores nbs WHERE nbs.id = r.store_id AND nbs.store_type IN ('T', 'D'))
      UNION ALL
      SELECT date_trunc('month', r.issued_on)::date, r.type, r.currency, coalesce((SELECT s.country FROM stores s WHERE s.id = r.store_id), (SELECT c.country FROM customers c WHERE c.id = r.customer_id), ''), -1,
        CASE WHEN r.reversed_at IS NULL THEN -r.total_cents ELSE 0 END,
        CASE WHEN r.reversed_at IS NULL THEN 0 ELSE -r.total_cents END, -r.paid_cents
      FROM old_rows r
      WHERE NOT EXISTS (SELECT 1 FROM stores nbs WHERE nbs.id = r.store_id AND nbs.store_type IN ('T', 'D'))
    ) d
    GROUP BY 1, 2, 3, 4
    HAVING sum(d.n) <> 0 OR sum(d.invoiced) <> 0 OR sum(d.reversed) <> 0 OR sum(d.collected) <> 0;
  END IF;
  RETURN NULL;
END $$ SET jit = off;--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_charge_facts_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Charge attempts: kind charge, attempted, in an attempt status (S F R B C; not P pending, not V voided unsent),
  -- of a billable store (decision 149).
  IF TG_OP = 'INSERT' THEN
  INSERT INTO report_charge_facts (slot, currency, country, attempts, attempted_cents, failed_attempts, failed_attempt_cents)
  SELECT d.slot, d.currency, d.country, sum(d.n), sum(d.cents), sum(d.failed), sum(d.failed_cents)
  FROM (
    SELECT date_bin('15 minutes', r.attempted_at, timestamptz '2000-01-01 00:00:00+00') AS slot, r.currency,
      coalesce((SELECT s.country FROM stores s WHERE s.id = r.store_id), (SELECT c.country FROM customers c WHERE c.id = r.customer_id), '') AS country, 1 AS n, r.amount_cents AS cents,
      CASE WHEN r.status = 'F' THEN 1 ELSE 0 END AS failed, CASE WHEN r.status = 'F' THEN r.amount_cents ELSE 0 END AS failed_cents
    FROM new_rows r
    WHERE r.kind = 'charge' AND r.attempted_at IS NOT NULL AND r.status IN ('S', 'F', 'R', 'B', 'C')
      AND NOT EXISTS (SELECT 1 FROM stores nbs WHERE nbs.id = r.store_id AND nbs.store_type IN ('T', 'D'))
  ) d
  GROUP BY 1, 2, 3
  HAVING sum(d.n) <> 0 OR sum(d.cents) <> 0 OR sum(d.failed) <> 0 OR sum(d.failed_cents) <> 0;
  ELSIF TG_OP = 'DELETE' THEN
  INSERT INTO report_charge_facts (slot, currency, country, attempts, attempted_cents, failed_attempts, failed_attempt_cents)
  SELECT d.slot, d.currency, d.country, sum(d.n), sum(d.cents), sum(d.failed), sum(d.failed_cents)
  FROM (
    SELECT date_bin('15 minutes', r.attempted_at, timestamptz '2000-01-01 00:00:00+00') AS slot, r.currency,
      coalesce((SELECT s.country FROM stores s WHERE s.id = r.store_id), (SELECT c.country FROM customers c WHERE c.id = r.customer_id), '') AS country, -1 AS n, -r.amount_cents AS cents,
      CASE WHEN r.status = 'F' THEN -1 ELSE 0 END AS failed, CASE WHEN r.status = 'F' THEN -r.amount_cents ELSE 0 END AS failed_cents
    FROM old_rows r
    WHERE r.kind = 'charge' AND r.attempted_at IS NOT NULL AND r.status IN ('S', 'F', 'R', 'B', 'C')
      AND NOT EXISTS (SELECT 1 FROM stores nbs WHERE nbs.id = r.store_id AND nbs.store_type IN ('T', 'D'))
  ) d
  GROUP BY 1, 2, 3
  HAVING sum(d.n) <> 0 OR sum(d.cents) <> 0 OR sum(d.failed) <> 0 OR sum(d.failed_cents) <> 0;
  ELSE
  INSERT INTO report_charge_facts (slot, currency, country, attempts, attempted_cents, failed_attempts, failed_attempt_cents)
  SELECT d.slot, d.currency, d.country, sum(d.n), sum(d.cents), sum(d.failed), sum(d.failed_cents)
  FROM (
    SELECT date_bin('15 minutes', r.attempted_at, timestamptz '2000-01-01 00:00:00+00') AS slot, r.currency,
      coalesce((SELECT s.country FROM stores s WHERE s.id = r.store_id), (SELECT c.country FROM customers c WHERE c.id = r.customer_id), '') AS country, 1 AS n, r.amount_cents AS cents,
      CASE WHEN r.status = 'F' THEN 1 ELSE 0 END AS failed, CASE WHEN r.status = 'F' THEN r.amount_cents ELSE 0 END AS failed_cents
    FROM new_rows r
    WHERE r.kind = 'charge' AND r.attempted_at IS NOT NULL AND r.status IN ('S', 'F', 'R', 'B', 'C')
      AND NOT EXISTS (SELECT 1 FROM stores nbs WHERE nbs.id = r.store_id AND nbs.store_type IN ('T', 'D'))
    UNION ALL
    SELECT date_bin('15 minutes', r.attempted_at, timestamptz '2000-01-01 00:00:00+00') AS slot, r.currency,
      coalesce((SELECT s.country FROM stores s WHERE s.id = r.store_id), (SELECT c.country FROM customers c WHERE c.id = r.customer_id), '') AS country, -1 AS n, -r.amount_cents AS cents,
      CASE WHEN r.status = 'F' THEN -1 ELSE 0 END AS failed, CASE WHEN r.status = 'F' THEN -r.amount_cents ELSE 0 END AS failed_cents
    FROM old_rows r
    WHERE r.kind = 'charge' AND r.attempted_at IS NOT NULL AND r.status IN ('S', 'F', 'R', 'B', 'C')
      AND NOT EXISTS (SELECT 1 FROM stores nbs WHERE nbs.id = r.store_id AND nbs.store_type IN ('T', 'D'))
  ) d
  GROUP BY 1, 2, 3
  HAVING sum(d.n) <> 0 OR sum(d.cents) <> 0 OR sum(d.failed) <> 0 OR sum(d.failed_cents) <> 0;
  END IF;
  -- The failed-payment cohort: an invoice's first failed charge (every store's; the reports leave out test and demo
  -- stores' invoices when they read it).
  IF TG_OP <> 'DELETE' THEN
    UPDATE invoices i SET first_failed_at = f.at
    FROM (SELECT r.invoice_id, min(r.attempted_at) AS at FROM new_rows r
          WHERE r.kind = 'charge' AND r.status = 'F' AND r.invoice_id IS NOT NULL AND r.attempted_at IS NOT NULL
          GROUP BY r.invoice_id) f
    WHERE i.id = f.invoice_id AND (i.first_failed_at IS NULL OR i.first_failed_at > f.at);
  END IF;
  RETURN NULL;
END $$ SET jit = off;--> statement-breakpoint
-- A store that becomes a test or demo store takes its invoices and charges out of the facts; one that becomes a real
-- store puts them in (under the store's country then: the sign's side of the change). Walks invoices_store_idx and
-- transactions_store_idx for that store only.
CREATE OR REPLACE FUNCTION report_facts_store_type() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  fact_sign integer;
  fact_country text;
BEGIN
  IF (OLD.store_type IN ('T', 'D')) = (NEW.store_type IN ('T', 'D')) THEN
    RETURN NULL;
  END IF;
  fact_sign := CASE WHEN NEW.store_type IN ('T', 'D') THEN -1 ELSE 1 END;
  fact_country := CASE WHEN fact_sign < 0 THEN OLD.country ELSE NEW.country END;
  INSERT INTO report_invoice_month_facts (month, type, currency, country, invoice_count, invoiced_cents, reversed_cents, collected_cents)
  SELECT date_trunc('month', r.issued_on)::date, r.type, r.currency,
    coalesce(fact_country, (SELECT c.country FROM customers c WHERE c.id = r.customer_id), ''), fact_sign * count(*),
    fact_sign * coalesce(sum(r.total_cents) FILTER (WHERE r.reversed_at IS NULL), 0),
    fact_sign * coalesce(sum(r.total_cents) FILTER (WHERE r.reversed_at IS NOT NULL), 0), fact_sign * sum(r.paid_cents)
  FROM invoices r WHERE r.store_id = NEW.id
  GROUP BY 1, 2, 3, 4;
  INSERT INTO report_charge_facts (slot, currency, country, attempts, attempted_cents, failed_attempts, failed_attempt_cents)
  SELECT date_bin('15 minutes', r.attempted_at, timestamptz '2000-01-01 00:00:00+00'), r.currency,
    coalesce(fact_country, (SELECT c.country FROM customers c WHERE c.id = r.customer_id), ''),
    fact_sign * count(*), fact_sign * sum(r.amount_cents), fact_sign * count(*) FILTER (WHERE r.status = 'F'),
    fact_sign * coalesce(sum(r.amount_cents) FILTER (WHERE r.status = 'F'), 0)
  FROM transactions r
  WHERE r.store_id = NEW.id AND r.kind = 'charge' AND r.attempted_at IS NOT NULL AND r.status IN ('S', 'F', 'R', 'B', 'C')
  GROUP BY 1, 2, 3;
  RETURN NULL;
END $$ SET jit = off;--> statement-breakpoint
CREATE TRIGGER report_facts_store_type AFTER UPDATE OF store_type ON stores FOR EACH ROW
  WHEN (OLD.store_type IS DISTINCT FROM NEW.store_type) EXECUTE FUNCTION report_facts_store_type();--> statement-breakpoint
-- The one rebuild (decision 139) with the same rule.
CREATE OR REPLACE FUNCTION report_facts_rebuild() RETURNS void LANGUAGE sql AS $$
  TRUNCATE report_invoice_month_facts, report_charge_facts;
  INSERT INTO report_invoice_month_facts (month, type, currency, country, invoice_count, invoiced_cents, reversed_cents, collected_cents)
  SELECT date_trunc('month', r.issued_on)::date, r.type, r.currency, coalesce(s.country, c.country, ''), count(*),
    coalesce(sum(r.total_cents) FILTER (WHERE r.reversed_at IS NULL), 0), coalesce(sum(r.total_cents) FILTER (WHERE r.reversed_at IS NOT NULL), 0),
    sum(r.paid_cents)
  FROM invoices r LEFT JOIN stores s ON s.id = r.store_id LEFT JOIN customers c ON c.id = r.customer_id
  WHERE s.store_type IS NULL OR s.store_type NOT IN ('T', 'D')
  GROUP BY 1, 2, 3, 4;
  INSERT INTO report_charge_facts (slot, currency, country, attempts, attempted_cents, failed_attempts, failed_attempt_cents)
  SELECT date_bin('15 minutes', r.attempted_at, timestamptz '2000-01-01 00:00:00+00'), r.currency, coalesce(s.country, c.country, ''),
    count(*), sum(r.amount_cents), count(*) FILTER (WHERE r.status = 'F'), coalesce(sum(r.amount_cents) FILTER (WHERE r.status = 'F'), 0)
  FROM transactions r LEFT JOIN stores s ON s.id = r.store_id LEFT JOIN customers c ON c.id = r.customer_id
  WHERE r.kind = 'charge' AND r.attempted_at IS NOT NULL AND r.status IN ('S', 'F', 'R', 'B', 'C')
    AND (s.store_type IS NULL OR s.store_type NOT IN ('T', 'D'))
  GROUP BY 1, 2, 3;
  INSERT INTO store_balances (store_id, open_cents)
  SELECT s.id, coalesce(b.open_cents, 0)
  FROM stores s LEFT JOIN (SELECT i.store_id, sum(i.open_cents) AS open_cents FROM invoices i GROUP BY i.store_id) b ON b.store_id = s.id
  ON CONFLICT (store_id) DO UPDATE SET open_cents = excluded.open_cents;
$$;--> statement-breakpoint
-- What the facts counted of test and demo stores so far, taken out (set-based; the rest of the facts untouched).
INSERT INTO report_invoice_month_facts (month, type, currency, country, invoice_count, invoiced_cents, reversed_cents, collected_cents)
SELECT date_trunc('month', r.issued_on)::date, r.type, r.currency, coalesce(s.country, c.country, ''), -count(*),
  -coalesce(sum(r.total_cents) FILTER (WHERE r.reversed_at IS NULL), 0), -coalesce(sum(r.total_cents) FILTER (WHERE r.reversed_at IS NOT NULL), 0),
  -sum(r.paid_cents)
FROM invoices r JOIN stores s ON s.id = r.store_id LEFT JOIN customers c ON c.id = r.customer_id
WHERE s.store_type IN ('T', 'D')
GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO report_charge_facts (slot, currency, country, attempts, attempted_cents, failed_attempts, failed_attempt_cents)
SELECT date_bin('15 minutes', r.attempted_at, timestamptz '2000-01-01 00:00:00+00'), r.currency, coalesce(s.country, c.country, ''),
  -count(*), -sum(r.amount_cents), -count(*) FILTER (WHERE r.status = 'F'), -coalesce(sum(r.amount_cents) FILTER (WHERE r.status = 'F'), 0)
FROM transactions r JOIN stores s ON s.id = r.store_id LEFT JOIN customers c ON c.id = r.customer_id
WHERE r.kind = 'charge' AND r.attempted_at IS NOT NULL AND r.status IN ('S', 'F', 'R', 'B', 'C') AND s.store_type IN ('T', 'D')
GROUP BY 1, 2, 3;
