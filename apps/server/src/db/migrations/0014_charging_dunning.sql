CREATE TABLE "invoice_dunning" (
	"invoice_id" integer PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"store_id" integer,
	"state" text NOT NULL,
	"first_failed_on" date NOT NULL,
	"failed_attempts" integer NOT NULL,
	"last_transaction_id" integer,
	"last_decline_code" text,
	"last_decline_kind" text NOT NULL,
	"next_retry_on" date,
	"fee_state" text,
	"fee_cents" bigint,
	"fee_invoice_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "invoice_dunning_state_check" CHECK ("invoice_dunning"."state" in ('retrying', 'collection', 'stopped', 'recovered')),
	CONSTRAINT "invoice_dunning_kind_check" CHECK ("invoice_dunning"."last_decline_kind" in ('soft', 'hard')),
	CONSTRAINT "invoice_dunning_fee_check" CHECK ("invoice_dunning"."fee_state" is null or "invoice_dunning"."fee_state" in ('pending', 'invoiced', 'waived'))
);
--> statement-breakpoint
CREATE TABLE "local_gateway_operations" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"operation" text NOT NULL,
	"reference" text NOT NULL,
	"parent_reference" text,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	"currency" text,
	"payment_reference" text,
	"instrument_kind" text,
	"status" text NOT NULL,
	"decline_code" text,
	"failure_reason" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "past_due_since" date;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "decline_code" text;--> statement-breakpoint
ALTER TABLE "invoice_dunning" ADD CONSTRAINT "invoice_dunning_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_dunning" ADD CONSTRAINT "invoice_dunning_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_dunning" ADD CONSTRAINT "invoice_dunning_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_dunning" ADD CONSTRAINT "invoice_dunning_last_transaction_id_transactions_id_fk" FOREIGN KEY ("last_transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_dunning" ADD CONSTRAINT "invoice_dunning_fee_invoice_id_invoices_id_fk" FOREIGN KEY ("fee_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_dunning_due_idx" ON "invoice_dunning" USING btree ("next_retry_on") WHERE "invoice_dunning"."state" = 'retrying';--> statement-breakpoint
CREATE INDEX "invoice_dunning_customer_idx" ON "invoice_dunning" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "invoice_dunning_fee_idx" ON "invoice_dunning" USING btree ("store_id") WHERE "invoice_dunning"."fee_state" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "local_gateway_operations_reference_uq" ON "local_gateway_operations" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "local_gateway_operations_parent_idx" ON "local_gateway_operations" USING btree ("parent_reference");--> statement-breakpoint
CREATE INDEX "transactions_pending_idx" ON "transactions" USING btree ("attempted_at","id") WHERE "transactions"."status" = 'P';