package integration

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestSeedWalkthrough runs the Iceberg walkthrough of the project's seed
// document (docs: FEATURES.md section 9; Spark 3.5 + Iceberg 1.8 over a
// Hadoop catalog named local) through psql against a freshly built icegate
// whose catalog is named local, statement by statement as the seed writes
// them, and checks each answer the seed shows. Where the seed's answer
// depends on Spark's file layout (how many files a write makes), the step
// checks what the seed's text says instead (rows kept, fewer files).
//
// The seed prints 10 of its 50 orders and the June ones; the other rows
// here are chosen to give every answer it prints that depends on them: the
// files per month after the DELETE (4, 4, 7, 8, 10, 12), the overwrite's
// summary (38 rows added, 43 deleted), the status counts after the
// restore, and the view's counts, quantities and revenues.
func TestSeedWalkthrough(t *testing.T) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("psql is not on PATH, and CI is set: CI must install postgresql-client (see .ci/run)")
		}
		t.Skip("psql is not on PATH: install postgresql-client to run this test (it fails instead when CI is set)")
	}
	addr := startBinary(t, buildBinary(t), t.TempDir(), "--catalog-name", "local")
	host, port, _ := net.SplitHostPort(addr)
	run := func(t *testing.T, sql string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, psql, "-X", "-q", "-A", "-t", "-F", "|", "-h", host, "-p", port,
			"-U", "icegate", "-d", "local", "-v", "ON_ERROR_STOP=1", "-c", sql)
		cmd.Env = append(cleanEnv(), "PGTZ=UTC", "PGCONNECT_TIMEOUT=10", "PGSSLMODE=disable", "PGAPPNAME=icegate-seed")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		_ = cmd.Run()
		return out.String()
	}
	// vars are values later steps use: the first snapshot of orders and
	// its commit time, read through psql like the rest.
	vars := map[string]string{}
	expand := func(sql string) string {
		for k, v := range vars {
			sql = strings.ReplaceAll(sql, "{{"+k+"}}", v)
		}
		return sql
	}
	for _, st := range seedSteps {
		ok := t.Run(st.name, func(t *testing.T) {
			var got string
			if st.each {
				// One psql call per statement, as the seed runs them one
				// spark.sql call each: a multi-statement simple query is
				// one transaction, and so one commit per table.
				for _, one := range strings.Split(expand(st.sql), ";\n") {
					got = run(t, one)
				}
			} else {
				got = run(t, expand(st.sql))
			}
			if st.save != "" {
				vars[st.save] = strings.TrimSpace(got)
				if vars[st.save] == "" || strings.Contains(got, "ERROR") {
					t.Fatalf("%s: %q", st.sql, got)
				}
				return
			}
			want := expand(strings.TrimPrefix(st.want, "\n"))
			if st.re {
				if !regexp.MustCompile(want).MatchString(got) {
					t.Errorf("%s\n got: %q\nwant a match of %q", expand(st.sql), got, want)
				}
				return
			}
			if st.contains {
				for _, line := range strings.Split(strings.TrimSpace(want), "\n") {
					if !strings.Contains("\n"+got, "\n"+line+"\n") {
						t.Errorf("%s\nmissing line %q in:\n%s", expand(st.sql), line, got)
					}
				}
				return
			}
			if got != want {
				t.Errorf("%s\n got: %q\nwant: %q", expand(st.sql), got, want)
			}
		})
		if !ok && st.stop {
			t.Fatalf("step %q failed; the steps after it depend on it", st.name)
		}
	}
}

