-- MERGE: every WHEN kind, conditions, DO NOTHING, sources as a table,
-- VALUES and a subquery, the 21000 cardinality error; then the
-- PostgreSQL 17 forms (BY SOURCE, BY TARGET, RETURNING, merge_action())
-- and Spark's UPDATE SET * / INSERT *, against hand-written outcomes.

-- scenario: merge_basic
-- setup
CREATE TABLE t (id int NOT NULL, v int, g text, note text DEFAULT 'dflt') {iceberg};
CREATE TABLE s (id int NOT NULL, v int, g text) {iceberg};
INSERT INTO t SELECT i, i * 10, chr(97 + i % 3), 'orig' FROM generate_series(1, 10) i;
INSERT INTO s VALUES (8, 800, 's'), (9, 900, 's'), (10, 5, 's'), (11, 1100, 's'), (12, 1200, 'n'), (13, -1, 'n');
-- steps
MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v, s.g);
MERGE INTO t USING s ON t.id = s.id WHEN MATCHED AND s.v > 1000 THEN DELETE WHEN MATCHED THEN UPDATE SET g = s.g || '2';
MERGE INTO t USING s ON t.id = s.id
WHEN MATCHED AND t.v < 0 THEN DO NOTHING
WHEN MATCHED THEN UPDATE SET v = t.v + 1
WHEN NOT MATCHED AND s.v > 1000 THEN INSERT (id, v) VALUES (s.id, s.v)
WHEN NOT MATCHED THEN DO NOTHING;
MERGE INTO t USING (VALUES (1, 11), (99, 990)) AS src(id, v) ON t.id = src.id
WHEN MATCHED THEN UPDATE SET v = src.v
WHEN NOT MATCHED THEN INSERT (id, v, g) VALUES (src.id, src.v, 'vals');
MERGE INTO t USING (SELECT g, max(id) AS id, count(*) AS c FROM s GROUP BY g) AS agg ON t.id = agg.id
WHEN MATCHED THEN UPDATE SET note = 'agg ' || agg.c;
MERGE INTO t USING s ON t.id = s.id + 100 WHEN MATCHED THEN DELETE;
MERGE INTO t USING s ON t.id = s.id AND s.g = 'n'
WHEN MATCHED THEN UPDATE SET note = DEFAULT
WHEN NOT MATCHED THEN INSERT (id, g) VALUES (s.id + 50, s.g);
MERGE INTO t AS tt USING s AS ss ON tt.id = ss.id WHEN MATCHED AND tt.g IS NULL THEN UPDATE SET g = 'was null';
MERGE INTO t USING (VALUES (500)) AS d(id) ON t.id = d.id WHEN NOT MATCHED THEN INSERT DEFAULT VALUES;
MERGE INTO t USING (VALUES (1), (1)) AS d(id) ON t.id = d.id WHEN MATCHED THEN UPDATE SET v = 0;
MERGE INTO t USING (VALUES (2), (2)) AS d(id) ON t.id = d.id WHEN MATCHED THEN DELETE;
MERGE INTO t USING (VALUES (1), (1)) AS d(id) ON t.id = d.id WHEN MATCHED THEN DO NOTHING;
MERGE INTO t USING (VALUES (700), (700)) AS d(id) ON t.id = d.id WHEN NOT MATCHED THEN INSERT (id, v) VALUES (d.id, 1);
MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = 'x' || s.g;
MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v / (s.v - 5);
MERGE INTO t USING (VALUES (3, 'three')) AS d(id, g) ON t.id = d.id WHEN MATCHED THEN UPDATE SET g = d.nosuch;
MERGE INTO t AS x USING t AS y ON x.id = y.id + 1 WHEN MATCHED AND x.id < 6 THEN UPDATE SET v = y.v;
MERGE INTO t USING s ON t.id = s.id WHEN MATCHED AND t.v > 0 THEN UPDATE SET v = -t.v WHEN MATCHED THEN DELETE;
MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (s.id, 1, 'x', 'y');

