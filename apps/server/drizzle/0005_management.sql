CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"name" text NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" smallint DEFAULT 1 NOT NULL,
	"price" integer NOT NULL,
	"max_quantity" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "card_type" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "special_price" integer;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "client_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "employee_position_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "terms_signature" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "terms_accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_club" ON "products" USING btree ("club_id");--> statement-breakpoint
CREATE INDEX "audit_log_entity" ON "audit_log" USING btree ("club_id","entity","entity_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "clients_club_enroll_password" ON "clients" USING btree ("club_id","enroll_password") WHERE "clients"."enroll_password" <> '' and "clients"."status" <> 3;--> statement-breakpoint
CREATE INDEX "clients_club_parent" ON "clients" USING btree ("club_id","parent_id");