-- Generates text_golden.tsv: what PostgreSQL prints for each value in text
-- format. Run against PostgreSQL 15/16:
--   psql -X -At -F "$(printf '\t')" -f golden.sql > text_golden.tsv
-- Columns: kind, key (how the test builds the Arrow value), PostgreSQL text.
SET extra_float_digits = 1;
SET DateStyle = 'ISO, MDY';
SET IntervalStyle = 'postgres';
SELECT 'bool', v::text, textin(boolout(v)) FROM unnest(ARRAY[true, false]) v;
SELECT 'int2', v::text, v::text FROM unnest(ARRAY[-32768, 0, 1, -1, 32767]::int2[]) v;
SELECT 'int4', v::text, v::text FROM unnest(ARRAY[-2147483648, 0, 42, 2147483647]::int4[]) v;
SELECT 'int8', v::text, v::text FROM unnest(ARRAY[-9223372036854775808, 0, 42, 9223372036854775807]::int8[]) v;
SELECT 'float8', encode(float8send(v), 'hex'), v::text FROM unnest(ARRAY[
  '0', '-0', '1', '-1', '1.1', '0.1', '100', '1e20', '1.5e-07', '1e-4', '1e-5', '0.00012345', '2.5e-5',
  '123456789.123', '1e14', '1e15', '1e16', '123456789012345', '1234567890123456', '12345678901234567',
  '3.141592653589793', '2.718281828459045', '1e-300', '5e-324', '1.7976931348623157e308', '2.2250738585072014e-308',
  '0.3', '1e22', '1e23',
  -- ties: the shortest decimal is exactly halfway to a neighbour
  '22026549424987768','4.7180936305559044e+19','21407473355260832','28464660103520512','30286925132597968',
  '31527204530820328','22540688032509552','77969768193519808','4.2700917744196237e+17','1.8803350256967962e+17', '9007199254740993', '-123.456', '100000', '1e100', 'Infinity', '-Infinity', 'NaN'
]::float8[]) v;
SELECT 'float4', encode(float4send(v), 'hex'), v::text FROM unnest(ARRAY[
  '0', '-0', '1', '-1', '1.1', '0.1', '100', '1e20', '1.5e-07', '1e-4', '1e-5', '123456', '1234567', '12345678',
  '3.1415927', '1e6', '999999', '1e-38', '1e-45', '3.4028235e38', '0.3', '16777217',
  '109905536','97791456','63920232','88335744','63300712','330670016','44842808','58752232', '-123.456', 'Infinity', '-Infinity', 'NaN'
]::float4[]) v;
SELECT 'numeric', u || ':' || s, v FROM (VALUES
  ('0', 0, '0'::numeric(10,0)::text), ('0', 2, '0'::numeric(10,2)::text), ('100', 2, '1'::numeric(10,2)::text),
  ('-5', 2, '-0.05'::numeric(10,2)::text), ('123456789', 4, '12345.6789'::numeric(10,4)::text),
  ('-1', 10, '-0.0000000001'::numeric(20,10)::text), ('99999999999999999999999999999999999999', 0, '99999999999999999999999999999999999999'::numeric(38,0)::text),
  ('-99999999999999999999999999999999999999', 38, '-0.99999999999999999999999999999999999999'::numeric(38,38)::text),
  ('12345678901234567890', 5, '123456789012345.67890'::numeric(38,5)::text), ('7', 1, '0.7'::numeric(2,1)::text),
  ('100000000', 0, '100000000'::numeric(20,0)::text), ('123000', 3, '123.000'::numeric(10,3)::text)
) t(u, s, v);
-- Binary: numeric_send of the same values (hex), kind numeric_send.
SELECT 'numeric_send', u || ':' || s, encode(numeric_send(v::numeric), 'hex') FROM (VALUES
  ('0', 0, '0'::numeric(10,0)), ('0', 2, '0'::numeric(10,2)), ('100', 2, '1'::numeric(10,2)),
  ('-5', 2, '-0.05'::numeric(10,2)), ('123456789', 4, '12345.6789'::numeric(10,4)),
  ('-1', 10, '-0.0000000001'::numeric(20,10)), ('99999999999999999999999999999999999999', 0, '99999999999999999999999999999999999999'::numeric(38,0)),
  ('-99999999999999999999999999999999999999', 38, '-0.99999999999999999999999999999999999999'::numeric(38,38)),
  ('12345678901234567890', 5, '123456789012345.67890'::numeric(38,5)), ('7', 1, '0.7'::numeric(2,1)),
  ('100000000', 0, '100000000'::numeric(20,0)), ('123000', 3, '123.000'::numeric(10,3))
) t(u, s, v);
SELECT 'date', CASE WHEN isfinite(v) THEN (v - '1970-01-01'::date)::text WHEN v > '2000-01-01' THEN 'inf' ELSE '-inf' END, v::text
FROM unnest(ARRAY['2024-01-31', '1970-01-01', '2000-02-29', '1900-02-28', '0001-01-01', '0001-12-31 BC', '0044-03-15 BC',
  '4713-01-01 BC', '0099-01-01', '0999-12-31', '9999-12-31', '10000-01-01', '5874897-12-31', 'infinity', '-infinity']::date[]) v;