-- scenario: merge_pg17
-- setup
CREATE TABLE t (id int NOT NULL, v int, g text) {iceberg};
CREATE TABLE s (id int NOT NULL, v int) {iceberg};
INSERT INTO t VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c'), (4, 40, 'd');
INSERT INTO s VALUES (2, 200), (3, 300), (5, 500);
-- steps
-- BY SOURCE: rows 1 and 4 have no source row. 2 updated + 1 inserted + 2 deleted.
-- pg15: MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v, 'new');
-- pg15: DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM s WHERE s.id = t.id);
-- want: MERGE 5
MERGE INTO t USING s ON t.id = s.id
WHEN MATCHED THEN UPDATE SET v = s.v
WHEN NOT MATCHED BY TARGET THEN INSERT VALUES (s.id, s.v, 'new')
WHEN NOT MATCHED BY SOURCE THEN DELETE;
INSERT INTO t VALUES (6, 60, 'f'), (7, 70, 'g');
-- BY SOURCE with a condition: only row 7 (v 70 > 65) is updated.
-- pg15: UPDATE t SET v = 0, g = 'orphan' WHERE v > 65 AND NOT EXISTS (SELECT 1 FROM s WHERE s.id = t.id);
-- want: MERGE 1
MERGE INTO t USING s ON t.id = s.id
WHEN NOT MATCHED BY SOURCE AND t.v > 65 THEN UPDATE SET v = 0, g = 'orphan'
WHEN NOT MATCHED BY SOURCE THEN DO NOTHING;
-- RETURNING with merge_action(): UPDATE and INSERT return the new row,
-- DELETE the old one.
-- pg15: MERGE INTO t USING (VALUES (2, 2000), (8, 800), (6, NULL)) AS src(id, v) ON t.id = src.id WHEN MATCHED AND src.v IS NULL THEN DELETE WHEN MATCHED THEN UPDATE SET v = src.v WHEN NOT MATCHED THEN INSERT VALUES (src.id, src.v, 'ins');
-- want: MERGE 3
-- want row: ("UPDATE","2","2000","b","2000")
-- want row: ("INSERT","8","800","ins","800")
-- want row: ("DELETE","6","60","f",NULL)
MERGE INTO t USING (VALUES (2, 2000), (8, 800), (6, NULL)) AS src(id, v) ON t.id = src.id
WHEN MATCHED AND src.v IS NULL THEN DELETE
WHEN MATCHED THEN UPDATE SET v = src.v
WHEN NOT MATCHED THEN INSERT VALUES (src.id, src.v, 'ins')
RETURNING merge_action(), t.id, t.v, t.g, src.v;
-- t is now (2,2000,b) (3,300,c) (5,500,new) (7,0,orphan) (8,800,ins).
-- pg15: DELETE FROM t WHERE id = 3;
-- pg15: UPDATE t SET g = 'bysrc' WHERE id = 8;
-- want: MERGE 2
-- want row: ("DELETE","3","300","c")
-- want row: ("UPDATE","8","800","bysrc")
MERGE INTO t USING s ON t.id = s.id
WHEN MATCHED AND t.id = 3 THEN DELETE
WHEN NOT MATCHED BY SOURCE AND t.id = 8 THEN UPDATE SET g = 'bysrc'
RETURNING merge_action() AS action, t.*;
-- BY SOURCE actions see the source's columns as NULL.
-- pg15: DELETE FROM t WHERE id IN (7, 8);
-- want: MERGE 2
-- want row: ("DELETE","7",NULL,NULL)
-- want row: ("DELETE","8",NULL,NULL)
MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED BY SOURCE THEN DELETE RETURNING merge_action(), t.id, s.id, s.v;
-- Nothing to do: no rows, MERGE 0.
-- pg15: MERGE INTO t USING s ON t.id = s.id AND s.id > 100 WHEN MATCHED THEN DELETE;
-- want: MERGE 0
MERGE INTO t USING s ON t.id = s.id AND s.id > 100 WHEN MATCHED THEN DELETE WHEN NOT MATCHED BY SOURCE AND t.id > 100 THEN DELETE RETURNING t.id;
-- Spark's UPDATE SET * and INSERT *: the source's columns by name.
-- pg15: MERGE INTO t USING (SELECT id, v * 2 AS v, 'star' AS g FROM s) AS src ON t.id = src.id WHEN MATCHED THEN UPDATE SET id = src.id, v = src.v, g = src.g WHEN NOT MATCHED THEN INSERT VALUES (src.id, src.v, src.g);
MERGE INTO t USING (SELECT id, v * 2 AS v, 'star' AS g FROM s) AS src ON t.id = src.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *;
-- The cardinality error with RETURNING.
-- pg15: MERGE INTO t USING (VALUES (2), (2)) AS d(id) ON t.id = d.id WHEN MATCHED THEN UPDATE SET v = 1;
MERGE INTO t USING (VALUES (2), (2)) AS d(id) ON t.id = d.id WHEN MATCHED THEN UPDATE SET v = 1 RETURNING t.id;
-- BY SOURCE deleting every row of the table.
-- pg15: DELETE FROM t;
-- want: MERGE 3
-- want row: ("2")
-- want row: ("3")
-- want row: ("5")
MERGE INTO t USING (SELECT 1 AS id WHERE false) AS e ON t.id = e.id WHEN NOT MATCHED BY SOURCE THEN DELETE RETURNING t.id;
