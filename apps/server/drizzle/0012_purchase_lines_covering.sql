DROP INDEX "purchase_items_purchase";--> statement-breakpoint
DROP INDEX "purchase_payments_purchase";--> statement-breakpoint
CREATE INDEX "purchase_items_purchase" ON "purchase_items" USING btree ("purchase_id","item_type","item_id","quantity","price_with_vat","amount_before_vat","club_id");--> statement-breakpoint
CREATE INDEX "purchase_payments_purchase" ON "purchase_payments" USING btree ("purchase_id","method","amount","club_id");