SELECT 'time', (extract(epoch FROM v) * 1000000)::bigint::text, v::text
FROM unnest(ARRAY['00:00:00', '12:34:56', '12:34:56.789', '12:34:56.5', '23:59:59.999999', '00:00:00.000001', '01:02:03.120000', '24:00:00']::time[]) v;
SELECT 'timestamp', CASE WHEN isfinite(v) THEN (extract(epoch FROM v) * 1000000)::bigint::text WHEN v > '2000-01-01' THEN 'inf' ELSE '-inf' END, v::text
FROM unnest(ARRAY['2024-01-31 12:34:56.5', '1970-01-01 00:00:00', '1999-12-31 23:59:59.999999', '2000-01-01 00:00:00.000001',
  '1900-01-01 00:00:00', '0001-01-01 00:00:00', '0001-12-31 23:59:59 BC', '4713-01-01 00:00:00 BC', '0099-06-30 01:02:03.4',
  '200000-12-31 23:59:59.999999', '10000-01-01 00:00:00', '1969-12-31 23:59:59.9', 'infinity', '-infinity']::timestamp[]) v;
SET TimeZone = 'UTC';
SELECT 'timestamptz', 'UTC ' || CASE WHEN isfinite(v) THEN (extract(epoch FROM v) * 1000000)::bigint::text WHEN v > '2000-01-01' THEN 'inf' ELSE '-inf' END, v::text
FROM unnest(ARRAY['2024-01-31 12:34:56.5+00', '2024-07-01 00:00:00+00', '1970-01-01 00:00:00+00', '1900-01-01 00:00:00+00',
  '1800-06-01 12:00:00+00', '0001-01-01 00:00:00+00', '2038-01-19 03:14:08+00', '2100-07-01 00:00:00.000001+00', 'infinity', '-infinity']::timestamptz[]) v;
SET TimeZone = 'Asia/Kolkata';
SELECT 'timestamptz', 'Asia/Kolkata ' || CASE WHEN isfinite(v) THEN (extract(epoch FROM v) * 1000000)::bigint::text WHEN v > '2000-01-01' THEN 'inf' ELSE '-inf' END, v::text
FROM unnest(ARRAY['2024-01-31 12:34:56.5+00', '2024-07-01 00:00:00+00', '1970-01-01 00:00:00+00', '1900-01-01 00:00:00+00',
  '1800-06-01 12:00:00+00', '0001-01-01 00:00:00+00', '2038-01-19 03:14:08+00', '2100-07-01 00:00:00.000001+00', 'infinity', '-infinity']::timestamptz[]) v;
SET TimeZone = 'America/Sao_Paulo';
SELECT 'timestamptz', 'America/Sao_Paulo ' || CASE WHEN isfinite(v) THEN (extract(epoch FROM v) * 1000000)::bigint::text WHEN v > '2000-01-01' THEN 'inf' ELSE '-inf' END, v::text
FROM unnest(ARRAY['2024-01-31 12:34:56.5+00', '2024-07-01 00:00:00+00', '1970-01-01 00:00:00+00', '1900-01-01 00:00:00+00',
  '1800-06-01 12:00:00+00', '0001-01-01 00:00:00+00', '2038-01-19 03:14:08+00', '2100-07-01 00:00:00.000001+00', 'infinity', '-infinity']::timestamptz[]) v;
