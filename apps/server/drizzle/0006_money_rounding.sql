ALTER TABLE "club_money_settings" ADD COLUMN "auto_renew" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "rounding" integer DEFAULT 0 NOT NULL;