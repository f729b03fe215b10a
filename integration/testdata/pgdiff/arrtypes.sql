-- setup
CREATE SCHEMA arrt;
CREATE TABLE arrt.t (id int, v varchar(3)[], u character varying[], c char(2)[], j json[], i interval[]);
INSERT INTO arrt.t VALUES
  (1, '{a,abc}', '{x,"y z"}', '{a,bc}', '{"{\"a\": 1}","[1, 2]"}', '{"1 day","02:00:00"}'),
  (2, ARRAY['ab', NULL], ARRAY['q'], ARRAY['x'], ARRAY['null'::json], ARRAY[interval '1 month']),
  (3, NULL, '{}', NULL, NULL, NULL);
ALTER TABLE arrt.t ADD COLUMN w varchar(50)[];
INSERT INTO arrt.t (id, w) VALUES (4, '{hello}');
CREATE TABLE arrt.dj ("id" bigint NOT NULL, "tags" varchar(50)[] NOT NULL, "names" character varying[] DEFAULT '{}', "codes" char(3)[] DEFAULT '{abc}');
INSERT INTO arrt.dj (id, tags) VALUES (1, ARRAY['x', 'y']::varchar(50)[]);
INSERT INTO arrt.dj (id, tags, names) VALUES (2, '{}', ARRAY['a']);
CREATE TABLE arrt.md (id int, v varchar(2)[][], i interval[][], j json[]);
INSERT INTO arrt.md VALUES (1, '{{ab,c},{d,e}}', '{{"1 day"},{"2 days"}}', '{"[1]"}');

