-- WITH queries: one referenced more than once (or AS MATERIALIZED) is
-- computed once and shared by its references; the answers must be those
-- of PostgreSQL either way.
-- setup
CREATE SCHEMA ctes;
CREATE TABLE ctes.t (k int, v int, s text);
INSERT INTO ctes.t VALUES (1, 10, 'a'), (1, 20, 'b'), (2, 5, NULL), (2, NULL, 'c'), (3, 7, 'd'), (NULL, 1, 'e'), (3, 7, 'a');
CREATE TABLE ctes.u (k int, w numeric(8,2));
INSERT INTO ctes.u VALUES (1, 1.50), (2, 2.25), (2, 3.00), (4, NULL), (NULL, 9.99);
CREATE VIEW ctes.pairs AS WITH c AS (SELECT k, sum(v) AS sv FROM ctes.t GROUP BY k) SELECT a.k, a.sv, b.sv AS sv2 FROM c a JOIN c b ON a.k = b.k;
CREATE VIEW ctes.once AS WITH c AS (SELECT k, v FROM ctes.t) SELECT k, v FROM c WHERE v > 5;

-- queries
-- the shape of TPC-H Q15: a join and a scalar subquery over the same WITH query
WITH r AS (SELECT k, sum(v) AS total FROM ctes.t GROUP BY k) SELECT t.k, r.total FROM ctes.t JOIN r ON t.k = r.k WHERE r.total = (SELECT max(total) FROM r) ORDER BY 1, 2;
WITH r AS (SELECT k, sum(v) AS total FROM ctes.t GROUP BY k) SELECT k, total FROM r WHERE total = (SELECT max(total) FROM r) ORDER BY k;
-- a self-join of a WITH query
WITH c AS (SELECT k, v FROM ctes.t WHERE v IS NOT NULL) SELECT a.k, a.v, b.v FROM c a JOIN c b ON a.k = b.k AND a.v < b.v ORDER BY 1, 2, 3;
WITH c AS (SELECT k, v FROM ctes.t) SELECT a.k, a.v, b.k, b.v FROM c a, c b WHERE a.v = b.v + 3 ORDER BY 1, 2, 3, 4;
WITH c AS (SELECT k, sum(v) AS s FROM ctes.t GROUP BY k) SELECT a.k, a.s, b.s FROM c a LEFT JOIN c b ON a.k = b.k + 1 ORDER BY 1 NULLS FIRST;
WITH c AS (SELECT k, sum(v) AS s FROM ctes.t GROUP BY k) SELECT a.k, b.k FROM c a FULL JOIN c b ON a.k = b.k - 1 ORDER BY 1 NULLS FIRST, 2 NULLS FIRST;
-- references in subqueries: IN, EXISTS, NOT IN, scalar, correlated
WITH c AS (SELECT k FROM ctes.u) SELECT k, v FROM ctes.t WHERE k IN (SELECT k FROM c) AND EXISTS (SELECT 1 FROM c WHERE c.k = t.k) ORDER BY 1, 2;
WITH c AS (SELECT k FROM ctes.u WHERE k IS NOT NULL) SELECT k, v FROM ctes.t WHERE k NOT IN (SELECT k FROM c) AND (SELECT count(*) FROM c) > 1 ORDER BY 1, 2;
WITH c AS (SELECT k, w FROM ctes.u) SELECT t.k, t.v, (SELECT sum(w) FROM c WHERE c.k = t.k) AS sw, (SELECT count(*) FROM c) AS n FROM ctes.t ORDER BY 1, 2, 3;
WITH c AS (SELECT k, w FROM ctes.u) SELECT k, (SELECT max(w) FROM c) - w AS gap FROM c ORDER BY 1, 2;
WITH c AS (SELECT k, w FROM ctes.u) SELECT count(*) FROM ctes.t WHERE EXISTS (SELECT 1 FROM c WHERE c.k = t.k) OR t.v > (SELECT count(*) FROM c);
-- ORDER BY and LIMIT inside
WITH top AS (SELECT k, v FROM ctes.t ORDER BY v DESC NULLS LAST LIMIT 3) SELECT * FROM top UNION ALL SELECT * FROM top ORDER BY 1, 2;
WITH top AS (SELECT k, v FROM ctes.t ORDER BY v LIMIT 2 OFFSET 1) SELECT a.v, b.v FROM top a, top b ORDER BY 1, 2;
WITH c AS (SELECT s FROM ctes.t) SELECT s FROM c INTERSECT SELECT s FROM c ORDER BY 1;
WITH c AS (SELECT s FROM ctes.t) SELECT s FROM c EXCEPT ALL SELECT s FROM c WHERE s > 'b' ORDER BY 1;
-- MATERIALIZED and NOT MATERIALIZED
WITH c AS MATERIALIZED (SELECT k, v FROM ctes.t) SELECT * FROM c WHERE k = 1 ORDER BY v;
WITH c AS MATERIALIZED (SELECT k, v FROM ctes.t) SELECT count(*), sum(v) FROM c;
WITH c AS NOT MATERIALIZED (SELECT k, count(*) AS n FROM ctes.t GROUP BY k) SELECT a.k, a.n + b.n FROM c a, c b WHERE a.k = b.k ORDER BY 1;
WITH c AS NOT MATERIALIZED (SELECT k, v FROM ctes.t) SELECT * FROM c WHERE v > (SELECT avg(v) FROM c) ORDER BY 1, 2;
WITH a AS MATERIALIZED (SELECT k FROM ctes.u), b AS NOT MATERIALIZED (SELECT k FROM a) SELECT count(*) FROM b x JOIN b y ON x.k = y.k;
-- inside views
SELECT * FROM ctes.pairs ORDER BY k;
SELECT p.k, q.sv2 FROM ctes.pairs p JOIN ctes.pairs q ON p.k = q.k ORDER BY 1;
SELECT * FROM ctes.once ORDER BY 1, 2;
WITH o AS (SELECT * FROM ctes.once) SELECT a.k, b.v FROM o a JOIN o b ON a.k = b.k ORDER BY 1, 2;
-- a WITH query reading another, each referenced twice
WITH a AS (SELECT k, v FROM ctes.t), b AS (SELECT k, sum(v) AS s FROM a GROUP BY k) SELECT b.k, b.s, (SELECT count(*) FROM a) FROM b JOIN b b2 USING (k) ORDER BY 1;
WITH a AS (SELECT k, v FROM ctes.t), b AS (SELECT x.k, x.v FROM a x JOIN a y ON x.k = y.k AND x.v > y.v) SELECT * FROM b UNION ALL SELECT * FROM b ORDER BY 1, 2;
-- column aliases in the WITH item and at the reference
WITH c(x, y) AS (SELECT k, v FROM ctes.t) SELECT c1.x, c2.y FROM c c1 JOIN c c2 ON c1.x = c2.x ORDER BY 1, 2;
WITH c AS (SELECT k, v FROM ctes.t) SELECT q.a FROM c AS q(a) WHERE q.a > (SELECT min(k) FROM c) ORDER BY 1;
WITH c(x) AS (SELECT k, v FROM ctes.t) SELECT x, v FROM c WHERE x = (SELECT max(x) FROM c) ORDER BY 1, 2;
WITH c AS (SELECT k AS a, k AS b FROM ctes.t) SELECT * FROM c x, c y WHERE x.a = y.b ORDER BY 1, 2, 3, 4;
SELECT * FROM (WITH c AS (SELECT k FROM ctes.u) SELECT count(*) AS n FROM c, c c2) s;
-- types survive sharing
WITH c AS (SELECT w, w * 2 AS w2, s FROM ctes.u, ctes.t WHERE u.k = t.k) SELECT a.w, b.w2, a.s FROM c a JOIN c b ON a.w = b.w AND a.s = b.s ORDER BY 1, 2, 3;
WITH c AS (SELECT k, row_number() OVER (ORDER BY v NULLS FIRST, s) AS rn FROM ctes.t) SELECT a.rn, b.rn FROM c a JOIN c b ON a.rn = b.rn + 1 ORDER BY 1;
-- empty WITH query, one never referenced, a name hidden by an inner WITH
WITH c AS (SELECT k FROM ctes.t WHERE false) SELECT count(*), (SELECT count(*) FROM c) FROM c;
WITH c AS (SELECT 1 / 0 AS x) SELECT 1 AS one;
WITH c AS (SELECT 1 AS x) SELECT (WITH c AS (SELECT 2 AS x) SELECT x FROM c), c.x FROM c, c c2;
-- errors are still raised
WITH c AS (SELECT 1 / (k - k) AS x FROM ctes.t) SELECT * FROM c, c c2;
WITH c AS MATERIALIZED (SELECT 1 / (k - k) AS x FROM ctes.t) SELECT * FROM c;
-- recursive queries beside shared ones
WITH RECURSIVE base AS (SELECT k FROM ctes.t WHERE k IS NOT NULL), r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < (SELECT max(k) FROM base)) SELECT n, (SELECT count(*) FROM base WHERE base.k = r.n) FROM r ORDER BY n;
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 4) SELECT a.n, b.n FROM r a JOIN r b ON a.n = b.n + 1 ORDER BY 1;
-- a WITH query computed once gives every reference the same rows
WITH c AS (SELECT random() AS r) SELECT a.r = b.r FROM c a, c b;
