SET TimeZone = 'UTC';
DROP TABLE IF EXISTS fx;
CREATE TABLE fx(ord int, a int4, b int4, t text, f float8, d numeric(10,2), l int8, p bool, dt date, ts timestamp, tz timestamptz, s int2, g float4);
INSERT INTO fx VALUES
 (1, 1, 3, 'abc', 1.5, 1.50, 10, true, '2024-02-29', '2024-02-29 13:45:30.5', '2024-02-29 13:45:30.5+00', 1, 1.5),
 (2, -2, 0, 'ÀbC', 'NaN', -2.25, -9223372036854775808, false, '1999-12-31', '1970-01-01 00:00', '1970-01-01 00:00+00', -32768, 3.25),
 (3, NULL, 5, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
 (4, 2147483647, 1, 'a%b', '-0', 99999999.99, 7, true, '0001-01-01 BC', '2000-01-01 23:59:59.999999', '2000-01-01 23:59:59.999999+00', 300, 1e30);
