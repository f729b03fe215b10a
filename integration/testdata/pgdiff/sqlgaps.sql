-- setup
CREATE SCHEMA pgd;
CREATE TABLE pgd.dept (id int, name text, region text);
INSERT INTO pgd.dept VALUES
  (1, 'Eng', 'north'), (2, 'Sales', 'south'), (3, 'Ops', NULL),
  (4, 'Empty', 'north'), (NULL, 'Ghost', 'west');
CREATE TABLE pgd.emp (id int, name text, dept_id int, salary numeric(10,2), hired date,
  mgr_id int, bonus double precision, active boolean);
INSERT INTO pgd.emp VALUES
  (1, 'Ann', 1, 5000.00, '2020-01-15', NULL, 100.5, true),
  (2, 'Bob', 1, 4000.00, '2021-03-01', 1, NULL, true),
  (3, 'Cid', 2, 4000.00, '2019-07-30', 1, 50, false),
  (4, 'Dee', 2, 3500.50, '2022-11-11', 3, 0, true),
  (5, 'Eve', NULL, -100.25, '2023-05-05', NULL, -1.5, NULL),
  (6, '', 3, 4000.00, '2021-03-01', 3, 25.25, false),
  (7, NULL, 5, 0.00, NULL, 2, NULL, true),
  (8, 'Ann', 1, 6000.00, '2018-02-28', NULL, 1e10, true);
CREATE TABLE pgd.sales (id bigint, emp_id int, amount numeric(12,2), qty int,
  sold_at timestamp, paid_at timestamptz, region text, price real);
INSERT INTO pgd.sales VALUES
  (1, 1, 100.00, 1, '2024-01-01 10:00:00', '2024-01-01 10:00:00+00', 'north', 1.5),
  (2, 1, 250.50, 2, '2024-01-02 11:30:00', '2024-01-02 12:00:00+00', 'north', 2.25),
  (3, 2, -20.00, -1, '2024-01-02 11:30:00', NULL, 'south', 0.1),
  (4, 3, 100.00, 3, '2024-02-10 09:15:00', '2024-02-10 09:15:00+00', 'south', 3),
  (5, 3, NULL, NULL, '2024-02-11 00:00:00', '2024-02-11 00:00:00+00', NULL, NULL),
  (6, 4, 75.25, 1, '2024-03-15 18:45:30', '2024-03-16 01:00:00+00', 'west', 10.75),
  (7, 9, 10.00, 5, NULL, NULL, 'east', -2.5),
  (8, NULL, 0.00, 0, '2024-03-31 23:59:59', '2024-04-01 00:00:00+00', '', 0),
  (9, 1, 100.00, 1, '2024-01-01 10:00:00', '2024-01-01 10:00:00+00', 'north', 1.5),
  (10, 6, 999.99, 10, '2024-04-01 00:00:00', '2024-04-01 08:00:00+00', 'north', 100);
CREATE TABLE pgd.nums (k int, v int, s bigint, x double precision);
INSERT INTO pgd.nums VALUES
  (1, 1, 10, 0.5), (1, 2, 20, 1.5), (1, 2, 30, NULL), (2, 5, -5, -2.25),
  (2, NULL, 7, 3), (2, 8, 7, 3), (3, 3, 0, 0), (NULL, 4, 1, 1);

