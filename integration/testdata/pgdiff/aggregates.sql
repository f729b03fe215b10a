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
-- empty inputs: one row of NULLs (count is 0)
SELECT count(*), count(id), sum(salary), avg(salary), min(name), max(hired) FROM pgd.emp WHERE false;
SELECT dept_id, count(*) FROM pgd.emp WHERE false GROUP BY dept_id;
SELECT bool_and(active), bool_or(active), string_agg(name, ','), array_agg(id) FROM pgd.emp WHERE false;
SELECT stddev(salary), variance(bonus) FROM pgd.emp WHERE false;
-- count, sum, avg, min, max with NULLs
SELECT count(*), count(name), count(dept_id), count(DISTINCT dept_id), count(DISTINCT salary) FROM pgd.emp;
SELECT sum(salary), avg(salary), min(salary), max(salary) FROM pgd.emp;
SELECT sum(qty), avg(qty), sum(id), avg(id) FROM pgd.sales;
SELECT sum(bonus), avg(bonus), min(bonus), max(bonus) FROM pgd.emp;
SELECT sum(price), avg(price), min(price), max(price) FROM pgd.sales;
SELECT sum(v), avg(v), sum(s), avg(s), sum(x), avg(x) FROM pgd.nums;
SELECT min(name), max(name), min(hired), max(hired), min(sold_at), max(paid_at) FROM pgd.emp, pgd.sales WHERE emp.id = sales.emp_id;
SELECT sum(DISTINCT salary), avg(DISTINCT salary), count(DISTINCT name) FROM pgd.emp;
SELECT min(active::int), max(active::int), bool_and(active), bool_or(active), every(active) FROM pgd.emp;
SELECT avg(amount), sum(amount) / count(amount) FROM pgd.sales;
SELECT avg(v::numeric) FROM pgd.nums;
-- GROUP BY: NULL forms one group
SELECT dept_id, count(*), sum(salary), avg(salary) FROM pgd.emp GROUP BY dept_id ORDER BY dept_id NULLS FIRST;
SELECT active, count(*) FROM pgd.emp GROUP BY active ORDER BY active;
SELECT region, sum(amount), count(*) FROM pgd.sales GROUP BY region ORDER BY region;
SELECT k, v, count(*) FROM pgd.nums GROUP BY k, v ORDER BY k, v;
SELECT dept_id, salary, count(*) FROM pgd.emp GROUP BY 1, 2 ORDER BY 1, 2;
SELECT dept_id IS NULL AS nodept, count(*) FROM pgd.emp GROUP BY dept_id IS NULL ORDER BY 1;
SELECT date_trunc('month', sold_at) AS m, sum(amount) FROM pgd.sales GROUP BY 1 ORDER BY 1;
SELECT extract(year FROM hired) AS y, count(*) FROM pgd.emp GROUP BY 1 ORDER BY 1;
SELECT length(name) AS l, count(*) FROM pgd.emp GROUP BY length(name) ORDER BY l;
SELECT emp_id, count(*) FROM pgd.sales GROUP BY emp_id HAVING count(*) > 1 ORDER BY emp_id;
SELECT dept_id FROM pgd.emp GROUP BY dept_id HAVING sum(salary) > 5000 ORDER BY dept_id;
SELECT dept_id, max(salary) FROM pgd.emp GROUP BY dept_id HAVING min(hired) < date '2020-01-01' ORDER BY 1;
SELECT count(*) FROM pgd.emp HAVING count(*) > 100;
SELECT count(*) FROM pgd.emp HAVING count(*) > 1;
SELECT 1 AS one FROM pgd.emp HAVING true;
SELECT sum(salary) FROM pgd.emp GROUP BY dept_id ORDER BY 1;
-- FILTER
SELECT count(*) FILTER (WHERE active), count(*) FILTER (WHERE NOT active), count(*) FILTER (WHERE active IS NULL) FROM pgd.emp;
SELECT dept_id, sum(salary) FILTER (WHERE salary > 3600), count(*) FILTER (WHERE false) FROM pgd.emp GROUP BY dept_id ORDER BY dept_id;
SELECT avg(amount) FILTER (WHERE region = 'north'), max(qty) FILTER (WHERE amount < 0) FROM pgd.sales;
-- string_agg and array_agg with ORDER BY
SELECT string_agg(name, ',' ORDER BY id) FROM pgd.emp;
SELECT string_agg(name, '; ' ORDER BY name DESC NULLS LAST, id) FROM pgd.emp;
SELECT dept_id, string_agg(name, '|' ORDER BY id) FROM pgd.emp GROUP BY dept_id ORDER BY dept_id;
SELECT string_agg(DISTINCT region, ',' ORDER BY region) FROM pgd.sales;
SELECT array_agg(id ORDER BY id) FROM pgd.emp;
SELECT array_agg(name ORDER BY id) FROM pgd.emp;
SELECT array_agg(salary ORDER BY salary DESC, id) FROM pgd.emp;
SELECT dept_id, array_agg(mgr_id ORDER BY id) FROM pgd.emp GROUP BY dept_id ORDER BY 1;
SELECT array_agg(DISTINCT dept_id ORDER BY dept_id) FROM pgd.emp;
SELECT array_agg(hired ORDER BY id) FROM pgd.emp WHERE id < 4;
SELECT array_agg(bonus ORDER BY id) FROM pgd.emp;
-- statistics
SELECT stddev(salary), stddev_pop(salary), variance(salary), var_pop(salary) FROM pgd.emp;
SELECT stddev_samp(bonus), var_samp(bonus) FROM pgd.emp WHERE bonus < 1000;
SELECT stddev(v), variance(v), stddev(s), var_pop(s) FROM pgd.nums;
SELECT k, stddev(x), variance(x) FROM pgd.nums GROUP BY k ORDER BY k;
SELECT stddev(salary), variance(salary) FROM pgd.emp WHERE id = 1;
-- ordered-set aggregates
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY salary) FROM pgd.emp;
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY salary) FROM pgd.emp;
SELECT percentile_cont(0.25) WITHIN GROUP (ORDER BY bonus), percentile_cont(0.9) WITHIN GROUP (ORDER BY bonus) FROM pgd.emp;
SELECT percentile_disc(0.75) WITHIN GROUP (ORDER BY hired) FROM pgd.emp;
SELECT dept_id, percentile_cont(0.5) WITHIN GROUP (ORDER BY salary) FROM pgd.emp GROUP BY dept_id ORDER BY 1;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY v) FROM pgd.nums WHERE false;
SELECT mode() WITHIN GROUP (ORDER BY salary) FROM pgd.emp;
SELECT mode() WITHIN GROUP (ORDER BY emp_id) FROM pgd.sales;
SELECT k, mode() WITHIN GROUP (ORDER BY v) FROM pgd.nums GROUP BY k ORDER BY k;
-- DISTINCT and DISTINCT ON
SELECT DISTINCT dept_id FROM pgd.emp;
SELECT DISTINCT salary FROM pgd.emp ORDER BY salary DESC;
SELECT DISTINCT name, active FROM pgd.emp ORDER BY name, active;
SELECT DISTINCT region FROM pgd.sales ORDER BY region NULLS FIRST;
SELECT DISTINCT ON (dept_id) dept_id, id, salary FROM pgd.emp ORDER BY dept_id, salary DESC, id;
SELECT DISTINCT ON (emp_id) emp_id, amount FROM pgd.sales ORDER BY emp_id, amount NULLS LAST, id;
SELECT count(*) FROM (SELECT DISTINCT k, v FROM pgd.nums) t;
