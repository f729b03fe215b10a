-- NULL keys: NOT IN with a NULL, joins and MERGE conditions that never
-- match NULL, IS NOT DISTINCT FROM that does.

-- scenario: null_keys
-- setup
CREATE TABLE t (k int, v text) {iceberg};
CREATE TABLE s (k int, v text) {iceberg};
INSERT INTO t VALUES (1, 'a'), (2, 'b'), (NULL, 'n1'), (NULL, 'n2'), (3, NULL);
INSERT INTO s VALUES (1, 's1'), (NULL, 'sn'), (4, 's4');
-- steps
DELETE FROM t WHERE k NOT IN (SELECT k FROM s);
DELETE FROM t WHERE k NOT IN (SELECT k FROM s WHERE k IS NOT NULL) RETURNING *;
UPDATE t SET v = s.v FROM s WHERE t.k = s.k RETURNING t.*;
UPDATE t SET v = 'same' WHERE k IS NOT DISTINCT FROM NULL;
DELETE FROM t WHERE v = NULL;
MERGE INTO t USING s ON t.k = s.k WHEN MATCHED THEN UPDATE SET v = 'm' WHEN NOT MATCHED THEN INSERT VALUES (s.k, s.v);
DELETE FROM t WHERE k IS NULL AND v = 'sn' RETURNING *;
MERGE INTO t USING s ON t.k IS NOT DISTINCT FROM s.k WHEN MATCHED AND t.k IS NULL THEN DELETE;
UPDATE t SET k = NULL WHERE k > 1 RETURNING k, v;
DELETE FROM t WHERE k IS NULL RETURNING v;
