-- setup
CREATE SCHEMA ivs;
CREATE TABLE ivs.t (id int, d interval, ts timestamp, dt date);
INSERT INTO ivs.t VALUES
  (1, '1 day', '2020-01-01 10:00', '2020-01-31'),
  (2, '2 hours 3 minutes', '2020-02-29 00:00', '2020-02-29'),
  (3, '1 mon -2 days', '2021-12-31 23:59:59.5', '2021-01-01'),
  (4, NULL, NULL, NULL),
  (5, '30 days', '1999-01-01', '1999-12-31'),
  (6, '-1 year 2 mons 3 days 04:05:06.789', '2020-01-01', '2020-01-01'),
  (7, '720:00:00', '2020-01-01', '2020-01-01'),
  (8, '1 mon', '2020-01-31', '2020-01-31'),
  (9, '-00:00:00.000001', '2020-01-01', '2020-01-01');
CREATE TABLE ivs.c AS SELECT id, d * 2 AS d2, d FROM ivs.t WHERE id < 4;

-- queries
SELECT * FROM ivs.t ORDER BY id;
SELECT id, d FROM ivs.t ORDER BY d, id;
SELECT id, d FROM ivs.t ORDER BY d DESC NULLS LAST, id;
SELECT sum(d), avg(d), min(d), max(d), count(d) FROM ivs.t;
SELECT id % 2, sum(d), avg(d), min(d), max(d) FROM ivs.t GROUP BY id % 2 ORDER BY 1;
SELECT d, count(*) FROM ivs.t GROUP BY d ORDER BY d;
SELECT count(DISTINCT d) FROM ivs.t;
SELECT id FROM ivs.t WHERE d > '1 hour' ORDER BY id;
SELECT id FROM ivs.t WHERE d = interval '30 days' ORDER BY id;
SELECT id FROM ivs.t WHERE d BETWEEN '1 day' AND '1 mon' ORDER BY id;
SELECT id, ts + d, ts - d, dt + d, dt - d, d * 2, d / 3, -d FROM ivs.t ORDER BY id;
SELECT id, d::text, extract(epoch FROM d), date_part('day', d), justify_interval(d) FROM ivs.t ORDER BY id;
SELECT a.id, b.id FROM ivs.t a JOIN ivs.t b ON a.d = b.d AND a.id < b.id ORDER BY 1, 2;
SELECT * FROM ivs.c ORDER BY id;
SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'ivs.t'::regclass AND attnum > 0 ORDER BY attnum;
SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'ivs' AND table_name = 'c' ORDER BY ordinal_position;
SELECT pg_typeof(d) FROM ivs.t LIMIT 1;
INSERT INTO ivs.t (id, d) VALUES (10, 'nonsense');
INSERT INTO ivs.t (id, d) VALUES (10, 5);
-- known: interval columns with fields or a precision (interval day, interval(3)) are refused (0A000)
CREATE TABLE ivs.bad (d interval day);
