ALTER TABLE "clubs" ADD COLUMN "calendar_feed_token" text;--> statement-breakpoint
ALTER TABLE "clubs" ADD CONSTRAINT "clubs_calendar_feed_token_unique" UNIQUE("calendar_feed_token");