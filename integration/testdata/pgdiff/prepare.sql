-- setup
CREATE SCHEMA pgprep;
CREATE TABLE pgprep.p (id int, v text);
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
