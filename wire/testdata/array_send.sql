-- Generates array_send.tsv: PostgreSQL's binary form of arrays (array_send)
-- and their text (array_out), for the binary array parameters test. Run
-- against PostgreSQL 15/16:
--   psql -X -q -At -v ON_ERROR_STOP=1 -F "$(printf '\t')" -f array_send.sql > array_send.tsv
-- Columns: array type OID, array_send in hex, array_out.
SET extra_float_digits = 1;
SET DateStyle = 'ISO, MDY';
SET IntervalStyle = 'postgres';
SET TimeZone = 'UTC';
SET bytea_output = 'hex';
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{t,f,NULL}'::bool[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{}'::bool[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{1,-32768,32767,NULL}'::int2[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '[0:2]={1,2,3}'::int2[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{{1,2},{3,4}}'::int2[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{{1,2},{NULL,4}}'::int4[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '[1:2][0:1]={{1,2},{3,4}}'::int4[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '[-5:-4]={7,8}'::int4[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{{{1},{2}},{{3},{4}}}'::int4[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{{{{{{1,2}}}}}}'::int4[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{}'::int4[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{NULL}'::int4[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{-2147483648,2147483647}'::int4[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{{1,2,3},{4,5,6}}'::int4[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{9223372036854775807,-9223372036854775808,0}'::int8[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{1.5,NaN,-Infinity,0.1,-0}'::float4[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{0.1,1e300,-0,Infinity,5e-324}'::float8[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{1.50,-0.001,NaN,123456789012345678901234567890,0,Infinity}'::numeric[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '[2:3][1:2]={{1.5,2},{NULL,-3}}'::numeric[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT ARRAY['', NULL, 'null', 'NULL', 'a b', 'quote"', 'back\slash', '{braces}', 'comma,', 'héllo', 'plain']::text[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT ARRAY['ab', 'x y', 'tab	in']::varchar[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT ARRAY['ab', 'abc']::char(3)[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT ARRAY['pg_class', 'Mixed Case']::name[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT ARRAY['a', ' ', '\']::"char"[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT ARRAY['{"a": 1}', '[1, 2]', NULL, '"s"', 'null']::json[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT ARRAY['{"a": 1}', '[1, 2]', NULL, 'null', '3']::jsonb[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT ARRAY['\x0102', '', NULL]::bytea[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT ARRAY['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', NULL]::uuid[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT ARRAY['2024-01-02', 'infinity', '-infinity', '0001-01-01 BC', NULL]::date[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT ARRAY['00:00', '23:59:59.999999', '24:00', '12:34:56.5']::time[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT ARRAY['2024-01-02 03:04:05.678', 'infinity', '-infinity', '0044-03-15 12:00 BC']::timestamp[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT ARRAY['2024-01-02 03:04:05+02', '0044-03-15 12:00 BC', 'infinity']::timestamptz[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT ARRAY['1 year 2 mons 3 days 04:05:06.7', '-1 day', '0', NULL]::interval[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{0,4294967295,1259}'::oid[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{1,4294967295}'::xid[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{0,5}'::cid[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{99999}'::oid[]::regclass[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{99999}'::oid[]::regtype[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{99999}'::oid[]::regproc[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{99999}'::oid[]::regprocedure[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{99999}'::oid[]::regoper[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{99999}'::oid[]::regnamespace[] AS a) v;
SELECT pg_typeof(a)::oid, encode(array_send(a), 'hex'), a::text FROM (SELECT '{99999}'::oid[]::regrole[] AS a) v;
