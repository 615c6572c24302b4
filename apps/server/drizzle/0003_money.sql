CREATE TABLE "auto_renew_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"success" boolean NOT NULL,
	"error" text,
	"amount" integer DEFAULT 0 NOT NULL,
	"purchase_id" bigint,
	"debt_id" integer,
	"start_date" date,
	"end_date" date,
	"for_end" date
);
--> statement-breakpoint
CREATE TABLE "charges" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"client_id" integer,
	"idempotency_key" text NOT NULL,
	"kind" text DEFAULT 'charge' NOT NULL,
	"provider" text NOT NULL,
	"token" text DEFAULT '' NOT NULL,
	"amount" integer NOT NULL,
	"currency" integer DEFAULT 376 NOT NULL,
	"status" text NOT NULL,
	"provider_ref" text,
	"last_four" text DEFAULT '' NOT NULL,
	"brand" text DEFAULT '' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	"reconciled_at" timestamp with time zone,
	"reconcile_result" text,
	"purchase_id" bigint
);
--> statement-breakpoint
CREATE TABLE "club_money_settings" (
	"club_id" integer PRIMARY KEY NOT NULL,
	"masav" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"hashavshevet" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sumit" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"license_price" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "debts" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"paid" integer DEFAULT 0 NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"deleted" boolean DEFAULT false NOT NULL,
	"masav_file_id" integer
);
--> statement-breakpoint
CREATE TABLE "invoice_counters" (
	"club_id" integer PRIMARY KEY NOT NULL,
	"last" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "license_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"code" text NOT NULL,
	"quantity" integer NOT NULL,
	"amount" integer NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"customer_name" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"charge_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "license_orders_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "license_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"license_type" smallint DEFAULT 1 NOT NULL,
	"quantity" integer NOT NULL,
	"price" integer NOT NULL,
	"amount" integer NOT NULL,
	"transfer_date" date NOT NULL,
	"reference" text NOT NULL,
	"bank_code" text NOT NULL,
	"bank_enc" text NOT NULL,
	"file_name" text NOT NULL,
	"file_type" text NOT NULL,
	"file" "bytea" NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "masav_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"test_mode" boolean NOT NULL,
	"serial" integer NOT NULL,
	"value_date" date NOT NULL,
	"count" integer NOT NULL,
	"total" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"user_id" integer
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"kind" text NOT NULL,
	"card_token" text,
	"card_last_four" text,
	"card_brand" text,
	"card_expiry" text,
	"owner_name" text DEFAULT '' NOT NULL,
	"owner_id_masked" text DEFAULT '' NOT NULL,
	"bank_code" text,
	"bank_enc" text,
	"account_last" text,
	"auth_expiry" date,
	"charge_limit" integer DEFAULT 0 NOT NULL,
	"reference" text,
	"deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchase_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"purchase_id" bigint NOT NULL,
	"item_type" smallint NOT NULL,
	"item_id" integer,
	"name" text DEFAULT '' NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"unit_price" integer NOT NULL,
	"price_with_vat" integer NOT NULL,
	"amount_before_vat" integer NOT NULL,
	"expiry" date,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "purchase_payments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"purchase_id" bigint NOT NULL,
	"method" smallint NOT NULL,
	"amount" integer NOT NULL,
	"charge_id" bigint,
	"last_four" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchases" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"client_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"invoice_number" integer NOT NULL,
	"total" integer NOT NULL,
	"amount_before_vat" integer NOT NULL,
	"vat" integer NOT NULL,
	"vat_rate_bp" integer NOT NULL,
	"payment_status" smallint NOT NULL,
	"balance_before" integer DEFAULT 0 NOT NULL,
	"balance_after" integer DEFAULT 0 NOT NULL,
	"temp_balance_before" integer DEFAULT 0 NOT NULL,
	"temp_balance_after" integer DEFAULT 0 NOT NULL,
	"paid_cash" integer DEFAULT 0 NOT NULL,
	"paid_credit" integer DEFAULT 0 NOT NULL,
	"paid_beats" integer DEFAULT 0 NOT NULL,
	"paid_temp" integer DEFAULT 0 NOT NULL,
	"paid_other" integer DEFAULT 0 NOT NULL,
	"fee" integer DEFAULT 0 NOT NULL,
	"last_four" text DEFAULT '' NOT NULL,
	"excess" integer DEFAULT 0 NOT NULL,
	"payer" smallint DEFAULT 0 NOT NULL,
	"payer_client_id" integer,
	"is_admin_user" boolean DEFAULT true NOT NULL,
	"source" text NOT NULL,
	"user_id" integer,
	"terminal_id" integer,
	"idempotency_key" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "temp_balance" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "subscription_balance" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "debts" ADD CONSTRAINT "debts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auto_renew_logs_club_at" ON "auto_renew_logs" USING btree ("club_id","at");--> statement-breakpoint
CREATE INDEX "auto_renew_logs_client" ON "auto_renew_logs" USING btree ("club_id","client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "charges_idem" ON "charges" USING btree ("club_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "charges_club_status" ON "charges" USING btree ("club_id","status");--> statement-breakpoint
CREATE INDEX "debts_client" ON "debts" USING btree ("club_id","client_id");--> statement-breakpoint
CREATE INDEX "license_requests_club" ON "license_requests" USING btree ("club_id","created_at");--> statement-breakpoint
CREATE INDEX "masav_files_club" ON "masav_files" USING btree ("club_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_client" ON "payment_methods" USING btree ("client_id") WHERE "payment_methods"."deleted" = false;--> statement-breakpoint
CREATE INDEX "payment_methods_club" ON "payment_methods" USING btree ("club_id","kind");--> statement-breakpoint
CREATE INDEX "purchase_items_purchase" ON "purchase_items" USING btree ("purchase_id");--> statement-breakpoint
CREATE INDEX "purchase_payments_purchase" ON "purchase_payments" USING btree ("purchase_id");--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_invoice" ON "purchases" USING btree ("club_id","invoice_number");--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_idem" ON "purchases" USING btree ("club_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "purchases_client_at" ON "purchases" USING btree ("club_id","client_id","at");--> statement-breakpoint
CREATE INDEX "purchases_club_at" ON "purchases" USING btree ("club_id","at");