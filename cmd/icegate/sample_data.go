package main

// The sample lakehouse's shop: the customers and orders of the Iceberg
// walkthrough (docs: FEATURES.md section 9), the same rows on every run.
// Each table is built by a few statements whose commits give it a history
// to read: time travel, the metadata tables and CHANGES BETWEEN.

// sampleTable is one table of the sample and the statements that build
// it, run in order after the table's CREATE TABLE.
type sampleTable struct {
	schema, name string
	// create is the CREATE TABLE statement.
	create string
	// steps are the statements that fill and change it; each commits one
	// snapshot, or only a new schema (ALTER).
	steps []string
	// note is printed after the table's counts ("partitioned by ...").
	note string
}

func (t sampleTable) qualified() string { return t.schema + "." + t.name }

var shopCustomers = sampleTable{
	schema: "shop", name: "customers",
	create: `CREATE TABLE shop.customers (
  customer_id int NOT NULL,
  name text,
  email text,
  country text,
  registration_date date,
  tier text
)`,
	steps: []string{
		`INSERT INTO shop.customers VALUES
  (1, '张伟', 'zhangwei@example.com', 'CN', '2023-01-15', 'vip'),
  (2, '李娜', 'lina@example.com', 'CN', '2023-02-20', 'premium'),
  (3, 'John Smith', 'jsmith@example.com', 'US', '2023-03-10', 'free'),
  (4, 'Emily Davis', 'edavis@example.com', 'US', '2023-04-05', 'premium'),
  (5, 'James Wilson', 'jwilson@example.com', 'UK', '2023-05-18', 'free'),
  (6, '田中太郎', 'tanaka@example.com', 'JP', '2023-06-01', 'vip'),
  (7, '王芳', 'wangfang@example.com', 'CN', '2023-06-22', 'free'),
  (8, 'Sarah Brown', 'sbrown@example.com', 'UK', '2023-07-14', 'premium'),
  (9, 'Mike Johnson', 'mjohnson@example.com', 'US', '2023-08-30', 'free'),
  (10, '佐藤花子', 'sato@example.com', 'JP', '2023-09-12', 'premium'),
  (11, '赵磊', 'zhaolei@example.com', 'CN', '2023-10-01', 'vip'),
  (12, 'Alice Lee', 'alee@example.com', 'US', '2023-11-20', 'free'),
  (13, 'David Clark', 'dclark@example.com', 'UK', '2024-01-05', 'premium'),
  (14, '陈静', 'chenjing@example.com', 'CN', '2024-01-15', 'free'),
  (15, 'Robert Taylor', 'rtaylor@example.com', 'US', '2024-02-28', 'vip'),
  (16, '铃木一郎', 'suzuki@example.com', 'JP', '2024-03-10', 'free'),
  (17, '黄丽', 'huangli@example.com', 'CN', '2024-03-22', 'premium'),
  (18, 'Emma Thomas', 'ethomas@example.com', 'UK', '2024-04-01', 'free'),
  (19, '林强', 'linqiang@example.com', 'CN', '2024-04-15', 'vip'),
  (20, 'Tom Harris', 'tharris@example.com', 'US', '2024-05-01', 'premium')`,
		`UPDATE shop.customers SET name = '张伟(已更名)' WHERE customer_id = 1`,
		`ALTER TABLE shop.customers ADD COLUMN phone text`,
	},
}

