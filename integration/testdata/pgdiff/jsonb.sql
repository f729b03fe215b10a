-- setup
CREATE SCHEMA pgj;
CREATE TABLE pgj.docs (id int, j text);
INSERT INTO pgj.docs VALUES
  (1, '{"a": 1, "b": "x"}'), (2, '{"a": 1}'), (3, '{"b": 2}'), (4, '{"a": 1.0, "b": "x"}'),
  (5, '[]'), (6, '[1, 2]'), (7, '[1]'), (8, '["a", "b", 3]'), (9, 'null'), (10, '"str"'),
  (11, '""'), (12, '1'), (13, '-2.5'), (14, '0'), (15, 'true'), (16, 'false'),
  (17, '{}'), (18, '{"aa": 1}'), (19, '{"a": [1, 2], "c": {"d": null}}'), (20, NULL),
  (21, '[[]]'), (22, '[null]'), (23, '["str"]'), (24, '100'), (25, '1e2'), (26, '[1, [2, 3]]'),
  (27, '{"a": {"b": 1}}'), (28, '"a\u0041b"'), (29, '"ab"'), (30, '-100');

-- queries
-- jsonb's order: object > array > boolean > number > string > null, [] first
SELECT id, j::jsonb FROM pgj.docs ORDER BY j::jsonb, id;
SELECT id FROM pgj.docs ORDER BY j::jsonb DESC NULLS LAST, id;
SELECT a.id, b.id FROM pgj.docs a, pgj.docs b WHERE a.j::jsonb = b.j::jsonb AND a.id < b.id ORDER BY 1, 2;
SELECT a.id, count(*) FROM pgj.docs a, pgj.docs b WHERE a.j::jsonb < b.j::jsonb GROUP BY a.id ORDER BY 1;
SELECT a.id, count(*) FROM pgj.docs a, pgj.docs b WHERE a.j::jsonb >= b.j::jsonb GROUP BY a.id ORDER BY 1;
SELECT id, j::jsonb <> '{"a": 1}', j::jsonb IS DISTINCT FROM '1', j::jsonb IS NOT DISTINCT FROM NULL FROM pgj.docs ORDER BY id;
-- ? ?| ?& on keys, string elements and strings
SELECT id, j::jsonb ? 'a', j::jsonb ? 'str', j::jsonb ?| array['b', 'c'], j::jsonb ?& array['a', 'b'], j::jsonb ?& array[]::text[] FROM pgj.docs ORDER BY id;
SELECT id FROM pgj.docs WHERE j::jsonb ? 'b' ORDER BY id;
-- containment
SELECT id, j::jsonb @> '{"a": 1}', j::jsonb @> '[1]', j::jsonb @> '1', '{"a": 1}' <@ j::jsonb, j::jsonb @> j::jsonb FROM pgj.docs ORDER BY id;
SELECT id FROM pgj.docs WHERE j::jsonb @> '{"a": [2]}' OR j::jsonb @> '[[3]]' OR j::jsonb @> '{"c": {}}' ORDER BY id;
SELECT '["a", "b"]'::jsonb @> '"a"', '"a"'::jsonb @> '["a"]', '[["a"]]'::jsonb @> '["a"]', '{"a": [1, 2]}'::jsonb @> '{"a": 1}';
-- the cast and its errors
SELECT '{"b": 1, "a": [1, 2.50]}'::jsonb, jsonb '  [true]  ', NULL::jsonb;
SELECT '{bad'::jsonb;
SELECT 1::jsonb;
SELECT '{"a":1}'::jsonb ? 1;
-- DISTINCT and GROUP BY on jsonb (the same text; one scale per number here)
SELECT DISTINCT j::jsonb FROM pgj.docs WHERE id <> 4;
SELECT j::jsonb, count(*) FROM pgj.docs WHERE id <> 4 GROUP BY j::jsonb;
SELECT j::jsonb -> 'b' AS b, count(*) FROM pgj.docs GROUP BY 1 ORDER BY 1;
-- known: GROUP BY and DISTINCT on jsonb compare jsonb text, so 1 and 1.0 stay two groups
SELECT j::jsonb -> 'a' AS a, count(*) FROM pgj.docs GROUP BY 1 ORDER BY 1;
SELECT count(DISTINCT j::jsonb) FROM pgj.docs WHERE id <> 4;
SELECT count(DISTINCT j::jsonb), count(DISTINCT j::jsonb -> 'a') FROM pgj.docs;
SELECT DISTINCT j::jsonb FROM pgj.docs WHERE id <> 4 ORDER BY 1;
SELECT DISTINCT j::jsonb AS d FROM pgj.docs WHERE id <> 4 ORDER BY d DESC;
SELECT j::jsonb, count(*) FROM pgj.docs WHERE id <> 4 GROUP BY j::jsonb ORDER BY j::jsonb;
-- windows over jsonb: partitions of equal jsonb (1 and 1.0 together), jsonb's order
SELECT id, rank() OVER (ORDER BY j::jsonb) FROM pgj.docs ORDER BY id;
SELECT id, count(*) OVER (PARTITION BY j::jsonb -> 'a') FROM pgj.docs ORDER BY id;
SELECT id, row_number() OVER (PARTITION BY j::jsonb ? 'a' ORDER BY j::jsonb DESC, id) FROM pgj.docs ORDER BY id;
-- modification: jsonb_set, jsonb_insert, ||, -, #-, jsonb_strip_nulls, jsonb_pretty
SELECT id, jsonb_set(j::jsonb, '{a}', '"new"'), jsonb_set(j::jsonb, '{0}', '9', false) FROM pgj.docs WHERE id IN (1, 2, 3, 5, 6, 17, 19, 26) ORDER BY id;
SELECT id, jsonb_set(j::jsonb, '{a,1}', 'true'), jsonb_insert(j::jsonb, '{-1}', '0') FROM pgj.docs WHERE id IN (6, 19, 21, 26) ORDER BY id;
SELECT id, j::jsonb || '{"z": 0}', j::jsonb || '[0]', j::jsonb - 'a', j::jsonb - 0, j::jsonb #- '{a,0}' FROM pgj.docs WHERE id IN (1, 5, 6, 8, 17, 19, 26) ORDER BY id;
SELECT id, j::jsonb - 'a' FROM pgj.docs WHERE id = 12;
SELECT jsonb_strip_nulls(j::jsonb), jsonb_pretty(j::jsonb) FROM pgj.docs WHERE id IN (19, 27) ORDER BY id;
SELECT jsonb_build_object('k', id, 'v', j::jsonb, 'n', NULL) FROM pgj.docs WHERE id <= 3 ORDER BY id;
SELECT coalesce(j::jsonb, '{}') || '{"x": 1}' FROM pgj.docs WHERE id IN (17, 20) ORDER BY id;
SELECT json_array_length(j::json), json_typeof(j::json) FROM pgj.docs WHERE id IN (5, 6, 8, 21) ORDER BY id;
SELECT json_typeof(j::json -> 'a'), pg_typeof(j::json -> 'a') FROM pgj.docs WHERE id = 19;
