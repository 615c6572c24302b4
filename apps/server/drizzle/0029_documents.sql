CREATE TABLE "document_counters" (
	"club_id" integer NOT NULL,
	"kind" smallint NOT NULL,
	"last" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "document_counters_club_id_kind_pk" PRIMARY KEY("club_id","kind")
);
--> statement-breakpoint
CREATE TABLE "purchase_documents" (
	"id" serial NOT NULL,
	"club_id" integer NOT NULL,
	"purchase_id" bigint NOT NULL,
	"kind" smallint NOT NULL,
	"number" integer NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"snapshot" jsonb NOT NULL,
	"prints" integer DEFAULT 0 NOT NULL,
	"last_printed_at" timestamp with time zone,
	"emailed_at" timestamp with time zone,
	"user_id" integer,
	CONSTRAINT "purchase_documents_club_id_id_pk" PRIMARY KEY("club_id","id")
);
--> statement-breakpoint
ALTER TABLE "purchases" ALTER COLUMN "invoice_number" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "club_money_settings" ADD COLUMN "invoice_mail" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "debts" ADD COLUMN "purchase_id" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_documents_number" ON "purchase_documents" USING btree ("club_id","kind","number");--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_documents_purchase" ON "purchase_documents" USING btree ("club_id","purchase_id","kind");