SET TimeZone = 'America/New_York';
SELECT 'timestamptz', 'America/New_York ' || CASE WHEN isfinite(v) THEN (extract(epoch FROM v) * 1000000)::bigint::text WHEN v > '2000-01-01' THEN 'inf' ELSE '-inf' END, v::text
FROM unnest(ARRAY['2024-01-31 12:34:56.5+00', '2024-07-01 00:00:00+00', '1970-01-01 00:00:00+00', '1900-01-01 00:00:00+00',
  '1800-06-01 12:00:00+00', '0001-01-01 00:00:00+00', '2038-01-19 03:14:08+00', '2100-07-01 00:00:00.000001+00', 'infinity', '-infinity']::timestamptz[]) v;
SET TimeZone = 'Asia/Kathmandu';
SELECT 'timestamptz', 'Asia/Kathmandu ' || CASE WHEN isfinite(v) THEN (extract(epoch FROM v) * 1000000)::bigint::text WHEN v > '2000-01-01' THEN 'inf' ELSE '-inf' END, v::text
FROM unnest(ARRAY['2024-01-31 12:34:56.5+00', '2024-07-01 00:00:00+00', '1970-01-01 00:00:00+00', '1900-01-01 00:00:00+00',
  '1800-06-01 12:00:00+00', '0001-01-01 00:00:00+00', '2038-01-19 03:14:08+00', '2100-07-01 00:00:00.000001+00', 'infinity', '-infinity']::timestamptz[]) v;
SET TimeZone = 'Europe/Amsterdam';
SELECT 'timestamptz', 'Europe/Amsterdam ' || CASE WHEN isfinite(v) THEN (extract(epoch FROM v) * 1000000)::bigint::text WHEN v > '2000-01-01' THEN 'inf' ELSE '-inf' END, v::text
FROM unnest(ARRAY['2024-01-31 12:34:56.5+00', '2024-07-01 00:00:00+00', '1970-01-01 00:00:00+00', '1900-01-01 00:00:00+00',
  '1800-06-01 12:00:00+00', '0001-01-01 00:00:00+00', '2038-01-19 03:14:08+00', '2100-07-01 00:00:00.000001+00', 'infinity', '-infinity']::timestamptz[]) v;
SET TimeZone = 'America/St_Johns';
SELECT 'timestamptz', 'America/St_Johns ' || CASE WHEN isfinite(v) THEN (extract(epoch FROM v) * 1000000)::bigint::text WHEN v > '2000-01-01' THEN 'inf' ELSE '-inf' END, v::text
FROM unnest(ARRAY['2024-01-31 12:34:56.5+00', '2024-07-01 00:00:00+00', '1970-01-01 00:00:00+00', '1900-01-01 00:00:00+00',
  '1800-06-01 12:00:00+00', '0001-01-01 00:00:00+00', '2038-01-19 03:14:08+00', '2100-07-01 00:00:00.000001+00', 'infinity', '-infinity']::timestamptz[]) v;
SET TimeZone = 'Pacific/Chatham';
SELECT 'timestamptz', 'Pacific/Chatham ' || CASE WHEN isfinite(v) THEN (extract(epoch FROM v) * 1000000)::bigint::text WHEN v > '2000-01-01' THEN 'inf' ELSE '-inf' END, v::text
FROM unnest(ARRAY['2024-01-31 12:34:56.5+00', '2024-07-01 00:00:00+00', '1970-01-01 00:00:00+00', '1900-01-01 00:00:00+00',
  '1800-06-01 12:00:00+00', '0001-01-01 00:00:00+00', '2038-01-19 03:14:08+00', '2100-07-01 00:00:00.000001+00', 'infinity', '-infinity']::timestamptz[]) v;
