CREATE TABLE "order_customer_matches" (
	"order_id" integer PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"federal_tax_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"flagged_at" timestamp with time zone NOT NULL,
	"flagged_by_email" text NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by_email" text,
	CONSTRAINT "order_customer_matches_status_check" CHECK ("order_customer_matches"."status" in ('pending', 'confirmed', 'rejected')),
	CONSTRAINT "order_customer_matches_decided_check" CHECK (("order_customer_matches"."status" = 'pending') = ("order_customer_matches"."decided_at" is null))
);
--> statement-breakpoint
ALTER TABLE "order_customer_matches" ADD CONSTRAINT "order_customer_matches_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_customer_matches" ADD CONSTRAINT "order_customer_matches_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_customer_matches_customer_idx" ON "order_customer_matches" USING btree ("customer_id");