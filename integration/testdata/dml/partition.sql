-- DML on partitioned tables: identity and transforms, whole partitions,
-- rows moving between partitions, NULL partition values.

-- scenario: part_identity
-- setup
CREATE TABLE p (id int NOT NULL, region text, v int, day date) {iceberg PARTITIONED BY (region)};
-- pg: CREATE UNIQUE INDEX p_id ON p (id);
INSERT INTO p SELECT i, CASE i % 3 WHEN 0 THEN 'eu' WHEN 1 THEN 'us' ELSE 'ap' END, i, date '2024-05-01' + i % 10 FROM generate_series(1, 30) i;
INSERT INTO p VALUES (31, NULL, 31, NULL), (32, NULL, 32, date '2024-05-02');
-- steps
DELETE FROM p WHERE region = 'eu';
DELETE FROM p WHERE region = 'us' AND v > 20;
UPDATE p SET region = 'eu' WHERE id IN (2, 5, 8);
UPDATE p SET v = v * 10 WHERE region = 'ap' RETURNING id, region, v;
DELETE FROM p WHERE region IS NULL AND day IS NULL;
UPDATE p SET region = 'none' WHERE region IS NULL;
MERGE INTO p USING (VALUES (1, 'eu', 100), (40, 'sa', 400), (4, 'us', NULL)) AS src(id, region, v) ON p.id = src.id
WHEN MATCHED AND src.v IS NULL THEN DELETE
WHEN MATCHED THEN UPDATE SET region = src.region, v = src.v
WHEN NOT MATCHED THEN INSERT (id, region, v) VALUES (src.id, src.region, src.v);
INSERT INTO p VALUES (40, 'x', 0, NULL), (41, 'x', 0, NULL) ON CONFLICT (id) DO UPDATE SET region = EXCLUDED.region RETURNING id, region;
DELETE FROM p WHERE day = date '2024-05-03' RETURNING id;
UPDATE p SET region = NULL WHERE region = 'x';
DELETE FROM p WHERE id > 0;

-- scenario: part_transform
-- setup
CREATE TABLE q (id bigint NOT NULL, day date, amount numeric(12,2), tag text) {iceberg PARTITIONED BY (bucket(4, id), days(day))};
INSERT INTO q SELECT i, date '2024-01-01' + i % 6, i * 7.5, 'r' || i FROM generate_series(1, 40) i;
INSERT INTO q VALUES (41, NULL, NULL, 'nulls');
-- steps
DELETE FROM q WHERE day = date '2024-01-02';
DELETE FROM q WHERE id % 4 = 1 AND amount > 50;
UPDATE q SET day = day + 1 WHERE id < 10;
UPDATE q SET amount = amount * 1.1 WHERE day >= date '2024-01-05' RETURNING id, amount;
MERGE INTO q USING (SELECT id + 100 AS id, day, amount, 'copy' AS tag FROM q WHERE id < 12) AS s ON q.id = s.id
WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.day, s.amount, s.tag);
MERGE INTO q USING (SELECT id, day FROM q WHERE tag = 'copy') AS s ON q.id = s.id - 100 WHEN MATCHED THEN DELETE;
UPDATE q SET id = id + 1000, day = NULL WHERE tag = 'nulls';
DELETE FROM q WHERE tag = 'copy' RETURNING id, day;
DELETE FROM q WHERE day IS NULL;
