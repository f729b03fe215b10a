-- setup
CREATE SCHEMA pgr;
CREATE TABLE pgr.t (id int, name text);
CREATE TABLE pgr."Mixed" (id int);

-- queries
SELECT 'pg_class'::regclass, 'pg_catalog.pg_namespace'::regclass::text, 'pgr.t'::regclass, 'pgr."Mixed"'::regclass, 'PGR.T'::regclass::text;
SELECT c.oid::regclass, c.oid::regclass::text, c.relname, c.relkind FROM pg_class c WHERE c.relnamespace = 'pgr'::regnamespace ORDER BY c.relname;
SELECT 'pgr.t'::regclass::oid = c.oid, c.relnamespace = n.oid, n.oid::regnamespace FROM pg_class c JOIN pg_namespace n ON c.relnamespace = n.oid WHERE c.oid = 'pgr.t'::regclass;
SELECT a.attname, a.attnum FROM pg_attribute a WHERE a.attrelid = 'pgr.t'::regclass AND a.attnum > 0 ORDER BY a.attnum;
SELECT 'pg_class'::regclass::oid, 'pg_class'::regclass::int8, 1259::regclass, 1259::oid::regclass::name, 0::regclass, '-'::regtype;
SELECT 'nosuch'::regclass;
SELECT 'pgr.nosuch'::regclass;
SELECT 'nosuch.t'::regclass;
SELECT 'a.b.c.d'::regclass;
SELECT ''::regclass;
SELECT 'integer'::regtype, 'character varying'::regtype, 'varchar(10)'::regtype, '_int4'::regtype, 'int4[]'::regtype, 'pg_catalog.text'::regtype, '"char"'::regtype, 'double precision'::regtype, 'timestamp with time zone'::regtype;
SELECT 23::regtype::text, 'bigint'::regtype::oid;
SELECT 'nosuch'::regtype;
SELECT 'pgr'::regnamespace::text, 'pg_catalog'::regnamespace::oid, 11::regnamespace;
SELECT 'nosuch'::regnamespace;
SELECT 'now'::regproc, 'pg_catalog.now'::regproc, 1299::regproc, 'sum(int4)'::regprocedure, 'now()'::regprocedure, 'pg_catalog.substr(text, integer, integer)'::regprocedure, 2108::regprocedure, '-'::regprocedure, 'quote_ident'::regproc::oid::regprocedure;
SELECT 'sum'::regproc;
SELECT 'nosuch'::regproc;
SELECT 'sum(text)'::regprocedure;
SELECT 'sum'::regprocedure;
SELECT (-1)::int4::oid, 4294967295::oid::int4;
SELECT 5000000000::int8::oid;
SELECT 'abc'::oid;
SELECT 1259::oid::int2;
SELECT relname FROM pg_class WHERE oid = 'pg_class';
SELECT relname FROM pg_class WHERE oid IN (1259, 2615) ORDER BY oid;
SELECT relname FROM pg_class WHERE oid = ANY(ARRAY[1259, 2615]) ORDER BY oid;
SELECT relname FROM pg_class WHERE oid::regclass IN ('pg_class', 'pgr.t') ORDER BY relname;
SELECT relname FROM pg_class WHERE oid IN (SELECT 'pgr.t'::regclass);
SELECT oid + 1 FROM pg_class WHERE oid = 1259;
SELECT oid::int8 + 1, coalesce(oid, 0), CASE WHEN oid > 0 THEN oid ELSE 0 END FROM pg_class WHERE oid = 1259;
SELECT coalesce(relname, 'x'), CASE WHEN true THEN relkind ELSE 'x' END, upper(relname), relname || '!', relname LIKE 'pg_c%', relname ~ '^pg' FROM pg_class WHERE oid = 1259;
SELECT relkind IN ('r', 'v'), CASE relkind WHEN 'r' THEN 'table' WHEN 'v' THEN 'view' END FROM pg_class WHERE oid = 'pgr.t'::regclass;
SELECT 'x' || 'pg_class'::regclass;
SELECT relname FROM pg_class WHERE relname OPERATOR(pg_catalog.~) '^(t|Mixed)$' AND relnamespace OPERATOR(pg_catalog.=) 'pgr'::regnamespace ORDER BY 1;
SELECT 2 OPERATOR(pg_catalog.*) 3, OPERATOR(pg_catalog.-) 1, 'abc' OPERATOR(pg_catalog.~~) 'a%';
SELECT 1 OPERATOR(pgr.+) 1;
SELECT relname FROM pg_class WHERE relnamespace = 'pgr'::regnamespace ORDER BY relname COLLATE "C";
SELECT relname FROM pg_class WHERE relnamespace = 'pgr'::regnamespace ORDER BY relname COLLATE "POSIX" DESC;
SELECT 'b' COLLATE "C" > 'a', 'a' COLLATE pg_catalog.default, 'a' COLLATE ucs_basic;
SELECT 'a' COLLATE "nosuch";
SELECT 1 COLLATE "C";
SELECT '1 2 3'::int2vector, '1 2 3'::int2vector::text, ('1 2 3'::int2vector)[0], ('1 2 3'::int2vector)[2], ('1 2 3'::int2vector)[3];
SELECT array_lower('1 2 3'::int2vector, 1), array_upper('1 2 3'::int2vector, 1), array_length('1 2 3'::int2vector, 1), array_to_string('1 2 3'::int2vector, ',');
SELECT 2 = ANY('1 2 3'::int2vector), 5 = ANY('1 2 3'::int2vector), '23 25'::oidvector, ('23 25'::oidvector)[1];
SELECT x FROM unnest('1 2 3'::int2vector) AS x ORDER BY x;
SELECT ARRAY[1, 2] = ARRAY[1, 2], ARRAY[1, 2] <> ARRAY[2, 1], ARRAY[1, NULL] = ARRAY[1, NULL], '{1,2}' = ARRAY[1, 2], NULL::int[] = ARRAY[1], ARRAY[1::oid] = '{1}'::oid[], ARRAY['a'::name] = '{a}';
SELECT ARRAY[1] = ARRAY[1::bigint];
SELECT relname FROM pg_class WHERE relacl IS NULL AND oid = 'pgr.t'::regclass;
-- the reg* arrays, as pgcli reads pg_proc
-- known: an oidvector cast to regtype[] keeps its lower bound 0 in PostgreSQL ([0:1]={...}); icegate's arrays start at 1
SELECT p.proargtypes::regtype[], COALESCE(p.proallargtypes::regtype[], p.proargtypes::regtype[])::text[] FROM pg_proc p WHERE p.proname = 'jsonb_extract_path';
SELECT p.proallargtypes::regtype[], COALESCE(p.proallargtypes::regtype[], p.proargtypes::regtype[])::text[] FROM pg_proc p WHERE p.proname = 'jsonb_extract_path';
SELECT ARRAY[23, 25]::regtype[], ARRAY[23, 25]::oid[]::regtype[]::text[], NULL::regclass[];
-- substring(text FROM pattern) is the regular expression form
SELECT substring('nextval(''s''::regclass)' from $r$^nextval\('(.+)'::[\w\s]+\)$$r$), substring('abc' from 2), substring('abc' from 'b.');
