-- UPDATE: expressions, SET (a, b) = (...), sub-SELECTs, FROM joins,
-- DEFAULT, NULLs, assignment coercion and its errors, RETURNING.

-- scenario: update_exprs
-- setup
CREATE TABLE t (id int NOT NULL, g text, v int, n numeric(10,2), d date, note text DEFAULT 'dflt', big bigint) {iceberg};
CREATE TABLE s (id int NOT NULL, val int) {iceberg};
INSERT INTO t SELECT i, chr(97 + i % 3), i * 10, i * 1.5, date '2024-03-01' + i, 'n' || i, i::bigint * 1000000000 FROM generate_series(1, 12) i;
INSERT INTO t VALUES (13, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO s VALUES (1, 100), (2, 200), (4, 400), (5, 500), (9, 900);
-- steps
UPDATE t SET v = v + 1;
UPDATE t SET v = v * 2, g = g || '!' WHERE id % 3 = 0;
UPDATE t SET n = n / 3 WHERE n IS NOT NULL;
UPDATE t SET (v, g) = (v - 1, 'pair') WHERE id < 4;
UPDATE t SET (v, note) = (SELECT max(val), min('m' || id) FROM s) WHERE id = 5;
UPDATE t SET v = (SELECT count(*) FROM s WHERE s.id <= t.id) WHERE id > 10;
UPDATE t SET note = DEFAULT WHERE id = 2;
UPDATE t SET (note, v) = (DEFAULT, 0) WHERE id = 6;
UPDATE t SET v = NULL, note = NULL WHERE id IN (7, 8);
UPDATE t SET v = coalesce(v, -1) WHERE v IS NULL;
UPDATE t SET d = d + 30 WHERE d IS NOT NULL AND id > 9;
UPDATE t SET id = id + 100 WHERE id = 1;
UPDATE t SET g = NULL WHERE g = 'nothing';
UPDATE t SET v = '12' WHERE id = 3;
UPDATE t SET big = big * 2 WHERE id = 12;
UPDATE t SET n = n + 0.005 WHERE id = 4;
UPDATE t SET n = v WHERE id = 9;
UPDATE t SET v = length(note) + id WHERE note IS NOT NULL AND id > 8;
UPDATE t SET g = CASE WHEN v > 100 THEN 'big' ELSE 'small' END WHERE id > 3;
UPDATE t SET v = v + 1 RETURNING *;
UPDATE t SET g = 'r' WHERE id < 5 RETURNING id * 10 AS x, upper(g) AS ug, note;
UPDATE t SET v = v WHERE false;
UPDATE t SET v = v WHERE id = 13 RETURNING v, d;
UPDATE t SET d = NULL, big = NULL, n = NULL WHERE id = 2 RETURNING *;
UPDATE t SET note = note || '+' WHERE id IN (SELECT id FROM s WHERE val > 300);

-- scenario: update_errors
-- setup
CREATE TABLE t (id int NOT NULL, g text, v int, n numeric(10,2), d date, big bigint) {iceberg};
CREATE TABLE s (id int NOT NULL, val int) {iceberg};
INSERT INTO t SELECT i, chr(97 + i % 3), i * 10, i * 1.5, date '2024-03-01' + i, i::bigint * 1000000000 FROM generate_series(1, 12) i;
INSERT INTO s VALUES (1, 100), (2, 200);
-- steps
UPDATE t SET v = 'abc';
UPDATE t SET n = 123456789012;
UPDATE t SET id = NULL WHERE id = 2;
UPDATE t SET nosuch = 1;
UPDATE t SET v = 1 / (id - 3);
UPDATE t SET d = '2024-13-01';
UPDATE t SET v = 2147483647 + id;
UPDATE t SET v = big WHERE id = 12;
UPDATE t SET v = g WHERE id = 1;
UPDATE t SET (v, g) = (1, 'a', 3);
UPDATE t SET v = (SELECT val FROM s);
UPDATE t SET v = 1, v = 2;
UPDATE t SET v = v + 1 WHERE id = 1 RETURNING nosuch;
UPDATE nosuch SET v = 1;
UPDATE t SET v = v + 1 WHERE id = 1;
UPDATE t SET v = (SELECT val FROM s WHERE s.id = t.id) RETURNING id, v;

-- scenario: update_from
-- setup
CREATE TABLE t (id int NOT NULL, g text, v int) {iceberg};
CREATE TABLE s (id int NOT NULL, tag text, val int) {iceberg};
CREATE TABLE u (tag text NOT NULL, bonus int) {iceberg};
INSERT INTO t SELECT i, 'g' || i, i FROM generate_series(1, 15) i;
INSERT INTO s VALUES (2, 'k1', 20), (4, 'k2', 40), (6, 'x', 60), (8, 'k1', 80), (20, 'k2', 200);
INSERT INTO u VALUES ('k1', 1), ('k2', 2), ('x', 3);
-- steps
UPDATE t SET v = s.val FROM s WHERE s.id = t.id;
UPDATE t SET g = s.tag FROM s WHERE s.id = t.id AND s.tag LIKE 'k%' RETURNING t.id, t.g, s.val;
UPDATE t SET v = t.v + x.total FROM (SELECT id, sum(val) AS total FROM s GROUP BY id) x WHERE x.id = t.id - 1;
UPDATE t SET v = 0 FROM s WHERE s.id = -1;
UPDATE t SET v = t.v * u.bonus FROM s JOIN u ON u.tag = s.tag WHERE s.id = t.id;
UPDATE t AS tt SET g = 'alias' FROM s WHERE s.id = tt.id AND s.val > 50;
-- t's row 1 meets the four k rows of s: updated once
UPDATE t SET v = 7 FROM s WHERE s.tag LIKE 'k%' AND t.id = 1;
UPDATE t SET v = s.val FROM s WHERE s.id = t.id AND s.val = 40 RETURNING *;
UPDATE t SET v = -1 FROM (VALUES (1), (3), (5)) AS vals(k) WHERE vals.k = t.id;
UPDATE t SET (g, v) = (s.tag, s.val + 1) FROM s WHERE s.id = t.id + 10;
UPDATE t SET v = s.val FROM s WHERE s.id = t.id AND s.nosuch = 1;
UPDATE t SET v = u.bonus FROM u WHERE u.tag = t.g RETURNING t.id, u.tag, t.v;
