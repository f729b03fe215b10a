package integration

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
)

// The introspection dataset: what the client replays (bi_replay_test.go)
// and the psql describe commands (psql_describe_test.go) look at. Schema
// public, a table orders with a primary key, a default, a table comment and
// a column comment, two rows, and a view over it. The two servers get the
// same objects written in their own dialects: PostgreSQL declares the
// primary key; icegate makes id the Iceberg identifier field, which its
// system catalog shows as the primary key orders_pkey.

// introspectTable is the column list both servers share.
const introspectTable = `CREATE TABLE public.orders (
    id bigint NOT NULL%s,
    customer_id integer NOT NULL,
    customer text,
    status text DEFAULT 'new',
    amount numeric(12,2),
    discount double precision,
    ordered_at timestamp with time zone,
    ship_date date,
    paid boolean
)`

// introspectData comes after the table on both servers.
var introspectData = []string{
	`COMMENT ON TABLE public.orders IS 'Customer orders'`,
	`COMMENT ON COLUMN public.orders.amount IS 'Order total, in euros'`,
	`INSERT INTO public.orders VALUES
    (1, 10, 'Ada', 'shipped', 120.50, 0.1, '2026-01-02 03:04:05+00', '2026-01-05', true),
    (2, 11, 'Grace', 'new', 40.00, NULL, '2026-01-03 10:00:00+00', NULL, false)`,
	`CREATE VIEW public.big_orders AS SELECT id, customer, amount FROM public.orders WHERE amount > 100`,
}

// introspectSetupPostgres (re)creates the dataset in the reference
// server's database; earlier runs' objects are dropped first.
var introspectSetupPostgres = append([]string{
	`DROP VIEW IF EXISTS public.big_orders`,
	`DROP TABLE IF EXISTS public.orders CASCADE`,
	`CREATE SCHEMA IF NOT EXISTS public`,
	fmt.Sprintf(introspectTable, " PRIMARY KEY"),
	// icegate's database has no comment; initdb comments "postgres".
	`DO $$ BEGIN EXECUTE format('COMMENT ON DATABASE %I IS NULL', current_database()); END $$`,
}, introspectData...)

// introspectSetupIcegate creates the dataset in a fresh warehouse.
var introspectSetupIcegate = append([]string{
	`CREATE SCHEMA IF NOT EXISTS public`,
	fmt.Sprintf(introspectTable, ""),
	`ALTER TABLE public.orders SET IDENTIFIER FIELDS id`,
}, introspectData...)

// setupIntrospection runs the dataset's statements on one server.
func setupIntrospection(t *testing.T, conn *pgx.Conn, server string, stmts []string) {
	t.Helper()
	for _, sql := range stmts {
		if _, err := conn.Exec(testCtx(t), sql, pgx.QueryExecModeSimpleProtocol); err != nil {
			t.Fatalf("%s: introspection dataset: %s: %v", server, sql, err)
		}
	}
}
