-- stores.br_acct is the owning customer's br_acct, copied so the store search has one trigram index per
-- searched field (decision 004). These triggers keep the copy true whatever writes the rows.
CREATE OR REPLACE FUNCTION stores_copy_br_acct() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  SELECT br_acct INTO NEW.br_acct FROM customers WHERE id = NEW.customer_id;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER stores_copy_br_acct
  BEFORE INSERT OR UPDATE OF customer_id, br_acct ON stores
  FOR EACH ROW EXECUTE FUNCTION stores_copy_br_acct();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION customers_push_br_acct() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE stores SET br_acct = NEW.br_acct WHERE customer_id = NEW.id;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER customers_push_br_acct
  AFTER UPDATE OF br_acct ON customers
  FOR EACH ROW WHEN (OLD.br_acct IS DISTINCT FROM NEW.br_acct)
  EXECUTE FUNCTION customers_push_br_acct();
