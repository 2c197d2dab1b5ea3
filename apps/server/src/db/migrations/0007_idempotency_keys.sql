CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	CONSTRAINT "idempotency_keys_scope_key_pk" PRIMARY KEY("scope","key"),
	CONSTRAINT "idempotency_keys_state_check" CHECK (("idempotency_keys"."locked_until" is null) = ("idempotency_keys"."response_status" is not null) and ("idempotency_keys"."response_status" is null) = ("idempotency_keys"."response_body" is null)),
	CONSTRAINT "idempotency_keys_status_check" CHECK ("idempotency_keys"."response_status" between 200 and 499)
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys" USING btree ("expires_at");