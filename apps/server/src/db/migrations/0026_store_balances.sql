CREATE TABLE "store_balances" (
	"store_id" integer PRIMARY KEY NOT NULL,
	"open_cents" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "invoices_store_open_idx";--> statement-breakpoint
ALTER TABLE "store_balances" ADD CONSTRAINT "store_balances_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "store_balances_open_idx" ON "store_balances" USING btree ("open_cents","store_id");
--> statement-breakpoint
-- hand-written (keep at merge): decision 139 — store_balances kept by triggers; the one rebuild of every report
-- figure (decision 137's facts and the store balances), run once here to fill them.
CREATE OR REPLACE FUNCTION store_balances_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- +new −old open_cents per store, applied in store order (two statements lock the rows they share in one order).
  IF TG_OP = 'INSERT' THEN
    INSERT INTO store_balances (store_id, open_cents)
    SELECT r.store_id, sum(r.open_cents) FROM new_rows r WHERE r.store_id IS NOT NULL
    GROUP BY r.store_id HAVING sum(r.open_cents) <> 0 ORDER BY r.store_id
    ON CONFLICT (store_id) DO UPDATE SET open_cents = store_balances.open_cents + excluded.open_cents;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO store_balances (store_id, open_cents)
    SELECT r.store_id, -sum(r.open_cents) FROM old_rows r WHERE r.store_id IS NOT NULL
    GROUP BY r.store_id HAVING sum(r.open_cents) <> 0 ORDER BY r.store_id
    ON CONFLICT (store_id) DO UPDATE SET open_cents = store_balances.open_cents + excluded.open_cents;
  ELSE
    INSERT INTO store_balances (store_id, open_cents)
    SELECT d.store_id, sum(d.open_cents) FROM (
      SELECT r.store_id, r.open_cents FROM new_rows r WHERE r.store_id IS NOT NULL
      UNION ALL
      SELECT r.store_id, -r.open_cents FROM old_rows r WHERE r.store_id IS NOT NULL
    ) d
    GROUP BY d.store_id HAVING sum(d.open_cents) <> 0 ORDER BY d.store_id
    ON CONFLICT (store_id) DO UPDATE SET open_cents = store_balances.open_cents + excluded.open_cents;
  END IF;
  RETURN NULL;
END $$ SET jit = off;--> statement-breakpoint
CREATE OR REPLACE FUNCTION store_balances_new_store() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO store_balances (store_id, open_cents) SELECT r.id, 0 FROM new_rows r ORDER BY r.id ON CONFLICT (store_id) DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER store_balances_invoice_insert AFTER INSERT ON invoices REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION store_balances_delta();--> statement-breakpoint
CREATE TRIGGER store_balances_invoice_update AFTER UPDATE ON invoices REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION store_balances_delta();--> statement-breakpoint
CREATE TRIGGER store_balances_invoice_delete AFTER DELETE ON invoices REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION store_balances_delta();--> statement-breakpoint
CREATE TRIGGER store_balances_store_insert AFTER INSERT ON stores REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION store_balances_new_store();--> statement-breakpoint
-- Both fact tables and every store's balance from scratch (this migration, seed:scale after its trigger-less load,
-- a repair).
CREATE OR REPLACE FUNCTION report_facts_rebuild() RETURNS void LANGUAGE sql AS $$
  TRUNCATE report_invoice_month_facts, report_charge_facts;
  INSERT INTO report_invoice_month_facts (month, type, currency, country, invoice_count, invoiced_cents, reversed_cents, collected_cents)
  SELECT date_trunc('month', r.issued_on)::date, r.type, r.currency, coalesce(s.country, c.country, ''), count(*),
    coalesce(sum(r.total_cents) FILTER (WHERE r.reversed_at IS NULL), 0), coalesce(sum(r.total_cents) FILTER (WHERE r.reversed_at IS NOT NULL), 0),
    sum(r.paid_cents)
  FROM invoices r LEFT JOIN stores s ON s.id = r.store_id LEFT JOIN customers c ON c.id = r.customer_id
  GROUP BY 1, 2, 3, 4;
  INSERT INTO report_charge_facts (slot, currency, country, attempts, attempted_cents, failed_attempts, failed_attempt_cents)
  SELECT date_bin('15 minutes', r.attempted_at, timestamptz '2000-01-01 00:00:00+00'), r.currency, coalesce(s.country, c.country, ''),
    count(*), sum(r.amount_cents), count(*) FILTER (WHERE r.status = 'F'), coalesce(sum(r.amount_cents) FILTER (WHERE r.status = 'F'), 0)
  FROM transactions r LEFT JOIN stores s ON s.id = r.store_id LEFT JOIN customers c ON c.id = r.customer_id
  WHERE r.kind = 'charge' AND r.attempted_at IS NOT NULL AND r.status IN ('S', 'F', 'R', 'B', 'C')
  GROUP BY 1, 2, 3;
  INSERT INTO store_balances (store_id, open_cents)
  SELECT s.id, coalesce(b.open_cents, 0)
  FROM stores s LEFT JOIN (SELECT i.store_id, sum(i.open_cents) AS open_cents FROM invoices i GROUP BY i.store_id) b ON b.store_id = s.id
  ON CONFLICT (store_id) DO UPDATE SET open_cents = excluded.open_cents;
$$;--> statement-breakpoint
SELECT report_facts_rebuild();
