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
-- result types of arithmetic and aggregates, seen through the column OIDs
SELECT sum(qty), sum(id), sum(amount), sum(price), sum(x), avg(qty), avg(id), avg(price) FROM pgd.sales, pgd.nums WHERE sales.id = nums.k;
SELECT count(*) + 1, count(*) * 1.5, max(id) - min(id), max(amount) - min(amount) FROM pgd.sales;
SELECT qty * 2, qty + id, qty / 2, qty * 1.0, qty * price, amount * price FROM pgd.sales ORDER BY id;
SELECT id + 0.5::real, id * 2::bigint, id / 2::numeric FROM pgd.sales ORDER BY id;
SELECT -qty, +qty FROM pgd.sales ORDER BY id;
SELECT qty & 1, qty | 8, 5 # 3, ~qty, qty << 2, qty >> 1 FROM pgd.sales WHERE qty IS NOT NULL ORDER BY id;
SELECT @ qty FROM pgd.sales ORDER BY id;
SELECT min(qty::bigint), max(amount::double precision), min(price::numeric) FROM pgd.sales;
-- text output of times and floats
SELECT timestamp '2024-01-02 03:04:05.123456', timestamp '2024-01-02 03:04:05.1', timestamptz '2024-01-02 03:04:05.010+01';
SELECT date '0001-01-01', date '9999-12-31', timestamp '1970-01-01 00:00:00';
SELECT 1.0::double precision, 100.0::double precision, 1234567.125::double precision, 0.1::real, 1e-10::double precision;
SELECT 12345678.9::real, 1.5::real * 2, (1.0 / 3)::real, 2.0::double precision / 3;
-- correlated subqueries in more places
SELECT e.id FROM pgd.emp e JOIN pgd.dept d ON d.id = e.dept_id AND e.salary = (SELECT max(x.salary) FROM pgd.emp x WHERE x.dept_id = d.id) ORDER BY e.id;
SELECT e.id, (SELECT sum(s.amount * e.id) FROM pgd.sales s WHERE s.emp_id = e.id) FROM pgd.emp e ORDER BY e.id;
SELECT e.id, (SELECT count(*) FROM pgd.sales s WHERE s.amount > e.salary / 50) FROM pgd.emp e ORDER BY e.id;
SELECT e.id, (SELECT max(m.salary) FROM pgd.emp m WHERE m.id = e.mgr_id) - e.salary AS gap FROM pgd.emp e ORDER BY e.id;
SELECT d.id, (SELECT string_agg(e.name, ',' ORDER BY e.id) FROM pgd.emp e WHERE e.dept_id = d.id) FROM pgd.dept d ORDER BY d.id;
SELECT d.id, (SELECT bool_and(e.active) FROM pgd.emp e WHERE e.dept_id = d.id) FROM pgd.dept d ORDER BY d.id;
SELECT d.id, (SELECT count(*) FILTER (WHERE e.active) FROM pgd.emp e WHERE e.dept_id = d.id) FROM pgd.dept d ORDER BY d.id;
SELECT d.id FROM pgd.dept d WHERE (SELECT count(*) FROM pgd.emp e WHERE e.dept_id = d.id) = 0 ORDER BY d.id;
SELECT d.id FROM pgd.dept d WHERE (SELECT count(e.bonus) FROM pgd.emp e WHERE e.dept_id = d.id) < 2 ORDER BY d.id;
SELECT e.id FROM pgd.emp e WHERE e.dept_id NOT IN (SELECT d.id FROM pgd.dept d WHERE d.region = 'north' AND d.id <> e.mgr_id) ORDER BY e.id;
SELECT e.id FROM pgd.emp e WHERE e.id IN (SELECT s.emp_id FROM pgd.sales s WHERE s.qty > e.id - 3) ORDER BY e.id;
SELECT e.id, EXISTS (SELECT 1 FROM pgd.sales s WHERE s.emp_id = e.id AND s.amount IS NULL) FROM pgd.emp e ORDER BY e.id;
-- joins mixing outer and inner with derived tables
SELECT d.name, t.n FROM pgd.dept d LEFT JOIN (SELECT dept_id, count(*) AS n FROM pgd.emp WHERE active GROUP BY dept_id) t ON t.dept_id = d.id ORDER BY d.name;
SELECT d.name, coalesce(t.n, 0) FROM pgd.dept d LEFT JOIN (SELECT dept_id, count(*) AS n FROM pgd.emp GROUP BY dept_id) t ON t.dept_id = d.id ORDER BY d.name;
SELECT a.id, b.id, c.id FROM pgd.emp a LEFT JOIN pgd.emp b ON b.id = a.mgr_id LEFT JOIN pgd.emp c ON c.id = b.mgr_id ORDER BY a.id;
SELECT a.id, b.id FROM pgd.emp a FULL JOIN pgd.sales b ON a.id = b.emp_id AND b.qty > 1 WHERE a.id IS NULL OR b.id IS NULL ORDER BY a.id, b.id;
SELECT s.region, count(DISTINCT s.emp_id), count(e.id) FROM pgd.sales s LEFT JOIN pgd.emp e ON e.id = s.emp_id GROUP BY s.region ORDER BY s.region NULLS FIRST;
SELECT * FROM pgd.dept d1 JOIN pgd.dept d2 ON d1.region = d2.region AND d1.id < d2.id;
SELECT count(*) FROM pgd.sales s1 JOIN pgd.sales s2 ON s1.sold_at = s2.sold_at AND s1.id <> s2.id;
SELECT count(*) FROM pgd.sales s1 JOIN pgd.sales s2 ON s1.price = s2.price AND s1.id < s2.id;
SELECT n1.k, n2.x FROM pgd.nums n1 JOIN pgd.nums n2 ON n1.x = n2.x AND n1.s < n2.s ORDER BY 1, 2;
-- grouping on expressions and ordinals, HAVING on aggregates not selected
SELECT salary > 3000 AS band, count(*), min(id) FROM pgd.emp GROUP BY 1 ORDER BY 1 NULLS FIRST;
SELECT coalesce(region, '?') AS r, sum(qty) FROM pgd.sales GROUP BY coalesce(region, '?') ORDER BY r;
SELECT dept_id, count(*) FROM pgd.emp GROUP BY dept_id HAVING max(salary) >= 4000 AND count(bonus) > 0 ORDER BY 1;
SELECT extract(month FROM sold_at) AS m, count(*), sum(amount) FROM pgd.sales GROUP BY 1 HAVING sum(amount) IS NOT NULL ORDER BY 1 NULLS FIRST;
SELECT k, sum(v) FILTER (WHERE s > 0) AS pos, sum(v) FILTER (WHERE s <= 0) AS neg FROM pgd.nums GROUP BY k ORDER BY k NULLS FIRST;
SELECT active, string_agg(coalesce(name, '<null>'), ',' ORDER BY name NULLS FIRST, id) FROM pgd.emp GROUP BY active ORDER BY active NULLS FIRST;
-- windows on derived tables and with set operations
SELECT x, rank() OVER (ORDER BY x) FROM (SELECT dept_id AS x FROM pgd.emp UNION ALL SELECT id FROM pgd.dept) u ORDER BY x NULLS FIRST;
SELECT id, amount, sum(amount) OVER (PARTITION BY region ORDER BY id) FROM pgd.sales WHERE region IN ('north', 'south') ORDER BY id;
SELECT region, total, rank() OVER (ORDER BY total DESC NULLS LAST) FROM (SELECT region, sum(amount) AS total FROM pgd.sales GROUP BY region) t ORDER BY region NULLS FIRST;
SELECT id, lag(id) OVER (PARTITION BY emp_id ORDER BY sold_at NULLS FIRST, id) FROM pgd.sales ORDER BY id;
SELECT id, count(*) OVER (PARTITION BY price ORDER BY id) FROM pgd.sales ORDER BY id;
SELECT id, sum(price) OVER (ORDER BY id), avg(price) OVER (ORDER BY id ROWS 1 PRECEDING) FROM pgd.sales ORDER BY id;
-- set operations with NULLs, ORDER BY names, and mixed numerics
SELECT dept_id, mgr_id FROM pgd.emp INTERSECT SELECT dept_id, mgr_id FROM pgd.emp WHERE active IS NOT TRUE;
SELECT dept_id, mgr_id FROM pgd.emp EXCEPT SELECT 1, 1;
SELECT salary FROM pgd.emp UNION SELECT amount FROM pgd.sales ORDER BY salary NULLS FIRST;
SELECT qty FROM pgd.sales UNION ALL SELECT s FROM pgd.nums UNION ALL SELECT 1.5 ORDER BY 1 NULLS FIRST;
SELECT x FROM pgd.nums UNION SELECT price FROM pgd.sales ORDER BY 1 DESC NULLS LAST;
SELECT name AS n FROM pgd.emp EXCEPT SELECT region FROM pgd.dept ORDER BY n NULLS FIRST;
-- CASE and COALESCE typing
SELECT CASE WHEN qty > 2 THEN amount WHEN qty > 0 THEN qty ELSE price END FROM pgd.sales ORDER BY id;
SELECT CASE WHEN id % 2 = 0 THEN NULL ELSE id END, CASE WHEN false THEN 1 END FROM pgd.emp ORDER BY id;
SELECT coalesce(qty, amount, 0), coalesce(price, qty) FROM pgd.sales ORDER BY id;
SELECT nullif(qty, 1), nullif(region, ''), nullif(NULL::int, 1) FROM pgd.sales ORDER BY id;
SELECT CASE region WHEN 'north' THEN 1 WHEN NULL THEN 2 ELSE 3 END FROM pgd.sales ORDER BY id;
-- LIMIT and OFFSET in subqueries and CTEs
WITH top AS (SELECT id, salary FROM pgd.emp ORDER BY salary DESC, id LIMIT 3) SELECT sum(salary) FROM top;
SELECT * FROM (SELECT id FROM pgd.emp ORDER BY id DESC OFFSET 2 LIMIT 3) t ORDER BY id;
SELECT id FROM pgd.sales WHERE amount > (SELECT amount FROM pgd.sales ORDER BY amount DESC NULLS LAST LIMIT 1 OFFSET 3) ORDER BY id;
SELECT count(*) FROM (SELECT * FROM pgd.sales LIMIT 0) t;
