-- Ready to shard by club_id (issue 20, docs/scaling.md): primary keys (club_id, id), unique keys with club_id,
-- foreign keys between club-owned tables carry club_id. Checked by src/db/shard-ready.test.ts.
ALTER TABLE "license_orders" DROP CONSTRAINT "license_orders_code_unique";--> statement-breakpoint
ALTER TABLE "attendance_logs" DROP CONSTRAINT "attendance_logs_client_id_clients_id_fk";
--> statement-breakpoint
ALTER TABLE "attendance_logs" DROP CONSTRAINT "attendance_logs_entry_terminal_id_terminals_id_fk";
--> statement-breakpoint
ALTER TABLE "attendance_logs" DROP CONSTRAINT "attendance_logs_exit_terminal_id_terminals_id_fk";
--> statement-breakpoint
ALTER TABLE "balance_ledger" DROP CONSTRAINT "balance_ledger_client_id_clients_id_fk";
--> statement-breakpoint
ALTER TABLE "biometric_templates" DROP CONSTRAINT "biometric_templates_client_id_clients_id_fk";
--> statement-breakpoint
ALTER TABLE "clients" DROP CONSTRAINT "clients_group_id_groups_id_fk";
--> statement-breakpoint
ALTER TABLE "debts" DROP CONSTRAINT "debts_client_id_clients_id_fk";
--> statement-breakpoint
ALTER TABLE "incident_deliveries" DROP CONSTRAINT "incident_deliveries_incident_id_incidents_id_fk";
--> statement-breakpoint
ALTER TABLE "incidents" DROP CONSTRAINT "incidents_category_id_feedback_categories_id_fk";
--> statement-breakpoint
ALTER TABLE "payment_methods" DROP CONSTRAINT "payment_methods_client_id_clients_id_fk";
--> statement-breakpoint
ALTER TABLE "schedule_to_group" DROP CONSTRAINT "schedule_to_group_schedule_id_schedules_id_fk";
--> statement-breakpoint
ALTER TABLE "schedule_to_group" DROP CONSTRAINT "schedule_to_group_group_id_groups_id_fk";
--> statement-breakpoint
ALTER TABLE "schedules" DROP CONSTRAINT "schedules_group_id_groups_id_fk";
--> statement-breakpoint
ALTER TABLE "terminal_cash" DROP CONSTRAINT "terminal_cash_terminal_id_terminals_id_fk";
--> statement-breakpoint
DROP INDEX "cash_inserts_event";--> statement-breakpoint
DROP INDEX "cash_sessions_terminal_session";--> statement-breakpoint
DROP INDEX "entrance_logs_event";--> statement-breakpoint
DROP INDEX "incidents_terminal_event";--> statement-breakpoint
DROP INDEX "payment_methods_client";--> statement-breakpoint
DROP INDEX "quick_exits_entrance";--> statement-breakpoint
DROP INDEX "quick_exits_event";--> statement-breakpoint
DROP INDEX "terminals_serial";--> statement-breakpoint
ALTER TABLE "attendance_logs" DROP CONSTRAINT "attendance_logs_pkey";--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_pkey";--> statement-breakpoint
-- The operator's actions outside any club are club 0 (a distribution column is never null, docs/scaling.md).
UPDATE "audit_log" SET "club_id" = 0 WHERE "club_id" IS NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "club_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "auto_renew_logs" DROP CONSTRAINT "auto_renew_logs_pkey";--> statement-breakpoint
ALTER TABLE "balance_ledger" DROP CONSTRAINT "balance_ledger_pkey";--> statement-breakpoint
ALTER TABLE "biometric_templates" DROP CONSTRAINT "biometric_templates_pkey";--> statement-breakpoint
ALTER TABLE "cash_inserts" DROP CONSTRAINT "cash_inserts_pkey";--> statement-breakpoint
ALTER TABLE "cash_resets" DROP CONSTRAINT "cash_resets_pkey";--> statement-breakpoint
ALTER TABLE "cash_sessions" DROP CONSTRAINT "cash_sessions_pkey";--> statement-breakpoint
ALTER TABLE "charges" DROP CONSTRAINT "charges_pkey";--> statement-breakpoint
ALTER TABLE "clients" DROP CONSTRAINT "clients_pkey";--> statement-breakpoint
ALTER TABLE "debts" DROP CONSTRAINT "debts_pkey";--> statement-breakpoint
ALTER TABLE "employee_positions" DROP CONSTRAINT "employee_positions_pkey";--> statement-breakpoint
ALTER TABLE "entrance_logs" DROP CONSTRAINT "entrance_logs_pkey";--> statement-breakpoint
ALTER TABLE "feedback_categories" DROP CONSTRAINT "feedback_categories_pkey";--> statement-breakpoint
ALTER TABLE "groups" DROP CONSTRAINT "groups_pkey";--> statement-breakpoint
ALTER TABLE "incident_deliveries" DROP CONSTRAINT "incident_deliveries_pkey";--> statement-breakpoint
ALTER TABLE "incidents" DROP CONSTRAINT "incidents_pkey";--> statement-breakpoint
ALTER TABLE "license_loads" DROP CONSTRAINT "license_loads_pkey";--> statement-breakpoint
ALTER TABLE "license_orders" DROP CONSTRAINT "license_orders_pkey";--> statement-breakpoint
ALTER TABLE "license_requests" DROP CONSTRAINT "license_requests_pkey";--> statement-breakpoint
ALTER TABLE "masav_files" DROP CONSTRAINT "masav_files_pkey";--> statement-breakpoint
ALTER TABLE "payment_methods" DROP CONSTRAINT "payment_methods_pkey";--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_pkey";--> statement-breakpoint
ALTER TABLE "purchase_items" DROP CONSTRAINT "purchase_items_pkey";--> statement-breakpoint
ALTER TABLE "purchase_payments" DROP CONSTRAINT "purchase_payments_pkey";--> statement-breakpoint
ALTER TABLE "purchases" DROP CONSTRAINT "purchases_pkey";--> statement-breakpoint
ALTER TABLE "quick_exits" DROP CONSTRAINT "quick_exits_pkey";--> statement-breakpoint
ALTER TABLE "schedule_to_group" DROP CONSTRAINT "schedule_to_group_pkey";--> statement-breakpoint
ALTER TABLE "schedules" DROP CONSTRAINT "schedules_pkey";--> statement-breakpoint
ALTER TABLE "terminal_cash" DROP CONSTRAINT "terminal_cash_pkey";--> statement-breakpoint
ALTER TABLE "terminal_messages" DROP CONSTRAINT "terminal_messages_pkey";--> statement-breakpoint
ALTER TABLE "terminals" DROP CONSTRAINT "terminals_pkey";--> statement-breakpoint
ALTER TABLE "attendance_logs" ADD CONSTRAINT "attendance_logs_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "auto_renew_logs" ADD CONSTRAINT "auto_renew_logs_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "balance_ledger" ADD CONSTRAINT "balance_ledger_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "biometric_templates" ADD CONSTRAINT "biometric_templates_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "cash_inserts" ADD CONSTRAINT "cash_inserts_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "cash_resets" ADD CONSTRAINT "cash_resets_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "cash_sessions" ADD CONSTRAINT "cash_sessions_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "debts" ADD CONSTRAINT "debts_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "employee_positions" ADD CONSTRAINT "employee_positions_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "entrance_logs" ADD CONSTRAINT "entrance_logs_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "feedback_categories" ADD CONSTRAINT "feedback_categories_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "incident_deliveries" ADD CONSTRAINT "incident_deliveries_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "license_loads" ADD CONSTRAINT "license_loads_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "license_orders" ADD CONSTRAINT "license_orders_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "license_requests" ADD CONSTRAINT "license_requests_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "masav_files" ADD CONSTRAINT "masav_files_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "purchase_items" ADD CONSTRAINT "purchase_items_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "purchase_payments" ADD CONSTRAINT "purchase_payments_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "quick_exits" ADD CONSTRAINT "quick_exits_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "schedule_to_group" ADD CONSTRAINT "schedule_to_group_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "terminal_cash" ADD CONSTRAINT "terminal_cash_club_id_terminal_id_pk" PRIMARY KEY("club_id","terminal_id");--> statement-breakpoint
ALTER TABLE "terminal_messages" ADD CONSTRAINT "terminal_messages_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "terminals" ADD CONSTRAINT "terminals_club_id_id_pk" PRIMARY KEY("club_id","id");--> statement-breakpoint
ALTER TABLE "attendance_logs" ADD CONSTRAINT "attendance_logs_client_id_fk" FOREIGN KEY ("club_id","client_id") REFERENCES "public"."clients"("club_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_logs" ADD CONSTRAINT "attendance_logs_entry_terminal_id_fk" FOREIGN KEY ("club_id","entry_terminal_id") REFERENCES "public"."terminals"("club_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_logs" ADD CONSTRAINT "attendance_logs_exit_terminal_id_fk" FOREIGN KEY ("club_id","exit_terminal_id") REFERENCES "public"."terminals"("club_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_ledger" ADD CONSTRAINT "balance_ledger_client_id_fk" FOREIGN KEY ("club_id","client_id") REFERENCES "public"."clients"("club_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "biometric_templates" ADD CONSTRAINT "biometric_templates_client_id_fk" FOREIGN KEY ("club_id","client_id") REFERENCES "public"."clients"("club_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_group_id_fk" FOREIGN KEY ("club_id","group_id") REFERENCES "public"."groups"("club_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debts" ADD CONSTRAINT "debts_client_id_fk" FOREIGN KEY ("club_id","client_id") REFERENCES "public"."clients"("club_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_deliveries" ADD CONSTRAINT "incident_deliveries_incident_id_fk" FOREIGN KEY ("club_id","incident_id") REFERENCES "public"."incidents"("club_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_category_id_fk" FOREIGN KEY ("club_id","category_id") REFERENCES "public"."feedback_categories"("club_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_client_id_fk" FOREIGN KEY ("club_id","client_id") REFERENCES "public"."clients"("club_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_to_group" ADD CONSTRAINT "schedule_to_group_schedule_id_fk" FOREIGN KEY ("club_id","schedule_id") REFERENCES "public"."schedules"("club_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_to_group" ADD CONSTRAINT "schedule_to_group_group_id_fk" FOREIGN KEY ("club_id","group_id") REFERENCES "public"."groups"("club_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_group_id_fk" FOREIGN KEY ("club_id","group_id") REFERENCES "public"."groups"("club_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terminal_cash" ADD CONSTRAINT "terminal_cash_terminal_id_fk" FOREIGN KEY ("club_id","terminal_id") REFERENCES "public"."terminals"("club_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "license_orders_club_code" ON "license_orders" USING btree ("club_id","code");--> statement-breakpoint
CREATE INDEX "license_orders_code" ON "license_orders" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "terminals_club_serial" ON "terminals" USING btree ("club_id","serial");--> statement-breakpoint
CREATE UNIQUE INDEX "cash_inserts_event" ON "cash_inserts" USING btree ("club_id","terminal_id","event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cash_sessions_terminal_session" ON "cash_sessions" USING btree ("club_id","terminal_id","session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "entrance_logs_event" ON "entrance_logs" USING btree ("club_id","terminal_id","event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "incidents_terminal_event" ON "incidents" USING btree ("club_id","terminal_id","event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_client" ON "payment_methods" USING btree ("club_id","client_id") WHERE "payment_methods"."deleted" = false;--> statement-breakpoint
CREATE UNIQUE INDEX "quick_exits_entrance" ON "quick_exits" USING btree ("club_id","entrance_id");--> statement-breakpoint
CREATE UNIQUE INDEX "quick_exits_event" ON "quick_exits" USING btree ("club_id","terminal_id","event_id");--> statement-breakpoint
CREATE INDEX "terminals_serial" ON "terminals" USING btree ("serial");