-- Patterns clients use around DML: data-modifying WITH, savepoints,
-- ON CONFLICT ON CONSTRAINT, statements reading the table they change.

-- scenario: dml_cte
-- setup
CREATE TABLE t (id int NOT NULL, v int) {iceberg};
CREATE TABLE archive (id int NOT NULL, v int) {iceberg};
INSERT INTO t SELECT i, i FROM generate_series(1, 10) i;
-- steps
-- Data-modifying WITH: the RETURNING rows are the WITH query's rows.
WITH d AS (DELETE FROM t WHERE id <= 3 RETURNING *) SELECT * FROM d;
WITH moved AS (DELETE FROM t WHERE id > 8 RETURNING id, v) INSERT INTO archive SELECT id, v FROM moved;
WITH u AS (UPDATE t SET v = v * 10 WHERE id IN (4, 5) RETURNING id, v) SELECT * FROM u;
WITH x AS (SELECT max(id) AS m FROM t) UPDATE t SET v = 0 FROM x WHERE t.id = x.m RETURNING t.*;
WITH src AS (SELECT id FROM archive) MERGE INTO t USING src ON t.id = src.id WHEN NOT MATCHED THEN INSERT VALUES (src.id, -1);
WITH s AS (SELECT id, v FROM t WHERE id = 4) INSERT INTO archive SELECT id, v FROM s;
WITH gone AS (SELECT id FROM t WHERE v < 0) DELETE FROM archive WHERE id IN (SELECT id FROM gone) RETURNING id;
-- The outer query reads the snapshot before the change; a WITH query
-- nobody reads still runs; one WITH query reads another's rows; an error
-- anywhere undoes them all.
WITH u AS (UPDATE t SET v = v + 1 WHERE id = 6 RETURNING id, v) SELECT t.v AS old, u.v AS new FROM t JOIN u USING (id);
WITH a AS (INSERT INTO archive VALUES (100, 100)) SELECT count(*) FROM archive;
WITH d AS (DELETE FROM archive WHERE id = 100 RETURNING id), i AS (INSERT INTO t SELECT id + 1, 0 FROM d RETURNING id, v) SELECT * FROM i;
WITH a AS (INSERT INTO archive VALUES (200, 200) RETURNING id) UPDATE t SET v = v / (t.id - a.id + 194) FROM a WHERE t.id = 6;
WITH d AS (DELETE FROM t WHERE id = 101 RETURNING id, v) UPDATE archive SET v = archive.v + d.v FROM d WHERE archive.id = 4 RETURNING archive.*;

-- scenario: savepoints
-- setup
CREATE TABLE t (id int NOT NULL, v int) {iceberg};
INSERT INTO t SELECT i, i FROM generate_series(1, 6) i;
-- steps
BEGIN;
DELETE FROM t WHERE id = 1;
SAVEPOINT a;
DELETE FROM t WHERE id = 2;
ROLLBACK TO SAVEPOINT a;
SELECT count(*) FROM t;
UPDATE t SET v = 0 WHERE id = 3;
SAVEPOINT b;
UPDATE t SET v = 1 / (id - id);
ROLLBACK TO SAVEPOINT b;
UPDATE t SET v = 40 WHERE id = 4;
RELEASE SAVEPOINT a;
COMMIT;

-- scenario: on_constraint
-- setup
CREATE TABLE t (id int NOT NULL, v int) {iceberg};
-- pg: ALTER TABLE t ADD CONSTRAINT t_pkey PRIMARY KEY (id);
-- icegate: ALTER TABLE t SET IDENTIFIER FIELDS id;
INSERT INTO t VALUES (1, 1), (2, 2);
-- steps
INSERT INTO t VALUES (1, 10), (3, 30) ON CONFLICT ON CONSTRAINT t_pkey DO UPDATE SET v = EXCLUDED.v RETURNING *;
INSERT INTO t VALUES (2, 20) ON CONFLICT ON CONSTRAINT t_pkey DO NOTHING;
INSERT INTO t VALUES (4, 4), (2, 0) ON CONFLICT DO NOTHING RETURNING id;
INSERT INTO t VALUES (1, 100) ON CONFLICT (id) DO UPDATE SET v = t.v + EXCLUDED.v WHERE t.v < 50 RETURNING v;
INSERT INTO t VALUES (1, 100) ON CONFLICT (id) DO UPDATE SET v = t.v + EXCLUDED.v WHERE t.v < 50 RETURNING v;

-- scenario: self_reference
-- setup
CREATE TABLE t (id int NOT NULL, v int) {iceberg};
INSERT INTO t SELECT i, i * 2 FROM generate_series(1, 10) i;
-- steps
UPDATE t SET v = (SELECT max(v) FROM t) + id;
DELETE FROM t WHERE v > (SELECT avg(v) FROM t) RETURNING id;
INSERT INTO t SELECT id + 100, v FROM t;
UPDATE t SET v = t2.v + 1 FROM t AS t2 WHERE t2.id = t.id + 100 RETURNING t.id, t.v;
MERGE INTO t USING (SELECT id - 100 AS id, v FROM t WHERE id > 100) AS s ON t.id = s.id WHEN MATCHED AND t.v > s.v THEN DELETE;
DELETE FROM t WHERE id IN (SELECT max(id) FROM t UNION ALL SELECT min(id) FROM t) RETURNING *;

-- scenario: syntax_bits
-- setup
CREATE TABLE t (id int NOT NULL, v int, g text DEFAULT 'dg') {iceberg};
INSERT INTO t SELECT i, i, 'g' FROM generate_series(1, 8) i;
-- steps
DELETE FROM ONLY t WHERE id = 1;
UPDATE ONLY t SET v = 20 WHERE id = 2;
UPDATE t SET t.v = 1 WHERE id = 3;
UPDATE t SET v = DEFAULT, g = DEFAULT WHERE id = 3 RETURNING *;
DELETE FROM t WHERE id = ANY('{4,5}'::int[]) RETURNING id;
UPDATE t SET v = v + 1 WHERE id = ANY(ARRAY[6, 7]) RETURNING *, v * 2 AS dbl, 'lit' AS l;
MERGE INTO ONLY t USING (VALUES (8)) AS d(id) ON t.id = d.id WHEN MATCHED THEN UPDATE SET g = DEFAULT;
UPDATE t SET v = v WHERE id = 6 RETURNING t.*, t.v + t.id AS s;
DELETE FROM t WHERE (id, v) = (2, 20) RETURNING id;
UPDATE t SET (v) = ROW(99) WHERE id = 8 RETURNING v;
UPDATE t SET (v, g) = ROW(v + 1, g || '+') WHERE id > 5 RETURNING id, v, g;
