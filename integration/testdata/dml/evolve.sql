-- DML after schema changes: data files written before a column was added,
-- renamed, dropped (and added again with the same name) or promoted.

-- scenario: evolve
-- setup
CREATE TABLE t (id int NOT NULL, v int, g text) {iceberg};
INSERT INTO t SELECT i, i, 'g' || i FROM generate_series(1, 10) i;
-- steps
ALTER TABLE t ADD COLUMN w text;
UPDATE t SET w = 'new' || id WHERE id % 2 = 0;
DELETE FROM t WHERE w IS NULL AND id > 7;
ALTER TABLE t RENAME COLUMN v TO v2;
UPDATE t SET v2 = v2 + 100 WHERE w IS NOT NULL RETURNING *;
MERGE INTO t USING (VALUES (1, 'm'), (20, 'n')) AS s(id, w) ON t.id = s.id WHEN MATCHED THEN UPDATE SET w = s.w WHEN NOT MATCHED THEN INSERT (id, w) VALUES (s.id, s.w);
ALTER TABLE t DROP COLUMN g;
DELETE FROM t WHERE v2 IS NULL RETURNING *;
ALTER TABLE t ADD COLUMN g text;
UPDATE t SET g = 'back' WHERE id < 3 RETURNING *;
ALTER TABLE t ALTER COLUMN v2 TYPE bigint;
UPDATE t SET v2 = v2 * 10000000000 WHERE id = 2 RETURNING v2;
DELETE FROM t WHERE g IS NULL AND id > 5 RETURNING *;
