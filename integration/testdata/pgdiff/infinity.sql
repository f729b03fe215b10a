-- setup
CREATE SCHEMA inf;
CREATE TABLE inf.t (id int, d date, ts timestamp, tz timestamptz);
INSERT INTO inf.t VALUES
  (1, 'infinity', '-infinity', 'infinity'),
  (2, '2020-01-01', '2020-01-01 10:00', '2020-01-01 10:00+00'),
  (3, '-infinity', 'infinity', '-infinity'),
  (4, NULL, NULL, NULL);

-- queries
SELECT * FROM inf.t ORDER BY id;
SELECT id FROM inf.t ORDER BY d, id;
SELECT id FROM inf.t ORDER BY ts DESC, id;
SELECT id, isfinite(d), isfinite(ts), isfinite(tz) FROM inf.t ORDER BY id;
SELECT id FROM inf.t WHERE d > '2000-01-01' ORDER BY id;
SELECT id FROM inf.t WHERE ts = 'infinity' ORDER BY id;
SELECT id FROM inf.t WHERE tz < now() ORDER BY id;
SELECT min(d), max(d), min(ts), max(ts), min(tz), max(tz) FROM inf.t;
SELECT id, d + 1, d - 7, ts + interval '1 day', tz - interval '1 month', d + interval '1 hour', d + time '10:00' FROM inf.t ORDER BY id;
SELECT id, d::timestamp, ts::date, tz::timestamp, d::timestamptz, d::text, ts::text FROM inf.t ORDER BY id;
SELECT id, date_trunc('day', ts), date_trunc('month', tz), ts AT TIME ZONE 'UTC', tz AT TIME ZONE 'Europe/Paris' FROM inf.t ORDER BY id;
SELECT d, count(*) FROM inf.t GROUP BY d ORDER BY d;
SELECT a.id, b.id FROM inf.t a JOIN inf.t b ON a.d = b.d ORDER BY 1, 2;
SELECT 'infinity'::date, '-infinity'::date, 'infinity'::timestamp, '-infinity'::timestamptz, date 'infinity', timestamp '-infinity';
SELECT isfinite(date '2020-01-01'), isfinite(now()), isfinite(interval '1 day'), isfinite(NULL::date);
SELECT isfinite('infinity');
SELECT '+infinity'::date;
SELECT 'infinity'::date - date '2020-01-01';
SELECT 'infinity'::timestamp - timestamp '2020-01-01';
SELECT greatest('infinity'::date, '2020-01-01'), least('-infinity'::timestamp, '2020-01-01');
-- known: EXTRACT / date_part of an infinite value (PostgreSQL: Infinity or NULL) is 0A000
SELECT extract(year FROM 'infinity'::timestamp);
-- known: to_char of an infinite value (PostgreSQL: NULL) is 0A000
SELECT to_char('infinity'::timestamp, 'YYYY');
