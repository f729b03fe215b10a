-- Enum values sort and compare in the order their type declares its
-- labels, not alphabetically: ORDER BY, comparison operators with a label
-- or another value of the type, BETWEEN, min/max, window ORDER BY and the
-- ORDER BY of an aggregate, after ALTER TYPE ... ADD VALUE BEFORE/AFTER
-- too. Results are cast to text (an enum type's OID differs from one
-- server to the other). Several INSERTs make several data files, so that
-- filters that skip files by their bounds are exercised as well.

-- (An output column named like the enum column, m::text AS m, would be what
-- ORDER BY m sorts, as text: the outputs are renamed.)

-- setup
CREATE SCHEMA pgenumo;
CREATE TYPE pgenumo.feel AS ENUM ('sad', 'ok', 'happy');
CREATE TYPE pgenumo.level AS ENUM ('low', 'high');
CREATE TABLE pgenumo.t (id int, g int, m pgenumo.feel, m2 pgenumo.feel, lv pgenumo.level);
INSERT INTO pgenumo.t VALUES (1, 1, 'happy', 'sad', 'low'), (2, 1, 'sad', 'sad', 'high');
INSERT INTO pgenumo.t VALUES (3, 2, 'ok', 'happy', 'high'), (4, 2, NULL, 'ok', NULL);
INSERT INTO pgenumo.t VALUES (5, 2, 'happy', 'happy', 'low'), (6, 3, 'sad', NULL, 'low');

