-- Values of every type survive DML: copy-on-write rewrites whole files,
-- so the columns a statement does not touch must come back unchanged;
-- comparisons on special values (NaN, -0) pick the rows PostgreSQL picks.

-- scenario: types_roundtrip
-- setup
CREATE TABLE t (id int NOT NULL, b boolean, i8 bigint, f4 real, f8 double precision, n numeric(38,10), d date, ts timestamp without time zone, tz timestamptz, s text, u uuid, by bytea, tm time) {iceberg};
-- pg: CREATE UNIQUE INDEX t_id ON t (id);
INSERT INTO t VALUES (1, true, 9223372036854775807, 1.5, 'NaN', 12345678901234567890.0123456789, '0001-01-01', '1969-12-31 23:59:59.999999', '2024-02-29 12:00:00+05', 'quote''s "dq" \ back', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\x00ff', '23:59:59.999999');
INSERT INTO t VALUES (2, false, -9223372036854775808, '-0', '-Infinity', -0.0000000001, '9999-12-31', '2000-01-01 00:00:00', '1900-01-01 00:00:00+00', '', NULL, '\x', '00:00:00');
INSERT INTO t VALUES (3, NULL, NULL, NULL, 'Infinity', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO t VALUES (4, true, 0, '3.4e38', '1e-300', 0, '1582-10-15', '1582-10-04 12:00:00', '2262-04-11 23:47:16.854775+00', 'ünïcødé ✓', '00000000-0000-0000-0000-000000000000', '\xdeadbeef', '12:34:56');
INSERT INTO t VALUES (5, false, 42, 0.1, 0.1, 0.5, '1970-01-01', '1970-01-01 00:00:00', '1970-01-01 00:00:00+00', 'five', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '\x05', '00:00:00.000001');
-- steps
UPDATE t SET s = s || '!' WHERE id = 1;
UPDATE t SET f8 = f8 * 2 WHERE id IN (1, 2, 4) RETURNING id, f8;
UPDATE t SET tz = tz + interval '1 day', ts = ts - interval '1 hour' WHERE tz IS NOT NULL RETURNING ts, tz;
UPDATE t SET n = n * 2 WHERE id = 1 RETURNING n;
UPDATE t SET by = '\x0102'::bytea WHERE by <> '\x' RETURNING id, by;
UPDATE t SET b = NOT b;
UPDATE t SET f4 = f4 / 3, i8 = i8 / 7 WHERE id = 5 RETURNING f4, i8;
DELETE FROM t WHERE f8 = 'NaN' RETURNING id;
DELETE FROM t WHERE f4 = 0 RETURNING id, f4;
UPDATE t SET d = d + 1 WHERE d < '2000-01-01' RETURNING d;
MERGE INTO t USING (VALUES (4, 'x')) AS v(id, s) ON t.id = v.id WHEN MATCHED THEN UPDATE SET s = v.s;
INSERT INTO t (id, tm) VALUES (6, '01:02:03'), (4, '04:05:06') ON CONFLICT (id) DO UPDATE SET tm = EXCLUDED.tm RETURNING id, tm;
DELETE FROM t WHERE u = 'ffffffff-ffff-ffff-ffff-ffffffffffff' RETURNING u;
UPDATE t SET tm = tm + interval '1 minute' WHERE tm IS NOT NULL RETURNING tm;
DELETE FROM t WHERE ts < '1600-01-01' RETURNING ts;

-- scenario: types_arrays
-- setup
CREATE TABLE t (id int NOT NULL, a int[], tags text[]) {iceberg};
INSERT INTO t VALUES (1, ARRAY[1, 2, 3], ARRAY['x', 'y']), (2, ARRAY[]::int[], ARRAY[]::text[]), (3, NULL, NULL), (4, ARRAY[4, NULL], ARRAY[NULL, 'q']);
-- steps
UPDATE t SET a = a || 9 WHERE id = 1 RETURNING a;
UPDATE t SET tags = array_append(tags, 'z') WHERE tags IS NOT NULL;
DELETE FROM t WHERE 2 = ANY(a) RETURNING id, tags;
UPDATE t SET a = ARRAY[7, 8] WHERE cardinality(a) = 0 RETURNING *;
DELETE FROM t WHERE a IS NULL;
UPDATE t SET tags = NULL WHERE id = 4 RETURNING *;
