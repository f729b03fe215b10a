-- Enum types (CREATE TYPE ... AS ENUM), as ORMs create them for their enum
-- columns (Knex enu(..., {useNative: true}), Sequelize ENUM, TypeORM enum,
-- Prisma, Rails): the type's DDL, columns of the type, labels checked on
-- write, comparison and ORDER BY in declaration order, the casts and the
-- enum functions, and the catalogs clients read it from.

-- setup
CREATE SCHEMA pgenum;
CREATE TYPE pgenum.mood AS ENUM ('sad', 'ok', 'happy');
CREATE TABLE pgenum.p (id int, m pgenum.mood);
INSERT INTO pgenum.p VALUES (1, 'happy'), (2, 'sad'), (3, 'ok'), (4, NULL);

-- queries
-- known: a result column of an enum type says text (25), not the type's OID
SELECT id, m FROM pgenum.p ORDER BY id;
-- known: a result column of an enum type says text (25), not the type's OID
SELECT id, m FROM pgenum.p ORDER BY m, id;
SELECT id FROM pgenum.p WHERE m > 'sad' ORDER BY id;
SELECT max(m)::text, min(m)::text FROM pgenum.p;
INSERT INTO pgenum.p VALUES (5, 'angry');
SELECT 'ok'::pgenum.mood, 'happy'::pgenum.mood::text, 'nope'::pgenum.mood;
SELECT enum_range(NULL::pgenum.mood)::text, enum_first(NULL::pgenum.mood)::text, enum_last(NULL::pgenum.mood)::text;
SELECT t.typname, t.typtype, t.typcategory FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = 'pgenum' AND t.typtype = 'e';
SELECT e.enumlabel, e.enumsortorder FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid WHERE t.typname = 'mood' ORDER BY e.enumsortorder;
SELECT column_name, data_type, udt_name FROM information_schema.columns WHERE table_schema = 'pgenum' AND table_name = 'p' ORDER BY ordinal_position;
SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a WHERE a.attrelid = 'pgenum.p'::regclass AND a.attname = 'm';
CREATE TYPE pgenum.mood AS ENUM ('x');
CREATE TYPE pgenum.dup AS ENUM ('a', 'a');
ALTER TYPE pgenum.mood ADD VALUE 'meh' BEFORE 'ok';
ALTER TYPE pgenum.mood ADD VALUE 'ok';
ALTER TYPE pgenum.mood ADD VALUE IF NOT EXISTS 'ok';
ALTER TYPE pgenum.mood ADD VALUE 'ecstatic' AFTER 'happy';
ALTER TYPE pgenum.mood ADD VALUE 'x' AFTER 'nope';
SELECT enum_range(NULL::pgenum.mood)::text;
ALTER TYPE pgenum.mood RENAME VALUE 'meh' TO 'fine';
ALTER TYPE pgenum.mood RENAME VALUE 'nope' TO 'fine2';
ALTER TYPE pgenum.mood RENAME VALUE 'fine' TO 'ok';
SELECT enum_range(NULL::pgenum.mood)::text;
INSERT INTO pgenum.p VALUES (6, 'fine');
-- known: a result column of an enum type says text (25), not the type's OID
SELECT id, m FROM pgenum.p ORDER BY m, id;
DROP TYPE pgenum.mood;
DROP TYPE IF EXISTS pgenum.nope;
DROP TYPE pgenum.nope;
CREATE TYPE pgenum.color AS ENUM ('red', 'green');
ALTER TYPE pgenum.color RENAME TO colour;
SELECT enum_range(NULL::pgenum.colour)::text;
DROP TYPE pgenum.colour;
SELECT count(*) FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = 'pgenum' AND t.typname = 'colour';
CREATE TABLE pgenum.mood (x int);
ALTER TABLE pgenum.p ADD COLUMN m2 pgenum.mood;
INSERT INTO pgenum.p (id, m2) VALUES (7, 'nope');
INSERT INTO pgenum.p (id, m2) VALUES (7, 'ok');
SELECT column_name, data_type, udt_schema, udt_name FROM information_schema.columns WHERE table_schema = 'pgenum' AND table_name = 'p' ORDER BY ordinal_position;
