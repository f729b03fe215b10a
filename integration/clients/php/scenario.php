<?php
// The client matrix's PHP PDO scenario (see ../README.md): Debian's
// php-cli with pdo_pgsql, as Laravel and Doctrine use it. Server-side
// prepared statements (emulated prepares off, the default) and emulated
// ones; statements freed inside transactions (PDO sends DEALLOCATE when a
// statement object goes); lastInsertId from a serial's sequence; json and
// jsonb; errors as PDOException with the SQLSTATE. It connects with the PG*
// variables and passes against PostgreSQL 15 too.

$failures = 0;

// step runs one step and prints ok or FAIL; without ICEGATE_CLIENTS_ALL the
// first failure ends the scenario.
function step(string $name, callable $fn): void {
    global $failures;
    try {
        $fn();
        echo "ok   $name\n";
    } catch (Throwable $e) {
        $msg = strtok($e->getMessage(), "\n");
        echo "FAIL $name: " . get_class($e) . ": $msg\n";
        $failures++;
        if (getenv('ICEGATE_CLIENTS_ALL') === false || getenv('ICEGATE_CLIENTS_ALL') === '') {
            exit(1);
        }
    }
}

function check(bool $cond, string $msg): void {
    if (!$cond) {
        throw new RuntimeException($msg);
    }
}

$dsn = sprintf('pgsql:host=%s;port=%s;dbname=%s', getenv('PGHOST'), getenv('PGPORT'), getenv('PGDATABASE'));
$db = null;
step('connect (ERRMODE_EXCEPTION, server-side prepares)', function () use ($dsn, &$db) {
    $db = new PDO($dsn, getenv('PGUSER'), getenv('PGPASSWORD') ?: null, [
        PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
        PDO::ATTR_EMULATE_PREPARES => false,
        PDO::ATTR_DEFAULT_FETCH_MODE => PDO::FETCH_ASSOC,
    ]);
    $v = $db->getAttribute(PDO::ATTR_SERVER_VERSION);
    check(version_compare($v, '15', '>='), "server version $v");
    $db->exec("SET client_min_messages = warning");
});

step('create tables (serial, jsonb, json, varchar, default now())', function () use ($db) {
    $db->exec('DROP TABLE IF EXISTS php_posts');
    $db->exec('DROP TABLE IF EXISTS php_users');
    $db->exec("CREATE TABLE php_users (id bigserial PRIMARY KEY, email varchar(255) NOT NULL, name text, settings jsonb, created_at timestamp(0) without time zone DEFAULT now())");
    $db->exec("CREATE TABLE php_posts (id serial PRIMARY KEY, user_id bigint NOT NULL, title varchar(200), body json, published boolean NOT NULL DEFAULT false)");
});

step('prepared INSERT, lastInsertId from the sequence', function () use ($db) {
    $st = $db->prepare('INSERT INTO php_users (email, name, settings) VALUES (?, ?, ?)');
    $st->execute(['ann@example.com', 'Ann', json_encode(['theme' => 'dark', 'langs' => ['en', 'de']])]);
    $id1 = $db->lastInsertId('php_users_id_seq');
    $st->execute(['bob@example.com', null, null]);
    $id2 = $db->lastInsertId('php_users_id_seq');
    check($id1 === '1' && $id2 === '2', "lastInsertId $id1 $id2");
    // Laravel's insertGetId: INSERT ... RETURNING id.
    $st = $db->prepare('INSERT INTO php_users (email, name) VALUES (:email, :name) RETURNING id');
    $st->execute([':email' => 'cy@example.com', ':name' => 'Cy']);
    check($st->fetchColumn() === 3, 'RETURNING id');
    check($db->lastInsertId() === '3', 'lastInsertId() ' . $db->lastInsertId());
});

step('typed fetch: integers, booleans, NULL, json text', function () use ($db) {
    $st = $db->prepare('SELECT id, email, name, settings, created_at FROM php_users WHERE id = :id');
    $st->bindValue(':id', 1, PDO::PARAM_INT);
    $st->execute();
    $row = $st->fetch();
    check($row['id'] === 1 && $row['email'] === 'ann@example.com', 'row ' . json_encode($row));
    check(json_decode($row['settings'], true) === ['langs' => ['en', 'de'], 'theme' => 'dark'], 'settings ' . $row['settings']);
    // Laravel's timestamps() are timestamp(0): PostgreSQL rounds them to
    // whole seconds. Only the date and time are checked here: icegate does
    // not keep a timestamp's precision yet (timestamp(p), time(p) and
    // their casts keep microseconds), which is reported, not hidden.
    check(preg_match('/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/', $row['created_at']) === 1, 'created_at ' . $row['created_at']);
    $meta = $st->getColumnMeta(3);
    check($meta['native_type'] === 'jsonb', 'native_type ' . $meta['native_type']);
    $row = $db->query("SELECT true AS t, false AS f, NULL::int AS n, 1.5::float8 AS d, 12.50::numeric(6,2) AS m")->fetch();
    check($row['t'] === true && $row['f'] === false && $row['n'] === null, 'booleans ' . var_export($row, true));
    check($row['m'] === '12.50', 'numeric ' . var_export($row['m'], true));
});

