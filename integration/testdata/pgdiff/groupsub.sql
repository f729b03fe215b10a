-- Subqueries in the select list of a grouped query: IN / NOT IN / EXISTS /
-- scalar subqueries whose operands are group keys, and GROUP BY n of such
-- a target (the target is the group, not a second subquery).
-- setup
CREATE SCHEMA gsub;
CREATE TABLE gsub.t (g int, v int);
INSERT INTO gsub.t SELECT g, g * 7 % 5 FROM generate_series(1, 30) g;
INSERT INTO gsub.t VALUES (NULL, 1), (NULL, NULL), (4, NULL);
CREATE TABLE gsub.s (x int);
INSERT INTO gsub.s VALUES (1), (2), (NULL);
-- queries
SELECT (g % 3) IN (SELECT 1) AS b, count(*) FROM gsub.t GROUP BY 1 ORDER BY 1;
SELECT (g % 3) IN (SELECT x FROM gsub.s WHERE x IS NOT NULL) AS b FROM gsub.t GROUP BY g % 3 ORDER BY 1;
SELECT g % 3 AS k, (g % 3) IN (SELECT x FROM gsub.s) AS b, sum(v) FROM gsub.t GROUP BY g % 3 ORDER BY 1;
SELECT (g % 3) NOT IN (SELECT x FROM gsub.s) AS b, count(*) FROM gsub.t GROUP BY 1 ORDER BY 1;
SELECT (g % 4) NOT IN (SELECT x FROM gsub.s WHERE x IS NOT NULL) AS b, count(*), sum(v) FROM gsub.t GROUP BY 1 ORDER BY 1;
SELECT EXISTS (SELECT 1 FROM gsub.s WHERE x = t.g % 3) AS e, count(*) FROM gsub.t GROUP BY 1 ORDER BY 1;
SELECT (SELECT max(x) FROM gsub.s WHERE x <= t.g % 3) AS m, count(*) FROM gsub.t GROUP BY 1 ORDER BY 1;
SELECT v, (v IN (SELECT x FROM gsub.s)) AS b, count(*) FROM gsub.t GROUP BY v ORDER BY 1;
SELECT g % 3 AS k, count(*) FROM gsub.t GROUP BY 1 HAVING (g % 3) IN (SELECT x FROM gsub.s) ORDER BY 1;
-- not grouped: PostgreSQL's 42803
SELECT g IN (SELECT x FROM gsub.s) AS b FROM gsub.t GROUP BY g % 3;
-- a subquery inside a larger expression of the select list (CASE, coalesce)
SELECT v, CASE WHEN v IN (SELECT x FROM gsub.s) THEN 'in' ELSE 'out' END AS c, count(*) FROM gsub.t GROUP BY 1 ORDER BY 1;
SELECT v, coalesce((SELECT max(x) FROM gsub.s WHERE x <= v), -1) AS m FROM gsub.t GROUP BY v ORDER BY 1;
SELECT g % 3 AS k, coalesce((SELECT max(x) FROM gsub.s WHERE x = g % 3), 0) + count(*) AS n FROM gsub.t GROUP BY g % 3 ORDER BY 1;
