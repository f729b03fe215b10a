-- DML over the extended protocol with parameters, and several statements
-- in one simple query (one implicit transaction: a failure undoes all).

-- scenario: params
-- setup
CREATE TABLE t (id int NOT NULL, v int, g text) {iceberg};
-- pg: CREATE UNIQUE INDEX t_id ON t (id);
INSERT INTO t SELECT i, i * 10, 'g' || i FROM generate_series(1, 8) i;
-- steps
-- params: 2
DELETE FROM t WHERE id = $1;
-- params: 100 | 3
UPDATE t SET v = $1 WHERE id = $2 RETURNING *;
-- params: 4 | x
MERGE INTO t USING (SELECT $1::int AS id, $2::text AS g) AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET g = s.g;
-- params: 9 | 90 | nine
INSERT INTO t VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v RETURNING *;
-- params: 9 | 91 | nine
INSERT INTO t VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v RETURNING *;
-- params: NULL
UPDATE t SET g = $1 WHERE id = 5;
-- params: abc
DELETE FROM t WHERE id = $1;
-- params: 1 | 6 | 7
DELETE FROM t WHERE id IN ($1, $2, $3) RETURNING id;
-- params: 3
UPDATE t SET v = v + $1 RETURNING id, v;
-- params: y | 3
UPDATE t SET g = $1 || 'x' WHERE id = $2 RETURNING g;
-- params: 4 | 5 | 50
INSERT INTO t VALUES ($1, $2, 'p') ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v + $3 RETURNING v;
-- params: 8 | 800 | 10 | 1000
MERGE INTO t USING (VALUES ($1::int, $2::int), ($3::int, $4::int)) AS s(id, v) ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v);
-- params: 9 | tag
DELETE FROM t WHERE id = $1 RETURNING id, $2::text AS label;

-- scenario: multi_statement
-- setup
CREATE TABLE t (id int NOT NULL, v int) {iceberg};
INSERT INTO t SELECT i, i FROM generate_series(1, 6) i;
-- steps
DELETE FROM t WHERE id = 1; UPDATE t SET v = v + 10 WHERE id = 2;
DELETE FROM t WHERE id = 3; UPDATE t SET v = 1 / (id - 4);
UPDATE t SET v = 0 WHERE id = 5; SELECT * FROM t WHERE id = 5;
INSERT INTO t VALUES (7, 7); DELETE FROM t WHERE id = 7; MERGE INTO t USING (VALUES (7)) AS d(id) ON t.id = d.id WHEN NOT MATCHED THEN INSERT VALUES (d.id, 77);
-- the same as batches over the extended protocol (one Sync)
-- batch
DELETE FROM t WHERE id = 2; UPDATE t SET v = v + 10 WHERE id = 4;
-- batch
DELETE FROM t WHERE id = 5; UPDATE t SET v = 1 / (id - 6);
-- batch
INSERT INTO t VALUES (8, 8); MERGE INTO t USING (VALUES (8)) AS d(id) ON t.id = d.id WHEN MATCHED THEN DELETE; SELECT count(*) FROM t;
