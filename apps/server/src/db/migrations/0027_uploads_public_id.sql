-- hand-written (keep at merge): decision 140 — uploads get a public id of 192 random bits (the integer key stays
-- internal); existing rows get one from two gen_random_uuid() (≥ 182 random bits in the 24 bytes kept), then the column
-- becomes NOT NULL (drizzle-kit generated a bare ADD COLUMN … NOT NULL, which fails on a table with rows).
ALTER TABLE "uploads" ADD COLUMN "public_id" text;--> statement-breakpoint
UPDATE "uploads" SET "public_id" = translate(encode(substring(decode(replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex') from 1 for 24), 'base64'), '+/', '-_')
WHERE "public_id" IS NULL;--> statement-breakpoint
ALTER TABLE "uploads" ALTER COLUMN "public_id" SET NOT NULL;--> statement-breakpoint
-- hand-written (keep at merge): every upload a record references has that record as its owner (an upload is readable
-- exactly when its owner is; decision 140). Contract PDFs (generated, signed, paper) belong to their order, a receipt's
-- check image to the receipt, a certificate's file to the certificate. Only rows without an owner are filled.
UPDATE "uploads" u SET "owner_type" = 'order', "owner_id" = c."order_id"::text
FROM "contracts" c
WHERE u."owner_type" IS NULL AND (c."upload_id" = u."id" OR c."signed_upload_id" = u."id");--> statement-breakpoint
UPDATE "uploads" u SET "owner_type" = 'receipt', "owner_id" = r."id"::text
FROM "receipts" r
WHERE u."owner_type" IS NULL AND r."upload_id" = u."id";--> statement-breakpoint
UPDATE "uploads" u SET "owner_type" = 'tax_certificate', "owner_id" = t."id"::text
FROM "tax_certificates" t
WHERE u."owner_type" IS NULL AND t."upload_id" = u."id";--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_public_id_uq" ON "uploads" USING btree ("public_id");--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_public_id_check" CHECK ("uploads"."public_id" ~ '^[A-Za-z0-9_-]{32}$');
