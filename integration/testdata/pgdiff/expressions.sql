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
-- numeric arithmetic: scales, rounding, division
SELECT id, salary * 2, salary / 3, salary + 0.005, salary - 10000 FROM pgd.emp ORDER BY id;
SELECT id, salary * 1.1 AS raised, round(salary * 1.1, 1) AS r1, trunc(salary / 7, 3) AS t3 FROM pgd.emp ORDER BY id;
SELECT amount / qty FROM pgd.sales WHERE qty <> 0 ORDER BY id;
SELECT amount / qty FROM pgd.sales;
SELECT id, amount % 7, -amount, abs(amount) FROM pgd.sales ORDER BY id;
SELECT 1.0 / 3, 2.0 / 3 * 3, 10 / 4, 10 % 4, -7 / 2, -7 % 2;
SELECT 7 / 0;
SELECT 7.5 / 0;
SELECT 2147483647 + 1;
SELECT 2147483647::bigint + 1, 9223372036854775807 - 1;
SELECT round(2.5), round(-2.5), round(2.5::double precision), round(1234.5678, 2), round(1234.5678, -2);
SELECT ceil(-1.5), floor(-1.5), ceil(1.2::double precision), floor(amount) FROM pgd.sales WHERE id = 2;
SELECT power(2, 10), sqrt(2::numeric), sqrt(16::double precision);
SELECT exp(1::double precision), ln(10::double precision), log(100::numeric);
SELECT mod(17, 5), mod(-17, 5);
SELECT sign(-3.5), sign(0), abs(-7);
SELECT id, bonus * 2, bonus / 3, bonus + salary FROM pgd.emp ORDER BY id;
SELECT id, price * 2, price + 0.1, price::double precision FROM pgd.sales ORDER BY id;
SELECT 0.1::double precision + 0.2, 1e20::double precision, 1.5e-7::double precision, 'NaN'::double precision, '-Infinity'::double precision;
SELECT 0.1::real + 0.2::real, 1.0::real / 3;
SELECT 3.4e38::real;
SELECT 123.456::numeric(6,2), 0.005::numeric(4,2), -0.005::numeric(4,2), 99.995::numeric(5,2);
SELECT 1e-5::numeric, 100::numeric / 7, 1::numeric / 3 * 3;
SELECT cast(salary AS int), cast(salary AS bigint), cast(salary AS double precision), salary::text FROM pgd.emp ORDER BY id;
SELECT '42'::int + 1, '3.14'::numeric * 2, ' 7 '::int, '-0'::numeric;
SELECT 'abc'::int;
SELECT greatest(1, 5, 3), least(1, 5, NULL), greatest(salary, 4500) FROM pgd.emp ORDER BY id;
SELECT v * s, v + x, s / nullif(v, 0) FROM pgd.nums ORDER BY s, v;
-- CASE, COALESCE, NULLIF, boolean logic with NULL
SELECT id, CASE WHEN salary > 4500 THEN 'high' WHEN salary > 0 THEN 'mid' ELSE 'low' END FROM pgd.emp ORDER BY id;
SELECT id, CASE dept_id WHEN 1 THEN 'eng' WHEN 2 THEN 'sales' END FROM pgd.emp ORDER BY id;
SELECT id, CASE WHEN active THEN 1 WHEN NOT active THEN 0 END, CASE WHEN bonus IS NULL THEN salary ELSE salary + bonus::numeric END FROM pgd.emp ORDER BY id;
SELECT id, coalesce(name, 'anon'), coalesce(bonus, 0), coalesce(dept_id, mgr_id, -1) FROM pgd.emp ORDER BY id;
SELECT id, nullif(name, ''), nullif(salary, 4000.00) FROM pgd.emp ORDER BY id;
SELECT id, active AND salary > 4000, active OR salary > 4000, NOT active FROM pgd.emp ORDER BY id;
SELECT id, active IS TRUE, active IS NOT FALSE, active IS UNKNOWN FROM pgd.emp ORDER BY id;
SELECT NULL::boolean AND false, NULL::boolean OR true, NULL::int = NULL, NULL IS NULL;
SELECT id, dept_id IS DISTINCT FROM 1, dept_id IS NOT DISTINCT FROM NULL FROM pgd.emp ORDER BY id;
SELECT id FROM pgd.emp WHERE salary BETWEEN 3500.50 AND 4000 ORDER BY id;
SELECT id FROM pgd.emp WHERE salary NOT BETWEEN 0 AND 4000 ORDER BY id;
SELECT id FROM pgd.emp WHERE dept_id IN (1, 3) OR mgr_id IS NULL ORDER BY id;
SELECT id FROM pgd.emp WHERE name = '' OR name IS NULL ORDER BY id;
-- strings, one function a query
SELECT id, name || '-' || dept_id AS joined FROM pgd.emp ORDER BY id;
SELECT id, concat(name, '-', dept_id) FROM pgd.emp ORDER BY id;
SELECT id, concat_ws('/', name, dept_id, mgr_id) FROM pgd.emp ORDER BY id;
SELECT id, length(name), char_length(name), octet_length(name) FROM pgd.emp ORDER BY id;
SELECT id, upper(name), lower(name) FROM pgd.emp ORDER BY id;
SELECT initcap('hello wORLD foo-bar');
SELECT id, substr(name, 2), substr(name, 1, 2) FROM pgd.emp ORDER BY id;
SELECT id, substring(name FROM 1 FOR 2), substring(name FROM 2) FROM pgd.emp ORDER BY id;
SELECT id, left(name, 1), left(name, -1) FROM pgd.emp ORDER BY id;
SELECT id, right(name, 2), right(name, -2) FROM pgd.emp ORDER BY id;
SELECT id, position('n' IN name) FROM pgd.emp ORDER BY id;
SELECT id, strpos(name, 'e') FROM pgd.emp ORDER BY id;
SELECT id, replace(name, 'n', 'N') FROM pgd.emp ORDER BY id;
SELECT id, reverse(name) FROM pgd.emp ORDER BY id;
SELECT id, lpad(name, 5, '*'), lpad(name, 2) FROM pgd.emp ORDER BY id;
SELECT id, rpad(name, 5), rpad(name, 4, 'xy') FROM pgd.emp ORDER BY id;
SELECT id, repeat(name, 2) FROM pgd.emp ORDER BY id;
SELECT btrim('  x  '), trim('  y '), ltrim('xxay', 'x'), rtrim('ayxx', 'x'), trim(both 'x' FROM 'xxaxx');
SELECT id, name LIKE 'A%', name NOT LIKE '%e%', name LIKE '' FROM pgd.emp ORDER BY id;
SELECT id, name ILIKE 'a%' FROM pgd.emp ORDER BY id;
SELECT id FROM pgd.emp WHERE name LIKE '_o_' ORDER BY id;
SELECT id FROM pgd.emp WHERE name ~ '^[CD]' ORDER BY id;
SELECT id, split_part(region, 'o', 1) FROM pgd.sales ORDER BY id;
SELECT id, md5(region) FROM pgd.sales ORDER BY id;
SELECT id, starts_with(region, 'n') FROM pgd.sales ORDER BY id;
SELECT id, regexp_replace(region, '[aeiou]', '#', 'g') FROM pgd.sales ORDER BY id;
SELECT id, translate(region, 'nrt', 'NRT') FROM pgd.sales ORDER BY id;
SELECT 'a' < 'B', 'a' < 'b', 'Z' < 'a', '' < 'a', 'abc' > 'ab';
SELECT id, name FROM pgd.emp ORDER BY name COLLATE "C" NULLS FIRST, id;
SELECT chr(65), ascii('a');
SELECT to_hex(255), to_hex(-1);
SELECT format('%s-%s', 'a', 3);
SELECT quote_literal('it''s'), quote_ident('Ab');
-- dates and timestamps, one operation a query
SELECT id, hired + 30 FROM pgd.emp ORDER BY id;
SELECT id, hired - date '2020-01-01' FROM pgd.emp ORDER BY id;
SELECT id, hired + interval '1 month' FROM pgd.emp ORDER BY id;
SELECT id, extract(year FROM hired), extract(month FROM hired), extract(dow FROM hired) FROM pgd.emp ORDER BY id;
SELECT id, date_part('day', hired) FROM pgd.emp ORDER BY id;
SELECT id, date_trunc('month', sold_at), date_trunc('year', sold_at) FROM pgd.sales ORDER BY id;
SELECT id, date_trunc('hour', paid_at) FROM pgd.sales ORDER BY id;
SELECT id, sold_at + interval '1 day 2 hours' FROM pgd.sales ORDER BY id;
SELECT id, paid_at - interval '30 minutes' FROM pgd.sales ORDER BY id;
SELECT id, sold_at::date FROM pgd.sales ORDER BY id;
SELECT id, paid_at - sold_at::timestamptz FROM pgd.sales ORDER BY id;
SELECT id, age(sold_at, timestamp '2024-01-01') FROM pgd.sales ORDER BY id;
SELECT id, extract(epoch FROM paid_at) FROM pgd.sales ORDER BY id;
SELECT id, extract(hour FROM sold_at), extract(quarter FROM sold_at) FROM pgd.sales ORDER BY id;
SELECT sales.id, to_char(sold_at, 'YYYY-MM-DD HH24:MI') FROM pgd.sales ORDER BY sales.id;
SELECT id, to_char(hired, 'Mon DD YYYY') FROM pgd.emp ORDER BY id;
SELECT date '2024-02-29' + 365;
SELECT date '2024-03-31' - interval '1 month', timestamp '2024-01-31 10:00' + interval '1 month';
SELECT make_date(2024, 2, 29);
SELECT date '2024-12-31' - date '2024-01-01';
SELECT to_date('2024-05-06', 'YYYY-MM-DD');
SELECT sales.id, sold_at < paid_at, sold_at = paid_at, hired < sold_at FROM pgd.sales JOIN pgd.emp ON emp.id = sales.emp_id ORDER BY sales.id;
SELECT timestamptz '2024-06-01 12:00:00+02', '2024-01-01'::timestamp::date;
SELECT timestamp '2024-06-01 12:00:00' AT TIME ZONE 'UTC';
SELECT id FROM pgd.sales WHERE sold_at >= '2024-02-01' AND sold_at < '2024-04-01' ORDER BY id;
SELECT id FROM pgd.emp WHERE hired BETWEEN '2020-01-01' AND '2021-12-31' ORDER BY id;
-- casts and text forms of every type
SELECT id::text, salary::text, hired::text, active::text, bonus::text FROM pgd.emp ORDER BY id;
SELECT sold_at::text, paid_at::text, price::text, amount::text FROM pgd.sales ORDER BY id;
SELECT 'true'::boolean, 'f'::boolean, 'yes'::boolean, 1::boolean, 0::boolean;
SELECT '2024-01-02'::date, '2024-01-02 03:04:05.123456'::timestamp, '2024-01-02 03:04:05.5+05:30'::timestamptz;
SELECT 12345678901234567890::numeric, -0.000001::numeric, 1.10::numeric(5,3), 5::numeric(10,2);

SELECT id, sold_at AT TIME ZONE 'America/New_York', sold_at AT TIME ZONE '+05', paid_at AT TIME ZONE 'Asia/Kolkata' FROM pgd.sales ORDER BY id;
-- bytea concatenation
SELECT '\x0102'::bytea || '\xff'::bytea AS b;
SELECT '\x01'::bytea || NULL::bytea IS NULL AS n;
SELECT length('\x0102'::bytea || '\x0304'::bytea) AS len;
SELECT name, name::bytea || '\x00'::bytea AS z FROM pgd.dept ORDER BY id NULLS LAST;