var shopOrders = sampleTable{
	schema: "shop", name: "orders",
	create: `CREATE TABLE shop.orders (
  order_id int NOT NULL,
  customer_id int,
  product_name text,
  category text,
  quantity int,
  price numeric(10,2),
  order_time timestamp,
  status text
) WITH (partitioning = 'months(order_time)')`,
	steps: []string{
		`INSERT INTO shop.orders VALUES
  (1001, 1, 'MacBook Pro 16', 'Electronics', 1, 2499.00, '2024-01-05 09:23:00', 'completed'),
  (1002, 1, 'AirPods Pro', 'Electronics', 2, 249.00, '2024-01-05 09:25:00', 'completed'),
  (1003, 2, 'Python编程入门', 'Books', 1, 59.90, '2024-01-12 14:30:00', 'completed'),
  (1004, 3, '数据密集型应用设计', 'Books', 1, 79.00, '2024-01-18 11:00:00', 'completed'),
  (1005, 4, 'Sony WH-1000XM5', 'Electronics', 1, 349.00, '2024-01-25 16:45:00', 'cancelled'),
  (1006, 5, '冬季羽绒服', 'Clothing', 1, 199.00, '2024-02-01 10:15:00', 'completed'),
  (1007, 6, 'Nintendo Switch', 'Electronics', 1, 299.00, '2024-02-08 08:30:00', 'completed'),
  (1008, 7, 'Spark快速大数据分析', 'Books', 1, 69.00, '2024-02-14 13:20:00', 'pending'),
  (1009, 8, 'Yoga Mat Premium', 'Home', 2, 45.50, '2024-02-20 15:00:00', 'completed'),
  (1010, 9, '机械键盘 Cherry轴', 'Electronics', 1, 129.00, '2024-02-28 09:45:00', 'cancelled'),
  (1011, 10, 'Kindle Paperwhite', 'Electronics', 1, 139.00, '2024-03-02 10:00:00', 'completed'),
  (1012, 11, 'Clean Code', 'Books', 1, 42.00, '2024-03-05 19:10:00', 'completed'),
  (1013, 12, 'Running Shoes', 'Clothing', 1, 129.00, '2024-03-09 12:40:00', 'completed'),
  (1014, 13, 'iPad Air', 'Electronics', 1, 599.00, '2024-03-12 09:05:00', 'completed'),
  (1015, 14, 'Desk Lamp LED', 'Home', 1, 89.99, '2024-03-15 20:30:00', 'completed'),
  (1016, 15, 'The Pragmatic Programmer', 'Books', 1, 49.00, '2024-03-19 08:50:00', 'completed'),
  (1017, 16, 'Ergonomic Mouse', 'Electronics', 1, 99.00, '2024-03-23 14:15:00', 'completed'),
  (1018, 17, 'Smart Watch', 'Electronics', 1, 299.00, '2024-03-26 11:20:00', 'cancelled'),
  (1019, 18, 'Designing Interfaces', 'Books', 1, 55.00, '2024-03-30 16:00:00', 'completed'),
  (1020, 19, 'Rain Jacket', 'Clothing', 2, 79.00, '2024-04-02 09:30:00', 'completed'),
  (1021, 20, 'SQL Antipatterns', 'Books', 1, 39.00, '2024-04-05 13:00:00', 'completed'),
  (1022, 1, '4K Monitor 27', 'Electronics', 1, 329.00, '2024-04-08 10:10:00', 'completed'),
  (1023, 2, 'Ceramic Mug Set', 'Home', 1, 35.00, '2024-04-11 15:45:00', 'completed'),
  (1024, 3, 'Refactoring', 'Books', 1, 47.00, '2024-04-14 18:20:00', 'pending'),
  (1025, 4, 'USB Microphone', 'Electronics', 1, 119.00, '2024-04-17 12:00:00', 'completed'),
  (1026, 5, 'Deep Learning', 'Books', 1, 72.00, '2024-04-20 09:40:00', 'completed'),
  (1027, 6, 'Webcam HD', 'Electronics', 1, 69.00, '2024-04-24 17:30:00', 'completed'),
  (1028, 7, 'Database Internals', 'Books', 1, 58.00, '2024-04-28 10:50:00', 'completed'),
  (1029, 8, 'Electric Kettle', 'Home', 1, 59.00, '2024-05-01 08:20:00', 'completed'),
  (1030, 9, 'Summer Dress', 'Clothing', 3, 59.90, '2024-05-04 14:00:00', 'completed'),
  (1031, 10, 'Noise Cancelling Earbuds', 'Electronics', 1, 199.00, '2024-05-07 11:30:00', 'completed'),
  (1032, 11, 'Air Fryer', 'Home', 1, 129.00, '2024-05-10 19:00:00', 'cancelled'),
  (1033, 12, 'Learning Go', 'Books', 1, 45.00, '2024-05-13 09:15:00', 'completed'),
  (1034, 13, 'Gaming Keyboard', 'Electronics', 1, 149.00, '2024-05-16 16:40:00', 'completed'),
  (1035, 14, 'Bath Towel Set', 'Home', 2, 40.00, '2024-05-20 12:30:00', 'completed'),
  (1036, 15, 'System Design Interview', 'Books', 1, 38.00, '2024-05-24 10:05:00', 'pending'),
  (1037, 16, 'Portable SSD 1TB', 'Electronics', 1, 109.00, '2024-05-28 15:50:00', 'completed'),
  (1038, 17, 'USB-C Hub 7合1', 'Electronics', 1, 49.00, '2024-06-01 08:15:00', 'completed'),
  (1039, 18, 'T恤 夏季纯棉', 'Clothing', 2, 39.90, '2024-06-03 10:00:00', 'completed'),
  (1040, 19, 'Effective Java', 'Books', 1, 65.00, '2024-06-05 15:30:00', 'completed'),
  (1041, 20, '运动短裤', 'Clothing', 1, 49.00, '2024-06-08 09:00:00', 'completed'),
  (1042, 1, 'Air Conditioner', 'Home', 1, 1299.00, '2024-06-10 11:00:00', 'completed'),
  (1043, 2, 'Water Bottle Insulated', 'Home', 2, 25.00, '2024-06-12 13:00:00', 'completed'),
  (1044, 3, '算法导论', 'Books', 1, 128.00, '2024-06-15 14:30:00', 'completed'),
  (1045, 4, 'Wireless Mouse', 'Electronics', 1, 39.00, '2024-06-17 10:00:00', 'cancelled'),
  (1046, 5, 'Bluetooth Headset', 'Electronics', 1, 89.00, '2024-06-19 16:00:00', 'completed'),
  (1047, 6, 'Phone Case Premium', 'Electronics', 1, 29.00, '2024-06-21 08:30:00', 'completed'),
  (1048, 7, 'Scala编程', 'Books', 1, 76.00, '2024-06-23 11:15:00', 'completed'),
  (1049, 8, 'Laptop Stand', 'Electronics', 1, 45.00, '2024-06-25 13:45:00', 'pending'),
  (1050, 9, 'Pillow Memory Foam', 'Home', 2, 35.00, '2024-06-28 15:00:00', 'completed')`,
		`UPDATE shop.orders SET status = 'completed' WHERE order_id = 1008`,
		`DELETE FROM shop.orders WHERE status = 'cancelled'`,
		`ALTER TABLE shop.orders ADD COLUMN coupon text`,
		`INSERT INTO shop.orders VALUES
  (1051, 12, 'Pixel Watch 3', 'Electronics', 1, 349.00, '2024-07-02 10:30:00', 'pending', 'SUMMER24'),
  (1052, 3, 'Standing Desk', 'Home', 1, 499.00, '2024-07-05 14:00:00', 'completed', NULL)`,
	},
	note: "partitioned by months(order_time)",
}

// shopTables are the shop's tables in the order they are built.
var shopTables = []sampleTable{shopCustomers, shopOrders}
