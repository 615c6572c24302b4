CREATE TABLE "client_entry_guard" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL
);
