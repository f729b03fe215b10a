-- setup
CREATE SCHEMA pgprep;
CREATE TABLE pgprep.p (id int, v text);
CREATE TABLE pgprep.r (v varchar(5), c char(3), s smallint, j jsonb, n numeric(10,2), d date);
INSERT INTO pgprep.p VALUES (1, 'a'), (2, 'b');

-- queries
PREPARE pq (int) AS SELECT v FROM pgprep.p WHERE id = $1;
EXECUTE pq (2);
EXECUTE pq (3);
PREPARE pq AS SELECT 1;
EXECUTE nosuch;
EXECUTE pq;
PREPARE pins (int, text) AS INSERT INTO pgprep.p VALUES ($1, $2);
PREPARE ptyped (int8, text, date, numeric) AS SELECT $1, $2, $3, $4;
EXECUTE ptyped (1, 'x', '2024-02-29', 1.50);
SELECT name, statement, parameter_types::text, from_sql FROM pg_prepared_statements ORDER BY name;
SELECT count(*) FROM pg_prepared_statements WHERE prepare_time <= now();
DEALLOCATE pq;
DEALLOCATE PREPARE pins;
DEALLOCATE pq;
EXECUTE pq (1);
SELECT name FROM pg_prepared_statements ORDER BY name;
BEGIN;
PREPARE intx AS SELECT 2;
DEALLOCATE intx;
SELECT 1;
COMMIT;
DEALLOCATE ALL;
SELECT count(*) FROM pg_prepared_statements;
EXECUTE ptyped (1, 'x', '2024-02-29', 1.50);
DEALLOCATE ALL;
PREPARE pinfer AS SELECT typname FROM pg_type WHERE oid = $1 AND typname = $2 AND $3 = typnamespace;
PREPARE pinfer2 AS SELECT 1 FROM pgprep.r WHERE v = $1 AND c = $2 AND s = $3 AND j = $4 AND $5 < s AND n >= $6 AND d <> $7;
PREPARE pinfer3 AS SELECT 1 + $1::int, $2 || 'x', $3 IN (1, 2), attname FROM pg_attribute WHERE attrelid = $4 AND attnum > $5;
SELECT name, parameter_types::text FROM pg_prepared_statements ORDER BY name;
