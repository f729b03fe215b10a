-- What object-relational mappers send when they create and change their
-- tables (Sequelize's sync, TypeORM's synchronize and migrations): the
-- uuid-ossp functions, constraints icegate accepts without keeping them,
-- SET NOT NULL and ADD COLUMN ... NOT NULL checked against the rows,
-- dropping indexes and constraints.

-- setup
CREATE EXTENSION IF NOT EXISTS "uuid-ossp";
CREATE SCHEMA pgorm;
CREATE TABLE pgorm.u (id int NOT NULL, name varchar(40) NOT NULL, age smallint, PRIMARY KEY (id));
INSERT INTO pgorm.u VALUES (1, 'ann', 30), (2, 'bob', NULL);
CREATE TABLE pgorm.e (id int NOT NULL, v int);
CREATE TABLE pgorm.vn (id int NOT NULL, a varchar(10), b text);
INSERT INTO pgorm.vn VALUES (1, 'abcdefghij', 'abc'), (2, NULL, 'héllo');

-- queries
SELECT uuid_nil(), uuid_ns_dns(), uuid_ns_url(), uuid_ns_oid(), uuid_ns_x500();
SELECT uuid_generate_v3(uuid_ns_dns(), 'www.example.com'), uuid_generate_v5(uuid_ns_url(), 'http://www.postgresql.org/');
SELECT uuid_generate_v3(NULL, 'x') IS NULL, uuid_generate_v5(uuid_nil(), ''), uuid_generate_v3(uuid_ns_oid(), 'é');
SELECT substr(uuid_generate_v4()::text, 15, 1), substr(uuid_generate_v1()::text, 15, 1), substr(uuid_generate_v1mc()::text, 15, 1);
SELECT uuid_generate_v4() = uuid_generate_v4(), uuid_generate_v1() = uuid_generate_v1();
SELECT uuid_generate_v4(1);
CREATE TABLE pgorm.g (id uuid NOT NULL DEFAULT uuid_generate_v4(), t text, PRIMARY KEY (id));
INSERT INTO pgorm.g (t) VALUES ('a'), ('b'), ('c');
SELECT count(DISTINCT id), count(*) FROM pgorm.g;
CREATE TABLE pgorm.c (id int NOT NULL, ref int REFERENCES pgorm.u (id) ON DELETE SET NULL, code text UNIQUE, n int CHECK (n > 0), PRIMARY KEY (id));
CREATE TABLE pgorm.d (id int NOT NULL, a int, CONSTRAINT d_pk PRIMARY KEY (id), CONSTRAINT d_a_fk FOREIGN KEY (a) REFERENCES pgorm.u (id), CONSTRAINT d_a_key UNIQUE (a));
SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey) WHERE i.indrelid = 'pgorm.c'::regclass AND i.indisprimary;
ALTER TABLE pgorm.u ALTER COLUMN name SET NOT NULL;
ALTER TABLE pgorm.u ALTER COLUMN age SET NOT NULL;
ALTER TABLE pgorm.u ALTER COLUMN nope SET NOT NULL;
UPDATE pgorm.u SET age = 0 WHERE age IS NULL;
ALTER TABLE pgorm.u ALTER COLUMN age SET NOT NULL;
SELECT column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'pgorm' AND table_name = 'u' ORDER BY ordinal_position;
INSERT INTO pgorm.u VALUES (3, 'cy', NULL);
ALTER TABLE pgorm.u ADD COLUMN extra int NOT NULL;
ALTER TABLE pgorm.e ADD COLUMN w int NOT NULL DEFAULT 5, ADD COLUMN x text NOT NULL;
INSERT INTO pgorm.e (id, v, x) VALUES (1, 1, 'x');
INSERT INTO pgorm.e (id, v) VALUES (2, 2);
SELECT id, v, w, x FROM pgorm.e;
SELECT column_name, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'pgorm' AND table_name = 'e' ORDER BY ordinal_position;
CREATE INDEX u_age ON pgorm.u (age);
DROP INDEX pgorm.u_age;
DROP INDEX IF EXISTS pgorm.nope;
DROP INDEX pgorm.u_pkey;
ALTER TABLE pgorm.c DROP CONSTRAINT c_ref_fkey;
ALTER TABLE pgorm.c DROP CONSTRAINT IF EXISTS nope;
ALTER TABLE pgorm.c DROP CONSTRAINT c_pkey;
SELECT count(*) FROM pg_constraint WHERE conrelid = 'pgorm.c'::regclass AND contype = 'p';
CREATE EXTENSION IF NOT EXISTS "uuid-ossp";
ALTER TABLE pgorm.vn ALTER COLUMN a TYPE varchar(5);
ALTER TABLE pgorm.vn ALTER COLUMN b TYPE varchar(4);
ALTER TABLE pgorm.vn ALTER COLUMN b TYPE varchar(5);
INSERT INTO pgorm.vn (id, b) VALUES (3, 'toolong');
ALTER TABLE pgorm.vn ALTER COLUMN a TYPE varchar(20);
SELECT column_name, data_type, character_maximum_length FROM information_schema.columns WHERE table_schema = 'pgorm' AND table_name = 'vn' ORDER BY ordinal_position;
CREATE TABLE pgorm.rs (id serial, v text);
ALTER TABLE pgorm.rs RENAME TO rs2;
ALTER SEQUENCE pgorm.rs_id_seq RENAME TO rs2_id_seq;
INSERT INTO pgorm.rs2 (v) VALUES ('a');
SELECT id, v FROM pgorm.rs2;
SELECT column_default, pg_get_serial_sequence('pgorm.rs2', 'id') FROM information_schema.columns WHERE table_schema = 'pgorm' AND table_name = 'rs2' AND column_name = 'id';
ALTER SEQUENCE IF EXISTS pgorm.nope RENAME TO x;
-- known: constraints other than the primary key are not kept, so icegate cannot tell one that never existed (a WARNING, where PostgreSQL says 42704)
ALTER TABLE pgorm.rs2 RENAME CONSTRAINT nope TO x;
-- known: constraints other than the primary key are not kept, so icegate cannot tell one that never existed (a WARNING, where PostgreSQL says 42704)
ALTER TABLE pgorm.rs2 VALIDATE CONSTRAINT nope;
DROP TABLE pgorm.rs2;
SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'pgorm' AND c.relname LIKE 'rs%';
