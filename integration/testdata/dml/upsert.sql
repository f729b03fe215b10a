-- INSERT ... ON CONFLICT: DO NOTHING, DO UPDATE with EXCLUDED and WHERE,
-- proposed rows that collide with each other, RETURNING. PostgreSQL needs a
-- unique index; icegate takes the identifier fields or the named columns.

-- scenario: upsert_basic
-- setup
CREATE TABLE t (id int NOT NULL, v int, g text, cnt int) {iceberg};
-- pg: CREATE UNIQUE INDEX t_id ON t (id);
-- icegate: ALTER TABLE t SET IDENTIFIER FIELDS id;
CREATE TABLE src (id int NOT NULL, v int) {iceberg};
INSERT INTO t SELECT i, i * 10, 'g' || i, 0 FROM generate_series(1, 8) i;
INSERT INTO src VALUES (2, 222), (4, 44), (20, 2000), (21, 2100);
-- steps
INSERT INTO t VALUES (1, 11, 'x', 0) ON CONFLICT (id) DO NOTHING;
INSERT INTO t VALUES (100, 1, 'new', 0) ON CONFLICT (id) DO NOTHING;
INSERT INTO t VALUES (2, 0, 'x', 0), (101, 0, 'y', 0), (3, 0, 'z', 0) ON CONFLICT DO NOTHING;
INSERT INTO t VALUES (4, 400, 'up', 0) ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v, cnt = t.cnt + 1;
INSERT INTO t VALUES (5, 1, 'low', 0), (6, 600, 'high', 0), (102, 5, 'n', 0) ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v, g = EXCLUDED.g WHERE t.v < EXCLUDED.v;
INSERT INTO t VALUES (7, 7, 'r', 0), (103, 3, 'r', 0) ON CONFLICT (id) DO UPDATE SET cnt = t.cnt + 10 RETURNING *;
INSERT INTO t VALUES (8, 0, 'd', 0), (8, 1, 'd', 0) ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v;
INSERT INTO t VALUES (104, 0, 'd', 0), (104, 1, 'e', 0) ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v;
INSERT INTO t VALUES (105, 0, 'd', 0), (105, 1, 'e', 0) ON CONFLICT (id) DO NOTHING;
INSERT INTO t VALUES (8, 0, 'd', 0), (8, 1, 'e', 0) ON CONFLICT (id) DO NOTHING;
INSERT INTO t SELECT id, v, 'from src', 0 FROM src ON CONFLICT (id) DO UPDATE SET v = t.v + EXCLUDED.v, g = EXCLUDED.g;
INSERT INTO t AS x VALUES (1, 5, 'alias', 0) ON CONFLICT (id) DO UPDATE SET v = x.v + EXCLUDED.v RETURNING x.id, x.v, x.g;
INSERT INTO t (id, v) VALUES (3, 33) ON CONFLICT (id) DO UPDATE SET g = EXCLUDED.g, cnt = EXCLUDED.cnt;
INSERT INTO t VALUES (106, 1, 'q', 0) RETURNING id, v + 1 AS v1;
INSERT INTO t VALUES (5, 5, 'k', 0) ON CONFLICT (id) DO UPDATE SET id = EXCLUDED.id + 1000 RETURNING id, g;
INSERT INTO t VALUES (6, 'bad', 'x', 0) ON CONFLICT (id) DO NOTHING;
INSERT INTO t VALUES (6, 1, 'x', 0) ON CONFLICT (id) DO UPDATE SET v = 1 / (t.v - t.v);
INSERT INTO t VALUES (NULL, 1, 'x', 0) ON CONFLICT (id) DO NOTHING;
INSERT INTO t VALUES (6, 1, 'x', 0) ON CONFLICT (nosuch) DO NOTHING;
INSERT INTO t VALUES (2, 1, 'x', 0) ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v WHERE EXCLUDED.g = 'nomatch' RETURNING *;
INSERT INTO t VALUES (2, 1, 'x', 0), (107, 1, 'x', 0) ON CONFLICT (id) DO UPDATE SET v = t.v + 1 WHERE t.v > 100 RETURNING id, v;

-- scenario: upsert_composite
-- setup
CREATE TABLE kv (a int NOT NULL, b text NOT NULL, val int) {iceberg};
-- pg: CREATE UNIQUE INDEX kv_ab ON kv (a, b);
-- icegate: ALTER TABLE kv SET IDENTIFIER FIELDS a, b;
INSERT INTO kv VALUES (1, 'x', 1), (1, 'y', 2), (2, 'x', 3);
-- steps
INSERT INTO kv VALUES (1, 'x', 10), (1, 'z', 20) ON CONFLICT (a, b) DO UPDATE SET val = kv.val + EXCLUDED.val;
INSERT INTO kv VALUES (2, 'x', 0), (3, 'x', 0) ON CONFLICT (b, a) DO NOTHING;
INSERT INTO kv VALUES (1, 'y', 5) ON CONFLICT (a, b) DO UPDATE SET b = 'yy' RETURNING *;
INSERT INTO kv VALUES (4, 'q', 1), (4, 'q', 2) ON CONFLICT (a, b) DO UPDATE SET val = EXCLUDED.val;
INSERT INTO kv VALUES (4, 'q', 1), (4, 'r', 2) ON CONFLICT DO NOTHING RETURNING a, b;
INSERT INTO kv SELECT a, b, val * 100 FROM kv WHERE a = 1 ON CONFLICT (a, b) DO UPDATE SET val = EXCLUDED.val RETURNING *;
