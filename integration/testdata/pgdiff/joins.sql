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
-- inner joins: NULL keys never match
SELECT e.id, e.name, d.name AS dept FROM pgd.emp e JOIN pgd.dept d ON e.dept_id = d.id;
SELECT e.id, d.id FROM pgd.emp e INNER JOIN pgd.dept d ON e.dept_id = d.id AND d.region = 'north';
SELECT count(*) FROM pgd.emp e JOIN pgd.dept d ON e.dept_id = d.id;
SELECT d.name, count(*) FROM pgd.emp e JOIN pgd.dept d ON e.dept_id = d.id GROUP BY d.name ORDER BY d.name;
SELECT e.id, s.id FROM pgd.emp e JOIN pgd.sales s ON s.emp_id = e.id ORDER BY e.id, s.id;
SELECT e.id, s.id FROM pgd.emp e JOIN pgd.sales s ON s.emp_id = e.id AND s.amount > 50 ORDER BY s.id;
SELECT a.id, b.id FROM pgd.emp a JOIN pgd.emp b ON a.salary = b.salary AND a.id < b.id ORDER BY 1, 2;
SELECT a.id, b.id FROM pgd.emp a JOIN pgd.emp b ON a.salary > b.salary WHERE b.id = 4 ORDER BY a.id;
SELECT e.name, m.name AS mgr FROM pgd.emp e JOIN pgd.emp m ON e.mgr_id = m.id;
SELECT e.id FROM pgd.emp e JOIN pgd.dept d ON e.dept_id = d.id WHERE d.region IS NULL;
-- left joins
SELECT e.id, d.name FROM pgd.emp e LEFT JOIN pgd.dept d ON e.dept_id = d.id ORDER BY e.id;
SELECT d.id, d.name, e.id FROM pgd.dept d LEFT JOIN pgd.emp e ON e.dept_id = d.id ORDER BY d.name, e.id;
SELECT d.name, count(e.id) FROM pgd.dept d LEFT JOIN pgd.emp e ON e.dept_id = d.id GROUP BY d.name ORDER BY d.name;
SELECT d.name, count(*) FROM pgd.dept d LEFT JOIN pgd.emp e ON e.dept_id = d.id GROUP BY d.name ORDER BY d.name;
-- WHERE on the inner side of an outer join turns it inner
SELECT e.id, d.name FROM pgd.emp e LEFT JOIN pgd.dept d ON e.dept_id = d.id WHERE d.region = 'north';
SELECT e.id FROM pgd.emp e LEFT JOIN pgd.dept d ON e.dept_id = d.id WHERE d.id IS NULL;
SELECT e.id, d.name FROM pgd.emp e LEFT JOIN pgd.dept d ON e.dept_id = d.id AND d.region = 'north' ORDER BY e.id;
SELECT e.id, d.region FROM pgd.emp e LEFT JOIN pgd.dept d ON e.dept_id = d.id WHERE d.region IS NULL ORDER BY e.id;
SELECT e.id, d.name FROM pgd.emp e LEFT JOIN pgd.dept d ON e.dept_id = d.id AND e.salary > 4000 ORDER BY e.id;
SELECT e.id, coalesce(d.name, '(none)') FROM pgd.emp e LEFT JOIN pgd.dept d ON d.id = e.dept_id ORDER BY e.id;
SELECT e.id, d.name FROM pgd.emp e LEFT JOIN pgd.dept d ON true WHERE e.id = 1 ORDER BY d.name;
SELECT e.id, d.name FROM pgd.emp e LEFT JOIN pgd.dept d ON false WHERE e.id < 3 ORDER BY e.id;
-- right and full joins
SELECT e.id, d.id, d.name FROM pgd.emp e RIGHT JOIN pgd.dept d ON e.dept_id = d.id;
SELECT d.name FROM pgd.emp e RIGHT JOIN pgd.dept d ON e.dept_id = d.id WHERE e.id IS NULL ORDER BY d.name;
SELECT e.id, d.id FROM pgd.emp e FULL JOIN pgd.dept d ON e.dept_id = d.id;
SELECT e.id, d.id FROM pgd.emp e FULL OUTER JOIN pgd.dept d ON e.dept_id = d.id WHERE e.id IS NULL OR d.id IS NULL;
SELECT count(*), count(e.id), count(d.id) FROM pgd.emp e FULL JOIN pgd.dept d ON e.dept_id = d.id;
SELECT coalesce(e.dept_id, d.id) AS k, e.name, d.name FROM pgd.emp e FULL JOIN pgd.dept d ON e.dept_id = d.id AND d.region = 'north';
-- cross and comma joins
SELECT count(*) FROM pgd.emp CROSS JOIN pgd.dept;
SELECT e.id, d.id FROM pgd.emp e CROSS JOIN pgd.dept d WHERE e.id = 1 AND d.id IS NOT NULL ORDER BY d.id;
SELECT e.id, d.name FROM pgd.emp e, pgd.dept d WHERE e.dept_id = d.id AND e.salary >= 4000;
SELECT e.id, d.name, s.id FROM pgd.emp e, pgd.dept d, pgd.sales s WHERE e.dept_id = d.id AND s.emp_id = e.id ORDER BY s.id;
SELECT count(*) FROM pgd.emp a, pgd.emp b;
-- USING and NATURAL
SELECT * FROM (SELECT id, name FROM pgd.emp) a JOIN (SELECT id, region FROM pgd.dept) b USING (id) ORDER BY id;
SELECT id, a.name FROM (SELECT id, name FROM pgd.emp) a LEFT JOIN (SELECT id, region FROM pgd.dept) b USING (id) ORDER BY id;
SELECT id FROM (SELECT id FROM pgd.emp WHERE id < 3) a FULL JOIN (SELECT id FROM pgd.dept) b USING (id);
SELECT * FROM (SELECT id, name FROM pgd.emp) a NATURAL JOIN (SELECT id, name FROM pgd.dept) b;
SELECT * FROM (SELECT dept_id AS id, name AS ename FROM pgd.emp) a NATURAL JOIN pgd.dept ORDER BY ename, id;
SELECT * FROM (SELECT id FROM pgd.emp WHERE id <= 2) a NATURAL LEFT JOIN (SELECT id, region FROM pgd.dept) b ORDER BY id;
-- multi-way and nested joins
SELECT e.id, d.name, s.amount FROM pgd.emp e LEFT JOIN pgd.dept d ON e.dept_id = d.id LEFT JOIN pgd.sales s ON s.emp_id = e.id ORDER BY e.id, s.amount NULLS FIRST;
SELECT d.name, sum(s.amount) FROM pgd.dept d JOIN pgd.emp e ON e.dept_id = d.id JOIN pgd.sales s ON s.emp_id = e.id GROUP BY d.name ORDER BY d.name;
SELECT e.id, x.id FROM pgd.emp e LEFT JOIN (pgd.sales s JOIN pgd.dept x ON x.region = s.region) ON s.emp_id = e.id ORDER BY 1, 2;
SELECT s.id, e.id FROM pgd.sales s LEFT JOIN pgd.emp e ON s.emp_id = e.id WHERE e.id IS NULL ORDER BY s.id;
SELECT s.region, d.region FROM pgd.sales s JOIN pgd.dept d ON s.region = d.region;
SELECT s.region, d.name FROM pgd.sales s LEFT JOIN pgd.dept d ON s.region = d.region ORDER BY s.id, d.name;
-- join on expressions and mixed types
SELECT s.id, n.k FROM pgd.sales s JOIN pgd.nums n ON s.id = n.s ORDER BY s.id, n.k;
SELECT e.id, n.v FROM pgd.emp e JOIN pgd.nums n ON e.id = n.v + 1 ORDER BY 1, 2;
SELECT e.id, s.id FROM pgd.emp e JOIN pgd.sales s ON e.salary / 50 = s.amount ORDER BY 1, 2;
SELECT e.id, s.id FROM pgd.emp e JOIN pgd.sales s ON s.emp_id = e.id OR s.emp_id IS NULL ORDER BY 1, 2;
SELECT e.id, s.id FROM pgd.emp e JOIN pgd.sales s ON s.emp_id IS NOT DISTINCT FROM e.mgr_id ORDER BY 1, 2;
SELECT a.k, b.k FROM pgd.nums a JOIN pgd.nums b ON a.k = b.k AND a.v < b.v ORDER BY 1, 2;
