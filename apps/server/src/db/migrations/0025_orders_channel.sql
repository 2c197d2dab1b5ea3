DROP INDEX "orders_order_date_idx";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "sales_channel" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
-- hand-written (keep at merge): decision 138 — the order's sales channel kept by a trigger, backfilled, and the
-- report's two covering indexes (drizzle-kit generated them without INCLUDE; these replace its two CREATE INDEX).
CREATE OR REPLACE FUNCTION orders_sales_channel() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.sales_channel := coalesce(
    (SELECT a.sales_channel FROM agents a WHERE a.id = NEW.agent_id),
    (SELECT sp.sales_channel FROM stores s JOIN sales_persons sp ON sp.id = s.sales_person_id WHERE s.id = NEW.store_id),
    (SELECT sp.sales_channel FROM customers c JOIN sales_persons sp ON sp.id = c.sales_person_id WHERE c.id = NEW.customer_id),
    'none');
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER orders_sales_channel BEFORE INSERT OR UPDATE OF agent_id, store_id, customer_id ON orders
  FOR EACH ROW EXECUTE FUNCTION orders_sales_channel();--> statement-breakpoint
UPDATE orders o SET sales_channel = ch.channel
FROM (
  SELECT o2.id, coalesce(a.sales_channel, sps.sales_channel, spc.sales_channel, 'none') AS channel
  FROM orders o2
  LEFT JOIN agents a ON a.id = o2.agent_id
  LEFT JOIN stores s ON s.id = o2.store_id LEFT JOIN sales_persons sps ON sps.id = s.sales_person_id
  LEFT JOIN customers c ON c.id = o2.customer_id LEFT JOIN sales_persons spc ON spc.id = c.sales_person_id
) ch
WHERE ch.id = o.id AND ch.channel <> o.sales_channel;--> statement-breakpoint
CREATE INDEX "orders_report_order_date_idx" ON "orders" USING btree ("order_date","id") INCLUDE ("status", "flow", "currency", "country", "sales_channel", "agent_id", "total_sale_cents");--> statement-breakpoint
CREATE INDEX "orders_report_submitted_idx" ON "orders" USING btree ("submitted_at","id") INCLUDE ("status", "flow", "currency", "country", "sales_channel", "agent_id", "total_sale_cents");
