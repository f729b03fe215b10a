-- setup
CREATE SCHEMA pjb;
CREATE TABLE pjb.person (id int, name text, born date, seen timestamptz, at timestamp, score float8, bal numeric(10,2), ok boolean, raw bytea, tags text[]);
INSERT INTO pjb.person VALUES
  (1, 'Ann', '1990-05-01', '2024-01-01 10:00:00+00', '2024-01-01 10:00:00.5', 1.5, 10.50, true, '\x0102', ARRAY['a', 'b']),
  (2, 'Bob "B"', '1985-12-31', '2024-06-30 23:59:59+00', '2024-06-30 23:59:59', 'NaN', 0.00, false, '\x', ARRAY[]::text[]),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
CREATE TABLE pjb.pet (id int, owner int, name text, legs int);
INSERT INTO pjb.pet VALUES (10, 1, 'Rex', 4), (11, 1, 'Tweety', 2), (12, 2, 'Nemo', 0);

-- queries
-- json_build_object / jsonb_build_object: values by type
SELECT json_build_object('a', 1, 'b', 'x', 'c', true, 'd', NULL, 'e', 1.50);
SELECT jsonb_build_object('a', 1, 'b', 'x', 'c', true, 'd', NULL, 'e', 1.50, 'a', 2);
SELECT json_build_object(), jsonb_build_object(), json_build_array(), jsonb_build_array();
SELECT id, json_build_object('id', id, 'name', name, 'born', born, 'seen', seen, 'at', at, 'score', score, 'bal', bal, 'ok', ok, 'raw', raw, 'tags', tags) FROM pjb.person ORDER BY id;
SELECT id, jsonb_build_object('id', id, 'name', name, 'born', born, 'seen', seen, 'at', at, 'score', score, 'bal', bal, 'ok', ok, 'raw', raw, 'tags', tags) FROM pjb.person ORDER BY id;
SELECT json_build_object('j', '{"x":  1}'::json, 'b', '{"x":  1}'::jsonb, 'n', json_build_object('k', 1));
SELECT jsonb_build_object('j', '{"x":  1}'::json, 'b', '{"x":  1}'::jsonb, 'n', jsonb_build_object('k', 1));
SELECT json_build_object(1, 2, 'f', 1.5::float8, 'inf', 'Infinity'::float8);
SELECT json_build_object('a');
SELECT json_build_object(NULL, 1);
-- json_build_array / jsonb_build_array
SELECT json_build_array(1, 'a', NULL, true, ARRAY[1, 2], json_build_array(3));
SELECT jsonb_build_array(1, 'a', NULL, true, ARRAY[1, 2], jsonb_build_array(3));
-- to_json / to_jsonb
SELECT to_json(1), to_json('a'::text), to_json(NULL::int), to_json(ARRAY[1, 2]), to_json(1e20::float8), to_json('NaN'::float8), to_json(true);
SELECT id, to_json(seen), to_json(born), to_json(raw), to_json(tags), to_jsonb(tags) FROM pjb.person ORDER BY id;
SELECT to_json(row(1, 'a')), to_jsonb(row(1, 'a')), row_to_json(row(1, NULL));
-- whole-row references
SELECT to_json(p) FROM pjb.pet p ORDER BY id;
SELECT to_jsonb(p) FROM pjb.pet p ORDER BY id;
SELECT row_to_json(p.*) FROM pjb.pet p ORDER BY id;
SELECT row_to_json(x) FROM (SELECT id, name AS "Name" FROM pjb.pet) x ORDER BY id;
SELECT json_build_object('pet', p) FROM pjb.pet p ORDER BY id;
SELECT row_to_json(1);
-- json_agg / jsonb_agg
SELECT json_agg(x) FROM (SELECT 1 AS id) x;
SELECT json_agg(p ORDER BY p.id) FROM pjb.pet p;
SELECT jsonb_agg(p ORDER BY p.id DESC) FROM pjb.pet p;
SELECT json_agg(name ORDER BY name) FILTER (WHERE legs > 0), jsonb_agg(legs ORDER BY legs) FROM pjb.pet;
SELECT owner, json_agg(name ORDER BY id) FROM pjb.pet GROUP BY owner ORDER BY owner;
SELECT json_agg(tags ORDER BY id) FROM pjb.person;
SELECT json_agg(to_json(p) ORDER BY id) FROM pjb.pet p;
SELECT json_agg(legs), coalesce(json_agg(legs), '[]'), coalesce(jsonb_agg(legs), '[]') FROM pjb.pet WHERE id < 0;
-- json_object_agg / jsonb_object_agg
SELECT json_object_agg(name, legs ORDER BY id), jsonb_object_agg(name, legs) FROM pjb.pet;
SELECT json_object_agg(NULL::text, legs) FROM pjb.pet;
-- Kysely's jsonArrayFrom and jsonObjectFrom
SELECT p.id, p.name, (SELECT coalesce(json_agg(agg), '[]') FROM (SELECT pet.id, pet.name FROM pjb.pet WHERE pet.owner = p.id ORDER BY pet.id) AS agg) AS pets FROM pjb.person p ORDER BY p.id;
SELECT pet.id, (SELECT to_json(obj) FROM (SELECT person.id, person.name, person.seen FROM pjb.person WHERE person.id = pet.owner) AS obj) AS owner FROM pjb.pet ORDER BY pet.id;
-- Drizzle-style: json_build_array rows aggregated
SELECT p.id, (SELECT coalesce(json_agg(json_build_array(pet.id, pet.name) ORDER BY pet.id), '[]'::json) FROM pjb.pet WHERE pet.owner = p.id) FROM pjb.person p ORDER BY p.id;
-- keys: empty strings, NULL keys at run time
SELECT json_build_object('', ''), jsonb_build_object('', ''), json_agg(''::text), json_object_agg('', '');
SELECT to_json('a');
SELECT jsonb_agg('a');
SELECT k, json_build_object(k, 1) FROM (VALUES ('a'), (NULL)) t(k);
SELECT jsonb_build_object(NULL::text, 1);
-- more types: intervals, numeric NaN, arrays with NULLs, nested json columns, the session time zone
SELECT json_build_object('i', interval '1 day 02:00', 'a', ARRAY[1, NULL, 3], 'd', ARRAY['2024-01-01'::date]);
SET TIME ZONE 'America/New_York';
SELECT json_build_object('t', seen), to_json(seen), jsonb_build_array(seen) FROM pjb.person WHERE id = 1;
SET TIME ZONE 'UTC';
SELECT json_agg(DISTINCT legs ORDER BY legs), jsonb_agg(DISTINCT owner) FROM pjb.pet;
SELECT jsonb_agg(jsonb_build_object('id', id, 'n', name) ORDER BY id) FROM pjb.pet;
SELECT json_build_object('rows', (SELECT json_agg(p ORDER BY p.id) FROM pjb.pet p WHERE p.legs > 0));
SELECT to_json(x) FROM (SELECT id, json_build_object('a', id) AS j, ARRAY[id] AS arr FROM pjb.pet WHERE id = 10) x;
SELECT to_jsonb(x) FROM (SELECT id, jsonb_build_object('a', id) AS j FROM pjb.pet WHERE id = 10) x;
-- a FILTER leaves NULL keys out before json_object_agg sees them
SELECT json_object_agg(k, v) FILTER (WHERE k IS NOT NULL), jsonb_object_agg(k, v) FILTER (WHERE k IS NOT NULL) FROM (VALUES ('a', 1), (NULL, 2), ('b', NULL)) t(k, v);
SELECT jsonb_object_agg(k, v) FROM (VALUES ('a', 1), (NULL, 2)) t(k, v);
-- ROW(...) and whole rows inside other builders
SELECT json_build_array(ROW(1, 'x'), ROW()), jsonb_build_array(ROW(1, 'x'));
SELECT json_agg(ROW(id, name) ORDER BY id) FROM pjb.pet;
SELECT row_to_json(pjb.pet) FROM pjb.pet ORDER BY id;
SELECT row_to_json(nope) FROM pjb.pet;
SELECT row_to_json(nope.*) FROM pjb.pet;
-- Drizzle's relational queries: a lateral subquery of json_build_array rows
SELECT p.id, coalesce(r.data, '[]'::json) FROM pjb.person p LEFT JOIN LATERAL (SELECT coalesce(json_agg(json_build_array(pet.id, pet.name) ORDER BY pet.id), '[]'::json) AS data FROM pjb.pet WHERE pet.owner = p.id) r ON true ORDER BY p.id;
SELECT json_agg(row_to_json(p) ORDER BY p.id) FROM pjb.pet p;
-- known: a whole-row value outside the JSON functions is 0A000 (PostgreSQL gives a record)
SELECT p FROM pjb.pet p ORDER BY id;
-- the aggregates over a window
SELECT id, json_agg(name) OVER (ORDER BY id), jsonb_agg(legs) OVER (PARTITION BY owner), json_object_agg(name, legs) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM pjb.pet ORDER BY id;
SELECT id, json_agg(p) OVER (ORDER BY id) FROM pjb.pet p ORDER BY id;
-- row_to_json's pretty form: a line per top-level field
SELECT row_to_json(p, true), row_to_json(p, false) FROM pjb.pet p ORDER BY id;
SELECT row_to_json(row(1, row(2, 3)), true);
SELECT to_json(row(p.id, p)), to_jsonb(row(p.id, row(p.name))) FROM pjb.pet p ORDER BY id;
-- array_to_json
SELECT array_to_json(ARRAY[1, 2]), array_to_json(tags), array_to_json(tags, false) FROM pjb.person ORDER BY id;
SELECT array_to_json(array_agg(name ORDER BY id)) FROM pjb.pet;
SELECT array_to_json(1);
