-- Correlated aggregate subqueries and grouped derived tables joined on
-- their keys: the aggregation runs only for the keys the outer rows look
-- up (translate/optimize_keys.go). NULL keys, empty groups, several keys,
-- keys of different types. item is much larger than part, pair and tag,
-- so the estimates choose the rewrite.
-- setup
CREATE SCHEMA keyp;
CREATE TABLE keyp.part (pk int, brand text, cat text, size int);
INSERT INTO keyp.part SELECT g, 'b' || (g % 5), CASE WHEN g % 3 = 0 THEN 'box' ELSE 'bag' END, g % 7 FROM generate_series(1, 40) g;
INSERT INTO keyp.part VALUES (NULL, 'b1', 'box', 1), (0, 'b1', 'box', 0), (1000, 'b1', 'box', 3), (3, 'b1', 'bag', 2);
CREATE TABLE keyp.item (k int, k2 bigint, tag text, qty int, price numeric(10,2), d date);
INSERT INTO keyp.item SELECT g % 45, g % 7, 't' || (g % 11), g % 13, g * 1.25, date '2024-01-01' + g % 60 FROM generate_series(1, 600) g;
INSERT INTO keyp.item VALUES (NULL, 1, 't1', 5, 1.00, date '2024-01-05'), (3, NULL, NULL, NULL, NULL, NULL), (NULL, NULL, NULL, 7, 2.00, date '2024-01-05');
CREATE TABLE keyp.pair (a int, b bigint, avail int);
INSERT INTO keyp.pair SELECT g % 41, g % 7, g * 3 FROM generate_series(1, 120) g;
INSERT INTO keyp.pair VALUES (NULL, 1, 5), (2, NULL, 7), (5, 5, 0);
CREATE TABLE keyp.tag (t text, label text);
INSERT INTO keyp.tag VALUES ('t1', 'one'), ('t2', 'two'), ('t3', NULL), (NULL, 'none'), ('zz', 'missing');