-- queries
SELECT '{a,b}'::varchar[], '{a,b}'::character varying[], '{"a b",NULL}'::varchar[];
SELECT '{abcd,ab}'::varchar(3)[], '{abcd,a}'::char(2)[], '{a}'::char(3)[];
SELECT '{"{\"a\": 1}","[1]"}'::json[], '{"1 day","-3 hours"}'::interval[];
SELECT ARRAY['a', 'bcd']::varchar[], ARRAY['abcd']::varchar(2)[], ARRAY[interval '1 day'];
SELECT ARRAY['{}'::json, '[1]'::json], ARRAY['a'::varchar, 'b'], ARRAY['a'::char(2)];
SELECT array_length('{a,b,c}'::varchar[], 1), ('{a,b}'::varchar[])[2], '{a,b}'::varchar[] || 'c'::varchar;
SELECT '{a,b}'::varchar[]::text[], '{a,b}'::text[]::varchar[], '{1 day}'::interval[]::text;
SELECT '{x}'::json[]::text;
SELECT * FROM arrt.t ORDER BY id;
SELECT id, v[1], c[1], j[1], i[1] FROM arrt.t ORDER BY id;
SELECT id FROM arrt.t WHERE v = '{a,abc}' ORDER BY id;
SELECT id FROM arrt.t WHERE 'x' = ANY(u) ORDER BY id;
INSERT INTO arrt.t (id, v) VALUES (9, '{abcd}');
INSERT INTO arrt.t (id, c) VALUES (9, ARRAY['abc']);
INSERT INTO arrt.t (id, v) VALUES (9, '{"abc   "}');
SELECT column_name, data_type, udt_name FROM information_schema.columns WHERE table_schema = 'arrt' AND table_name = 't' ORDER BY ordinal_position;
SELECT attname, format_type(atttypid, atttypmod), atttypmod FROM pg_attribute WHERE attrelid = 'arrt.t'::regclass AND attnum > 0 ORDER BY attnum;
SELECT pg_typeof('{a}'::varchar[]), pg_typeof('{a}'::char(2)[]), pg_typeof('{}'::json[]), pg_typeof('{}'::interval[]);
SELECT '{1}'::xid[], '{2}'::cid[];
SELECT id, i FROM arrt.t ORDER BY i, id;
SELECT id, v FROM arrt.t ORDER BY v DESC NULLS LAST, id;
SELECT '{a}'::varchar[] || '{b}'::varchar[], ARRAY['x'::varchar] || 'y'::varchar, 'z'::varchar || ARRAY['x'::varchar], '{}'::json[] || '1'::json;
SELECT ARRAY['ab'::varchar(2), 'b'::varchar(3)], ARRAY['a'::varchar, 'b'::char(1)];
SELECT '{abc}'::varchar(2)[]::varchar(1)[], '{"a  "}'::char(3)[]::varchar[];
SELECT '{1 day}'::interval[] || interval '2 hours', ('{1 day,2 days}'::interval[])[2] + interval '1 hour';
SELECT unnest('{a,b}'::varchar[]), unnest('{"[1]",null}'::json[]);
UPDATE arrt.t SET v = '{xyz}' WHERE id = 3;
UPDATE arrt.t SET v = '{wxyz}' WHERE id = 3;
SELECT id, v, i FROM arrt.t WHERE id = 3;
SELECT '{x}'::json[];
SELECT '{1}'::varchar(0)[];
SELECT '1'::char(0);
SELECT '{1}'::varchar(10485761)[];
SELECT '{"a  ",b}'::char(3)[]::text[], ARRAY['a'::char(1), 'b'::varchar], ARRAY['a'::varchar, 'b'::char(1)];
SELECT * FROM arrt.dj ORDER BY id;
SELECT id FROM arrt.dj WHERE tags @> ARRAY['x']::varchar(50)[];
SELECT a.attname, format_type(a.atttypid, a.atttypmod), pg_get_expr(d.adbin, d.adrelid) FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum WHERE a.attrelid = 'arrt.dj'::regclass AND a.attnum > 0 ORDER BY a.attnum;
SELECT column_name, data_type, udt_name, column_default FROM information_schema.columns WHERE table_schema = 'arrt' AND table_name = 'dj' ORDER BY ordinal_position;
ALTER TABLE arrt.dj ALTER COLUMN tags TYPE varchar(60)[];
-- known: a shorter length for the elements of an array column would have to read the stored values (0A000)
ALTER TABLE arrt.dj ALTER COLUMN names TYPE varchar(5)[];
INSERT INTO arrt.dj (id, tags) VALUES (3, ARRAY[repeat('x', 60)]);
INSERT INTO arrt.dj (id, tags) VALUES (3, ARRAY[repeat('x', 61)]);
SELECT format_type(atttypid, atttypmod), format_type(1014, -1), format_type(1014, NULL) FROM pg_attribute WHERE attrelid = 'arrt.dj'::regclass AND attname = 'tags';
INSERT INTO arrt.md VALUES (2, '{{abc}}', NULL, NULL);
SELECT * FROM arrt.md ORDER BY i;
SELECT attname, format_type(atttypid, atttypmod), attndims FROM pg_attribute WHERE attrelid = 'arrt.md'::regclass AND attnum > 1 ORDER BY attnum;
SELECT '{{abc,d}}'::varchar(2)[], array_dims('{{a},{b}}'::char(2)[]);
SELECT array_to_string('{a,NULL,b}'::varchar[], ','), array_position('{a,b}'::varchar[], 'b'), string_to_array('a,b', ',')::varchar[];
SELECT array_agg(x::varchar(3)) FROM (VALUES ('a'), ('b')) v(x);
SELECT coalesce(v, '{}'), CASE WHEN id > 1 THEN u END, coalesce(j, '{}') FROM arrt.t ORDER BY id;
SELECT v FROM arrt.t WHERE id = 1 UNION ALL SELECT '{z}'::varchar(3)[];
SELECT id, array_length(i, 1), i[1] + interval '1 day' FROM arrt.t WHERE i IS NOT NULL ORDER BY id;
SELECT count(*), count(DISTINCT v) FROM arrt.t GROUP BY c IS NULL ORDER BY 1;
CREATE VIEW arrt.vw AS SELECT v, c, j, i, w, '{1}'::int[] AS a, '{x}'::text[] AS t, interval '1 day' AS iv FROM arrt.t;
SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'arrt.vw'::regclass ORDER BY attnum;
SELECT column_name, data_type, udt_name FROM information_schema.columns WHERE table_schema = 'arrt' AND table_name = 'vw' ORDER BY ordinal_position;