// seedSteps are the walkthrough's statements in the seed's order. want is
// psql's unaligned output (-A -t -F '|'); contains means each of want's
// lines must be among the output's; save stores the trimmed output under
// that name for {{name}} in later steps; re makes want a regular
// expression the output must match; each runs the statements (one per
// line ending in ";") in a psql call each; stop ends the test when the
// step fails.
var seedSteps = []struct {
	name, sql, want, save    string
	contains, re, each, stop bool
}{
	{name: "create namespace", sql: `CREATE NAMESPACE IF NOT EXISTS local.iceberg_db`, stop: true},
	{name: "create customers", stop: true, sql: `CREATE TABLE local.iceberg_db.customers (
    customer_id INT,
    name STRING,
    email STRING,
    country STRING,
    registration_date DATE,
    tier STRING
)
USING iceberg`},
	{name: "create orders", stop: true, sql: `CREATE TABLE local.iceberg_db.orders (
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
PARTITIONED BY (months(order_time))`},
	{name: "insert customers", stop: true, sql: `INSERT INTO local.iceberg_db.customers VALUES
  (1, '张伟', 'zhangwei@example.com', 'CN', DATE '2023-01-15', 'vip'),
  (2, '李娜', 'lina@example.com', 'CN', DATE '2023-02-20', 'premium'),
  (3, 'John Smith', 'jsmith@example.com', 'US', DATE '2023-03-10', 'free'),
  (4, 'Emily Davis', 'edavis@example.com', 'US', DATE '2023-04-05', 'premium'),
  (5, 'James Wilson', 'jwilson@example.com', 'UK', DATE '2023-05-18', 'free'),
  (6, '田中太郎', 'tanaka@example.com', 'JP', DATE '2023-06-01', 'vip'),
  (7, '王芳', 'wangfang@example.com', 'CN', DATE '2023-06-22', 'free'),
  (8, 'Sarah Brown', 'sbrown@example.com', 'UK', DATE '2023-07-14', 'premium'),
  (9, 'Mike Johnson', 'mjohnson@example.com', 'US', DATE '2023-08-30', 'free'),
  (10, '佐藤花子', 'sato@example.com', 'JP', DATE '2023-09-12', 'premium'),
  (11, '赵磊', 'zhaolei@example.com', 'CN', DATE '2023-10-01', 'vip'),
  (12, 'Alice Lee', 'alee@example.com', 'US', DATE '2023-11-20', 'free'),
  (13, 'David Clark', 'dclark@example.com', 'UK', DATE '2024-01-05', 'premium'),
  (14, '陈静', 'chenjing@example.com', 'CN', DATE '2024-01-15', 'free'),
  (15, 'Robert Taylor', 'rtaylor@example.com', 'US', DATE '2024-02-28', 'vip'),
  (16, '铃木一郎', 'suzuki@example.com', 'JP', DATE '2024-03-10', 'free'),
  (17, '黄丽', 'huangli@example.com', 'CN', DATE '2024-03-22', 'premium'),
  (18, 'Emma Thomas', 'ethomas@example.com', 'UK', DATE '2024-04-01', 'free'),
  (19, '林强', 'linqiang@example.com', 'CN', DATE '2024-04-15', 'vip'),
  (20, 'Tom Harris', 'tharris@example.com', 'US', DATE '2024-05-01', 'premium')`},
	{name: "customers", sql: `SELECT * FROM local.iceberg_db.customers ORDER BY customer_id`, want: `
1|张伟|zhangwei@example.com|CN|2023-01-15|vip
2|李娜|lina@example.com|CN|2023-02-20|premium
3|John Smith|jsmith@example.com|US|2023-03-10|free
4|Emily Davis|edavis@example.com|US|2023-04-05|premium
5|James Wilson|jwilson@example.com|UK|2023-05-18|free
6|田中太郎|tanaka@example.com|JP|2023-06-01|vip
7|王芳|wangfang@example.com|CN|2023-06-22|free
8|Sarah Brown|sbrown@example.com|UK|2023-07-14|premium
9|Mike Johnson|mjohnson@example.com|US|2023-08-30|free
10|佐藤花子|sato@example.com|JP|2023-09-12|premium
11|赵磊|zhaolei@example.com|CN|2023-10-01|vip
12|Alice Lee|alee@example.com|US|2023-11-20|free
13|David Clark|dclark@example.com|UK|2024-01-05|premium
14|陈静|chenjing@example.com|CN|2024-01-15|free
15|Robert Taylor|rtaylor@example.com|US|2024-02-28|vip
16|铃木一郎|suzuki@example.com|JP|2024-03-10|free
17|黄丽|huangli@example.com|CN|2024-03-22|premium
18|Emma Thomas|ethomas@example.com|UK|2024-04-01|free
19|林强|linqiang@example.com|CN|2024-04-15|vip
20|Tom Harris|tharris@example.com|US|2024-05-01|premium
`},
	{name: "insert orders", stop: true, sql: `INSERT INTO local.iceberg_db.orders VALUES
  (1001, 1, 'MacBook Pro 16', 'Electronics', 1, 2499.0, TIMESTAMP '2024-01-05 09:23:00', 'completed'),
  (1002, 1, 'AirPods Pro', 'Electronics', 2, 249.0, TIMESTAMP '2024-01-05 09:25:00', 'completed'),
  (1003, 2, 'Python编程入门', 'Books', 1, 59.9, TIMESTAMP '2024-01-12 14:30:00', 'completed'),
  (1004, 3, '数据密集型应用设计', 'Books', 1, 79.0, TIMESTAMP '2024-01-18 11:00:00', 'completed'),
  (1005, 4, 'Sony WH-1000XM5', 'Electronics', 1, 349.0, TIMESTAMP '2024-01-25 16:45:00', 'cancelled'),
  (1006, 5, '冬季羽绒服', 'Clothing', 1, 199.0, TIMESTAMP '2024-02-01 10:15:00', 'completed'),
  (1007, 6, 'Nintendo Switch', 'Electronics', 1, 299.0, TIMESTAMP '2024-02-08 08:30:00', 'completed'),
  (1008, 7, 'Spark快速大数据分析', 'Books', 1, 69.0, TIMESTAMP '2024-02-14 13:20:00', 'pending'),
  (1009, 8, 'Yoga Mat Premium', 'Home', 2, 45.5, TIMESTAMP '2024-02-20 15:00:00', 'completed'),
  (1010, 9, '机械键盘 Cherry轴', 'Electronics', 1, 129.0, TIMESTAMP '2024-02-28 09:45:00', 'cancelled'),
  (1011, 10, 'Kindle Paperwhite', 'Electronics', 1, 139.0, TIMESTAMP '2024-03-02 10:00:00', 'completed'),
  (1012, 11, 'Clean Code', 'Books', 1, 89.0, TIMESTAMP '2024-03-05 19:10:00', 'completed'),
  (1013, 12, 'Running Shoes', 'Clothing', 1, 129.0, TIMESTAMP '2024-03-09 12:40:00', 'completed'),
  (1014, 13, 'iPad Air', 'Electronics', 1, 1299.0, TIMESTAMP '2024-03-12 09:05:00', 'completed'),
  (1015, 14, 'Desk Lamp LED', 'Home', 1, 89.99, TIMESTAMP '2024-03-15 20:30:00', 'completed'),
  (1016, 15, 'The Pragmatic Programmer', 'Books', 1, 75.0, TIMESTAMP '2024-03-19 08:50:00', 'completed'),
  (1017, 16, 'Ergonomic Mouse', 'Electronics', 1, 109.0, TIMESTAMP '2024-03-23 14:15:00', 'completed'),
  (1018, 17, 'Smart Watch', 'Electronics', 1, 299.0, TIMESTAMP '2024-04-01 11:20:00', 'cancelled'),
  (1019, 18, 'Designing Interfaces', 'Books', 1, 89.0, TIMESTAMP '2024-04-02 08:00:00', 'completed'),
  (1020, 19, 'Rain Jacket', 'Clothing', 2, 158.0, TIMESTAMP '2024-04-02 09:30:00', 'completed'),
  (1021, 20, 'SQL Antipatterns', 'Books', 1, 59.0, TIMESTAMP '2024-04-05 13:00:00', 'completed'),
  (1022, 1, '4K Monitor 27', 'Electronics', 1, 329.0, TIMESTAMP '2024-04-08 10:10:00', 'completed'),
  (1023, 2, 'Ceramic Mug Set', 'Home', 1, 35.0, TIMESTAMP '2024-04-11 15:45:00', 'completed'),
  (1024, 3, 'Refactoring', 'Books', 1, 68.0, TIMESTAMP '2024-04-14 18:20:00', 'pending'),
  (1025, 4, 'USB Microphone', 'Electronics', 1, 129.0, TIMESTAMP '2024-04-17 12:00:00', 'completed'),
  (1026, 5, 'Deep Learning', 'Books', 1, 110.0, TIMESTAMP '2024-04-20 09:40:00', 'completed'),
  (1027, 6, 'Webcam HD', 'Electronics', 1, 69.0, TIMESTAMP '2024-05-01 17:30:00', 'completed'),
  (1028, 7, 'Database Internals', 'Books', 1, 58.0, TIMESTAMP '2024-05-02 10:50:00', 'completed'),
  (1029, 8, 'Site Reliability Engineering', 'Books', 1, 117.0, TIMESTAMP '2024-05-01 08:20:00', 'completed'),
  (1030, 9, 'Summer Dress', 'Clothing', 3, 59.9, TIMESTAMP '2024-05-04 14:00:00', 'completed'),
  (1031, 10, 'Noise Cancelling Earbuds', 'Electronics', 1, 199.0, TIMESTAMP '2024-05-07 11:30:00', 'completed'),
  (1032, 11, 'Air Fryer', 'Home', 1, 129.0, TIMESTAMP '2024-05-10 19:00:00', 'cancelled'),
  (1033, 12, 'Learning Go', 'Books', 1, 45.0, TIMESTAMP '2024-05-13 09:15:00', 'completed'),
  (1034, 13, 'Gaming Laptop', 'Electronics', 1, 1169.0, TIMESTAMP '2024-05-16 16:40:00', 'completed'),
  (1035, 14, 'Bath Towel Set', 'Home', 2, 140.0, TIMESTAMP '2024-05-20 12:30:00', 'completed'),
  (1036, 15, 'System Design Interview', 'Books', 1, 38.0, TIMESTAMP '2024-05-24 10:05:00', 'pending'),
  (1037, 16, 'Portable SSD 1TB', 'Electronics', 1, 109.0, TIMESTAMP '2024-05-28 15:50:00', 'completed'),
  (1038, 17, 'USB-C Hub 7合1', 'Electronics', 1, 49.0, TIMESTAMP '2024-06-01 08:15:00', 'completed'),
  (1039, 18, 'T恤 夏季纯棉', 'Clothing', 2, 39.9, TIMESTAMP '2024-06-03 10:00:00', 'completed'),
  (1040, 19, 'Effective Java', 'Books', 1, 65.0, TIMESTAMP '2024-06-05 15:30:00', 'completed'),
  (1041, 20, '运动短裤', 'Clothing', 1, 49.0, TIMESTAMP '2024-06-08 09:00:00', 'completed'),
  (1042, 1, 'Air Conditioner', 'Home', 1, 1299.0, TIMESTAMP '2024-06-10 11:00:00', 'completed'),
  (1043, 2, 'Water Bottle Insulated', 'Home', 2, 25.0, TIMESTAMP '2024-06-12 13:00:00', 'completed'),
  (1044, 3, '算法导论', 'Books', 1, 128.0, TIMESTAMP '2024-06-15 14:30:00', 'completed'),
  (1045, 4, 'Wireless Mouse', 'Electronics', 1, 39.0, TIMESTAMP '2024-06-17 10:00:00', 'cancelled'),
  (1046, 5, 'Bluetooth Headset', 'Electronics', 1, 89.0, TIMESTAMP '2024-06-19 16:00:00', 'completed'),
  (1047, 6, 'Phone Case Premium', 'Electronics', 1, 29.0, TIMESTAMP '2024-06-21 08:30:00', 'completed'),
  (1048, 7, 'Scala编程', 'Books', 1, 76.0, TIMESTAMP '2024-06-23 11:15:00', 'completed'),
  (1049, 8, 'Laptop Stand', 'Electronics', 1, 45.0, TIMESTAMP '2024-06-25 13:45:00', 'pending'),
  (1050, 9, 'Pillow Memory Foam', 'Home', 2, 35.0, TIMESTAMP '2024-06-28 15:00:00', 'completed')`},
	{name: "count orders", sql: `SELECT count(*) FROM local.iceberg_db.orders WHERE 1=1`, want: "50\n"},
	{name: "orders sample", sql: `SELECT * FROM local.iceberg_db.orders ORDER BY order_id LIMIT 10`, want: `
1001|1|MacBook Pro 16|Electronics|1|2499|2024-01-05 09:23:00+00|completed
1002|1|AirPods Pro|Electronics|2|249|2024-01-05 09:25:00+00|completed
1003|2|Python编程入门|Books|1|59.9|2024-01-12 14:30:00+00|completed
1004|3|数据密集型应用设计|Books|1|79|2024-01-18 11:00:00+00|completed
1005|4|Sony WH-1000XM5|Electronics|1|349|2024-01-25 16:45:00+00|cancelled
1006|5|冬季羽绒服|Clothing|1|199|2024-02-01 10:15:00+00|completed
1007|6|Nintendo Switch|Electronics|1|299|2024-02-08 08:30:00+00|completed
1008|7|Spark快速大数据分析|Books|1|69|2024-02-14 13:20:00+00|pending
1009|8|Yoga Mat Premium|Home|2|45.5|2024-02-20 15:00:00+00|completed
1010|9|机械键盘 Cherry轴|Electronics|1|129|2024-02-28 09:45:00+00|cancelled
`},
	{name: "june orders", sql: `
        SELECT order_id, product_name, order_time
        FROM local.iceberg_db.orders
        WHERE ORDER_TIME >= TIMESTAMP '2024-06-01 00:00:00'
        ORDER BY order_time`, want: `
1038|USB-C Hub 7合1|2024-06-01 08:15:00+00
1039|T恤 夏季纯棉|2024-06-03 10:00:00+00
1040|Effective Java|2024-06-05 15:30:00+00
1041|运动短裤|2024-06-08 09:00:00+00
1042|Air Conditioner|2024-06-10 11:00:00+00
1043|Water Bottle Insulated|2024-06-12 13:00:00+00
1044|算法导论|2024-06-15 14:30:00+00
1045|Wireless Mouse|2024-06-17 10:00:00+00
1046|Bluetooth Headset|2024-06-19 16:00:00+00
1047|Phone Case Premium|2024-06-21 08:30:00+00
1048|Scala编程|2024-06-23 11:15:00+00
1049|Laptop Stand|2024-06-25 13:45:00+00
1050|Pillow Memory Foam|2024-06-28 15:00:00+00
`},
	{name: "update name", sql: `UPDATE local.iceberg_db.customers SET name = '张伟(已更名)' WHERE customer_id = 1;
SELECT customer_id, name FROM local.iceberg_db.customers WHERE customer_id = 1`, want: "1|张伟(已更名)\n"},
	{name: "cancelled before delete", sql: `SELECT order_id, status FROM local.iceberg_db.orders WHERE status = 'cancelled' ORDER BY order_id`,
		want: "1005|cancelled\n1010|cancelled\n1018|cancelled\n1032|cancelled\n1045|cancelled\n"},
	{name: "delete cancelled", stop: true, sql: `DELETE FROM local.iceberg_db.orders WHERE status = 'cancelled';
SELECT count(*) FROM local.iceberg_db.orders WHERE status = 'cancelled'`, want: "0\n"},
	{name: "add columns", sql: `ALTER TABLE local.iceberg_db.customers ADD COLUMN phone STRING;
ALTER TABLE local.iceberg_db.customers ADD COLUMN loyalty_points INT DEFAULT 0;
DESCRIBE local.iceberg_db.customers`, want: `
customer_id|int|
name|string|
email|string|
country|string|
registration_date|date|
tier|string|
phone|string|
loyalty_points|int|
`},
	{name: "rename column", sql: `ALTER TABLE local.iceberg_db.customers RENAME COLUMN name TO full_name;
DESCRIBE local.iceberg_db.customers`, want: `
customer_id|int|
full_name|string|
email|string|
country|string|
registration_date|date|
tier|string|
phone|string|
loyalty_points|int|
`},
	{name: "widen column", sql: `ALTER TABLE local.iceberg_db.customers ALTER COLUMN loyalty_points TYPE BIGINT;
DESCRIBE local.iceberg_db.customers`, want: `
customer_id|int|
full_name|string|
email|string|
country|string|
registration_date|date|
tier|string|
phone|string|
loyalty_points|bigint|
`},
	{name: "drop column", sql: `ALTER TABLE local.iceberg_db.customers DROP COLUMN registration_date;
DESCRIBE local.iceberg_db.customers`, want: `
customer_id|int|
full_name|string|
email|string|
country|string|
tier|string|
phone|string|
loyalty_points|bigint|
`},
	{name: "move column first", sql: `ALTER TABLE local.iceberg_db.customers ALTER COLUMN email FIRST;
DESCRIBE local.iceberg_db.customers`, want: `
email|string|
customer_id|int|
full_name|string|
country|string|
tier|string|
phone|string|
loyalty_points|bigint|
`},
	// The seed's Spark leaves loyalty_points NULL in the rows that were
	// there before ADD COLUMN ... DEFAULT 0 (format 2 has no initial
	// default); icegate gives them the default, as PostgreSQL does, by
	// rewriting them (README: ALTER TABLE ... ADD COLUMN ... DEFAULT).
	{name: "data after schema evolution", sql: `SELECT customer_id, full_name, email, phone, loyalty_points
FROM local.iceberg_db.customers
ORDER BY customer_id LIMIT 5`, want: `
1|张伟(已更名)|zhangwei@example.com||0
2|李娜|lina@example.com||0
3|John Smith|jsmith@example.com||0
4|Emily Davis|edavis@example.com||0
5|James Wilson|jwilson@example.com||0
`},
	{name: "snapshots", sql: `SELECT operation, summary->>'added-data-files', summary->>'deleted-data-files', summary->>'added-records',
  summary->>'deleted-records', summary->>'total-records', summary->>'changed-partition-count'
FROM local.iceberg_db.orders.snapshots ORDER BY committed_at`, want: "append|6||50||50|6\noverwrite|5|5|38|43|45|5\n"},
	{name: "history", sql: `SELECT parent_id IS NULL, is_current_ancestor FROM local.iceberg_db.orders.history ORDER BY made_current_at`, want: "t|t\nf|t\n"},
	{name: "files", sql: `SELECT content, file_format, count(*), sum(record_count) FROM local.iceberg_db.orders.files GROUP BY 1, 2`, want: "0|PARQUET|6|45\n"},
	{name: "manifests", sql: `SELECT count(*), min(partition_spec_id), max(partition_spec_id) FROM local.iceberg_db.orders.manifests`, want: "2|0|0\n"},
	{name: "first snapshot", save: "first", sql: `SELECT snapshot_id FROM local.iceberg_db.orders.snapshots ORDER BY committed_at LIMIT 1`},
	{name: "first commit time", save: "first_ts", sql: `SELECT committed_at FROM local.iceberg_db.orders.snapshots ORDER BY committed_at LIMIT 1`},
	{name: "version as of", sql: `SELECT count(*) as cnt FROM local.iceberg_db.orders VERSION AS OF {{first}}`, want: "50\n"},
	{name: "timestamp as of", sql: `SELECT count(*) as cnt FROM local.iceberg_db.orders FOR TIMESTAMP AS OF '{{first_ts}}'`, want: "50\n"},
	{name: "head before rollback", save: "head", sql: `SELECT snapshot_id FROM local.iceberg_db.orders.snapshots ORDER BY committed_at DESC LIMIT 1`},
	{name: "rollback", stop: true, sql: `CALL local.system.rollback_to_snapshot('iceberg_db.orders', {{first}})`, want: "{{head}}|{{first}}\n"},
	{name: "count after rollback", sql: `SELECT count(*) as cnt FROM local.iceberg_db.orders`, want: "50\n"},
	{name: "restore cancelled", sql: `INSERT INTO local.iceberg_db.orders
SELECT * FROM local.iceberg_db.orders VERSION AS OF {{first}}
WHERE status = 'cancelled';
SELECT count(*) as cnt FROM local.iceberg_db.orders WHERE status = 'cancelled'`, want: "10\n"},
	{name: "status distribution", sql: `SELECT status, count(*) as cnt
FROM local.iceberg_db.orders
GROUP BY status
ORDER BY status`, want: "cancelled|10\ncompleted|41\npending|4\n"},
	{name: "count after restore", sql: `SELECT count(*) FROM local.iceberg_db.orders WHERE 1=1`, want: "55\n"},
	{name: "partition evolution", sql: `ALTER TABLE local.iceberg_db.orders
REPLACE PARTITION FIELD months(order_time) WITH years(order_time);
DESCRIBE EXTENDED local.iceberg_db.orders`, contains: true, want: `
# Partitioning||
Part 0|years(order_time)|
_partition|struct<order_time_month:int,order_time_year:int>|
`},
	{name: "create staging", stop: true, sql: `CREATE TABLE local.iceberg_db.orders_staging (
    order_id INT, customer_id INT, product_name STRING,
    category STRING, quantity INT, price DOUBLE,
    order_time TIMESTAMP,
    status STRING
) USING iceberg`},
	{name: "insert staging", stop: true, sql: `INSERT INTO local.iceberg_db.orders_staging VALUES
  (1001, 1, 'MacBook Pro 16 (M4)', 'Electronics', 1, 2799.00, TIMESTAMP '2024-01-05 09:23:00', 'completed'),
  (1051, 2, 'Pixel Watch 3', 'Electronics', 1, 349.00, TIMESTAMP '2024-06-30 10:00:00', 'pending'),
  (1052, 5, 'Standing Desk', 'Home', 1, 499.00, TIMESTAMP '2024-06-30 11:00:00', 'completed')`},
	{name: "before merge target", sql: `SELECT order_id, product_name, price, status FROM local.iceberg_db.orders WHERE order_id IN (1001, 1051, 1052) ORDER BY order_id`,
		want: "1001|MacBook Pro 16|2499|completed\n"},
	{name: "before merge source", sql: `SELECT order_id, product_name, price, status FROM local.iceberg_db.orders_staging ORDER BY order_id`,
		want: "1001|MacBook Pro 16 (M4)|2799|completed\n1051|Pixel Watch 3|349|pending\n1052|Standing Desk|499|completed\n"},
	{name: "merge", stop: true, sql: `MERGE INTO local.iceberg_db.orders t
USING local.iceberg_db.orders_staging s
ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET *
WHEN NOT MATCHED THEN INSERT *;
SELECT order_id, product_name, price, status FROM local.iceberg_db.orders WHERE order_id IN (1001, 1051, 1052) ORDER BY order_id`,
		want: "1001|MacBook Pro 16 (M4)|2799|completed\n1051|Pixel Watch 3|349|pending\n1052|Standing Desk|499|completed\n"},
	{name: "small files", stop: true, each: true, sql: `INSERT INTO local.iceberg_db.orders SELECT 1060 + 0, 1, 'Test Product 0', 'Home', 1, 9.9, TIMESTAMP '2024-07-01 10:00:00', 'completed';
INSERT INTO local.iceberg_db.orders SELECT 1060 + 1, 1, 'Test Product 1', 'Home', 1, 10.9, TIMESTAMP '2024-07-02 10:00:00', 'completed';
INSERT INTO local.iceberg_db.orders SELECT 1060 + 2, 1, 'Test Product 2', 'Home', 1, 11.9, TIMESTAMP '2024-07-03 10:00:00', 'completed';
INSERT INTO local.iceberg_db.orders SELECT 1060 + 3, 1, 'Test Product 3', 'Home', 1, 12.9, TIMESTAMP '2024-07-04 10:00:00', 'completed';
INSERT INTO local.iceberg_db.orders SELECT 1060 + 4, 1, 'Test Product 4', 'Home', 1, 13.9, TIMESTAMP '2024-07-05 10:00:00', 'completed';
INSERT INTO local.iceberg_db.orders SELECT 1060 + 5, 1, 'Test Product 5', 'Home', 1, 14.9, TIMESTAMP '2024-07-06 10:00:00', 'completed';
INSERT INTO local.iceberg_db.orders SELECT 1060 + 6, 1, 'Test Product 6', 'Home', 1, 15.9, TIMESTAMP '2024-07-07 10:00:00', 'completed';
INSERT INTO local.iceberg_db.orders SELECT 1060 + 7, 1, 'Test Product 7', 'Home', 1, 16.9, TIMESTAMP '2024-07-08 10:00:00', 'completed';
INSERT INTO local.iceberg_db.orders SELECT 1060 + 8, 1, 'Test Product 8', 'Home', 1, 17.9, TIMESTAMP '2024-07-09 10:00:00', 'completed';
INSERT INTO local.iceberg_db.orders SELECT 1060 + 9, 1, 'Test Product 9', 'Home', 1, 18.9, TIMESTAMP '2024-07-01 10:00:00', 'completed';
SELECT count(*) FROM local.iceberg_db.orders`, want: "67\n"},
	{name: "data files before compaction", sql: `SELECT count(*) FROM local.iceberg_db.orders.files WHERE content = 0`, want: "21\n"},
	{name: "rewrite data files", sql: `CALL local.system.rewrite_data_files(
    table => 'iceberg_db.orders',
    options => map('target-file-size-bytes', '134217728')
)`, re: true, want: `(?m)^21\|2\|\d+\|0\|0$`},
	{name: "data files after compaction", sql: `SELECT count(*) FROM local.iceberg_db.orders.files WHERE content = 0`, want: "2\n"},
	{name: "rows after compaction", sql: `SELECT count(*), count(DISTINCT order_id), sum(quantity) FROM local.iceberg_db.orders`, want: "67|62|76\n"},
	{name: "snapshots before expiry", sql: `SELECT count(*) FROM local.iceberg_db.orders.snapshots`, want: "15\n"},
	{name: "expire snapshots", sql: `CALL local.system.expire_snapshots(
    table => 'iceberg_db.orders',
    older_than => TIMESTAMP '2099-01-01 00:00:00',
    retain_last => 3
);
SELECT count(*) FROM local.iceberg_db.orders.snapshots`, want: "6|0|0|3|12|0\n3\n"},
	{name: "remove orphan files", sql: `CALL local.system.remove_orphan_files(
    table => 'iceberg_db.orders'
)`, want: ""},
	{name: "rows after maintenance", sql: `SELECT count(*) FROM local.iceberg_db.orders`, want: "67\n"},
	{name: "view", sql: `CREATE TEMP VIEW v_order_summary AS
SELECT
    year(order_time) AS order_year,
    month(order_time) AS order_month,
    category,
    count(*) AS order_count,
    sum(quantity) AS total_quantity,
    round(sum(price * quantity), 2) AS total_revenue
FROM local.iceberg_db.orders
GROUP BY year(order_time), month(order_time), category
ORDER BY order_year, order_month, category;
SELECT * FROM v_order_summary LIMIT 20`, want: `
2024|1|Books|2|2|138.9
2024|1|Electronics|4|5|3995
2024|2|Books|1|1|69
2024|2|Clothing|1|1|199
2024|2|Electronics|3|3|557
2024|2|Home|1|2|91
2024|3|Books|2|2|164
2024|3|Clothing|1|1|129
2024|3|Electronics|3|3|1547
2024|3|Home|1|1|89.99
2024|4|Books|4|4|326
2024|4|Clothing|1|2|316
2024|4|Electronics|4|4|1056
2024|4|Home|1|1|35
2024|5|Books|4|4|258
2024|5|Clothing|1|3|179.7
2024|5|Electronics|4|4|1546
2024|5|Home|3|4|538
2024|6|Books|3|3|269
2024|6|Clothing|2|3|128.8
`},
}
