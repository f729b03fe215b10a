-- DELETE: WHERE with expressions, subqueries, USING joins, no WHERE,
-- nothing matched, RETURNING; errors that must leave the table unchanged;
-- many deletes piling up on the same data file.

-- scenario: delete_where
-- setup
CREATE TABLE t (id int NOT NULL, g text, v int, n numeric(10,2), d date, b boolean) {iceberg};
CREATE TABLE s (id int NOT NULL, tag text) {iceberg};
INSERT INTO t SELECT i, chr(97 + i % 4), CASE WHEN i % 7 = 0 THEN NULL ELSE i * 3 END, i * 4.25, date '2024-01-01' + i, i % 5 = 0 FROM generate_series(1, 20) i;
INSERT INTO t SELECT i, chr(97 + i % 4), CASE WHEN i % 7 = 0 THEN NULL ELSE i * 3 END, i * 4.25, date '2024-01-01' + i, i % 5 = 0 FROM generate_series(21, 40) i;
INSERT INTO t VALUES (41, NULL, NULL, NULL, NULL, NULL);
INSERT INTO s VALUES (6, 'drop'), (9, 'drop'), (13, 'next'), (17, 'using'), (18, 'using'), (26, 'other'), (30, 'keep'), (31, 'keep');
-- steps
DELETE FROM t WHERE id = 3;
DELETE FROM t WHERE v % 5 = 0 AND g <> 'a';
DELETE FROM t WHERE upper(g) = 'B' AND n > 100;
DELETE FROM t WHERE d < date '2024-01-05';
DELETE FROM t WHERE id = 999;
DELETE FROM t WHERE v IS NULL AND id > 20 AND g IS NOT NULL;
DELETE FROM t WHERE b AND id BETWEEN 10 AND 20;
DELETE FROM t WHERE id IN (SELECT id FROM s WHERE tag = 'drop');
DELETE FROM t WHERE EXISTS (SELECT 1 FROM s WHERE s.id = t.id + 1 AND s.tag = 'next');
DELETE FROM t WHERE id NOT IN (SELECT id FROM s) AND g = 'c' AND id > 30;
DELETE FROM t USING s WHERE t.id = s.id AND s.tag = 'using' RETURNING t.id, t.g, s.tag;
-- every remaining row below 5 meets both 'keep' rows of s: deleted once
DELETE FROM t USING s WHERE s.tag = 'keep' AND t.id < 12;
WITH k AS (SELECT id FROM s WHERE tag = 'keep') DELETE FROM t WHERE id IN (SELECT id FROM k);
DELETE FROM t WHERE id > 100 RETURNING *;
DELETE FROM t WHERE n = (SELECT max(n) FROM t) RETURNING *;
DELETE FROM t AS x WHERE x.g = 'd' AND x.id > 35;
DELETE FROM t WHERE coalesce(v, 0) < 40 RETURNING id, v * 2 AS v2, g || '!' AS tagged;
DELETE FROM t WHERE id % 2 = 0 AND d > date '2024-01-25' RETURNING d, b;
DELETE FROM t RETURNING *;
DELETE FROM t;
SELECT count(*) FROM t;

-- scenario: delete_errors
-- setup
CREATE TABLE t (id int NOT NULL, g text, v int) {iceberg};
INSERT INTO t SELECT i, chr(97 + i % 3), i * 2 FROM generate_series(1, 12) i;
-- steps
DELETE FROM t WHERE 10 / (id - 5) > 0;
DELETE FROM t WHERE id = 'abc';
DELETE FROM nosuch WHERE id = 1;
DELETE FROM t WHERE nosuch = 1;
DELETE FROM t WHERE id = 1 RETURNING nosuch;
DELETE FROM t WHERE id = (SELECT id FROM t);
DELETE FROM t WHERE g::int > 0;
DELETE FROM t WHERE v + 2147483647 > 0;
DELETE FROM t WHERE id < 3 RETURNING id;
DELETE FROM t WHERE 10 / (id - 5) > 0;

-- scenario: delete_stacking
-- setup
CREATE TABLE t (id int NOT NULL, v int, g text) {iceberg};
INSERT INTO t SELECT i, i, chr(97 + i % 5) FROM generate_series(1, 80) i;
-- steps
DELETE FROM t WHERE id % 10 = 1;
DELETE FROM t WHERE id % 10 = 2;
DELETE FROM t WHERE id % 10 = 3 RETURNING id;
DELETE FROM t WHERE id BETWEEN 40 AND 45;
UPDATE t SET v = v + 1000 WHERE id % 10 = 4;
DELETE FROM t WHERE v > 1000 AND id > 30;
DELETE FROM t WHERE id % 10 = 5;
SELECT count(*), sum(v) FROM t;
DELETE FROM t WHERE id % 10 IN (6, 7);
UPDATE t SET v = -v WHERE id % 10 = 8;
DELETE FROM t WHERE v < 0 AND id < 30;
UPDATE t SET g = 'again' WHERE id % 10 = 8;
UPDATE t SET g = 'and again' WHERE id % 10 = 8 RETURNING id, v, g;
DELETE FROM t WHERE id % 2 = 0;
INSERT INTO t VALUES (1000, 1, 'late');
DELETE FROM t WHERE id = 1000;
DELETE FROM t WHERE id < 1000 RETURNING id;
SELECT count(*) FROM t;
