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
-- generate_series and unnest in FROM
SELECT * FROM generate_series(1, 5);
SELECT * FROM generate_series(1, 10, 3) AS g(n);
SELECT * FROM generate_series(5, 1, -2) g;
SELECT * FROM generate_series(1, 0);
SELECT g FROM generate_series(0.5, 2.0, 0.5) AS g;
SELECT * FROM generate_series(timestamp '2024-01-01', timestamp '2024-01-03', interval '1 day');
SELECT g.n, e.name FROM generate_series(1, 4) AS g(n) LEFT JOIN pgd.emp e ON e.id = g.n ORDER BY g.n;
SELECT n, count(e.id) FROM generate_series(0, 6) n LEFT JOIN pgd.emp e ON e.dept_id = n GROUP BY n ORDER BY n;
SELECT * FROM unnest(ARRAY[3, 1, 2]);
SELECT * FROM unnest(ARRAY['a', NULL, '']) AS u(x);
SELECT * FROM unnest(ARRAY[1, 2], ARRAY['x', 'y', 'z']) AS u(n, s);
SELECT * FROM unnest(ARRAY[10, 20]) WITH ORDINALITY AS u(v, i);
SELECT * FROM generate_series(1, 3) WITH ORDINALITY AS g(v, i);
SELECT e.id, g FROM pgd.emp e, generate_series(1, e.dept_id) g WHERE e.id <= 4 ORDER BY e.id, g;
SELECT d.id, u FROM pgd.dept d CROSS JOIN LATERAL unnest(ARRAY[d.id, d.id * 10]) u WHERE d.id < 3 ORDER BY 1, 2;
SELECT sum(g), count(*), avg(g) FROM generate_series(1, 100) g;
-- generate_series and unnest in the select list
SELECT generate_series(1, 3);
SELECT generate_series(1, 3) AS a, generate_series(1, 2) AS b;
SELECT id, generate_series(1, 2) AS g FROM pgd.dept WHERE id <= 2 ORDER BY id, g;
SELECT unnest(ARRAY[1, NULL, 3]) AS u;
SELECT id, unnest(ARRAY[name, region]) FROM pgd.dept WHERE id = 1;
SELECT unnest(ARRAY[1, 2]) + 1;
SELECT count(*) FROM (SELECT generate_series(1, id) FROM pgd.emp WHERE id <= 4) t;
-- arrays as values
SELECT ARRAY[1, 2, 3] AS a, ARRAY['x', NULL] AS b;
SELECT ARRAY[]::int[] AS c;
SELECT array_length(ARRAY[1, 2, 3], 1), cardinality(ARRAY[1, 2]);
SELECT (ARRAY[5, 6, 7])[2];
SELECT 2 = ANY (ARRAY[1, 2, 3]), 4 = ANY (ARRAY[1, NULL]), 1 <> ALL (ARRAY[2, 3]);
SELECT id FROM pgd.emp WHERE id = ANY (ARRAY[1, 3, 5]) ORDER BY id;
-- ORDER BY, NULLS, LIMIT, OFFSET
SELECT id, salary FROM pgd.emp ORDER BY salary, id;
SELECT id, salary FROM pgd.emp ORDER BY salary DESC, id DESC;
SELECT id, bonus FROM pgd.emp ORDER BY bonus NULLS FIRST, id;
SELECT id, bonus FROM pgd.emp ORDER BY bonus DESC NULLS LAST, id;
SELECT id, bonus FROM pgd.emp ORDER BY bonus DESC, id;
SELECT id, name FROM pgd.emp ORDER BY name, id;
SELECT id, name FROM pgd.emp ORDER BY name DESC, id;
SELECT id, hired FROM pgd.emp ORDER BY hired, id;
SELECT id, active FROM pgd.emp ORDER BY active DESC, id;
SELECT id, price FROM pgd.sales ORDER BY price NULLS FIRST, id;
SELECT id, paid_at FROM pgd.sales ORDER BY paid_at DESC, id;
SELECT id FROM pgd.emp ORDER BY id LIMIT 3;
SELECT id FROM pgd.emp ORDER BY id LIMIT 3 OFFSET 6;
SELECT id FROM pgd.emp ORDER BY id OFFSET 10;
SELECT id FROM pgd.emp ORDER BY id LIMIT 0;
SELECT id FROM pgd.emp ORDER BY id LIMIT ALL OFFSET 5;
SELECT id FROM pgd.emp ORDER BY id FETCH FIRST 2 ROWS ONLY;
SELECT salary FROM pgd.emp ORDER BY salary DESC FETCH FIRST 2 ROWS WITH TIES;
SELECT id FROM pgd.emp ORDER BY id LIMIT -1;
SELECT id, salary * -1 AS neg FROM pgd.emp ORDER BY neg, id;
SELECT id, salary FROM pgd.emp ORDER BY 2 DESC, 1;
SELECT id FROM pgd.emp ORDER BY coalesce(mgr_id, 0), id;
SELECT id FROM pgd.emp ORDER BY length(name) NULLS FIRST, id;
SELECT dept_id AS d FROM pgd.emp GROUP BY dept_id ORDER BY d DESC NULLS LAST;
SELECT id, name FROM pgd.emp ORDER BY CASE WHEN name IS NULL THEN 0 ELSE 1 END, name, id;
SELECT id FROM pgd.emp ORDER BY 3;
SELECT DISTINCT dept_id FROM pgd.emp ORDER BY salary;
-- VALUES and constants
VALUES (1, 'a'), (2, NULL), (NULL, 'c');
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(n, s) ORDER BY n DESC;
SELECT v.n, e.name FROM (VALUES (1), (2), (99)) v(n) LEFT JOIN pgd.emp e ON e.id = v.n ORDER BY v.n;
SELECT 1 AS a, 'x' AS b, NULL AS c, true AS d, 1.50 AS e, 2.5e3 AS f;
SELECT -2147483648, 2147483648, 9223372036854775807, 0.1 + 0.2;
-- column names as PostgreSQL derives them
SELECT count(*), sum(salary), id + 1, name, e.name, 1, 'x', CAST(id AS text), id::bigint FROM pgd.emp e GROUP BY id, name ORDER BY e.id LIMIT 1;
SELECT coalesce(name, 'x'), nullif(id, 1), CASE WHEN true THEN 1 END, EXISTS (SELECT 1), (SELECT 1) FROM pgd.emp WHERE id = 1;
SELECT upper(name), length(name) AS len, -id, NOT active FROM pgd.emp WHERE id = 1;
-- errors that must match PostgreSQL's SQLSTATE
SELECT nosuch FROM pgd.emp;
SELECT * FROM pgd.nosuch;
SELECT id FROM pgd.emp e JOIN pgd.dept d ON e.dept_id = d.id;
SELECT name, count(*) FROM pgd.emp;
SELECT 1 / 0;
SELECT sum(name) FROM pgd.emp;
SELECT id FROM pgd.emp WHERE count(*) > 1;
SELECT (SELECT id FROM pgd.emp);
SELECT 'x' + 1;
SELECT id FROM pgd.emp WHERE name;
