ALTER TABLE "cash_sessions" ADD COLUMN "purchase_id" bigint;--> statement-breakpoint
ALTER TABLE "entrance_logs" ADD COLUMN "purchase_id" bigint;