-- queries
-- the shape of TPC-H Q17: an aggregate per outer key in a condition
SELECT sum(i.price) FROM keyp.item i, keyp.part p WHERE p.pk = i.k AND p.brand = 'b1' AND i.qty < (SELECT 0.5 * avg(i2.qty) FROM keyp.item i2 WHERE i2.k = p.pk);
-- in the select list: empty groups (count is 0, sum NULL), a NULL outer key
SELECT p.pk, (SELECT count(*) FROM keyp.item i WHERE i.k = p.pk) AS n, (SELECT count(i.qty) FROM keyp.item i WHERE i.k = p.pk AND i.qty > 11) AS n12, (SELECT sum(i.qty) FROM keyp.item i WHERE i.k = p.pk AND i.qty > 11) AS s FROM keyp.part p WHERE p.brand = 'b1' ORDER BY p.pk NULLS FIRST, n;
SELECT p.pk FROM keyp.part p WHERE p.cat = 'box' AND (SELECT count(*) FROM keyp.item i WHERE i.k = p.pk) = 0 ORDER BY 1;
SELECT p.pk, (SELECT max(i.k2) FROM keyp.item i WHERE i.k = p.pk) AS m FROM keyp.part p WHERE p.pk IS NULL OR p.pk = 4 ORDER BY 1, 2;
SELECT p.pk, (SELECT max(i.k2) FROM keyp.item i WHERE i.k = p.pk) AS m FROM keyp.part p WHERE p.pk IS NULL OR p.pk = 3 ORDER BY 1, 2;
SELECT p.pk, (SELECT count(*) FROM keyp.item i WHERE i.k = p.pk AND i.qty > 100) AS n FROM keyp.part p WHERE p.size = 3 ORDER BY 1;
-- two keys
SELECT r.a, r.b, r.avail, (SELECT sum(i.qty) FROM keyp.item i WHERE i.k = r.a AND i.k2 = r.b) AS s FROM keyp.pair r WHERE r.avail < 60 AND r.avail > 0 ORDER BY r.a NULLS FIRST, r.b NULLS FIRST, r.avail;
SELECT r.a, r.b, r.avail, (SELECT sum(i.qty) FROM keyp.item i WHERE i.k = r.a AND i.k2 = r.b) AS s FROM keyp.pair r WHERE r.avail < 60 ORDER BY r.a NULLS FIRST, r.b NULLS FIRST, r.avail;
SELECT r.a, r.b, (SELECT count(*) FROM keyp.item i WHERE i.k2 = r.b AND i.k = r.a AND i.qty > 5) AS n FROM keyp.pair r WHERE r.avail BETWEEN 30 AND 90 ORDER BY 1, 2;
-- keys of different types: int outer, bigint inner; text; date
SELECT p.pk, (SELECT count(*) FROM keyp.item i WHERE i.k2 = p.pk) AS n FROM keyp.part p WHERE p.size = 2 ORDER BY 1;
SELECT t.t, t.label, (SELECT sum(i.qty) FROM keyp.item i WHERE i.tag = t.t) AS s FROM keyp.tag t WHERE t.label IS NOT NULL ORDER BY 1 NULLS FIRST;
SELECT v.d, (SELECT count(*) FROM keyp.item i WHERE i.d = v.d) AS n FROM (VALUES (date '2024-01-05'), (date '2025-01-01'), (NULL::date)) v(d) ORDER BY 1;
SELECT r.a, r.avail, (SELECT count(*) FROM keyp.item i WHERE i.price = r.avail) AS n FROM keyp.pair r WHERE r.a < 4 ORDER BY 1, 2;
-- the shape of TPC-H Q20: the outer rows filtered by IN, two keys
SELECT r.a, r.b FROM keyp.pair r WHERE r.a IN (SELECT pk FROM keyp.part WHERE brand LIKE 'b2%') AND r.avail > (SELECT 2 * sum(i.qty) FROM keyp.item i WHERE i.k = r.a AND i.k2 = r.b AND i.d >= date '2024-01-10') ORDER BY 1, 2;
SELECT r.a, r.b FROM keyp.pair r WHERE r.a IN (SELECT pk FROM keyp.part WHERE brand LIKE 'b2%') AND r.avail > (SELECT count(*) FROM keyp.item i WHERE i.k = r.a AND i.k2 = r.b) ORDER BY 1, 2;
-- the shape of TPC-H Q02: equal to the minimum over a join
SELECT p.pk, i.price FROM keyp.part p, keyp.item i WHERE p.pk = i.k AND p.size = 3 AND i.price = (SELECT min(i2.price) FROM keyp.item i2, keyp.tag t WHERE i2.k = p.pk AND t.t = i2.tag) ORDER BY 1, 2;
-- grouped derived tables joined on their keys
SELECT p.pk, x.s FROM keyp.part p JOIN (SELECT k, sum(qty) AS s FROM keyp.item GROUP BY k) x ON x.k = p.pk WHERE p.brand = 'b3' ORDER BY 1;
SELECT p.pk, x.n FROM keyp.part p LEFT JOIN (SELECT k, count(*) AS n FROM keyp.item GROUP BY k) x ON x.k = p.pk WHERE p.cat = 'box' ORDER BY 1 NULLS FIRST, 2;
SELECT p.pk, x.s FROM keyp.part p JOIN (SELECT k, sum(qty) AS s FROM keyp.item GROUP BY k HAVING sum(qty) > 80) x ON x.k = p.pk WHERE p.brand IN ('b1', 'b4') ORDER BY 1;
SELECT x.k, x.k2, x.n FROM (SELECT k, k2, count(*) AS n FROM keyp.item GROUP BY k, k2) x JOIN keyp.pair r ON r.a = x.k AND r.b = x.k2 WHERE r.avail < 30 ORDER BY 1, 2;
-- the outer key from the nullable side of a left join
SELECT t.t, p.pk, (SELECT count(*) FROM keyp.item i WHERE i.k = p.pk) AS n FROM keyp.tag t LEFT JOIN keyp.part p ON p.pk = ascii(substr(t.t, 2)) - 40 ORDER BY 1 NULLS FIRST, 2;
-- grouped outer query, DISTINCT and FILTER in the subquery
SELECT p.brand, count(*) FROM keyp.part p WHERE p.size < 3 AND p.pk < (SELECT count(*) FROM keyp.item i WHERE i.k = p.pk) GROUP BY p.brand ORDER BY 1;
SELECT p.pk, (SELECT count(DISTINCT i.qty) FILTER (WHERE i.qty > 3) FROM keyp.item i WHERE i.k = p.pk) AS n FROM keyp.part p WHERE p.brand = 'b0' ORDER BY 1;
SELECT p.pk, (SELECT string_agg(i.tag, ',' ORDER BY i.tag) FROM keyp.item i WHERE i.k = p.pk AND i.qty = 1) AS tags FROM keyp.part p WHERE p.size = 4 ORDER BY 1;
-- nested correlation
SELECT p.pk FROM keyp.part p WHERE p.brand = 'b2' AND (SELECT sum(i.qty) FROM keyp.item i WHERE i.k = p.pk AND i.qty > (SELECT avg(i3.qty) FROM keyp.item i3 WHERE i3.k2 = i.k2)) > 10 ORDER BY 1;
-- outer conditions that could fail stay out of the key source
SELECT p.pk, (SELECT count(*) FROM keyp.item i WHERE i.k = p.pk) AS n FROM keyp.part p WHERE p.brand = 'b2' AND 10 / (p.size + 1) > 2 ORDER BY 1;
SELECT p.pk, (SELECT count(*) FROM keyp.item i WHERE i.k = p.pk + 1) AS n FROM keyp.part p WHERE p.brand = 'b4' ORDER BY 1;
