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
-- UNION / UNION ALL: duplicates and NULLs
SELECT dept_id FROM pgd.emp UNION SELECT id FROM pgd.dept;
SELECT dept_id FROM pgd.emp UNION ALL SELECT id FROM pgd.dept;
SELECT name FROM pgd.emp UNION SELECT name FROM pgd.dept ORDER BY 1 NULLS FIRST;
SELECT name FROM pgd.emp UNION ALL SELECT name FROM pgd.dept ORDER BY name;
SELECT region FROM pgd.sales UNION SELECT region FROM pgd.dept;
SELECT 1 AS a UNION SELECT 1 UNION SELECT NULL;
SELECT 1, 'a' UNION ALL SELECT 2, 'b' UNION ALL SELECT 1, 'a';
SELECT id, name FROM pgd.emp WHERE id < 3 UNION SELECT id, name FROM pgd.emp WHERE id > 6 ORDER BY id;
SELECT id FROM pgd.emp WHERE false UNION SELECT id FROM pgd.dept WHERE false;
-- INTERSECT / EXCEPT [ALL]
SELECT dept_id FROM pgd.emp INTERSECT SELECT id FROM pgd.dept;
SELECT dept_id FROM pgd.emp INTERSECT ALL SELECT id FROM pgd.dept;
SELECT dept_id FROM pgd.emp EXCEPT SELECT id FROM pgd.dept;
SELECT id FROM pgd.dept EXCEPT SELECT dept_id FROM pgd.emp;
SELECT dept_id FROM pgd.emp EXCEPT ALL SELECT id FROM pgd.dept;
SELECT salary FROM pgd.emp INTERSECT ALL SELECT salary FROM pgd.emp WHERE dept_id IS NOT NULL;
SELECT salary FROM pgd.emp EXCEPT ALL SELECT salary FROM pgd.emp WHERE id IN (2, 3);
SELECT emp_id FROM pgd.sales INTERSECT ALL SELECT emp_id FROM pgd.sales;
SELECT emp_id FROM pgd.sales EXCEPT ALL SELECT emp_id FROM pgd.sales WHERE id > 5;
SELECT name, dept_id FROM pgd.emp EXCEPT SELECT name, id FROM pgd.dept;
SELECT region FROM pgd.sales INTERSECT SELECT region FROM pgd.dept ORDER BY region;
-- precedence and nesting
SELECT 1 UNION SELECT 2 INTERSECT SELECT 2;
SELECT 1 UNION ALL SELECT 1 EXCEPT SELECT 2;
(SELECT 1 UNION ALL SELECT 1) EXCEPT ALL SELECT 1;
SELECT id FROM pgd.dept UNION ALL (SELECT id FROM pgd.emp EXCEPT SELECT mgr_id FROM pgd.emp);
SELECT x FROM (SELECT id AS x FROM pgd.emp UNION SELECT id FROM pgd.dept) u WHERE x > 3 ORDER BY x;
SELECT count(*) FROM (SELECT salary FROM pgd.emp UNION SELECT amount FROM pgd.sales) u;
-- ORDER BY / LIMIT on a set operation
SELECT id FROM pgd.emp UNION SELECT id FROM pgd.dept ORDER BY id DESC NULLS LAST LIMIT 4;
SELECT id FROM pgd.emp UNION ALL SELECT id FROM pgd.sales ORDER BY 1 LIMIT 5 OFFSET 3;
(SELECT id FROM pgd.emp ORDER BY id LIMIT 2) UNION ALL (SELECT id FROM pgd.dept ORDER BY id DESC NULLS LAST LIMIT 2) ORDER BY 1;
-- type resolution across branches
SELECT 1 AS v UNION SELECT 2::bigint ORDER BY v;
SELECT id FROM pgd.emp UNION ALL SELECT id FROM pgd.sales ORDER BY id;
SELECT 1 UNION ALL SELECT 2.5 ORDER BY 1;
SELECT salary FROM pgd.emp UNION SELECT 1 ORDER BY 1;
SELECT v FROM pgd.nums UNION SELECT s FROM pgd.nums ORDER BY 1 NULLS FIRST;
SELECT x FROM pgd.nums UNION ALL SELECT v FROM pgd.nums ORDER BY 1;
SELECT price FROM pgd.sales UNION SELECT 0.5::real ORDER BY 1;
SELECT NULL UNION SELECT 'a' ORDER BY 1;
SELECT hired FROM pgd.emp UNION SELECT date '2020-01-15' ORDER BY 1;
SELECT 'a'::text UNION SELECT 'b' ORDER BY 1 DESC;
SELECT true UNION SELECT active FROM pgd.emp ORDER BY 1;
-- errors
SELECT 1, 2 UNION SELECT 1;
SELECT 'a'::text UNION SELECT 1;
-- set operations in subqueries and CTEs
WITH u AS (SELECT emp_id AS id FROM pgd.sales UNION SELECT mgr_id FROM pgd.emp) SELECT e.name FROM pgd.emp e WHERE e.id IN (SELECT id FROM u) ORDER BY e.id;
SELECT id FROM pgd.emp WHERE id NOT IN (SELECT emp_id FROM pgd.sales WHERE emp_id IS NOT NULL UNION SELECT mgr_id FROM pgd.emp WHERE mgr_id IS NOT NULL) ORDER BY id;
SELECT DISTINCT dept_id FROM (SELECT dept_id FROM pgd.emp UNION ALL SELECT dept_id FROM pgd.emp) t ORDER BY 1;
