-- Transaction blocks: several DML statements commit together; reads inside
-- the block see the block's own writes; ROLLBACK, and a failed statement
-- in the block, leave the tables as they were.

-- scenario: txn_commit
-- setup
CREATE TABLE t (id int NOT NULL, v int) {iceberg};
CREATE TABLE u (id int NOT NULL, w text) {iceberg};
INSERT INTO t SELECT i, i FROM generate_series(1, 10) i;
INSERT INTO u VALUES (1, 'a'), (2, 'b');
-- steps
BEGIN;
DELETE FROM t WHERE id <= 2;
SELECT count(*), sum(v) FROM t;
UPDATE t SET v = v * 100 WHERE id > 8;
SELECT * FROM t WHERE id > 7 ORDER BY id;
MERGE INTO t USING u ON t.id = u.id WHEN NOT MATCHED THEN INSERT VALUES (u.id + 20, 0);
DELETE FROM u WHERE id = 1 RETURNING *;
UPDATE t SET v = v + 1 WHERE id IN (SELECT id + 20 FROM u);
COMMIT;
SELECT count(*), sum(v) FROM t;
BEGIN;
UPDATE t SET v = 5 WHERE id = 5;
UPDATE t SET v = v + 1 WHERE id = 5 RETURNING v;
DELETE FROM t WHERE id = 5 RETURNING v;
DELETE FROM t WHERE id = 5;
INSERT INTO t VALUES (5, 55);
UPDATE t SET v = v + 1 WHERE id = 5 RETURNING v;
COMMIT;

-- scenario: txn_rollback
-- setup
CREATE TABLE t (id int NOT NULL, v int) {iceberg};
-- pg: CREATE UNIQUE INDEX t_id ON t (id);
INSERT INTO t SELECT i, i FROM generate_series(1, 10) i;
-- steps
BEGIN;
DELETE FROM t WHERE id % 2 = 0;
UPDATE t SET v = -v;
INSERT INTO t VALUES (50, 50);
MERGE INTO t USING (VALUES (1)) AS d(id) ON t.id = d.id WHEN MATCHED THEN DELETE;
SELECT count(*), sum(v) FROM t;
ROLLBACK;
SELECT count(*), sum(v) FROM t;
BEGIN;
UPDATE t SET v = 0 WHERE id = 1;
UPDATE t SET v = 1 / (id - id);
SELECT 1;
COMMIT;
BEGIN;
DELETE FROM t WHERE id = 3;
DELETE FROM t WHERE id = 3;
UPDATE t SET v = v + 1 WHERE id = 4;
UPDATE t SET v = v + 1 WHERE id = 4 RETURNING v;
COMMIT;
START TRANSACTION;
INSERT INTO t VALUES (3, 33) ON CONFLICT (id) DO NOTHING;
INSERT INTO t VALUES (3, 34) ON CONFLICT (id) DO NOTHING;
INSERT INTO t VALUES (3, 35) ON CONFLICT (id) DO UPDATE SET v = t.v + EXCLUDED.v RETURNING v;
END;
BEGIN;
DELETE FROM t;
SELECT count(*) FROM t;
ROLLBACK;
-- a failing statement outside a block changes nothing either
UPDATE t SET v = v + 1 WHERE id < 5 OR 1 / (id - 9) > 0;
MERGE INTO t USING (VALUES (1), (2), (2)) AS d(id) ON t.id = d.id WHEN MATCHED THEN UPDATE SET v = 100;
DELETE FROM t WHERE id = 1 OR id::text::int / 0 = 1;
SELECT count(*), sum(v) FROM t;