-- queries
SELECT id, m::text AS label FROM pgenumo.t ORDER BY m, id;
SELECT id, m::text AS label FROM pgenumo.t ORDER BY m DESC NULLS LAST, id;
SELECT id, m::text AS mt FROM pgenumo.t ORDER BY mt, id;
SELECT m::text FROM pgenumo.t ORDER BY 1;
SELECT id FROM pgenumo.t ORDER BY m2 DESC, m, id;
SELECT id FROM pgenumo.t WHERE m < 'happy' ORDER BY id;
SELECT id FROM pgenumo.t WHERE m >= 'ok' ORDER BY id;
SELECT id FROM pgenumo.t WHERE m > 'sad' ORDER BY id;
SELECT id FROM pgenumo.t WHERE 'ok' < m ORDER BY id;
SELECT id FROM pgenumo.t WHERE m <= 'sad' ORDER BY id;
SELECT id FROM pgenumo.t WHERE m < 'sad' ORDER BY id;
SELECT id FROM pgenumo.t WHERE m BETWEEN 'sad' AND 'ok' ORDER BY id;
SELECT id FROM pgenumo.t WHERE m NOT BETWEEN 'sad' AND 'ok' ORDER BY id;
SELECT id FROM pgenumo.t WHERE m = 'ok' OR m <> 'sad' ORDER BY id;
SELECT id, m < 'happy' AS lt, m > 'sad' AS gt FROM pgenumo.t ORDER BY id;
SELECT id, m < m2 AS lt, m >= m2 AS ge, m = m2 AS eq FROM pgenumo.t ORDER BY id;
SELECT id FROM pgenumo.t WHERE m > m2 ORDER BY id;
SELECT min(m)::text, max(m)::text, min(m2)::text, max(m2)::text FROM pgenumo.t;
SELECT g, min(m)::text, max(m)::text FROM pgenumo.t GROUP BY g ORDER BY g;
SELECT m::text AS label, count(*) FROM pgenumo.t GROUP BY m ORDER BY m;
SELECT string_agg(m::text, ',' ORDER BY m) FROM pgenumo.t;
SELECT string_agg(m::text, ',' ORDER BY m DESC) FROM (SELECT DISTINCT m FROM pgenumo.t) s;
SELECT id, row_number() OVER (ORDER BY m, id) FROM pgenumo.t ORDER BY id;
SELECT id, rank() OVER (PARTITION BY g ORDER BY m2) FROM pgenumo.t ORDER BY id;
SELECT id, max(m) OVER (PARTITION BY g)::text FROM pgenumo.t ORDER BY id;
WITH c AS (SELECT id, m FROM pgenumo.t) SELECT id, m::text AS label FROM c ORDER BY m, id;
SELECT id FROM (SELECT id, m FROM pgenumo.t WHERE m IS NOT NULL ORDER BY m, id LIMIT 3) s ORDER BY id;
SELECT id FROM pgenumo.t WHERE m IN ('ok', 'happy') ORDER BY id;
SELECT label FROM (SELECT m::text AS label FROM pgenumo.t) s ORDER BY label;
SELECT id FROM (SELECT id, m FROM pgenumo.t) s WHERE m > 'sad' ORDER BY m, id;
SELECT m::text AS label FROM pgenumo.t GROUP BY m HAVING max(m) > 'sad' ORDER BY max(m);
SELECT id, nullif(m, 'sad')::text AS n FROM pgenumo.t ORDER BY nullif(m, 'sad'), id;
SELECT id, lag(m) OVER (ORDER BY id) < m AS up FROM pgenumo.t ORDER BY id;
SELECT m::int FROM pgenumo.t;
SELECT id, greatest(m, 'ok')::text AS g, least(m, m2, 'ok')::text AS l FROM pgenumo.t ORDER BY id;
SELECT id, coalesce(m, 'happy')::text AS c FROM pgenumo.t ORDER BY coalesce(m, 'happy'), id;
SELECT coalesce(m, 'nope') FROM pgenumo.t;
SELECT id, (CASE WHEN id < 3 THEN m ELSE m2 END)::text AS c FROM pgenumo.t ORDER BY CASE WHEN id < 3 THEN m ELSE m2 END, id;
SELECT id FROM pgenumo.t WHERE CASE WHEN id > 2 THEN m ELSE 'happy' END > 'sad' ORDER BY id;
SELECT CASE WHEN id > 2 THEN m ELSE 'nope' END FROM pgenumo.t;
SELECT u::text AS label FROM (SELECT m FROM pgenumo.t UNION SELECT m2 FROM pgenumo.t) s(u) ORDER BY u;
SELECT x::text AS label FROM (SELECT m FROM pgenumo.t WHERE m IS NOT NULL UNION ALL SELECT 'ok'::pgenumo.feel) s(x) ORDER BY x DESC;
SELECT 'sad'::pgenumo.feel < 'happy'::pgenumo.feel, 'ok'::pgenumo.feel > 'happy';
SELECT enum_first(m)::text, enum_last(m)::text, enum_range(m)::text FROM pgenumo.t WHERE id = 4;
SELECT enum_range('ok'::pgenumo.feel, NULL)::text, enum_range(NULL, 'ok'::pgenumo.feel)::text, enum_range('happy'::pgenumo.feel, 'sad')::text;
SELECT id, enum_range(m, 'happy')::text AS up, enum_range(NULL, m)::text AS down, enum_range(m, m2)::text AS between FROM pgenumo.t ORDER BY id;
SELECT enum_range(min(m), max(m))::text FROM pgenumo.t;
SELECT id FROM pgenumo.t WHERE m < 'nope';
SELECT id FROM pgenumo.t WHERE m = 'nope';
SELECT id FROM pgenumo.t WHERE m BETWEEN 'sad' AND 'nope';
SELECT id FROM pgenumo.t WHERE m IN ('ok', 'nope');
SELECT id FROM pgenumo.t WHERE m = lv;
SELECT id FROM pgenumo.t WHERE m < lv;
SELECT id FROM pgenumo.t WHERE m = 'ok'::text;
SELECT 'ok'::pgenumo.feel < 'low'::pgenumo.level;
ALTER TYPE pgenumo.feel ADD VALUE 'meh' BEFORE 'ok';
ALTER TYPE pgenumo.feel ADD VALUE 'ecstatic' AFTER 'happy';
ALTER TYPE pgenumo.feel ADD VALUE 'awful' BEFORE 'sad';
INSERT INTO pgenumo.t VALUES (7, 3, 'meh', 'ecstatic', 'high'), (8, 3, 'awful', 'meh', 'low');
SELECT id, m::text AS label FROM pgenumo.t ORDER BY m, id;
SELECT id FROM pgenumo.t WHERE m < 'ok' ORDER BY id;
SELECT id FROM pgenumo.t WHERE m2 > 'happy' ORDER BY id;
SELECT min(m)::text, max(m2)::text FROM pgenumo.t;
SELECT enum_range(NULL::pgenumo.feel)::text, enum_first(NULL::pgenumo.feel)::text;
