CREATE TABLE "client_entry_guard" (
	"club_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "client_entry_guard_club_id_client_id_pk" PRIMARY KEY("club_id","client_id")
);