-- queries
-- row constructors and row comparisons
SELECT (1, 2) = (1, 2) AS a, (1, NULL) = (1, 2) AS b, (1, NULL) = (2, 2) AS c, (1, 2) <> (1, 3) AS d, (1, NULL) <> (1, 2) AS e;
SELECT (1, 2) < (1, 3) AS a, (1, NULL) < (2, 0) AS b, (1, NULL) < (1, 2) AS c, (NULL, 1) < (2, 2) AS d, ROW(1, 2) <= ROW(1, 2) AS e, (1, 2, 3) >= (1, 2, 4) AS f, (2, 1) > (1, 9) AS g;
SELECT (1, 2) IS DISTINCT FROM (1, NULL) AS a, (1, NULL) IS NOT DISTINCT FROM (1, NULL) AS b, ROW(NULL, NULL) IS NULL AS c, (1, NULL) IS NULL AS d, (1, NULL) IS NOT NULL AS e, ROW(1, 2) IS NOT NULL AS f;
SELECT (1, 2) IN ((1, 2), (3, 4)) AS a, (1, NULL) IN ((1, 2)) AS b, (1, NULL) NOT IN ((2, 2)) AS c, (5, 6) NOT IN ((1, 2), (3, 4)) AS d;
SELECT id FROM pgd.emp WHERE (dept_id, mgr_id) = (1, 1) ORDER BY id;
SELECT id FROM pgd.emp WHERE (dept_id, salary) < (2, 0) ORDER BY id;
SELECT id, (dept_id, mgr_id) <= (2, 1) AS le, (dept_id, id) > (1, 2) AS gt FROM pgd.emp ORDER BY id;
SELECT id FROM pgd.emp WHERE ROW(dept_id, name) IN ((1, 'Ann'), (2, 'Dee')) ORDER BY id;
SELECT id FROM pgd.emp WHERE (dept_id, hired) >= (2, date '2020-01-01') ORDER BY id;
SELECT count(DISTINCT (dept_id, mgr_id)) AS a, count(DISTINCT ROW(salary, name)) AS b, count(DISTINCT (bonus, NULL::int)) AS c, count(DISTINCT (1, 2)) AS d FROM pgd.emp;
SELECT dept_id, count(DISTINCT (mgr_id, active)) FROM pgd.emp GROUP BY dept_id ORDER BY dept_id;
SELECT count(DISTINCT (x, v)) FROM pgd.nums;
-- row comparisons with subqueries
SELECT id, (dept_id, mgr_id) IN (SELECT dept_id, mgr_id FROM pgd.emp WHERE id < 5) AS a, (dept_id, mgr_id) NOT IN (SELECT dept_id, mgr_id FROM pgd.emp WHERE id < 5) AS b FROM pgd.emp ORDER BY id;
SELECT id FROM pgd.emp WHERE (dept_id, mgr_id) NOT IN (SELECT dept_id, mgr_id FROM pgd.emp WHERE mgr_id IS NOT NULL AND dept_id IS NOT NULL) ORDER BY id;
SELECT id FROM pgd.emp e WHERE (e.dept_id, e.name) IN (SELECT d.id, e2.name FROM pgd.dept d JOIN pgd.emp e2 ON e2.dept_id = d.id WHERE e2.id <> e.id) ORDER BY id;
SELECT id, (dept_id, id) = (SELECT dept_id, id FROM pgd.emp x WHERE x.id = e.id) AS same, (1, id) < (SELECT 1, 4) AS lt FROM pgd.emp e ORDER BY id;
SELECT d.id FROM pgd.dept d WHERE (d.id, d.region) = (SELECT e.dept_id, 'north' FROM pgd.emp e WHERE e.id = 1) ORDER BY d.id;
SELECT id FROM pgd.emp WHERE (dept_id, mgr_id) = ANY (SELECT dept_id, mgr_id FROM pgd.emp WHERE id IN (3, 4)) ORDER BY id;
SELECT id FROM pgd.emp WHERE (dept_id, mgr_id) <> ALL (SELECT dept_id, mgr_id FROM pgd.emp WHERE id IN (3, 4)) ORDER BY id;
-- ARRAY(subquery)
SELECT ARRAY(SELECT id FROM pgd.emp ORDER BY id DESC) AS a, ARRAY(SELECT name FROM pgd.dept WHERE id > 10) AS b;
SELECT ARRAY(SELECT bonus FROM pgd.emp ORDER BY bonus NULLS FIRST LIMIT 3) AS a, ARRAY(SELECT DISTINCT dept_id FROM pgd.emp WHERE dept_id IS NOT NULL ORDER BY 1) AS b;
SELECT d.id, ARRAY(SELECT e.name FROM pgd.emp e WHERE e.dept_id = d.id ORDER BY e.name NULLS FIRST, e.id) AS names FROM pgd.dept d ORDER BY d.id;
SELECT d.name, array_to_string(ARRAY(SELECT e.id FROM pgd.emp e WHERE e.dept_id = d.id ORDER BY e.id), ',') AS ids FROM pgd.dept d ORDER BY d.name;
SELECT cardinality(ARRAY(SELECT hired FROM pgd.emp)) AS n, ARRAY(SELECT 1 WHERE false) AS empty;
SELECT ARRAY(SELECT id, name FROM pgd.dept);
SELECT ARRAY(SELECT name FROM pgd.emp ORDER BY id DESC) AS a, ARRAY(SELECT name FROM pgd.emp ORDER BY id DESC LIMIT 2 OFFSET 1) AS b, ARRAY(SELECT upper(name) FROM pgd.emp ORDER BY salary, id) AS c;
SELECT dept_id, count(*), ARRAY(SELECT d.name FROM pgd.dept d WHERE d.id = e.dept_id) AS names FROM pgd.emp e GROUP BY dept_id ORDER BY 1;
SELECT id FROM pgd.dept d WHERE 'Ann' = ANY (ARRAY(SELECT name FROM pgd.emp e WHERE e.dept_id = d.id)) ORDER BY 1;
SELECT ARRAY(SELECT x FROM pgd.nums ORDER BY x NULLS LAST) || ARRAY[9.5::double precision] AS a;
SELECT ARRAY[1, 2] || ARRAY[3] AS a, ARRAY[1] || 2 AS b, 0 || ARRAY[1] AS c, ARRAY['a'] || '{b,c}' AS d, NULL::text[] || ARRAY['x'] AS e;
-- set-returning functions in the select list, in step
SELECT generate_series(1, 3) AS a, generate_series(1, 2) AS b, unnest(ARRAY['x', 'y', 'z', 'w']) AS c;
SELECT id, generate_series(1, id) AS g, unnest(ARRAY['a', 'b']) AS u FROM pgd.dept WHERE id <= 3 ORDER BY id, g NULLS LAST, u;
SELECT unnest(ARRAY[1, 2, 3]) AS a, unnest(ARRAY[]::int[]) AS b;
SELECT generate_subscripts(ARRAY[4, 5, 6], 1), unnest(ARRAY[7]);
SELECT generate_subscripts(ARRAY['a', 'b'], 1) AS s, generate_series(10, 11);
SELECT count(*) FROM (SELECT generate_series(1, 3), generate_series(1, 5)) t;
SELECT generate_series(1, 2) + generate_series(1, 3) AS s;
-- multi-argument unnest, ROWS FROM and scalar functions in FROM
SELECT * FROM ROWS FROM (generate_series(1, 3), unnest(ARRAY['a', 'b'])) WITH ORDINALITY AS t(n, s, o);
SELECT * FROM ROWS FROM (generate_series(1, 2), unnest(ARRAY['a', 'b', 'c']));
SELECT d.id, r.* FROM pgd.dept d, ROWS FROM (generate_series(1, d.id), unnest(ARRAY[d.name])) AS r(n, s) WHERE d.id <= 2 ORDER BY 1, 2;
SELECT * FROM unnest(ARRAY[1, 2], ARRAY[3]);
SELECT * FROM unnest(ARRAY[1, 2, 3], ARRAY['a', 'b'], ARRAY[true]) AS u(n, s, b);
SELECT * FROM unnest(ARRAY[1, 2], ARRAY['x', 'y', 'z']) WITH ORDINALITY AS u(n, s, i);
SELECT d.id, u.n, u.s FROM pgd.dept d, unnest(ARRAY[d.id, d.id * 10], ARRAY[d.name]) AS u(n, s) WHERE d.id < 3 ORDER BY 1, 2;
SELECT * FROM string_to_array('a,b,c', ',') AS s;
SELECT s, s[2] FROM string_to_array('a,b,c', ',') s;
SELECT * FROM upper('abc'), lower('DEF') AS l(x);
SELECT e.id, u FROM pgd.emp e, upper(e.name) u WHERE e.id <= 3 ORDER BY e.id;
SELECT e.id, s.n FROM pgd.emp e CROSS JOIN LATERAL abs(e.salary) AS s(n) WHERE e.id > 4 ORDER BY e.id;
SELECT trim(s[i]) FROM generate_series(1, 3) AS i, string_to_array('a, b ,c', ',') s ORDER BY 1;
SELECT * FROM length('hello') WITH ORDINALITY AS t(n, o);
-- numeric constants of more than 38 digits beside floats
SELECT 1e300::double precision, -1e300::float8, 1e39::double precision * 2, 3.4e38::real;
SELECT 1e40 * 2.0::float8 AS a, 1e39 < 1::float8 AS b, x + 1e39 AS c FROM pgd.nums ORDER BY k, v, s;
SELECT 3.5e38::real;
SELECT 1e400::double precision;
-- pg_typeof answers with the bound PostgreSQL type
SELECT pg_typeof(1::oid), pg_typeof(1), pg_typeof('a'::varchar(3)), pg_typeof(1.5), pg_typeof(now()), pg_typeof('x');
SELECT pg_typeof(salary), pg_typeof(hired), pg_typeof(bonus), pg_typeof(id::bigint), pg_typeof(ARRAY[name]), pg_typeof(NULL) FROM pgd.emp WHERE id = 1;
SELECT pg_typeof(count(*)), pg_typeof(sum(salary)), pg_typeof(avg(id)) FROM pgd.emp;
SELECT pg_typeof('pgd.emp'::regclass), pg_typeof(1::int2), pg_typeof(true), pg_typeof(interval '1 day'), pg_typeof('x'::name), pg_typeof(pg_typeof(1));
SELECT pg_typeof(1)::text AS t, pg_typeof(id) = 'integer'::regtype AS is_int FROM pgd.emp WHERE id = 2;
