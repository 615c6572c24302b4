-- Trigram search of the client list (pg_trgm is a trusted extension: the database owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "clients_club_group" ON "clients" USING btree ("club_id","group_id");--> statement-breakpoint
CREATE INDEX "clients_club_created" ON "clients" USING btree ("club_id","created_at");--> statement-breakpoint
CREATE INDEX "clients_club_subscription_end" ON "clients" USING btree ("club_id","subscription_end");--> statement-breakpoint
CREATE INDEX "clients_search_trgm" ON "clients" USING gin (lower("first_name" || ' ' || "last_name" || ' ' || "personal_id" || ' ' || "card_serial" || ' ' || "phone") gin_trgm_ops);