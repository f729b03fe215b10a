-- Joins of three or more tables where small filtered tables restrict the
-- large ones before the joins (translate/optimize_reduce.go), conditions
-- implied by an OR over two tables (optimize_or.go), and IN / EXISTS
-- filters sunk below the joins (optimize_semi.go). NULL keys on every
-- side, duplicate keys, keys missing from the small tables. fact is much
-- larger than the others, so the estimates choose the restrictions.
-- setup
CREATE SCHEMA red;
CREATE TABLE red.region (rk int, rname text);
INSERT INTO red.region VALUES (1, 'east'), (2, 'west'), (3, 'north'), (NULL, 'nowhere');
CREATE TABLE red.nation (nk int, nname text, rk int);
INSERT INTO red.nation SELECT g, 'n' || g, CASE WHEN g % 4 = 0 THEN NULL ELSE g % 3 + 1 END FROM generate_series(1, 12) g;
INSERT INTO red.nation VALUES (NULL, 'lost', 1), (13, 'n13', 9);
CREATE TABLE red.supp (sk int, sname text, nk int);
INSERT INTO red.supp SELECT g, 's' || g, CASE WHEN g % 10 = 0 THEN NULL ELSE g % 14 + 1 END FROM generate_series(1, 60) g;
CREATE TABLE red.cust (ck int, cname text, nk int);
INSERT INTO red.cust SELECT g, 'c' || g, CASE WHEN g % 9 = 0 THEN NULL ELSE g % 13 + 1 END FROM generate_series(1, 150) g;
CREATE TABLE red.fact (fk int, sk int, ck int, qty int, price numeric(10,2), d date);
INSERT INTO red.fact SELECT g, CASE WHEN g % 17 = 0 THEN NULL ELSE g % 65 END, CASE WHEN g % 23 = 0 THEN NULL ELSE g % 160 END, g % 11, g * 0.5, date '2024-01-01' + g % 90 FROM generate_series(1, 4000) g;
-- queries
-- the shape of TPC-H Q5: a region restricts nations, nations suppliers and customers
SELECT n.nname, sum(f.price) AS revenue FROM red.fact f, red.supp s, red.cust c, red.nation n, red.region r WHERE f.sk = s.sk AND f.ck = c.ck AND c.nk = s.nk AND s.nk = n.nk AND n.rk = r.rk AND r.rname = 'east' GROUP BY n.nname ORDER BY revenue DESC, n.nname;
-- the shape of TPC-H Q7: an OR over two nations implies a filter on each
SELECT n1.nname AS sn, n2.nname AS cn, count(*), sum(f.qty) FROM red.supp s, red.fact f, red.cust c, red.nation n1, red.nation n2 WHERE s.sk = f.sk AND c.ck = f.ck AND s.nk = n1.nk AND c.nk = n2.nk AND ((n1.nname = 'n2' AND n2.nname = 'n3') OR (n1.nname = 'n3' AND n2.nname = 'n2')) GROUP BY 1, 2 ORDER BY 1, 2;
-- an OR where one branch says nothing about a table: no filter is implied there
SELECT count(*) FROM red.supp s, red.fact f, red.nation n WHERE s.sk = f.sk AND s.nk = n.nk AND (n.nname = 'n2' OR f.qty = 3);
SELECT count(*), sum(f.qty) FROM red.supp s, red.fact f, red.nation n WHERE s.sk = f.sk AND s.nk = n.nk AND ((n.nname = 'n2' AND f.qty > 5) OR (n.nname = 'n5' AND f.qty < 2) OR (n.nname IS NULL));
-- a filter that could fail is not copied onto the small table (nk 0 never joins)
SELECT count(*) FROM red.fact f, red.supp s, red.nation n WHERE f.sk = s.sk AND s.nk = n.nk AND n.nk <> 0 AND 100 / n.nk > 10;
-- a chain with a table whose keys repeat
SELECT r.rname, count(*) FROM red.fact f JOIN red.cust c ON f.ck = c.ck JOIN red.nation n ON c.nk = n.nk JOIN red.region r ON n.rk = r.rk WHERE r.rname IN ('west', 'north') GROUP BY r.rname ORDER BY 1;
-- no row survives the small table's filter
SELECT count(*) FROM red.fact f, red.supp s, red.nation n WHERE f.sk = s.sk AND s.nk = n.nk AND n.nname = 'absent';
-- IN and EXISTS over a join, sunk to the table their keys come from
SELECT count(*), sum(f.qty) FROM red.fact f JOIN red.supp s ON f.sk = s.sk WHERE s.nk IN (SELECT nk FROM red.nation WHERE rk = 2);
SELECT count(*) FROM red.fact f JOIN red.cust c ON f.ck = c.ck WHERE EXISTS (SELECT 1 FROM red.nation n WHERE n.nk = c.nk AND n.rk IS NULL);
SELECT s.sname, count(*) FROM red.fact f JOIN red.supp s ON f.sk = s.sk JOIN red.cust c ON f.ck = c.ck WHERE f.fk IN (SELECT fk FROM red.fact WHERE qty = 10 AND d < date '2024-02-01') GROUP BY s.sname ORDER BY 2 DESC, 1 LIMIT 5;
-- NOT IN and NOT EXISTS stay where they are
SELECT count(*) FROM red.fact f JOIN red.supp s ON f.sk = s.sk WHERE s.nk NOT IN (SELECT nk FROM red.nation WHERE rk = 2);
SELECT count(*) FROM red.fact f JOIN red.supp s ON f.sk = s.sk WHERE NOT EXISTS (SELECT 1 FROM red.nation n WHERE n.nk = s.nk);
-- the IN result is also selected
SELECT s.nk IN (SELECT nk FROM red.nation WHERE rk = 2) AS inr, count(*) FROM red.fact f JOIN red.supp s ON f.sk = s.sk GROUP BY 1 ORDER BY 1;
SELECT s.nk IN (SELECT nk FROM red.nation WHERE rk = 2) AS inr, s.sname FROM red.fact f JOIN red.supp s ON f.sk = s.sk WHERE f.qty = 3 ORDER BY 2, 1 LIMIT 20;
