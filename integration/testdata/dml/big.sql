-- Deletes in a data file longer than a read batch: row positions past the
-- first batches must point at the right rows.

-- scenario: big_file
-- setup
CREATE TABLE t (id int NOT NULL, v bigint) {iceberg};
INSERT INTO t SELECT i, i * 3 FROM generate_series(1, 12000) i;
-- steps
DELETE FROM t WHERE id % 1000 = 7;
DELETE FROM t WHERE id BETWEEN 4090 AND 4100;
UPDATE t SET v = -v WHERE id % 997 = 0;
MERGE INTO t USING (SELECT g AS id FROM generate_series(8190, 8200) g) AS s ON t.id = s.id WHEN MATCHED THEN DELETE;
DELETE FROM t WHERE id > 11990 RETURNING id;
SELECT count(*), sum(v), min(id), max(id) FROM t;
