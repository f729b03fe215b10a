-- The tables every client scenario reads, created through psql on a fresh
-- warehouse. "types" has a column of every common type and its identifier
-- field (the primary key clients see) is id; "lines" has a two-column key.
-- Iceberg has no 16-bit integer and no bounded string: smallint and
-- varchar(20) are stored as Iceberg int and string with their PostgreSQL
-- types recorded in the table property icegate.pg-types, so clients see
-- smallint and character varying(20) back, as from PostgreSQL.
\set ON_ERROR_STOP on

-- A fresh warehouse has no namespace yet.
CREATE SCHEMA IF NOT EXISTS public;

CREATE TABLE public.types (
	id bigint NOT NULL,
	i int,
	si smallint,
	b boolean,
	d double precision,
	r real,
	n numeric(12, 3),
	s text,
	vc varchar(20),
	dt date,
	ts timestamp,
	tz timestamptz,
	tm time,
	u uuid,
	by bytea,
	ai int[],
	at text[]
);
ALTER TABLE public.types SET IDENTIFIER FIELDS id;
COMMENT ON TABLE public.types IS 'one column of every common type';
COMMENT ON COLUMN public.types.s IS 'a string';

INSERT INTO public.types VALUES
	(1, 42, -7, true, 1.5, 2.25, 12345.678, 'héllo', 'short', '2024-01-31',
	 '2024-01-31 12:34:56.5', '2024-01-31 12:34:56.5+00', '10:11:12',
	 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\xdeadbeef', '{1,2,3}', '{a,"b c"}'),
	(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
	 NULL, NULL, NULL, NULL, NULL, NULL, NULL),
	(3, -1, 0, false, -0.25, 0, -0.001, '', 'x', '1999-12-31',
	 '1999-12-31 23:59:59', '1999-12-31 23:59:59+00', '00:00:00',
	 '00000000-0000-0000-0000-000000000000', '\x', '{}', '{}');

CREATE TABLE public.lines (
	order_id bigint NOT NULL,
	line int NOT NULL,
	qty int,
	price numeric(10, 2)
);
ALTER TABLE public.lines SET IDENTIFIER FIELDS order_id, line;
INSERT INTO public.lines SELECT g / 10, g % 10, g, g * 1.25 FROM generate_series(0, 999) g;

CREATE VIEW public.types_v AS SELECT id, s, n FROM public.types;
