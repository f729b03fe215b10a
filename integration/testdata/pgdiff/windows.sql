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
-- ranking, with ties
SELECT id, salary, row_number() OVER (ORDER BY salary DESC, id) AS rn FROM pgd.emp ORDER BY id;
SELECT id, salary, rank() OVER (ORDER BY salary DESC) AS r FROM pgd.emp ORDER BY id;
SELECT id, salary, dense_rank() OVER (ORDER BY salary DESC) AS r FROM pgd.emp ORDER BY id;
SELECT id, dept_id, rank() OVER (PARTITION BY dept_id ORDER BY salary) AS r FROM pgd.emp ORDER BY id;
SELECT id, percent_rank() OVER (ORDER BY salary) AS pr, cume_dist() OVER (ORDER BY salary) AS cd FROM pgd.emp ORDER BY id;
SELECT id, ntile(3) OVER (ORDER BY id) AS t FROM pgd.emp ORDER BY id;
SELECT id, ntile(3) OVER (PARTITION BY dept_id ORDER BY id) AS t FROM pgd.emp ORDER BY id;
SELECT id, rank() OVER (ORDER BY hired NULLS FIRST) AS r FROM pgd.emp ORDER BY id;
SELECT id, rank() OVER (ORDER BY name DESC) AS r FROM pgd.emp ORDER BY id;
SELECT id, row_number() OVER () > 0 AS ok FROM pgd.emp ORDER BY id;
SELECT id, rank() OVER w, dense_rank() OVER w FROM pgd.emp WINDOW w AS (PARTITION BY active ORDER BY salary) ORDER BY id;
-- lag / lead
SELECT id, lag(salary) OVER (ORDER BY id) AS prev, lead(salary) OVER (ORDER BY id) AS next FROM pgd.emp ORDER BY id;
SELECT id, lag(id, 2) OVER (ORDER BY id) AS p2, lead(id, 3, -1) OVER (ORDER BY id) AS n3 FROM pgd.emp ORDER BY id;
SELECT id, lag(name, 1, 'none') OVER (PARTITION BY dept_id ORDER BY id) FROM pgd.emp ORDER BY id;
SELECT id, amount - lag(amount) OVER (ORDER BY id) AS delta FROM pgd.sales ORDER BY id;
SELECT id, lead(sold_at) OVER (PARTITION BY emp_id ORDER BY id) FROM pgd.sales ORDER BY id;
-- first / last / nth value
SELECT id, first_value(name) OVER (PARTITION BY dept_id ORDER BY id) FROM pgd.emp ORDER BY id;
SELECT id, last_value(id) OVER (PARTITION BY dept_id ORDER BY id) FROM pgd.emp ORDER BY id;
SELECT id, last_value(id) OVER (PARTITION BY dept_id ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM pgd.emp ORDER BY id;
SELECT id, nth_value(id, 2) OVER (ORDER BY id) FROM pgd.emp ORDER BY id;
SELECT id, nth_value(name, 3) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM pgd.emp ORDER BY id;
SELECT id, first_value(bonus) OVER (ORDER BY bonus NULLS FIRST, id) FROM pgd.emp ORDER BY id;
-- aggregates over windows, default frame (RANGE with peers)
SELECT id, sum(salary) OVER (ORDER BY salary) AS run FROM pgd.emp ORDER BY id;
SELECT id, sum(salary) OVER (ORDER BY salary, id) AS run FROM pgd.emp ORDER BY id;
SELECT id, count(*) OVER (PARTITION BY dept_id) AS n, count(bonus) OVER (PARTITION BY dept_id) AS nb FROM pgd.emp ORDER BY id;
SELECT id, avg(salary) OVER (PARTITION BY dept_id) AS a FROM pgd.emp ORDER BY id;
SELECT id, min(name) OVER (ORDER BY id), max(name) OVER (ORDER BY id) FROM pgd.emp ORDER BY id;
SELECT id, sum(amount) OVER () AS total, amount * 100 / sum(amount) OVER () AS pct FROM pgd.sales ORDER BY id;
SELECT k, v, sum(v) OVER (PARTITION BY k ORDER BY v) FROM pgd.nums ORDER BY k, v, s;
SELECT k, v, sum(x) OVER (PARTITION BY k) FROM pgd.nums ORDER BY k, v, s;
-- ROWS frames
SELECT id, sum(salary) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM pgd.emp ORDER BY id;
SELECT id, avg(amount) OVER (ORDER BY id ROWS 2 PRECEDING) FROM pgd.sales ORDER BY id;
SELECT id, count(*) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM pgd.emp ORDER BY id;
SELECT id, max(salary) OVER (ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING) FROM pgd.emp ORDER BY id;
SELECT id, sum(id) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING) FROM pgd.emp ORDER BY id;
SELECT id, string_agg(name, ',') OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM pgd.emp ORDER BY id;
-- RANGE frames with offsets
SELECT k, v, sum(s) OVER (ORDER BY v DESC RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) FROM pgd.nums ORDER BY s, v;
SELECT s, v, sum(v) OVER (ORDER BY v RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM pgd.nums ORDER BY s, v;
SELECT s, v, count(*) OVER (ORDER BY v RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM pgd.nums ORDER BY s, v;
SELECT id, count(*) OVER (ORDER BY salary RANGE BETWEEN 500 PRECEDING AND 500 FOLLOWING) FROM pgd.emp ORDER BY id;
SELECT id, count(*) OVER (ORDER BY hired RANGE BETWEEN INTERVAL '1 year' PRECEDING AND CURRENT ROW) FROM pgd.emp ORDER BY id;
SELECT id, sum(qty) OVER (ORDER BY sold_at RANGE BETWEEN INTERVAL '1 day' PRECEDING AND CURRENT ROW) FROM pgd.sales ORDER BY id;
SELECT d, count(*) OVER (ORDER BY d RANGE BETWEEN INTERVAL '1 year' PRECEDING AND CURRENT ROW), sum(x) OVER (ORDER BY d DESC RANGE BETWEEN INTERVAL '2 days' PRECEDING AND INTERVAL '1 day' FOLLOWING) FROM (VALUES (date '2020-01-01', 1), ('2020-01-02', 2), ('2020-01-04', 3), ('2021-01-01', 4), ('2021-01-03', 5), (NULL, 6)) v(d, x) ORDER BY d;
SELECT t, count(*) OVER (ORDER BY t RANGE BETWEEN '1 hour' PRECEDING AND '30 minutes' FOLLOWING) FROM (VALUES (timestamptz '2020-01-01 10:00+00'), ('2020-01-01 10:30+00'), ('2020-01-01 11:15+00'), ('2020-01-01 12:00+00')) v(t) ORDER BY t;
SELECT count(*) OVER (ORDER BY d RANGE BETWEEN INTERVAL '-1 day' PRECEDING AND CURRENT ROW) FROM (VALUES (date '2020-01-01')) v(d);
SELECT count(*) OVER (ORDER BY x RANGE BETWEEN INTERVAL '1 day' PRECEDING AND CURRENT ROW) FROM (VALUES (1)) v(x);
-- GROUPS frames and EXCLUDE
SELECT id, sum(id) OVER (ORDER BY salary GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM pgd.emp ORDER BY id;
SELECT id, count(*) OVER (ORDER BY salary GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM pgd.emp ORDER BY id;
SELECT id, sum(id) OVER (ORDER BY salary ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE CURRENT ROW) FROM pgd.emp ORDER BY id;
SELECT id, sum(id) OVER (ORDER BY salary RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE GROUP) FROM pgd.emp ORDER BY id;
SELECT id, sum(id) OVER (ORDER BY salary RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE TIES) FROM pgd.emp ORDER BY id;
SELECT id, count(*) OVER (ORDER BY salary GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE TIES) FROM pgd.emp ORDER BY id;
-- windows over grouped results, in expressions, and filtered
SELECT dept_id, sum(salary) AS total, rank() OVER (ORDER BY sum(salary) DESC) AS r FROM pgd.emp GROUP BY dept_id ORDER BY dept_id;
SELECT dept_id, count(*), sum(count(*)) OVER () AS all_rows FROM pgd.emp GROUP BY dept_id ORDER BY dept_id;
SELECT * FROM (SELECT id, dept_id, row_number() OVER (PARTITION BY dept_id ORDER BY salary DESC, id) AS rn FROM pgd.emp) t WHERE rn = 1 ORDER BY id;
SELECT id, salary - avg(salary) OVER (PARTITION BY dept_id) AS diff FROM pgd.emp ORDER BY id;
SELECT id, count(*) FILTER (WHERE active) OVER (ORDER BY id) FROM pgd.emp ORDER BY id;
SELECT DISTINCT dept_id, count(*) OVER (PARTITION BY dept_id) FROM pgd.emp ORDER BY dept_id;
SELECT id, row_number() OVER (ORDER BY id) FROM pgd.emp ORDER BY id DESC LIMIT 3;
SELECT emp_id, sum(amount) OVER (PARTITION BY emp_id ORDER BY sold_at, id) FROM pgd.sales ORDER BY id;
SELECT id, bool_and(active) OVER (ORDER BY id) FROM pgd.emp ORDER BY id;
SELECT s, x, avg(x) OVER (ORDER BY s, v ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM pgd.nums ORDER BY s, v;
