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
-- IN / NOT IN, with NULLs on either side
SELECT id FROM pgd.emp WHERE dept_id IN (SELECT id FROM pgd.dept WHERE region = 'north') ORDER BY id;
SELECT id FROM pgd.emp WHERE dept_id NOT IN (SELECT id FROM pgd.dept WHERE region = 'north') ORDER BY id;
-- dept.id has a NULL: NOT IN is never true
SELECT id FROM pgd.emp WHERE dept_id NOT IN (SELECT id FROM pgd.dept);
SELECT id FROM pgd.emp WHERE dept_id NOT IN (SELECT id FROM pgd.dept WHERE id IS NOT NULL) ORDER BY id;
SELECT id FROM pgd.emp WHERE dept_id IN (SELECT id FROM pgd.dept) ORDER BY id;
SELECT id FROM pgd.emp WHERE dept_id NOT IN (SELECT id FROM pgd.dept WHERE false) ORDER BY id;
SELECT id FROM pgd.emp WHERE dept_id IN (SELECT id FROM pgd.dept WHERE false);
SELECT id, dept_id IN (SELECT id FROM pgd.dept) AS in_dept FROM pgd.emp ORDER BY id;
SELECT id, dept_id NOT IN (SELECT id FROM pgd.dept WHERE id < 3) AS x FROM pgd.emp ORDER BY id;
SELECT id, mgr_id IN (1, 3, NULL) AS x FROM pgd.emp ORDER BY id;
SELECT id FROM pgd.emp WHERE (dept_id, mgr_id) IN (SELECT dept_id, mgr_id FROM pgd.emp WHERE id = 2) ORDER BY id;
SELECT id FROM pgd.sales WHERE emp_id IN (SELECT id FROM pgd.emp WHERE active) ORDER BY id;
SELECT id FROM pgd.sales WHERE emp_id NOT IN (SELECT mgr_id FROM pgd.emp WHERE mgr_id IS NOT NULL) ORDER BY id;
SELECT id FROM pgd.sales WHERE emp_id NOT IN (SELECT mgr_id FROM pgd.emp);
-- EXISTS / NOT EXISTS, correlated
SELECT d.name FROM pgd.dept d WHERE EXISTS (SELECT 1 FROM pgd.emp e WHERE e.dept_id = d.id) ORDER BY d.name;
SELECT d.name FROM pgd.dept d WHERE NOT EXISTS (SELECT 1 FROM pgd.emp e WHERE e.dept_id = d.id) ORDER BY d.name;
SELECT e.id FROM pgd.emp e WHERE EXISTS (SELECT * FROM pgd.sales s WHERE s.emp_id = e.id AND s.amount > 90) ORDER BY e.id;
SELECT e.id FROM pgd.emp e WHERE NOT EXISTS (SELECT * FROM pgd.sales s WHERE s.emp_id = e.id) ORDER BY e.id;
SELECT id FROM pgd.emp WHERE EXISTS (SELECT 1 FROM pgd.dept WHERE false);
SELECT id FROM pgd.emp WHERE NOT EXISTS (SELECT 1 FROM pgd.dept WHERE false) ORDER BY id;
SELECT e.id, EXISTS (SELECT 1 FROM pgd.emp r WHERE r.mgr_id = e.id) AS is_mgr FROM pgd.emp e ORDER BY e.id;
SELECT e.id FROM pgd.emp e WHERE EXISTS (SELECT 1 FROM pgd.emp r WHERE r.mgr_id = e.id AND r.salary < e.salary) ORDER BY e.id;
-- scalar subqueries
SELECT (SELECT max(salary) FROM pgd.emp) AS top;
SELECT (SELECT name FROM pgd.dept WHERE id = 99) AS none;
SELECT id FROM pgd.emp WHERE salary = (SELECT max(salary) FROM pgd.emp);
SELECT id FROM pgd.emp WHERE salary > (SELECT avg(salary) FROM pgd.emp) ORDER BY id;
SELECT id, salary - (SELECT min(salary) FROM pgd.emp) AS above_min FROM pgd.emp ORDER BY id;
SELECT id FROM pgd.emp WHERE dept_id = (SELECT id FROM pgd.dept WHERE name = 'Nope');
SELECT (SELECT id FROM pgd.dept WHERE region = 'north');
SELECT (SELECT 1 WHERE false) IS NULL AS is_null;
-- correlated scalar subqueries in the select list
SELECT d.name, (SELECT count(*) FROM pgd.emp e WHERE e.dept_id = d.id) AS n FROM pgd.dept d ORDER BY d.name;
SELECT d.name, (SELECT sum(e.salary) FROM pgd.emp e WHERE e.dept_id = d.id) AS total FROM pgd.dept d ORDER BY d.name;
SELECT d.name, (SELECT max(e.name) FROM pgd.emp e WHERE e.dept_id = d.id) FROM pgd.dept d ORDER BY d.name;
SELECT e.id, (SELECT m.name FROM pgd.emp m WHERE m.id = e.mgr_id) AS mgr FROM pgd.emp e ORDER BY e.id;
SELECT e.id, (SELECT count(*) FROM pgd.sales s WHERE s.emp_id = e.id) AS n, (SELECT coalesce(sum(s.amount), 0) FROM pgd.sales s WHERE s.emp_id = e.id) AS amt FROM pgd.emp e ORDER BY e.id;
SELECT e.id, (SELECT count(s.amount) FROM pgd.sales s WHERE s.emp_id = e.id) FROM pgd.emp e ORDER BY e.id;
SELECT e.id, (SELECT s.id FROM pgd.sales s WHERE s.emp_id = e.id ORDER BY s.amount DESC NULLS LAST, s.id LIMIT 1) AS best FROM pgd.emp e ORDER BY e.id;
-- correlated scalar subqueries without FROM
SELECT e.id, (SELECT e.salary * 2) AS dbl FROM pgd.emp e ORDER BY e.id;
SELECT e.id, (SELECT (SELECT e.id + 1)) AS nested FROM pgd.emp e ORDER BY e.id;
SELECT e.id FROM pgd.emp e WHERE (SELECT e.salary) > 4000 ORDER BY e.id;
SELECT e.id, (SELECT e.name || '!' LIMIT 1) AS x FROM pgd.emp e ORDER BY e.id;
-- correlated subqueries with aggregates in WHERE
SELECT e.id FROM pgd.emp e WHERE e.salary > (SELECT avg(x.salary) FROM pgd.emp x WHERE x.dept_id = e.dept_id) ORDER BY e.id;
SELECT e.id FROM pgd.emp e WHERE (SELECT count(*) FROM pgd.sales s WHERE s.emp_id = e.id) = 0 ORDER BY e.id;
SELECT e.id FROM pgd.emp e WHERE (SELECT count(*) FROM pgd.sales s WHERE s.emp_id = e.id) >= 2 ORDER BY e.id;
SELECT d.id FROM pgd.dept d WHERE 4000 < (SELECT max(salary) FROM pgd.emp e WHERE e.dept_id = d.id) ORDER BY d.id;
SELECT d.id FROM pgd.dept d WHERE (SELECT max(salary) FROM pgd.emp e WHERE e.dept_id = d.id) IS NULL ORDER BY d.id;
SELECT s.id FROM pgd.sales s WHERE s.amount = (SELECT max(t.amount) FROM pgd.sales t WHERE t.region = s.region) ORDER BY s.id;
-- ANY / ALL
SELECT id FROM pgd.emp WHERE salary > ALL (SELECT salary FROM pgd.emp WHERE dept_id = 2) ORDER BY id;
SELECT id FROM pgd.emp WHERE salary = ANY (SELECT salary FROM pgd.emp WHERE dept_id = 2) ORDER BY id;
SELECT id FROM pgd.emp WHERE salary < ALL (SELECT salary FROM pgd.emp WHERE false) ORDER BY id;
SELECT id FROM pgd.emp WHERE mgr_id <> ALL (SELECT mgr_id FROM pgd.emp);
-- derived tables
SELECT * FROM (SELECT dept_id, count(*) AS n FROM pgd.emp GROUP BY dept_id) t WHERE n > 1 ORDER BY dept_id;
SELECT t.d, t.total FROM (SELECT dept_id AS d, sum(salary) AS total FROM pgd.emp GROUP BY 1) AS t ORDER BY t.total DESC, t.d;
SELECT max(n) FROM (SELECT count(*) AS n FROM pgd.sales GROUP BY emp_id) x;
SELECT * FROM (SELECT id, name FROM pgd.emp ORDER BY id LIMIT 3) t ORDER BY id DESC;
SELECT count(*) FROM (SELECT DISTINCT salary FROM pgd.emp) t;
SELECT a.x, b.y FROM (SELECT 1 AS x) a, (SELECT 2 AS y) b;
SELECT t.id FROM (SELECT * FROM pgd.emp WHERE dept_id = 1) t JOIN (SELECT * FROM pgd.sales) s ON s.emp_id = t.id ORDER BY t.id, s.id;
SELECT c1, c2 FROM (SELECT id, name FROM pgd.dept) AS t(c1, c2) ORDER BY c1 NULLS FIRST;
-- LATERAL with WHERE correlation
SELECT e.id, s.id AS sid FROM pgd.emp e, LATERAL (SELECT id FROM pgd.sales WHERE emp_id = e.id ORDER BY amount DESC NULLS LAST, id LIMIT 1) s ORDER BY e.id;
SELECT e.id, s.n FROM pgd.emp e CROSS JOIN LATERAL (SELECT count(*) AS n FROM pgd.sales WHERE emp_id = e.id) s ORDER BY e.id;
SELECT d.name, x.id FROM pgd.dept d LEFT JOIN LATERAL (SELECT id FROM pgd.emp WHERE dept_id = d.id AND salary > 4000) x ON true ORDER BY d.name, x.id;
SELECT d.id, x.total FROM pgd.dept d JOIN LATERAL (SELECT sum(salary) AS total FROM pgd.emp WHERE dept_id = d.id) x ON true ORDER BY d.id;
-- CTEs
WITH t AS (SELECT dept_id, sum(salary) AS total FROM pgd.emp GROUP BY dept_id) SELECT * FROM t ORDER BY dept_id;
WITH a AS (SELECT id FROM pgd.emp WHERE active), b AS (SELECT id FROM a WHERE id > 2) SELECT * FROM b ORDER BY id;
WITH t AS (SELECT id, salary FROM pgd.emp) SELECT x.id, y.id FROM t x JOIN t y ON x.salary = y.salary AND x.id < y.id ORDER BY 1, 2;
WITH t(a, b) AS (SELECT id, name FROM pgd.dept) SELECT b FROM t WHERE a > 1 ORDER BY b;
WITH t AS (SELECT 1 AS x UNION ALL SELECT 2) SELECT sum(x) FROM t;
WITH e AS (SELECT * FROM pgd.emp WHERE false) SELECT count(*) FROM e;
WITH s AS (SELECT emp_id, sum(amount) AS amt FROM pgd.sales GROUP BY emp_id) SELECT e.name, s.amt FROM pgd.emp e JOIN s ON s.emp_id = e.id ORDER BY e.id;
WITH m AS MATERIALIZED (SELECT max(salary) AS m FROM pgd.emp) SELECT id FROM pgd.emp, m WHERE salary = m.m;
