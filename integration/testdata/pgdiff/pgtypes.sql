-- setup
CREATE SCHEMA pgt;
CREATE TABLE pgt.t (id int, j jsonb, k json, v varchar(5), c char(4), s smallint, u varchar, w text);
INSERT INTO pgt.t VALUES
  (1, '{"b":{"c":null}, "a": 1, "a": 2, "aa": [1, 2.50, 1e2]}', '{"b":{"c":null}, "a":1}', 'abc', 'ab', 7, 'long text', 'ab'),
  (2, '[3, 1, {"z": 1, "a": [] }]', '[3,1]', 'abcde   ', 'ab  ', -32768, '', 'ab  '),
  (3, 'null', 'null', '', '', 32767, NULL, 'x'),
  (4, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (5, '"\u00e9"', ' "x" ', 'ééééé', 'ñ', 0, 'é', 'abc');
CREATE TABLE pgt.arr (a int[], t text[], n numeric(5,1)[]);
INSERT INTO pgt.arr VALUES (ARRAY[1,2]::bigint[], ARRAY[1,2]::int[], ARRAY[1.25, 2]);
CREATE SEQUENCE pgt.sq START 10 INCREMENT 5;
CREATE TABLE pgt.g (a int);
INSERT INTO pgt.g VALUES (1), (2), (3);
ALTER TABLE pgt.g ADD COLUMN b int DEFAULT 7, ADD COLUMN c text DEFAULT 'x' || 'y', ADD COLUMN u uuid DEFAULT gen_random_uuid(), ADD COLUMN t timestamptz DEFAULT now();

-- queries
SELECT * FROM pgt.arr;
INSERT INTO pgt.arr (a) VALUES (ARRAY[3000000000]::bigint[]);
SELECT * FROM pgt.t ORDER BY id;
SELECT id, j::text, k::text, v::text, c::text, s::text FROM pgt.t ORDER BY id;
SELECT id, length(v), length(c), octet_length(c), c || '|', v || '|' FROM pgt.t ORDER BY id;
SELECT id, c = 'ab', c = 'ab   ', c = w, c < 'abc', c IN ('ab', 'ñ') FROM pgt.t ORDER BY id;
SELECT id FROM pgt.t WHERE c = 'ab' ORDER BY id;
SELECT id FROM pgt.t WHERE c BETWEEN 'ab' AND 'ab ' ORDER BY id;
SELECT id, s + 1, s * 2, -s FROM pgt.t WHERE id = 1;
SELECT id, j -> 'a', j -> 'aa', j -> 2 FROM pgt.t ORDER BY id;
SELECT id FROM pgt.t WHERE j @> '{"a": 2}' ORDER BY id;
SELECT sum(s), min(s), max(s), avg(s), count(DISTINCT c), min(c) FROM pgt.t;
-- known: max(varchar) is typed character varying, PostgreSQL's max(text) says text
SELECT max(v) FROM pgt.t;
SELECT c, count(*) FROM pgt.t GROUP BY c ORDER BY c;
SELECT id, s FROM pgt.t ORDER BY s DESC NULLS LAST, id;
SELECT id, j FROM pgt.t ORDER BY j, id;
SELECT s + s FROM pgt.t WHERE id = 2;
SELECT greatest(s, 3) FROM pgt.t ORDER BY id;
-- known: coalesce of character or character varying with a literal is typed text
SELECT coalesce(c, 'zz'), coalesce(v, 'zz') FROM pgt.t ORDER BY id;
SELECT 'x'::char(3), 'x'::char(3) || '|', 'abcd'::char(2), 'abcdef'::varchar(4), 'x'::varchar(4);
SELECT '{"b":1, "a":2}'::json, '{"b":1, "a":2}'::json::jsonb, '{"b":1, "a":2}'::jsonb::json;
SELECT 'nope'::json;
SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'pgt.t'::regclass AND attnum > 0 ORDER BY attnum;
SELECT column_name, data_type, udt_name, character_maximum_length FROM information_schema.columns WHERE table_schema = 'pgt' AND table_name = 't' ORDER BY ordinal_position;
INSERT INTO pgt.t (id, v) VALUES (10, 'abcdef');
INSERT INTO pgt.t (id, c) VALUES (10, 'abcde');
INSERT INTO pgt.t (id, s) VALUES (10, 32768);
INSERT INTO pgt.t (id, s) VALUES (10, '-32769');
INSERT INTO pgt.t (id, j) VALUES (10, '{"a":');
INSERT INTO pgt.t (id, k) VALUES (10, '[1,');
INSERT INTO pgt.t (id, j) VALUES (10, 'x'::text);
CREATE TABLE bad (v varchar(0));
SELECT interval '90' day, interval '3' month, interval '1' year, interval '1-2' year to month, interval '1 day 5 hours' day, interval '10:30' hour to minute, interval '2' hour, interval '-7' minute;
SELECT date '1998-12-01' - interval '90' day, date '1995-01-01' + interval '1' year, timestamp '1995-01-31 10:00' + interval '1' month;
SELECT 5 BETWEEN SYMMETRIC 10 AND 1, 5 NOT BETWEEN SYMMETRIC 10 AND 1, NULL BETWEEN SYMMETRIC 1 AND 2, 0 NOT BETWEEN SYMMETRIC 1 AND NULL;
SELECT id FROM pgt.t WHERE s BETWEEN SYMMETRIC 100 AND -100 ORDER BY id;
SELECT last_value, is_called FROM pgt.sq;
SELECT nextval('pgt.sq'), nextval('pgt.sq');
SELECT last_value, is_called FROM pgt.sq AS s(a, b);
SELECT count(*) FROM pgt.sq;
SELECT make_date(year => 2020, month => 1, day => 2), make_date(2020, day => 3, month => 4), make_interval(days => 3), make_interval(hours => 2, years => 1), make_interval(secs => 1.5), make_time(hour => 1, min => 2, sec => 3.5);
SELECT make_timestamp(2020, 1, 2, sec => 5, min => 4, hour => 3), make_timestamptz(year => 2020, month => 1, mday => 2, hour => 3, min => 4, sec => 5, timezone => 'UTC');
SELECT make_date(year => 2020, month => 1, dayx => 2);
SELECT make_date(year => 2020, 1, 2);
SELECT make_date(year => 2020, year => 1, day => 2);
SELECT make_date(2020, year => 1, day => 2);
SELECT make_date(year => 2020, month => 1);
SELECT upper(x => 'a');
SELECT make_interval(days := 3);
SELECT a, b, c, u IS NOT NULL, t IS NOT NULL FROM pgt.g ORDER BY a;
SELECT count(DISTINCT u), count(DISTINCT t) FROM pgt.g;
-- known: multidimensional arrays are 0A000
SELECT ARRAY[[1, 2], [3, 4]];
-- known: multidimensional arrays are 0A000
SELECT '{{1,2},{3,4}}'::int[];
