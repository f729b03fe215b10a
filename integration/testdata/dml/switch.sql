-- DML across changes icegate makes to a table without changing its rows:
-- the write mode switched between statements (a copy-on-write rewrite of
-- a file that already has merge-on-read deletes must keep those rows
-- deleted), and the partition spec evolved (files under two specs).

-- scenario: mode_switch
-- setup
CREATE TABLE t (id int NOT NULL, v int, g text) {iceberg};
INSERT INTO t SELECT i, i, 'a' FROM generate_series(1, 30) i;
INSERT INTO t SELECT i, i, 'b' FROM generate_series(31, 60) i;
-- steps
-- icegate: ALTER TABLE t SET TBLPROPERTIES ('write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read');
DELETE FROM t WHERE id % 7 = 0;
UPDATE t SET v = -v WHERE id % 11 = 0;
-- icegate: ALTER TABLE t SET TBLPROPERTIES ('write.delete.mode'='copy-on-write', 'write.update.mode'='copy-on-write', 'write.merge.mode'='copy-on-write');
UPDATE t SET g = 'c' WHERE id % 5 = 0 RETURNING id, v, g;
DELETE FROM t WHERE id % 13 = 0;
-- icegate: ALTER TABLE t SET TBLPROPERTIES ('write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read');
MERGE INTO t USING (SELECT g AS id FROM generate_series(1, 70, 3) g) AS s ON t.id = s.id WHEN MATCHED AND s.id % 2 = 0 THEN DELETE WHEN MATCHED THEN UPDATE SET v = 0 WHEN NOT MATCHED THEN INSERT VALUES (s.id, 1, 'new');
-- icegate: ALTER TABLE t SET TBLPROPERTIES ('write.delete.mode'='copy-on-write', 'write.update.mode'='copy-on-write', 'write.merge.mode'='copy-on-write');
MERGE INTO t USING (SELECT g AS id FROM generate_series(2, 70, 4) g) AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = v + 1000 WHEN NOT MATCHED THEN INSERT VALUES (s.id, 2, 'new2');
DELETE FROM t WHERE id < 20 RETURNING id;

-- scenario: spec_evolution
-- setup
CREATE TABLE t (id int NOT NULL, g text, v int) {iceberg PARTITIONED BY (g)};
INSERT INTO t SELECT i, chr(97 + i % 2), i FROM generate_series(1, 20) i;
-- steps
-- icegate: ALTER TABLE t ADD PARTITION FIELD bucket(3, id);
INSERT INTO t SELECT i, chr(97 + i % 2), i FROM generate_series(21, 40) i;
DELETE FROM t WHERE id % 4 = 0;
UPDATE t SET g = 'c' WHERE id % 5 = 0 RETURNING id, g;
-- icegate: ALTER TABLE t DROP PARTITION FIELD g;
INSERT INTO t SELECT i, 'd', i FROM generate_series(41, 50) i;
MERGE INTO t USING (SELECT g AS id FROM generate_series(1, 55, 2) g) AS s ON t.id = s.id WHEN MATCHED AND s.id % 3 = 0 THEN DELETE WHEN MATCHED THEN UPDATE SET v = -v WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'm', 0);
DELETE FROM t WHERE g = 'a' RETURNING id;
INSERT INTO t VALUES (7, 'x', 7) ON CONFLICT DO NOTHING;
UPDATE t SET g = 'b' WHERE g IN ('c', 'd', 'm') AND id > 30;
DELETE FROM t WHERE id > 45;
