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
-- type rules of aggregates and arithmetic
SELECT sum(id), avg(id), sum(v::bigint), avg(s) FROM pgd.emp, pgd.nums WHERE emp.id = nums.v;
SELECT sum(2147483647) FROM generate_series(1, 3);
SELECT sum(9223372036854775807) FROM generate_series(1, 3);
SELECT avg(9223372036854775807) FROM generate_series(1, 2);
SELECT avg(x::real), sum(x::real) FROM pgd.nums;
SELECT stddev(v), stddev(v::double precision), variance(s::numeric(10, 3)) FROM pgd.nums;
SELECT 1 + 1.5, 1::bigint * 2.50, 7 / 2.0, 7.0 / 2, 2 ^ 10;
SELECT 2.0 ^ 0.5;
SELECT 1.000 * 1.00, 1.5 - 1.50, 10.0 / 4, 1 / 3.000000, 100.00 / 3;
SELECT -7 / 2, -7 % 3, 7 % -3, -7.5 % 2, (-7)::numeric / 2;
SELECT 0.1::double precision * 3, -0.0::double precision, 1 / 3::double precision;
SELECT 1e300::double precision * 10;
SELECT 100000000::real, 1234567.0::real, 0.000012345::real, 16777217::real;
SELECT 1e15::double precision, 1e16::double precision, 123456789012345678::double precision, 1e-4::double precision, 1e-5::double precision;
SELECT CASE WHEN id > 4 THEN 1 ELSE 2.5 END AS c FROM pgd.emp ORDER BY id;
SELECT coalesce(dept_id, 1.5) FROM pgd.emp ORDER BY id;
SELECT coalesce(bonus, salary) FROM pgd.emp ORDER BY id;
SELECT greatest(salary, bonus) FROM pgd.emp ORDER BY id;
SELECT id, salary = 4000, salary = 4000.0, salary = 4000::double precision FROM pgd.emp ORDER BY id;
SELECT count(*) FROM pgd.emp WHERE bonus = 0 OR bonus = -0.0;
-- NULL handling corners
SELECT NULL = NULL, NULL <> 1, NULL AND true, NULL OR false, NOT NULL::boolean;
SELECT 'a' || NULL, concat('a', NULL), NULL::int + 1, coalesce(NULL, NULL, 3);
SELECT id FROM pgd.emp WHERE dept_id IN (1, NULL) ORDER BY id;
SELECT id FROM pgd.emp WHERE dept_id NOT IN (1, NULL);
SELECT id FROM pgd.emp WHERE NULL::int NOT IN (SELECT id FROM pgd.dept WHERE false) ORDER BY id;
SELECT id FROM pgd.emp WHERE NULL::int IN (SELECT id FROM pgd.dept);
SELECT id, (SELECT count(*) FROM pgd.dept d WHERE d.id = e.dept_id) FROM pgd.emp e ORDER BY id;
SELECT count(DISTINCT dept_id), count(DISTINCT mgr_id) FROM pgd.emp;
SELECT count(DISTINCT (dept_id, mgr_id)) FROM pgd.emp;
SELECT count(DISTINCT name), count(name), string_agg(DISTINCT name, ',' ORDER BY name) FROM pgd.emp;
SELECT dept_id, count(*) FROM pgd.emp GROUP BY dept_id HAVING dept_id IS NULL;
SELECT max(dept_id) IS NULL FROM pgd.emp WHERE dept_id IS NULL;
-- outer joins with conditions in odd places
SELECT e.id, d.id FROM pgd.emp e LEFT JOIN pgd.dept d ON e.id > 6 ORDER BY e.id, d.id NULLS FIRST;
SELECT e.id, d.id FROM pgd.emp e LEFT JOIN pgd.dept d ON d.id = 1 AND e.dept_id = 1 ORDER BY e.id;
SELECT e.id, d.id FROM pgd.emp e RIGHT JOIN pgd.dept d ON e.dept_id = d.id AND e.active WHERE d.id IS NOT NULL ORDER BY d.id, e.id;
SELECT e.id, d.id FROM pgd.emp e FULL JOIN pgd.dept d ON e.dept_id = d.id AND e.salary > 4500 ORDER BY e.id NULLS FIRST, d.id NULLS FIRST;
SELECT e.id, coalesce(s.total, 0) FROM pgd.emp e LEFT JOIN (SELECT emp_id, sum(amount) AS total FROM pgd.sales GROUP BY emp_id) s ON s.emp_id = e.id ORDER BY e.id;
SELECT e.id, s.n FROM pgd.emp e LEFT JOIN (SELECT emp_id, count(*) AS n FROM pgd.sales GROUP BY emp_id) s ON s.emp_id = e.id ORDER BY e.id;
SELECT id, dept_id FROM pgd.emp FULL JOIN pgd.dept USING (id) ORDER BY id;
SELECT * FROM pgd.emp e1 JOIN pgd.emp e2 USING (dept_id, salary) ORDER BY 1, 2, e1.id, e2.id;
SELECT count(*) FROM pgd.emp e LEFT JOIN pgd.sales s ON s.emp_id = e.id LEFT JOIN pgd.dept d ON d.id = e.dept_id WHERE s.id IS NULL;
SELECT d.name, e.name FROM pgd.dept d LEFT JOIN pgd.emp e ON e.dept_id = d.id AND e.name <> '' WHERE d.region <> 'south' ORDER BY d.name, e.name;
-- nested and repeated subqueries
SELECT id FROM pgd.emp e WHERE EXISTS (SELECT 1 FROM pgd.sales s WHERE s.emp_id = e.id AND EXISTS (SELECT 1 FROM pgd.dept d WHERE d.id = e.dept_id AND d.region = s.region)) ORDER BY id;
SELECT id FROM pgd.emp e WHERE salary > (SELECT avg(salary) FROM pgd.emp x WHERE x.dept_id IN (SELECT id FROM pgd.dept WHERE region = 'north')) ORDER BY id;
SELECT d.id, (SELECT max(s.amount) FROM pgd.sales s WHERE s.emp_id IN (SELECT e.id FROM pgd.emp e WHERE e.dept_id = d.id)) FROM pgd.dept d ORDER BY d.id;
SELECT id, CASE WHEN EXISTS (SELECT 1 FROM pgd.sales WHERE emp_id = e.id) THEN 'seller' ELSE 'none' END FROM pgd.emp e ORDER BY id;
SELECT id FROM pgd.emp e ORDER BY (SELECT count(*) FROM pgd.sales s WHERE s.emp_id = e.id) DESC, id;
SELECT dept_id, count(*) FROM pgd.emp e GROUP BY dept_id HAVING count(*) > (SELECT count(*) FROM pgd.dept d WHERE d.id = e.dept_id) ORDER BY 1;
SELECT id FROM pgd.emp WHERE id IN (SELECT emp_id FROM pgd.sales ORDER BY amount DESC NULLS LAST LIMIT 2) ORDER BY id;
SELECT (SELECT (SELECT max(id) FROM pgd.dept)) AS x;
SELECT id, (SELECT name FROM pgd.dept d WHERE d.id = e.dept_id) || '/' || coalesce(name, '?') FROM pgd.emp e ORDER BY id;
WITH t AS (SELECT dept_id, avg(salary) AS a FROM pgd.emp GROUP BY dept_id) SELECT e.id FROM pgd.emp e JOIN t ON t.dept_id = e.dept_id WHERE e.salary > t.a ORDER BY e.id;
WITH t AS (SELECT * FROM pgd.nums) SELECT a.k, count(*) FROM t a JOIN t b ON a.k = b.k GROUP BY a.k ORDER BY a.k;
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT sum(n) FROM r;
-- windows corners
SELECT id, row_number() OVER w FROM pgd.emp WHERE false WINDOW w AS (ORDER BY id);
SELECT id, sum(salary) OVER (PARTITION BY dept_id ORDER BY hired NULLS LAST, id ROWS UNBOUNDED PRECEDING) FROM pgd.emp ORDER BY id;
SELECT id, lag(bonus, 1, 0) OVER (ORDER BY id), lead(salary, 1, 0) OVER (ORDER BY id) FROM pgd.emp ORDER BY id;
SELECT id, avg(v) OVER (ORDER BY s ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM (SELECT row_number() OVER (ORDER BY s, v) AS id, v, s FROM pgd.nums) t ORDER BY id;
SELECT k, count(v) OVER (PARTITION BY k), count(*) OVER (PARTITION BY k ORDER BY v NULLS FIRST) FROM pgd.nums ORDER BY k, v NULLS FIRST, s;
SELECT id, rank() OVER (ORDER BY active NULLS FIRST), dense_rank() OVER (ORDER BY dept_id DESC) FROM pgd.emp ORDER BY id;
SELECT dept_id, id, sum(salary) OVER (PARTITION BY dept_id ORDER BY salary RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM pgd.emp ORDER BY id;
SELECT id, first_value(id) OVER (ORDER BY salary RANGE BETWEEN 1000 PRECEDING AND 1000 FOLLOWING), last_value(id) OVER (ORDER BY salary, id ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM pgd.emp ORDER BY id;
SELECT id, nth_value(id, 2) OVER (PARTITION BY dept_id ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM pgd.emp ORDER BY id;
SELECT id, sum(id) OVER (ORDER BY salary GROUPS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) FROM pgd.emp ORDER BY id;
SELECT id, count(*) OVER (ORDER BY salary ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP) FROM pgd.emp ORDER BY id;
SELECT id, sum(id) OVER (ORDER BY salary, id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE TIES) FROM pgd.emp ORDER BY id;
SELECT id, min(salary) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 1 FOLLOWING), max(salary) OVER (ORDER BY id ROWS BETWEEN 5 PRECEDING AND 3 PRECEDING) FROM pgd.emp ORDER BY id;
SELECT id, percent_rank() OVER (PARTITION BY dept_id ORDER BY salary), cume_dist() OVER (PARTITION BY dept_id ORDER BY salary) FROM pgd.emp ORDER BY id;
SELECT id, ntile(10) OVER (ORDER BY id), ntile(1) OVER () FROM pgd.emp ORDER BY id;
SELECT id, sum(amount) OVER (ORDER BY sold_at NULLS FIRST RANGE UNBOUNDED PRECEDING) FROM pgd.sales ORDER BY id;
SELECT id, array_agg(id) OVER (ORDER BY id ROWS 1 PRECEDING) FROM pgd.emp ORDER BY id;
SELECT id, sum(salary) OVER (ORDER BY id ROWS BETWEEN -1 PRECEDING AND CURRENT ROW) FROM pgd.emp;
SELECT id, ntile(0) OVER (ORDER BY id) FROM pgd.emp;
SELECT id, nth_value(id, 0) OVER (ORDER BY id) FROM pgd.emp;
-- DISTINCT with expressions and ORDER BY
SELECT DISTINCT dept_id % 2 AS parity FROM pgd.emp ORDER BY parity NULLS FIRST;
SELECT DISTINCT salary > 4000 AS rich, active FROM pgd.emp ORDER BY 1, 2;
SELECT DISTINCT lower(region) FROM pgd.sales ORDER BY 1;
SELECT DISTINCT ON (region) region, id FROM pgd.sales ORDER BY region, id DESC;
SELECT DISTINCT ON (k) k, v, s FROM pgd.nums ORDER BY k NULLS FIRST, s DESC, v;
SELECT count(DISTINCT k) FILTER (WHERE v > 1), sum(DISTINCT v) FILTER (WHERE k = 2) FROM pgd.nums;
