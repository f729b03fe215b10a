-- setup
CREATE SCHEMA pmd;
CREATE TABLE pmd.m (id int, a int[][], t text[][], f float8[][][]);
INSERT INTO pmd.m VALUES
  (1, '{{1,2},{3,4}}', '{{"a b","c\"d"},{"e\\f",NULL}}', '{{{1.5},{2}},{{3},{4}}}'),
  (2, ARRAY[[5,NULL],[7,8]], ARRAY[['x','']], NULL),
  (3, '{}', '{}', '{}'),
  (4, NULL, NULL, NULL),
  (5, ARRAY[ARRAY[1,2,3]], ARRAY[ARRAY['NULL','null']], '{{{0.25}}}');
CREATE TABLE pmd.c AS SELECT id, a, a[1:1] AS head FROM pmd.m;

-- queries
-- literals and constructors
SELECT '{{1,2},{3,4}}'::int[], ARRAY[[1,2],[3,4]], ARRAY[ARRAY[1,2],ARRAY[3,4]];
SELECT '{{1,NULL},{3,4}}'::int[], ' { { 1 , 2 } , { 3 , 4 } } '::int[], '{{{1},{2}},{{3},{4}}}'::int[];
SELECT '{{"a b","c\"d"},{"e\\f",NULL}}'::text[], '{{"",x},{y,"NULL"}}'::text[];
SELECT ARRAY[['a','b'],['c','d']], ARRAY[[1.5,2],[3,4]], ARRAY[[true],[false]];
SELECT ARRAY[ARRAY[]::int[], ARRAY[]::int[]];
SELECT ARRAY[[1,2],[3,4]]::text[], ARRAY[[1,2],[3,4]]::bigint[], '{{1,2},{3,4}}'::int[]::text;
-- ragged and malformed input
SELECT '{{1,2},{3}}'::int[];
SELECT '{{1,2},{3,4,5}}'::int[];
SELECT '{{1,2},3}'::int[];
SELECT '{1,{2,3}}'::int[];
SELECT '{{1,2},{3,4}'::int[];
SELECT '{{1,2},{3,4}}}'::int[];
SELECT '{{},{}}'::int[];
SELECT '{{1,x},{3,4}}'::int[];
SELECT ARRAY[[1,2],[3]];
SELECT ARRAY[ARRAY[1,2],ARRAY[3]];
SELECT ARRAY[ARRAY[1,2],NULL];
SELECT ARRAY[ARRAY[1,2],ARRAY[]::int[]];
SELECT ARRAY[ARRAY[1],2];
-- subscripts and slices
SELECT ('{{1,2},{3,4}}'::int[])[1], ('{{1,2},{3,4}}'::int[])[2][1], ('{{1,2},{3,4}}'::int[])[1][3], ('{1,2}'::int[])[1][1];
SELECT ('{{1,2},{3,4}}'::int[])[1:1], ('{{1,2},{3,4}}'::int[])[2][1:2], ('{{1,2},{3,4}}'::int[])[1:2][2:2], ('{{1,2},{3,4}}'::int[])[:][2:];
SELECT ('{{1,2},{3,4}}'::int[])[3:4], ('{{1,2},{3,4}}'::int[])[0:1][0:1];
SELECT id, a[1][1], a[2][2], a[1], t[1][2], f[1][2][1] FROM pmd.m ORDER BY id;
SELECT id, a[1:1], a[1:2][2:2], t[:][1:1] FROM pmd.m ORDER BY id;
-- functions
SELECT array_dims('{{1,2},{3,4}}'::int[]), array_ndims('{{1,2},{3,4}}'::int[]), cardinality('{{1,2,3},{3,4,5}}'::int[]);
SELECT array_length('{{1,2,3},{3,4,5}}'::int[], 1), array_length('{{1,2,3},{3,4,5}}'::int[], 2), array_length('{{1,2,3},{3,4,5}}'::int[], 3), array_length('{{1,2,3},{3,4,5}}'::int[], 0);
SELECT array_upper('{{1,2,3},{3,4,5}}'::int[], 2), array_lower('{{1,2,3},{3,4,5}}'::int[], 2), array_upper('{{1,2,3},{3,4,5}}'::int[], 3);
SELECT id, array_dims(a), array_ndims(a), cardinality(a), array_length(a, 1), array_length(a, 2), array_upper(f, 3), array_dims(f) FROM pmd.m ORDER BY id;
SELECT unnest('{{1,2},{3,4}}'::int[]);
SELECT id, unnest(t) FROM pmd.m ORDER BY id;
SELECT x FROM unnest('{{{1},{2}},{{3},{4}}}'::int[]) AS x ORDER BY x;
SELECT array_to_string('{{1,2},{3,NULL}}'::int[], ',', '*'), array_to_string(ARRAY[['a','b'],['c','d']], '-');
SELECT id, array_to_string(a, ','), a::text, t::text FROM pmd.m ORDER BY id;
-- comparisons
SELECT '{{1,2},{3,4}}'::int[] = '{{1,2},{3,4}}'::int[], '{{1,2},{3,4}}'::int[] = '{1,2,3,4}'::int[], '{{1,2},{3,4}}'::int[] <> '{{1,2},{3,5}}'::int[];
SELECT '{{1,2},{3,4}}'::int[] < '{{1,2},{3,5}}'::int[], '{{1,2},{3,4}}'::int[] > '{{1,2}}'::int[], '{{1,2},{3,4}}'::int[] >= '{{1,2},{3,4}}'::int[], '{{2}}'::int[] <= '{{1,9}}'::int[];
SELECT id FROM pmd.m WHERE a = '{{1,2},{3,4}}' ORDER BY id;
SELECT id FROM pmd.m WHERE a = ARRAY[[5,NULL],[7,8]] ORDER BY id;
SELECT id FROM pmd.m WHERE a <> '{{1,2},{3,4}}' ORDER BY id;
SELECT id, a FROM pmd.m ORDER BY a, id;
-- columns
SELECT * FROM pmd.m ORDER BY id;
SELECT * FROM pmd.c ORDER BY id;
SELECT attname, atttypid::regtype, attndims FROM pg_attribute WHERE attrelid = 'pmd.m'::regclass AND attnum > 0 ORDER BY attnum;
SELECT column_name, data_type, udt_name FROM information_schema.columns WHERE table_schema = 'pmd' AND table_name = 'm' ORDER BY ordinal_position;
SELECT id, a FROM pmd.m ORDER BY a DESC NULLS LAST, id;
SELECT x FROM (VALUES ('{1,2}'::int[]), ('{1}'), ('{}'), ('{2}'), ('{1,NULL}'), (NULL)) v(x) ORDER BY x;
SELECT t FROM pmd.m ORDER BY t, id;
SELECT 3 = ANY ('{{1,2},{3,4}}'::int[]), 5 > ALL ('{{1,2},{3,4}}'::int[]), 2 = ANY (ARRAY[[1,NULL]]);
SELECT id FROM pmd.m WHERE 7 = ANY (a) ORDER BY id;
SELECT * FROM generate_subscripts('{{1,2,3},{4,5,6}}'::int[], 2);
SELECT * FROM generate_subscripts('{{1,2,3},{4,5,6}}'::int[], 1, true);
SELECT * FROM generate_subscripts('{{1,2,3},{4,5,6}}'::int[], 3);
SELECT id, generate_subscripts(f, 3) FROM pmd.m ORDER BY id;
SELECT array_cat('{{1,2}}'::int[], '{{3,4}}'::int[]), '{{1,2}}'::int[] || '{3,4}'::int[], ARRAY[0,0] || '{{1,2}}'::int[], '{}'::int[] || '{{1}}'::int[];
SELECT id, a || ARRAY[[0,0]] FROM pmd.m WHERE id IN (1, 3, 4) ORDER BY id;
SELECT '{{1,2}}'::int[] || '{{3}}'::int[];
SELECT '{{1,2}}'::int[] || '{3}'::int[];
SELECT array_agg(x) FROM (VALUES ('{1,2}'::int[]), ('{3,4}')) v(x);
SELECT array_agg(a ORDER BY id) FROM pmd.m WHERE id IN (1, 2);
SELECT array_agg(a ORDER BY id) FROM pmd.m WHERE id IN (1, 5);
SELECT array_agg(a ORDER BY id) FROM pmd.m;
SELECT array_agg(x) FROM (VALUES ('{1,2}'::int[]), ('{}')) v(x);
SELECT ARRAY(SELECT a FROM pmd.m WHERE id < 3 ORDER BY id);
SELECT coalesce(NULL::int[], '{{1}}'::int[]), coalesce(a, '{}'), CASE WHEN id > 2 THEN '{}'::int[] ELSE a END FROM pmd.m ORDER BY id;
SELECT a FROM pmd.m UNION ALL SELECT '{}'::int[] ORDER BY 1;
SELECT to_jsonb('{{1,2},{3,NULL}}'::int[]), array_to_json('{{1,2},{3,4}}'::int[]), to_json(ARRAY[['a','b']]), json_build_array(ARRAY[[1,2]]);
SELECT id, row_to_json(m) FROM pmd.m ORDER BY id;
SELECT array_append('{{1,2}}'::int[], 3);
SELECT array_remove('{{1,2}}'::int[], 1);
SELECT id, a IS DISTINCT FROM '{{1,2},{3,4}}', a IS NOT DISTINCT FROM NULL, a IS DISTINCT FROM '{1,2,3}'::int[], a IS NOT DISTINCT FROM '{}'::int[] FROM pmd.m ORDER BY id;
-- known: array literals with explicit bounds are 0A000 in icegate
SELECT '[1:2][1:1]={{1},{2}}'::int[];
