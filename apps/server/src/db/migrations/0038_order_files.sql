-- Decision 160 (Left → built): a new merchant's store files uploaded in the order flow, before the store exists.
-- Hand-written (no snapshot). A file is the order's (order_id, store_id null) until onboarding's Complete transaction
-- gives it the new store (store_id set; order_id kept: which order brought it in). At least one of them is set.
ALTER TABLE "store_files" ADD COLUMN IF NOT EXISTS "order_id" integer REFERENCES "orders"("id");--> statement-breakpoint
ALTER TABLE "store_files" ALTER COLUMN "store_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "store_files" ADD CONSTRAINT "store_files_owner_check" CHECK ("store_files"."store_id" is not null or "store_files"."order_id" is not null);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "store_files_order_idx" ON "store_files" USING btree ("order_id","uploaded_at");
