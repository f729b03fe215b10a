package integration

import (
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestSeedSparkFormsPsql runs, through psql against a catalog named local
// as in seed 004, the steps of the seed's walkthrough that use Spark's
// functions, options and metadata forms: the summary view over
// year()/month()/round(double, 2), date_format, struct/map/list values
// from named_struct/map/array in INSERT ... VALUES, SET of a dashed Spark
// name, a write hint's snapshot-property, the partition evolution's
// DESCRIBE EXTENDED _partition, t$partitions ORDER BY partition and a
// metadata table of a missing table. The orders are the seed's first ten.
func TestSeedSparkFormsPsql(t *testing.T) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("psql is not on PATH, and CI is set: CI must install postgresql-client (see .ci/run)")
		}
		t.Skip("psql is not on PATH: install postgresql-client to run this test (it fails instead when CI is set)")
	}
	addr := startServer(t, t.TempDir(), serverOpts{catalogName: "local"})
	host, port, _ := net.SplitHostPort(addr)
	to := psqlTarget{host: host, port: port, user: "icegate", db: "local"}
	out := runPsql(t, psql, to, []string{
		`CREATE SCHEMA iceberg_db`,
		`CREATE TABLE local.iceberg_db.orders (
    order_id INT,
    customer_id INT,
    product_name STRING,
    category STRING,
    quantity INT,
    price DOUBLE,
    order_time TIMESTAMP,
    status STRING
)
USING iceberg
PARTITIONED BY (months(order_time))`,
		`SET spark.sql.iceberg.distribution-mode = hash`,
		`INSERT INTO local.iceberg_db.orders /*+ OPTIONS('snapshot-property.source' = 'seed-004') */ VALUES
 (1001, 1, 'MacBook Pro 16', 'Electronics', 1, 2499.0, TIMESTAMP '2024-01-05 09:23:00', 'completed'),
 (1002, 1, 'AirPods Pro', 'Electronics', 2, 249.0, TIMESTAMP '2024-01-05 09:25:00', 'completed'),
 (1003, 2, 'Python編程入門', 'Books', 1, 59.9, TIMESTAMP '2024-01-12 14:30:00', 'completed'),
 (1004, 3, '數據密集型應用設計', 'Books', 1, 79.0, TIMESTAMP '2024-01-18 11:00:00', 'completed'),
 (1005, 4, 'Sony WH-1000XM5', 'Electronics', 1, 349.0, TIMESTAMP '2024-01-25 16:45:00', 'cancelled'),
 (1006, 5, '冬季羽絨服', 'Clothing', 1, 199.0, TIMESTAMP '2024-02-01 10:15:00', 'completed'),
 (1007, 6, 'Nintendo Switch', 'Electronics', 1, 299.0, TIMESTAMP '2024-02-08 08:30:00', 'completed'),
 (1008, 7, 'Spark快速大數據分析', 'Books', 1, 69.0, TIMESTAMP '2024-02-14 13:20:00', 'pending'),
 (1009, 8, 'Yoga Mat Premium', 'Home', 2, 45.5, TIMESTAMP '2024-02-20 15:00:00', 'completed'),
 (1010, 9, '機械鍵盤 Cherry軸', 'Electronics', 1, 129.0, TIMESTAMP '2024-02-28 09:45:00', 'cancelled')`,
		`CREATE TEMP VIEW v_order_summary AS
SELECT
    year(order_time) AS order_year,
    month(order_time) AS order_month,
    category,
    count(*) AS order_count,
    sum(quantity) AS total_quantity,
    round(sum(price * quantity), 2) AS total_revenue
FROM local.iceberg_db.orders
GROUP BY year(order_time), month(order_time), category
ORDER BY order_year, order_month, category`,
		`SELECT * FROM v_order_summary`,
		`SELECT order_id, date_format(order_time, 'yyyy-MM-dd HH:mm') AS t, dayofweek(order_time) AS dow FROM local.iceberg_db.orders WHERE order_id IN (1001, 1010) ORDER BY order_id`,
		`SELECT summary ->> 'source' AS source FROM local.iceberg_db.orders.snapshots`,
		`ALTER TABLE local.iceberg_db.orders
REPLACE PARTITION FIELD months(order_time) WITH years(order_time)`,
		`INSERT INTO local.iceberg_db.orders VALUES (1060, 1, 'Test Product 0', 'Home', 1, 9.9, TIMESTAMP '2024-07-01 10:00:00', 'completed')`,
		`DESCRIBE EXTENDED local.iceberg_db.orders`,
		`SELECT partition, spec_id, record_count FROM local.iceberg_db.orders$partitions ORDER BY partition`,
		`CREATE TABLE local.iceberg_db.nest (id INT, s STRUCT<a: INT, b: STRING>, m MAP<STRING, DOUBLE>, l ARRAY<INT>) USING iceberg`,
		`INSERT INTO local.iceberg_db.nest VALUES (1, named_struct('a', 1, 'b', 'x'), map('k', 1.5, 'j', 2), array(1, 2, 3))`,
		`SELECT id, s, m, l FROM local.iceberg_db.nest`,
		`SELECT * FROM local.iceberg_db.missing.snapshots`,
		`SELECT * FROM iceberg_db.missing.snapshots`,
	}, "")
	for _, want := range []string{
		// The view: the seed's answers for January and February's books,
		// clothing and home rows; electronics from these ten orders.
		"order_year|order_month|category|order_count|total_quantity|total_revenue\n" +
			"2024|1|Books|2|2|138.9\n" +
			"2024|1|Electronics|3|4|3346\n" +
			"2024|2|Books|1|1|69\n" +
			"2024|2|Clothing|1|1|199\n" +
			"2024|2|Electronics|2|2|428\n" +
			"2024|2|Home|1|2|91\n" +
			"(6 rows)",
		"order_id|t|dow\n1001|2024-01-05 09:23|6\n1010|2024-02-28 09:45|4\n(2 rows)",
		"source\nseed-004\n(1 row)",
		"_partition|struct<order_time_month:int,order_time_year:int>|",
		"partition|spec_id|record_count\n" +
			`{"order_time_month": 648}|0|5` + "\n" +
			`{"order_time_month": 649}|0|5` + "\n" +
			`{"order_time_year": 54}|1|1` + "\n(3 rows)",
		"id|s|m|l\n" + `1|{"a": 1, "b": "x"}|{"j": 2, "k": 1.5}|{1,2,3}` + "\n(1 row)",
		`ERROR:  relation "local.iceberg_db.missing$snapshots" does not exist`,
		`ERROR:  relation "iceberg_db.missing" does not exist`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("psql output lacks:\n%s\n--- output:\n%s", want, out)
		}
	}
	for _, bad := range []string{"syntax error", "does not act on it\nDETAIL:  icegate checks", "cross-database"} {
		if strings.Contains(out, bad) {
			t.Errorf("psql output has %q:\n%s", bad, out)
		}
	}
}
