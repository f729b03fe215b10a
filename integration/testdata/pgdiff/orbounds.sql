-- Conditions an OR implies (translate/opt/or.go): each branch's bounds on
-- one expression give the loosest bound of all, its equalities the union
-- of their constants; the OR itself stays. The TPC-H Q19 shape, bounds of
-- mixed types and scales, strict and loose ties, NULLs, a branch without
-- a bound, equalities and IN lists, dates, text, floats with NaN.
-- setup
CREATE SCHEMA orb;
CREATE TABLE orb.part (pk int, brand text, container text, size int);
INSERT INTO orb.part SELECT g, 'Brand#' || (g % 5 + 1) || (g % 3 + 1), CASE g % 4 WHEN 0 THEN 'SM CASE' WHEN 1 THEN 'MED BOX' WHEN 2 THEN 'LG PACK' ELSE 'JUMBO JAR' END, g % 20 FROM generate_series(1, 200) g;
INSERT INTO orb.part VALUES (NULL, 'Brand#12', 'SM CASE', 3), (201, NULL, 'SM CASE', 3), (202, 'Brand#12', NULL, 3), (203, 'Brand#12', 'SM CASE', NULL);
CREATE TABLE orb.item (k int, qty numeric(15,2), price numeric(15,2), mode text, d date, f float8, big bigint);
INSERT INTO orb.item SELECT g % 210, (g % 50) + 1 + (g % 4) * 0.25, g * 1.5, CASE g % 3 WHEN 0 THEN 'AIR' WHEN 1 THEN 'AIR REG' ELSE 'MAIL' END, date '1994-01-01' + g % 400, (g % 17) / 2.0, g * 1000000000::bigint FROM generate_series(1, 3000) g;
INSERT INTO orb.item VALUES (NULL, 5, 1, 'AIR', date '1994-02-01', 1, 1), (3, NULL, 1, 'AIR', NULL, NULL, NULL), (5, 10, NULL, NULL, date '1994-03-01', 'NaN', 2), (7, 20, 2, 'AIR', date '1994-03-01', 'NaN', 3);

-- queries
-- the shape of TPC-H Q19
SELECT sum(i.price * (1 - 0.05)), count(*) FROM orb.item i, orb.part p WHERE (p.pk = i.k AND p.brand = 'Brand#12' AND p.container IN ('SM CASE', 'SM BOX') AND i.qty >= 1 AND i.qty <= 1 + 10 AND p.size BETWEEN 1 AND 5 AND i.mode IN ('AIR', 'AIR REG')) OR (p.pk = i.k AND p.brand = 'Brand#23' AND p.container IN ('MED BOX', 'MED BAG') AND i.qty >= 10 AND i.qty <= 10 + 10 AND p.size BETWEEN 1 AND 10 AND i.mode IN ('AIR', 'AIR REG')) OR (p.pk = i.k AND p.brand = 'Brand#34' AND p.container IN ('LG PACK', 'LG CASE') AND i.qty >= 20 AND i.qty <= 20 + 10 AND p.size BETWEEN 1 AND 15 AND i.mode IN ('AIR', 'AIR REG'));
-- bounds of different scales and types against a numeric column
SELECT count(*), sum(qty) FROM orb.item WHERE (qty > 3.5 AND qty < 7) OR (qty >= 3.50 AND qty <= 9.125) OR qty = 40;
SELECT count(*), sum(qty) FROM orb.item WHERE (qty > 3 AND mode = 'AIR') OR (qty >= 3 AND mode = 'MAIL') OR (qty > 2.75 AND qty < 3.5);
SELECT count(*) FROM orb.item WHERE (qty < 5 AND mode = 'AIR') OR (qty <= 5.00 AND mode = 'MAIL') OR qty = 5;
SELECT count(*) FROM orb.item WHERE (qty < 5 AND mode = 'AIR') OR (5 > qty AND mode = 'MAIL') OR 5 = qty;
SELECT count(*) FROM orb.item WHERE (qty < 5 AND mode = 'AIR') OR (mode = 'MAIL');
-- strict and loose at the same constant; an equality bounds both ways
SELECT count(*) FROM orb.item WHERE (k > 3 AND k < 10) OR (k >= 3 AND k = 20) OR k = 7;
SELECT count(*) FROM orb.item WHERE (k > 3 AND k < 10) OR (k > 3 AND k <= 10);
SELECT count(*) FROM orb.item WHERE (k >= 3 AND k < 10) OR (k > 3 AND k < 10);
-- bigint against int literals and a bigint literal
SELECT count(*) FROM orb.item WHERE (big >= 1000000000 AND big < 2000000000000) OR (big > 5 AND big <= 3000000000000);
-- dates and text
SELECT count(*) FROM orb.item WHERE (d >= date '1994-01-01' AND d < date '1994-02-01' AND mode = 'AIR') OR (d >= date '1994-06-01' AND d < date '1994-06-01' + interval '1' month AND mode = 'AIR REG');
SELECT count(*) FROM orb.item WHERE (mode = 'AIR' AND k < 10) OR (mode IN ('MAIL', 'AIR') AND k > 200) OR mode = 'SHIP';
SELECT count(*) FROM orb.item WHERE mode = 'AIR' OR mode = 'MAIL' OR 'AIR' = mode;
SELECT count(*) FROM orb.item WHERE mode = 'AIR' OR mode = 'MAIL' OR mode IS NULL;
SELECT count(*) FROM orb.item WHERE (mode > 'AIR' AND k = 1) OR (mode >= 'AIR REG' AND k = 2) OR (mode < 'B' AND k = 3);
-- floats with NaN, which sorts above every number
SELECT count(*) FROM orb.item WHERE (f > 7 AND k < 100) OR (f >= 'NaN' AND k >= 100);
SELECT count(*) FROM orb.item WHERE (f < 'NaN' AND k < 100) OR (f <= 2 AND k >= 100);
-- on the inner side of outer joins and in ON conditions
SELECT count(*), count(p.pk) FROM orb.item i LEFT JOIN orb.part p ON p.pk = i.k AND ((p.size < 3 AND i.qty > 40) OR (p.size < 5 AND i.qty > 45));
SELECT count(*) FROM orb.part p WHERE EXISTS (SELECT 1 FROM orb.item i WHERE i.k = p.pk AND ((i.qty < 2 AND p.size = 1) OR (i.qty < 3 AND p.size = 2)));
-- a condition that can fail is not copied ahead of the OR
SELECT count(*) FROM orb.item WHERE (k = 0 AND 10 / k > 2) OR (k <> 0 AND 10 / k > 1);