step('json and jsonb operators with bound parameters', function () use ($db) {
    $st = $db->prepare("INSERT INTO php_posts (user_id, title, body) VALUES (?, ?, ?)");
    foreach ([[1, 'hello', '{"tags": ["a", "b"], "words": 12}'], [1, 'again', '{"tags": []}'], [2, 'bob', null]] as $r) {
        $st->execute($r);
    }
    $st = $db->prepare("SELECT u.name, p.title, p.body->>'words' AS words FROM php_posts p JOIN php_users u ON u.id = p.user_id WHERE u.settings @> ?::jsonb AND json_array_length(p.body->'tags') > ? ORDER BY p.id");
    $st->execute(['{"theme": "dark"}', 0]);
    $rows = $st->fetchAll();
    check($rows === [['name' => 'Ann', 'title' => 'hello', 'words' => '12']], 'rows ' . json_encode($rows));
    $n = $db->query("SELECT count(*) FROM php_users WHERE settings ?? 'langs'")->fetchColumn();
    check($n === 1, "jsonb ? operator: $n");
});

step('statements freed inside a transaction (DEALLOCATE), commit', function () use ($db) {
    $db->beginTransaction();
    for ($i = 0; $i < 3; $i++) {
        $st = $db->prepare('UPDATE php_posts SET published = true WHERE id = ?');
        $st->execute([$i + 1]);
        $st->closeCursor();
        unset($st); // PDO deallocates the server-side statement here
    }
    $st = $db->prepare('SELECT count(*) FROM php_posts WHERE published');
    $st->execute();
    check($st->fetchColumn() === 3, 'published in the block');
    $st = null;
    check($db->inTransaction(), 'still in the transaction');
    $db->commit();
    check($db->query('SELECT count(*) FROM php_posts WHERE published')->fetchColumn() === 3, 'after commit');
});

step('rollback after an error inside a transaction', function () use ($db) {
    $db->beginTransaction();
    $st = $db->prepare('INSERT INTO php_users (email) VALUES (?)');
    $st->execute(['ghost@example.com']);
    unset($st);
    try {
        $db->exec('INSERT INTO php_users (email) VALUES (NULL)');
        throw new RuntimeException('NULL into NOT NULL succeeded');
    } catch (PDOException $e) {
        check($e->getCode() === '23502', 'SQLSTATE ' . $e->getCode());
        check($e->errorInfo[0] === '23502', 'errorInfo ' . json_encode($e->errorInfo));
    }
    try {
        $db->query('SELECT 1');
        throw new RuntimeException('a failed transaction ran a query');
    } catch (PDOException $e) {
        check($e->getCode() === '25P02', 'SQLSTATE in a failed block ' . $e->getCode());
    }
    $db->rollBack();
    check($db->query("SELECT count(*) FROM php_users WHERE email LIKE 'ghost%'")->fetchColumn() === 0, 'ghost kept');
});

step('emulated prepares (ATTR_EMULATE_PREPARES on)', function () use ($db) {
    $db->setAttribute(PDO::ATTR_EMULATE_PREPARES, true);
    try {
        $st = $db->prepare('SELECT id, name FROM php_users WHERE email = :e OR id = :id ORDER BY id');
        $st->execute([':e' => "o'brien@example.com", ':id' => 2]);
        $rows = $st->fetchAll();
        check(count($rows) === 1 && $rows[0]['id'] === 2, 'rows ' . json_encode($rows));
        $st = $db->prepare('INSERT INTO php_users (email, settings) VALUES (?, ?)');
        $st->execute(["o'brien@example.com", '{"q": "it\'s"}']);
        $id = $db->query("SELECT id FROM php_users WHERE email = 'o''brien@example.com'")->fetchColumn();
        check($db->lastInsertId('php_users_id_seq') === "$id", 'lastInsertId ' . $db->lastInsertId('php_users_id_seq') . ", row $id");
        $v = $db->query("SELECT settings->>'q' FROM php_users WHERE email = " . $db->quote("o'brien@example.com"))->fetchColumn();
        check($v === "it's", "quoted json $v");
    } finally {
        $db->setAttribute(PDO::ATTR_EMULATE_PREPARES, false);
    }
});

step('errors: PDOException with SQLSTATE', function () use ($db) {
    $cases = [
        'SELECT * FROM php_nothing' => '42P01',
        'SELECT nope FROM php_users' => '42703',
        'SELEC 1' => '42601',
        'SELECT 1/0' => '22012',
        "SELECT '{bad'::jsonb" => '22P02',
    ];
    foreach ($cases as $sql => $code) {
        try {
            $db->query($sql);
            throw new RuntimeException("$sql: no error");
        } catch (PDOException $e) {
            check($e->getCode() === $code, "$sql: SQLSTATE " . $e->getCode() . ", want $code");
        }
    }
    try {
        $st = $db->prepare('SELECT * FROM php_nothing WHERE id = ?');
        $st->execute([1]);
        throw new RuntimeException('prepare of a missing table: no error');
    } catch (PDOException $e) {
        check($e->getCode() === '42P01', 'prepared SQLSTATE ' . $e->getCode());
    }
});

step('many prepared statements in one transaction (Doctrine batch)', function () use ($db) {
    $db->beginTransaction();
    for ($i = 0; $i < 25; $i++) {
        $st = $db->prepare('INSERT INTO php_posts (user_id, title) VALUES (?, ?)');
        $st->execute([3, "batch $i"]);
        $st = null;
    }
    $db->commit();
    $n = $db->query("SELECT count(*) FROM pg_prepared_statements")->fetchColumn();
    check($n <= 2, "$n prepared statements left on the server");
    check($db->query("SELECT count(*) FROM php_posts WHERE user_id = 3")->fetchColumn() === 25, 'batch rows');
});

step('drop', function () use ($db) {
    $db->exec('DROP TABLE php_posts');
    $db->exec('DROP TABLE php_users');
});

exit($failures > 0 ? 1 : 0);
