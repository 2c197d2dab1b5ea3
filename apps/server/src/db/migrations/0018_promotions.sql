CREATE TABLE "promotion_billing_items" (
	"promotion_id" integer NOT NULL,
	"billing_item_id" integer NOT NULL,
	CONSTRAINT "promotion_billing_items_promotion_id_billing_item_id_pk" PRIMARY KEY("promotion_id","billing_item_id")
);
--> statement-breakpoint
ALTER TABLE "order_promotions" ALTER COLUMN "customer_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "usage_limit" integer;--> statement-breakpoint
ALTER TABLE "promotion_billing_items" ADD CONSTRAINT "promotion_billing_items_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_billing_items" ADD CONSTRAINT "promotion_billing_items_billing_item_id_billing_items_id_fk" FOREIGN KEY ("billing_item_id") REFERENCES "public"."billing_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "promotion_billing_items_item_idx" ON "promotion_billing_items" USING btree ("billing_item_id");--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_usage_limit_check" CHECK ("promotions"."usage_limit" is null or "promotions"."usage_limit" >= 0);--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_dates_check" CHECK ("promotions"."starts_on" is null or "promotions"."expires_on" is null or "promotions"."starts_on" <= "promotions"."expires_on");--> statement-breakpoint
-- hand-written (keep at merge): a promotion's one billing item becomes the first of its list (decision 125).
INSERT INTO "promotion_billing_items" ("promotion_id", "billing_item_id")
SELECT "id", "billing_item_id" FROM "promotions" WHERE "billing_item_id" IS NOT NULL
ON CONFLICT DO NOTHING;
