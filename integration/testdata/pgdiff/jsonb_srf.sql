-- The set-returning functions of json and jsonb: jsonb_each[_text],
-- jsonb_array_elements[_text], jsonb_object_keys and their json twins
-- (which keep the input as written: key order, duplicates, spacing), in
-- FROM (column aliases, LATERAL over a table's column, WITH ORDINALITY)
-- and in a select list, and their errors.

-- setup
CREATE SCHEMA pgjsrf;
CREATE TABLE pgjsrf.t (id int, j jsonb, js json);
CREATE TABLE pgjsrf.r (id int, name text, tags jsonb, score numeric(5,2));
INSERT INTO pgjsrf.t VALUES (1, '{"b": [1, 2], "a": "x", "c": null}', '{"b": [1,2], "a" : "x", "a": 1.50}'), (2, '[1, "two", {"k": true}, null]', '[1, "two" , {"k": true}, null]'), (3, '{}', '[]'), (4, NULL, NULL);

-- queries
SELECT * FROM jsonb_each('{"b": 1, "a": "x", "c": {"d": [1, 2]}}');
SELECT * FROM jsonb_each_text('{"b": 1, "a": "x", "c": {"d": [1, 2]}, "n": null}');
SELECT key, value FROM jsonb_each('{"a": 1}') AS e;
SELECT k, v FROM jsonb_each('{"a": 1, "b": 2}') AS e(k, v) ORDER BY k;
SELECT * FROM jsonb_each('{"a": 1, "b": 2}') WITH ORDINALITY AS e(k, v, n);
SELECT * FROM jsonb_array_elements('[1, "a", {"b": null}, [2], null]');
SELECT * FROM jsonb_array_elements_text('[1, "a", {"b": null}, [2], null]');
SELECT * FROM jsonb_array_elements('[10, 20, 30]') WITH ORDINALITY;
SELECT x FROM jsonb_array_elements('[10, 20]') AS x;
SELECT * FROM jsonb_array_elements('[10, 20]') AS x;
SELECT * FROM jsonb_object_keys('{"b": 1, "a": 2, "aa": 3}');
SELECT * FROM jsonb_object_keys('{"b": 1}') AS k;
SELECT * FROM jsonb_array_elements(NULL);
SELECT t.id, e.key, e.value FROM pgjsrf.t, jsonb_each(t.j) e WHERE jsonb_typeof(t.j) = 'object' ORDER BY t.id, e.key;
SELECT t.id, e.value, e.ordinality FROM pgjsrf.t CROSS JOIN LATERAL jsonb_array_elements(t.j) WITH ORDINALITY e WHERE jsonb_typeof(t.j) = 'array' ORDER BY t.id, e.ordinality;
SELECT t.id, k FROM pgjsrf.t LEFT JOIN LATERAL jsonb_object_keys(CASE WHEN jsonb_typeof(t.j) = 'object' THEN t.j END) k ON true ORDER BY t.id, k;
SELECT id, jsonb_array_elements(j) FROM pgjsrf.t WHERE id = 2;
SELECT id, jsonb_array_elements_text(j) AS v FROM pgjsrf.t WHERE id = 2;
SELECT jsonb_object_keys(j) FROM pgjsrf.t WHERE id = 1;
SELECT count(*) FROM pgjsrf.t, jsonb_array_elements(t.j) e WHERE id = 2;
SELECT e.value->>'k' FROM pgjsrf.t, jsonb_array_elements(t.j) e WHERE id = 2 AND jsonb_typeof(e.value) = 'object';
SELECT * FROM json_each('{"b": [1,2], "a" : "x", "a": 1.50}');
SELECT * FROM json_each_text('{"b": [1,2], "a" : "x\ty", "a": null, "c": 1.50}');
SELECT * FROM json_array_elements('[1, {"b" : 2} , "x", null]') WITH ORDINALITY;
SELECT * FROM json_array_elements_text('[1, {"b" : 2} , "x", null]');
SELECT * FROM json_object_keys('{"b": 1, "a": 2, "b": 3}');
SELECT t.id, e.key, e.value FROM pgjsrf.t, json_each(t.js) e WHERE id = 1;
SELECT t.id, e FROM pgjsrf.t, json_array_elements_text(t.js) e WHERE id = 2;
SELECT json_array_elements(js) FROM pgjsrf.t WHERE id = 2;
SELECT * FROM jsonb_each('[1]');
SELECT * FROM jsonb_each_text('1');
SELECT * FROM jsonb_array_elements('{"a": 1}');
SELECT * FROM jsonb_array_elements('1');
SELECT * FROM jsonb_object_keys('1');
SELECT * FROM jsonb_object_keys('[1]');
SELECT * FROM json_each('[1]');
SELECT * FROM json_array_elements('{"a": 1}');
SELECT * FROM json_object_keys('[]');
SELECT * FROM jsonb_each('{bad');
SELECT * FROM jsonb_each('{"a": 1}'::text);
SELECT * FROM json_each('{"a": 1}'::jsonb);
SELECT * FROM pgjsrf.t, jsonb_array_elements(t.j) e;
SELECT * FROM jsonb_to_record('{"a": 1, "b": "x", "c": {"d": [1, 2]}, "e": true}') AS x(a int, b text, c jsonb, e boolean, f int);
SELECT * FROM jsonb_to_record('{"a": {"b": 1}, "c": "s"}') AS x(a text, c jsonb, d int);
SELECT * FROM jsonb_to_recordset('[{"a": 1, "b": "x"}, {"a": 2}, {"b": "y"}]') AS x(a int, b text);
SELECT x.a FROM jsonb_to_recordset('[{"a": 1}, {"a": 2}]') AS x(a bigint) WHERE x.a > 1;
-- known: a json value taken out of json (json -> 'b') is printed as jsonb prints it ([1, 2]), not as written
SELECT * FROM json_to_record('{"a": 1, "a": 2, "b": [1,2]}') AS x(a int, b json);
-- known: a json value taken out of json (json ->> 'b') is printed as jsonb prints it ([1, 2]), not as written
SELECT * FROM json_to_record('{"a": 1, "a": 2, "b": [1,2]}') AS x(a int, b text);
SELECT * FROM json_to_recordset('[{"a": 1}, {"a": 2}]') AS x(a int);
SELECT * FROM jsonb_to_record(NULL) AS x(a int);
SELECT * FROM jsonb_to_recordset(NULL) AS x(a int);
SELECT t.id, r.k FROM pgjsrf.t, jsonb_to_record(t.j->2) AS r(k boolean) WHERE t.id = 2;
SELECT t.id, r.a FROM pgjsrf.t, jsonb_to_recordset('[{"a": 1}, {"a": 2}]'::jsonb) AS r(a int) WHERE t.id < 3 ORDER BY t.id, r.a;
SELECT * FROM jsonb_to_record('[1]') AS x(a int);
SELECT * FROM jsonb_to_record('1') AS x(a int);
SELECT * FROM jsonb_to_recordset('[1]') AS x(a int);
SELECT * FROM jsonb_to_recordset('{"a": 1}') AS x(a int);
SELECT * FROM json_to_recordset('{}') AS x(a int);
SELECT * FROM jsonb_to_record('{"a": 1.5}') AS x(a int);
SELECT * FROM jsonb_to_record('{"a": 1}');
SELECT jsonb_each('{"a": 1, "b": "x", "c d": [1, 2], "e": null, "": "\\"}');
SELECT jsonb_each_text('{"a": 1, "b": "x", "c d": [1, 2], "e": null}');
SELECT json_each('{"b": [1,2], "a" : "x y"}'), json_each_text('{"b": [1,2], "a" : "x y"}');
SELECT id, jsonb_each(j) FROM pgjsrf.t WHERE id = 1;
SELECT * FROM ROWS FROM (jsonb_array_elements('[1, 2, 3]'), jsonb_object_keys('{"a": 1, "b": 2}')) WITH ORDINALITY AS r(v, k, n);
SELECT * FROM jsonb_array_elements('[1, 2]') WITH ORDINALITY AS x(v, n);
SELECT e.key FROM pgjsrf.t, jsonb_each(t.j->'items') e WHERE false;
SELECT * FROM jsonb_array_elements((SELECT j FROM pgjsrf.t WHERE id = 2)) e;
SELECT * FROM jsonb_populate_record(NULL::pgjsrf.r, '{"id": 5, "tags": ["a"], "score": 1.5, "zz": 1}');
SELECT * FROM jsonb_populate_recordset(NULL::pgjsrf.r, '[{"id": 1, "name": "x"}, {"score": 2}]');
SELECT p.id, p.name FROM json_populate_recordset(NULL::pgjsrf.r, '[{"id": 1, "name": "x"}, {"id": 2}]') AS p ORDER BY p.id;
SELECT * FROM jsonb_populate_recordset(NULL::pgjsrf.r, '[1]');
SELECT * FROM jsonb_populate_record(NULL::pgjsrf.r, '[1]');
SELECT * FROM jsonb_populate_record(NULL::pgjsrf.nope, '{}');
-- known: a base record other than NULL is not supported yet (0A000)
SELECT * FROM jsonb_populate_record(ROW(1, 'a', NULL, NULL)::pgjsrf.r, '{}');
