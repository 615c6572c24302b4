CREATE TABLE "masav_results" (
	"club_id" integer NOT NULL,
	"id" serial NOT NULL,
	"masav_file_id" integer NOT NULL,
	"debt_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"purchase_id" bigint,
	"amount" integer NOT NULL,
	"collected" boolean NOT NULL,
	"reason_code" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"receipt_number" integer,
	CONSTRAINT "masav_results_club_id_id_pk" PRIMARY KEY("club_id","id")
);
--> statement-breakpoint
ALTER TABLE "debts" ADD COLUMN "return_reason" text;--> statement-breakpoint
ALTER TABLE "masav_files" ADD COLUMN "returned_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "masav_results_file" ON "masav_results" USING btree ("club_id","masav_file_id");--> statement-breakpoint
CREATE INDEX "masav_results_at" ON "masav_results" USING btree ("club_id","at");