SET TimeZone = 'Australia/Lord_Howe';
SELECT 'timestamptz', 'Australia/Lord_Howe ' || CASE WHEN isfinite(v) THEN (extract(epoch FROM v) * 1000000)::bigint::text WHEN v > '2000-01-01' THEN 'inf' ELSE '-inf' END, v::text
FROM unnest(ARRAY['2024-01-31 12:34:56.5+00', '2024-07-01 00:00:00+00', '1970-01-01 00:00:00+00', '1900-01-01 00:00:00+00',
  '1800-06-01 12:00:00+00', '0001-01-01 00:00:00+00', '2038-01-19 03:14:08+00', '2100-07-01 00:00:00.000001+00', 'infinity', '-infinity']::timestamptz[]) v;
SET TimeZone = 'UTC';
SELECT 'interval', (extract(year from v) * 12 + extract(month from v))::int || ':' || extract(day from v)::int || ':' ||
  (extract(hour from v) * 3600000000 + extract(minute from v) * 60000000 + extract(microseconds from v))::bigint, v::text
FROM unnest(ARRAY['0', '1 year', '2 years 1 mon', '-1 year', '1 mon', '3 days', '-1 day', '04:05:06', '-04:05:06', '1 day -04:05:06',
  '-1 year 2 mons', '1 year -2 mons 3 days', '-1 day +02:00:00', '100:00:00.5', '1 year 2 mons 3 days 04:05:06.789',
  '-3 days -00:00:00.000001', '00:00:00.1', '-1 mons -1 days -1 hours']::interval[]) v;
SELECT 'uuid', replace(v::text, '-', ''), v::text FROM unnest(ARRAY['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF']::uuid[]) v;
SELECT 'bytea', encode(v, 'hex'), v::text FROM unnest(ARRAY['\x'::bytea, '\x00ff10'::bytea, '\xDEADBEEF'::bytea]) v;
SELECT 'jsonb', k, v::jsonb::text FROM (VALUES
  ('struct_ab', '{"b": [1, 2], "a": 1}'), ('struct_nested', '{"name": "x", "inner": {"zz": null, "y": true}, "a": 1.5}'),
  ('map_str', '{"k2": "v\"2", "k1": "v\n1", "longer key": "\u00e9"}'), ('map_int', '{"10": 1, "2": 2, "-1": 3}'),
  ('list_int', '[1, null, 3]'), ('list_struct', '[{"x": 1}, {"x": -2.25}]'), ('empty_obj', '{}'), ('empty_list', '[]'),
  ('string', '"a\\b\t"'), ('float', '[1e20, 1.5e-07, 0.1, -0.0]'), ('ctrl', '"\u0001x\u001f"')
) t(k, v);
SELECT 'jsonb_text', encode(convert_to(v, 'UTF8'), 'hex'), v::jsonb::text FROM unnest(ARRAY[
  '1E+2', '-0', '1.0e-2', '[1.5e30]', '{"a":1,"a":2}', '{"bb":1,"a":{"d":[],"c":{}}}', '"\u00e9\n"', '0.0000',
  '-1.23E-5', '12345678901234567890123', '[true,false,null]', '  {"x" : "y" }  ', '{"aa": 1, "b": 2, "a": 3}',
  '"\ud83d\ude00 \/ \b\f\r"', '1e-3', '100e-2', '-5E0']) v;
