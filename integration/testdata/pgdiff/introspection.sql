-- setup
CREATE SCHEMA pgi;
CREATE TABLE pgi.users (id bigint, name text, age int);
COMMENT ON COLUMN pgi.users.name IS 'the name';
CREATE TABLE pgi.u (id int, name text);
INSERT INTO pgi.u VALUES (1, 'a'), (2, 'b'), (3, NULL), (NULL, 'd');
CREATE TABLE pgi.v (x int, tag text);
INSERT INTO pgi.v VALUES (1, 'one'), (2, 'two'), (2, 'deux'), (4, 'four'), (NULL, 'none');
CREATE TABLE pgi.w (y int);
INSERT INTO pgi.w VALUES (2), (3), (NULL);
CREATE TABLE pgi.dflt (a varchar(10) DEFAULT 'new', b char(3) DEFAULT 'x', c numeric(10,2) DEFAULT '9.99', d text DEFAULT 'x', e int DEFAULT 0, f bigint DEFAULT 5, g date DEFAULT '2024-01-01', i boolean DEFAULT true, j smallint DEFAULT 1, l float8 DEFAULT -2, m int DEFAULT -1, n numeric(8,3) DEFAULT -1.125, o jsonb DEFAULT '{}', p uuid DEFAULT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', t varchar DEFAULT 'v', y int DEFAULT '12', z boolean DEFAULT '1', ab timestamptz DEFAULT now(), ac timestamptz DEFAULT CURRENT_TIMESTAMP, ad date DEFAULT current_date, ae timestamp DEFAULT localtimestamp, ag timestamptz DEFAULT current_timestamp(3), ah uuid DEFAULT gen_random_uuid());
CREATE TABLE pgi.dflt3 (tags text[] DEFAULT '{}', id serial, n int[] DEFAULT '{1,2}', m int[] DEFAULT ARRAY[3], made timestamptz DEFAULT now(), k int DEFAULT 7);
INSERT INTO pgi.dflt3 (k) VALUES (1), (2);
CREATE TABLE pgi.dflt2 (c numeric(10,2) DEFAULT 1.5, aa text DEFAULT now()::text, ai int DEFAULT 2 + 3);

-- queries
-- column defaults as pg_get_expr prints them (Knex, TypeORM and Sequelize compare them)
SELECT column_name, column_default FROM information_schema.columns WHERE table_schema = 'pgi' AND table_name = 'dflt' ORDER BY ordinal_position;
SELECT a.attname, pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum WHERE d.adrelid = 'pgi.dflt'::regclass ORDER BY a.attnum;
SELECT column_name, column_default FROM information_schema.columns WHERE table_schema = 'pgi' AND table_name = 'dflt3' ORDER BY ordinal_position;
SELECT tags, id, n, m, made IS NOT NULL, k FROM pgi.dflt3 ORDER BY id;
-- known: a numeric default shows with the column's scale (1.50, not 1.5 as written), a cast and an operator without PostgreSQL's parentheses
SELECT column_name, column_default FROM information_schema.columns WHERE table_schema = 'pgi' AND table_name = 'dflt2' ORDER BY ordinal_position;
-- GORM's ColumnTypes: a correlated scalar subquery on the preserved side of a LEFT JOIN's condition
SELECT c.column_name, c.is_nullable = 'YES', c.udt_name, c.character_maximum_length, c.numeric_precision, c.numeric_precision_radix, c.numeric_scale, c.datetime_precision, 8 * typlen, c.column_default, pd.description, c.identity_increment FROM information_schema.columns AS c JOIN pg_type AS pgt ON c.udt_name = pgt.typname LEFT JOIN pg_catalog.pg_description as pd ON pd.objsubid = c.ordinal_position AND pd.objoid = (SELECT oid FROM pg_catalog.pg_class WHERE relname = c.table_name AND relnamespace = (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = c.table_schema)) where table_schema = 'pgi' AND table_name = 'users' ORDER BY 1;
-- TypeORM's column query: the subquery holds its own LEFT JOIN
SELECT columns.column_name, pg_catalog.col_description(('"' || table_catalog || '"."' || table_schema || '"."' || table_name || '"')::regclass::oid, ordinal_position) AS description, pg_catalog.format_type("col_attr"."atttypid", "col_attr"."atttypmod") AS "format_type" FROM "information_schema"."columns" LEFT JOIN "pg_catalog"."pg_attribute" AS "col_attr" ON "col_attr"."attname" = "columns"."column_name" AND "col_attr"."attrelid" = (SELECT "cls"."oid" FROM "pg_catalog"."pg_class" AS "cls" LEFT JOIN "pg_catalog"."pg_namespace" AS "ns" ON "ns"."oid" = "cls"."relnamespace" WHERE "cls"."relname" = "columns"."table_name" AND "ns"."nspname" = "columns"."table_schema") WHERE ("table_schema" = 'pgi' AND "table_name" = 'users') ORDER BY 1;
-- IN, NOT IN, EXISTS, scalar subqueries reading the left input, the right input or neither
SELECT u.id, u.name, v.tag FROM pgi.u LEFT JOIN pgi.v ON v.x = u.id AND u.id IN (SELECT y FROM pgi.w) ORDER BY 1, 2, 3;
SELECT u.id, u.name, v.tag FROM pgi.u LEFT JOIN pgi.v ON v.x = u.id AND u.id NOT IN (SELECT y FROM pgi.w WHERE y IS NOT NULL) ORDER BY 1, 2, 3;
SELECT u.id, v.tag FROM pgi.u LEFT JOIN pgi.v ON v.x = u.id AND EXISTS (SELECT 1 FROM pgi.w WHERE w.y = v.x) ORDER BY 1, 2;
SELECT u.id, v.tag FROM pgi.u LEFT JOIN pgi.v ON v.x = u.id AND NOT EXISTS (SELECT 1 FROM pgi.w WHERE w.y = u.id) ORDER BY 1, 2;
SELECT u.id, v.tag FROM pgi.u LEFT JOIN pgi.v ON v.x = (SELECT min(y) FROM pgi.w WHERE w.y >= u.id) ORDER BY 1, 2;
SELECT u.id, v.tag FROM pgi.u LEFT JOIN pgi.v ON v.x = u.id AND v.tag = (SELECT max(tag) FROM pgi.v v2 WHERE v2.x = v.x) ORDER BY 1, 2;
SELECT u.id, v.tag FROM pgi.u LEFT JOIN pgi.v ON v.x = u.id AND 2 IN (SELECT y FROM pgi.w) ORDER BY 1, 2;
SELECT u.id, v.tag FROM pgi.u RIGHT JOIN pgi.v ON v.x = u.id AND u.name IN (SELECT name FROM pgi.u WHERE id > 1) ORDER BY 1, 2;
SELECT u.id, v.tag FROM pgi.u RIGHT JOIN pgi.v ON v.x = u.id AND EXISTS (SELECT 1 FROM pgi.w WHERE w.y = v.x) ORDER BY 1, 2;
SELECT u.id, v.tag FROM pgi.u FULL JOIN pgi.v ON v.x = u.id AND u.id IN (SELECT y FROM pgi.w) ORDER BY 1, 2;
SELECT u.id, v.tag, w.y FROM pgi.u LEFT JOIN pgi.v ON v.x = u.id AND v.tag IN (SELECT tag FROM pgi.v WHERE x = 2) LEFT JOIN pgi.w ON w.y = u.id AND w.y = (SELECT max(x) FROM pgi.v WHERE x < 3) ORDER BY 1, 2, 3;
-- subqueries reading both inputs of a LEFT JOIN: a dependent join
SELECT u.id, v.tag FROM pgi.u LEFT JOIN pgi.v ON v.x = u.id AND v.x IN (SELECT y FROM pgi.w WHERE w.y = u.id) ORDER BY 1, 2;
SELECT u.id, v.tag FROM pgi.u LEFT JOIN pgi.v ON EXISTS (SELECT 1 FROM pgi.w WHERE w.y = u.id + v.x) ORDER BY 1, 2;
SELECT u.id, v.tag FROM pgi.u LEFT JOIN pgi.v ON v.x = (SELECT max(y) FROM pgi.w WHERE w.y <= u.id) AND v.tag <> (SELECT min(tag) FROM pgi.v v2 WHERE v2.x = v.x) ORDER BY 1, 2;
-- known: an aggregate subquery reading both inputs fails in the dependent join (0A000 struct<>)
SELECT u.id, count(v.tag) FROM pgi.u LEFT JOIN pgi.v ON (SELECT count(*) FROM pgi.w WHERE w.y BETWEEN u.id AND v.x) > 0 GROUP BY u.id ORDER BY 1;
SELECT u.id, v.tag FROM pgi.u LEFT JOIN pgi.v ON v.x = u.id AND u.id NOT IN (SELECT y FROM pgi.w WHERE y IS NOT NULL AND y <> v.x) ORDER BY 1, 2;
-- known: only a LEFT JOIN runs subqueries reading both inputs (0A000)
SELECT u.id, v.tag FROM pgi.u FULL JOIN pgi.v ON v.x = u.id AND EXISTS (SELECT 1 FROM pgi.w WHERE w.y = u.id + v.x) ORDER BY 1, 2;
-- Sequelize's showIndex groups by pg_index.indkey, an int2vector
SELECT i.relname AS name, ix.indisprimary AS primary, ix.indisunique AS unique, ix.indkey AS indkey, array_agg(a.attnum) as column_indexes, array_agg(a.attname) AS column_names, pg_get_indexdef(ix.indexrelid) AS definition FROM pg_class t, pg_class i, pg_index ix, pg_attribute a WHERE t.oid = ix.indrelid AND i.oid = ix.indexrelid AND a.attrelid = t.oid AND t.relkind = 'r' and t.relname = 'users' GROUP BY i.relname, ix.indexrelid, ix.indisprimary, ix.indisunique, ix.indkey ORDER BY i.relname;
-- grouping and DISTINCT on arrays and vectors: equal when their elements are, NULLs included
-- known: VALUES makes an int2vector column int2[] (type and text form)
SELECT v, count(*) FROM (VALUES ('1 2'::int2vector), ('1 2'::int2vector), ('1 2'::int2vector), ('3'::int2vector), ('3'::int2vector), (''::int2vector)) t(v) GROUP BY v ORDER BY 2;
SELECT a, count(*) FROM (VALUES (ARRAY[1,2]), (ARRAY[1,2]), (ARRAY[2,1]), (ARRAY[1,NULL]), (ARRAY[1,NULL]), (NULL), ('{}')) t(a) GROUP BY a ORDER BY 2, a::text;
SELECT DISTINCT a FROM (VALUES (ARRAY['x','y']), (ARRAY['x','y']), (ARRAY['x']), (ARRAY[NULL::text])) t(a) ORDER BY a::text;
SELECT arr, count(*) FROM (SELECT array_agg(v ORDER BY v) AS arr FROM (VALUES (1, 1), (1, 2), (2, 1), (2, 2), (3, 5)) s(k, v) GROUP BY k) t GROUP BY arr ORDER BY 2, arr::text;
SELECT count(DISTINCT a) FROM (VALUES (ARRAY[1.5, 2.50]::numeric[]), (ARRAY[1.50, 2.5]::numeric[]), (ARRAY[3.0]::numeric[])) t(a);
SELECT count(DISTINCT indkey), count(DISTINCT ARRAY[attname]) FROM pg_attribute a LEFT JOIN pg_index ON false WHERE attrelid = 'pgi.users'::regclass AND attnum > 0;
SELECT unnest(ARRAY['a', 'b']::name[]) AS n, unnest(ARRAY['x']) AS v;
SELECT n FROM unnest(ARRAY['a', 'b']::name[]) AS n ORDER BY 1;
-- pgcli's foreign-key query: two set-returning functions over correlated subqueries
SELECT s_p.nspname AS parentschema, t_p.relname AS parenttable, unnest(( select array_agg(attname ORDER BY i) from (select unnest(confkey) as attnum, generate_subscripts(confkey, 1) as i) x JOIN pg_catalog.pg_attribute c USING(attnum) WHERE c.attrelid = fk.confrelid )) AS parentcolumn, s_c.nspname AS childschema, t_c.relname AS childtable, unnest(( select array_agg(attname ORDER BY i) from (select unnest(conkey) as attnum, generate_subscripts(conkey, 1) as i) x JOIN pg_catalog.pg_attribute c USING(attnum) WHERE c.attrelid = fk.conrelid )) AS childcolumn FROM pg_catalog.pg_constraint fk JOIN pg_catalog.pg_class t_p ON t_p.oid = fk.confrelid JOIN pg_catalog.pg_namespace s_p ON s_p.oid = t_p.relnamespace JOIN pg_catalog.pg_class t_c ON t_c.oid = fk.conrelid JOIN pg_catalog.pg_namespace s_c ON s_c.oid = t_c.relnamespace WHERE fk.contype = 'f' AND s_p.nspname IN ('pgi');
SELECT u.id, unnest((SELECT array_agg(y ORDER BY y) FROM pgi.w WHERE y <= u.id)) AS a, unnest((SELECT array_agg(x ORDER BY x) FROM pgi.v WHERE x >= u.id)) AS b FROM pgi.u ORDER BY 1, 2, 3;
SELECT u.id, unnest(ARRAY[1, 2]) AS a, unnest((SELECT array_agg(x ORDER BY x) FROM pgi.v WHERE x >= u.id)) AS b, unnest((SELECT array_agg(y ORDER BY y) FROM pgi.w WHERE y < u.id)) AS c FROM pgi.u ORDER BY 1, 2, 3, 4;
SELECT u.id, generate_series(1, (SELECT count(*) FROM pgi.v WHERE v.x = u.id)::int) AS g, unnest((SELECT array_agg(tag ORDER BY tag) FROM pgi.v WHERE v.x = u.id)) AS t FROM pgi.u ORDER BY 1, 2, 3;
-- psql's \sf and \df+: pg_get_functiondef and pg_get_function_sqlbody
SELECT pg_get_functiondef('upper(text)'::regprocedure);
-- known: icegate's pg_proc lacks the planner support functions SUPPORT names
SELECT pg_get_functiondef('generate_series(int, int)'::regprocedure);
SELECT pg_get_functiondef('now()'::regprocedure);
SELECT pg_get_functiondef('random()'::regprocedure);
-- known: icegate's pg_proc lacks the planner support functions SUPPORT names
SELECT pg_get_functiondef('row_number()'::regprocedure);
SELECT pg_get_functiondef('int4eq(int4, int4)'::regprocedure);
-- known: icegate's pg_proc lists only the functions it has, and not information_schema's
SELECT pg_get_functiondef(p.oid) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'information_schema' AND p.proname = '_pg_expandarray';
SELECT pg_get_functiondef('sum(int4)'::regprocedure);
SELECT pg_get_functiondef(0) IS NULL, pg_get_function_sqlbody('upper(text)'::regprocedure) IS NULL, pg_get_function_sqlbody(0) IS NULL;
SELECT p.proname, pg_get_functiondef(p.oid) FROM pg_proc p WHERE p.oid IN (870, 871, 1081, 1317, 1394, 1705, 2026, 1299) ORDER BY p.oid;
SELECT p.proname, COALESCE(pg_get_function_sqlbody(p.oid), p.prosrc) FROM pg_proc p WHERE p.proname IN ('generate_series', 'json_build_object') ORDER BY p.oid;
SELECT count(*) FROM pg_proc p WHERE p.prokind <> 'a' AND pg_get_functiondef(p.oid) IS NULL;