SELECT 'int4[]', k, v::int4[]::text FROM (VALUES ('a', '{1,2,NULL}'), ('empty', '{}'), ('neg', '{-1,0,2147483647}')) t(k, v);
SELECT 'text[]', k, v::text[]::text FROM (VALUES ('plain', '{a,b,c}'), ('quote', '{"a b","",NULL,"NULL","null","x\"y","a,b","{}","back\\slash","é"}'), ('tab', E'{"tab\tx","new\nline"}')) t(k, v);
SELECT 'float8[]', k, v::float8[]::text FROM (VALUES ('a', '{1.1,1e20,NaN,-Infinity,NULL}')) t(k, v);
SELECT 'bool[]', k, v::bool[]::text FROM (VALUES ('a', '{t,f,NULL}')) t(k, v);
SELECT 'date[]', k, v::date[]::text FROM (VALUES ('a', '{2024-01-31,0001-12-31 BC}')) t(k, v);
SELECT 'timestamp[]', k, v::timestamp[]::text FROM (VALUES ('a', '{"2024-01-31 12:34:56.5",NULL}')) t(k, v);
SELECT 'timestamptz[]', k, v::timestamptz[]::text FROM (VALUES ('a', '{"2024-01-31 12:34:56.5+00"}')) t(k, v);
SELECT 'numeric[]', k, v::numeric(10,2)[]::text FROM (VALUES ('a', '{1,-0.05}')) t(k, v);
SELECT 'bytea[]', k, v::bytea[]::text FROM (VALUES ('a', '{"\\x00ff",NULL}')) t(k, v);
SELECT 'uuid[]', k, v::uuid[]::text FROM (VALUES ('a', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}')) t(k, v);
SELECT 'jsonb[]', k, v::jsonb[]::text FROM (VALUES ('a', '{"{\"a\": 1}","[1, 2]"}')) t(k, v);
SET TimeZone = 'Asia/Kolkata';
SELECT 'jsonb_elem', k, v FROM (VALUES
  ('float8:1e20', to_jsonb(1e20::float8)::text), ('float8:1.5e-07', to_jsonb(1.5e-07::float8)::text),
  ('float8:-0', to_jsonb('-0'::float8)::text), ('float8:NaN', to_jsonb('NaN'::float8)::text),
  ('float8:-Infinity', to_jsonb('-Infinity'::float8)::text), ('float8:123.25', to_jsonb(123.25::float8)::text),
  ('float8:1e-300', to_jsonb(1e-300::float8)::text),
  ('float4:1.1', to_jsonb(1.1::float4)::text), ('float4:1e+06', to_jsonb(1e6::float4)::text),
  ('int8:-42', to_jsonb(-42::int8)::text), ('bool:true', to_jsonb(true)::text),
  ('numeric:150:2', to_jsonb(1.50::numeric(5,2))::text),
  ('date:19753', to_jsonb('2024-01-31'::date)::text), ('date:-719163', to_jsonb('0001-12-31 BC'::date)::text),
  ('time:43201500000', to_jsonb('12:00:01.5'::time)::text),
  ('timestamp:1706704496500000', to_jsonb('2024-01-31 12:34:56.5'::timestamp)::text),
  ('timestamp:1706704496000000', to_jsonb('2024-01-31 12:34:56'::timestamp)::text),
  ('timestamptz:1706704496500000', to_jsonb('2024-01-31 12:34:56.5+00'::timestamptz)::text),
  ('bytea:00ff', to_jsonb('\x00ff'::bytea)::text),
  ('uuid:a0eebc999c0b4ef8bb6d6bb9bd380a11', to_jsonb('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid)::text)
) t(k, v);
SET TimeZone = 'UTC';
-- The system catalog's types. Keys: decimal OIDs, "char" bytes in hex,
-- vectors and arrays as JSON lists (the Arrow list the test builds).
SELECT 'oid', v::text, v::oid::text FROM unnest(ARRAY[0, 1, 1259, 2147483648, 4294967295]::bigint[]) v;
SELECT 'xid', v::text, v::text::xid::text FROM unnest(ARRAY[0, 3, 4294967295]::bigint[]) v;
SELECT 'cid', v::text, v::text::cid::text FROM unnest(ARRAY[0, 7, 4294967295]::bigint[]) v;
SELECT 'regclass', v::text, v::oid::regclass::text FROM unnest(ARRAY[0, 999999, 4000000000]::bigint[]) v;
SELECT 'regtype', v::text, v::oid::regtype::text FROM unnest(ARRAY[0, 999999]::bigint[]) v;
SELECT 'regproc', v::text, v::oid::regproc::text FROM unnest(ARRAY[0, 999999]::bigint[]) v;
SELECT 'regnamespace', v::text, v::oid::regnamespace::text FROM unnest(ARRAY[0, 999999]::bigint[]) v;
SELECT 'regrole', v::text, v::oid::regrole::text FROM unnest(ARRAY[0, 999999]::bigint[]) v;
SELECT 'char', encode(charsend(v), 'hex'), v::text
FROM unnest(ARRAY['a', 'r', ' ', '"', '\', '', E'\\201', E'\\377', E'\\177', E'\\001']::"char"[]) v;
SELECT 'int2vector', array_to_json(v::int2[])::text, v::text
FROM unnest(ARRAY['1 2 3', '', '-32768 32767', '0']::int2vector[]) v;
SELECT 'oidvector', array_to_json(v::oid[])::text, v::text
FROM unnest(ARRAY['26 23', '', '4294967295 0 1259']::oidvector[]) v;
SELECT 'name[]', array_to_json(v)::text, v::text FROM (VALUES
  (ARRAY['a b', '', NULL, 'x"y', 'NULL', 'pg_catalog', 'a,b', '{}', 'back\slash', 'é']::name[]),
  (ARRAY['public']::name[]), ('{}'::name[])) t(v);
SELECT 'oid[]', array_to_json(v)::text, v::text FROM (VALUES
  (ARRAY[1, 4294967295, NULL]::oid[]), ('{}'::oid[]), (ARRAY[26]::oid[])) t(v);
SELECT 'char[]', array_to_json(v)::text, v::text FROM (VALUES
  (ARRAY['a', 'r', ' ', '"', ',', '\', '{', NULL]::"char"[]), (ARRAY['', E'\\201']::"char"[])) t(v);
SELECT 'aclitem[]', array_to_json(v)::text, v::text FROM (VALUES
  ('{postgres=arwdDxt/postgres,=r/postgres}'::aclitem[]), ('{postgres=r*w/postgres,=U/postgres}'::aclitem[])) t(v);
-- Binary: the *send functions of the same types, hex; kind send:<type>.
SELECT 'send:oid', v::text, encode(oidsend(v::oid), 'hex') FROM unnest(ARRAY[0, 1259, 4294967295]::bigint[]) v;
SELECT 'send:xid', v::text, encode(xidsend(v::text::xid), 'hex') FROM unnest(ARRAY[3, 4294967295]::bigint[]) v;
SELECT 'send:cid', v::text, encode(cidsend(v::text::cid), 'hex') FROM unnest(ARRAY[7]::bigint[]) v;
SELECT 'send:regclass', v::text, encode(regclasssend(v::oid::regclass), 'hex') FROM unnest(ARRAY[1259, 4000000000]::bigint[]) v;
SELECT 'send:regtype', v::text, encode(regtypesend(v::oid::regtype), 'hex') FROM unnest(ARRAY[25]::bigint[]) v;
SELECT 'send:regproc', v::text, encode(regprocsend(v::oid::regproc), 'hex') FROM unnest(ARRAY[1242]::bigint[]) v;
SELECT 'send:regnamespace', v::text, encode(regnamespacesend(v::oid::regnamespace), 'hex') FROM unnest(ARRAY[11]::bigint[]) v;
SELECT 'send:regrole', v::text, encode(regrolesend(v::oid::regrole), 'hex') FROM unnest(ARRAY[10]::bigint[]) v;
SELECT 'send:char', encode(charsend(v), 'hex'), encode(charsend(v), 'hex')
FROM unnest(ARRAY['a', '', E'\\201']::"char"[]) v;
SELECT 'send:name', v::text, encode(namesend(v), 'hex') FROM unnest(ARRAY['pg_class', '', 'é']::name[]) v;
SELECT 'send:pg_node_tree', 'node', encode(textsend('{QUERY :commandType 1}'), 'hex');
SELECT 'send:int2vector', array_to_json(v::int2[])::text, encode(int2vectorsend(v), 'hex')
FROM unnest(ARRAY['1 2 3', '', '-1']::int2vector[]) v;
SELECT 'send:oidvector', array_to_json(v::oid[])::text, encode(oidvectorsend(v), 'hex')
FROM unnest(ARRAY['26 23 4294967295', '']::oidvector[]) v;
SELECT 'send:name[]', array_to_json(v)::text, encode(array_send(v), 'hex') FROM (VALUES
  (ARRAY['a b', '', NULL]::name[]), ('{}'::name[])) t(v);
SELECT 'send:oid[]', array_to_json(v)::text, encode(array_send(v), 'hex') FROM (VALUES
  (ARRAY[1, 4294967295]::oid[])) t(v);
SELECT 'send:char[]', array_to_json(v)::text, encode(array_send(v), 'hex') FROM (VALUES
  (ARRAY['a', '', NULL]::"char"[])) t(v);
