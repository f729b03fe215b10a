#!/usr/bin/perl
# The client matrix's Perl DBI scenario (see ../README.md): Debian's
# DBD::Pg as a Perl application uses it. prepare/execute with
# placeholders (server-side prepares, and DBD::Pg's own DEALLOCATE of them
# inside a transaction), fetch in every shape, column_info / table_info /
# primary_key_info introspection, COPY FROM STDIN with pg_putcopydata and
# COPY TO STDOUT with pg_getcopydata, transactions, errors with SQLSTATE.
# It connects with the PG* variables and passes against PostgreSQL 15 too.
use strict;
use warnings;
use DBI;
use DBD::Pg qw(:pg_types);

my $failures = 0;

# step runs one step and prints ok or FAIL; without ICEGATE_CLIENTS_ALL the
# first failure ends the scenario.
sub step {
    my ($name, $fn) = @_;
    my $ok = eval { $fn->(); 1 };
    if ($ok) {
        print "ok   $name\n";
        return;
    }
    my $err = $@ || 'unknown error';
    $err =~ s/\n.*//s;
    print "FAIL $name: $err\n";
    $failures++;
    exit 1 unless $ENV{ICEGATE_CLIENTS_ALL};
}

sub check {
    my ($cond, $msg) = @_;
    die "$msg\n" unless $cond;
}

my $dbh;
step('connect (RaiseError, AutoCommit)', sub {
    $dbh = DBI->connect('dbi:Pg:', undef, undef, { RaiseError => 1, PrintError => 0, AutoCommit => 1 });
    check($dbh->{pg_server_version} >= 150000, "server version $dbh->{pg_server_version}");
    $dbh->do('SET client_min_messages = warning');
});

step('create table (serial, jsonb, numeric, array, default)', sub {
    $dbh->do('DROP TABLE IF EXISTS perl_books');
    $dbh->do(q{CREATE TABLE perl_books (
        id serial PRIMARY KEY,
        title varchar(120) NOT NULL,
        author text,
        pages integer,
        price numeric(8,2),
        tags text[],
        meta jsonb,
        added date DEFAULT current_date)});
});

step('prepare/execute with placeholders, RETURNING', sub {
    my $sth = $dbh->prepare('INSERT INTO perl_books (title, author, pages, price, tags, meta) VALUES (?, ?, ?, ?, ?, ?) RETURNING id');
    my @ids;
    for my $b (['Dune', 'Herbert', 412, '9.99', ['sf', 'classic'], '{"series": "Dune", "n": 1}'],
               ['Emma', 'Austen', 474, undef, [], undef],
               ['Ubik', 'Dick', 202, '7.50', ['sf'], '{"series": null}']) {
        $sth->execute(@$b);
        push @ids, $sth->fetchrow_array;
    }
    check("@ids" eq '1 2 3', "ids @ids");
    check($dbh->last_insert_id(undef, undef, 'perl_books', 'id') == 3, 'last_insert_id');
    # $1-style placeholders and a typed bind.
    $sth = $dbh->prepare('SELECT title FROM perl_books WHERE pages > $1 AND author <> $2 ORDER BY id');
    $sth->bind_param(1, 300, { pg_type => PG_INT4 });
    $sth->bind_param(2, 'Nobody');
    $sth->execute;
    my $titles = join ',', map { $_->[0] } @{ $sth->fetchall_arrayref };
    check($titles eq 'Dune,Emma', "titles $titles");
});

step('fetch shapes: hashref, arrayref, selectall, arrays', sub {
    my $row = $dbh->selectrow_hashref('SELECT id, title, pages, price, tags, meta FROM perl_books WHERE id = ?', undef, 1);
    check($row->{title} eq 'Dune' && $row->{pages} == 412 && $row->{price} eq '9.99', 'row');
    check(ref $row->{tags} eq 'ARRAY' && "@{$row->{tags}}" eq 'sf classic', "tags @{[ref $row->{tags}]}");
    check($row->{meta} eq '{"n": 1, "series": "Dune"}', "jsonb text $row->{meta}");
    my $all = $dbh->selectall_arrayref('SELECT id, author FROM perl_books ORDER BY id', { Slice => {} });
    check(join(',', map { "$_->{id}:$_->{author}" } @$all) eq '1:Herbert,2:Austen,3:Dick', 'selectall');
    my $col = $dbh->selectcol_arrayref(q{SELECT meta->>'series' FROM perl_books WHERE meta IS NOT NULL ORDER BY id});
    check(defined $col->[0] && $col->[0] eq 'Dune' && !defined $col->[1], 'json null is undef');
    my $sth = $dbh->prepare('SELECT id, title, price, added FROM perl_books WHERE id = ?');
    $sth->execute(2);
    check(join(',', @{ $sth->{NAME_lc} }) eq 'id,title,price,added', 'NAME_lc');
    check(join(',', @{ $sth->{pg_type} }) eq 'int4,varchar,numeric,date', 'pg_type ' . join(',', @{ $sth->{pg_type} }));
    my @r = $sth->fetchrow_array;
    check(!defined $r[2] && $r[3] =~ /^\d{4}-\d\d-\d\d$/, 'NULL and date');
});

step('server-side prepares freed inside a transaction (DEALLOCATE)', sub {
    $dbh->begin_work;
    for my $i (1 .. 3) {
        my $sth = $dbh->prepare('UPDATE perl_books SET pages = pages + ? WHERE id = ?', { pg_server_prepare => 1 });
        $sth->execute(1, $i);
        $sth->finish;
        undef $sth; # DBD::Pg sends DEALLOCATE here, inside the transaction
    }
    my ($n) = $dbh->selectrow_array('SELECT sum(pages) FROM perl_books');
    check($n == 412 + 474 + 202 + 3, "sum in the block $n");
    $dbh->commit;
    my ($left) = $dbh->selectrow_array(q{SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE 'UPDATE perl_books%'});
    check($left == 0, "$left statements left prepared");
});

step('rollback, and the failed transaction state', sub {
    $dbh->begin_work;
    $dbh->do(q{INSERT INTO perl_books (title) VALUES ('Ghost')});
    eval { $dbh->do('SELECT * FROM perl_nothing') };
    check($dbh->state eq '42P01', 'state ' . $dbh->state);
    eval { $dbh->do('SELECT 1') };
    check($dbh->state eq '25P02', 'state in a failed block ' . $dbh->state);
    $dbh->rollback;
    my ($n) = $dbh->selectrow_array(q{SELECT count(*) FROM perl_books WHERE title = 'Ghost'});
    check($n == 0, 'ghost kept');
    check($dbh->{AutoCommit}, 'AutoCommit back on');
});

step('introspection: table_info, column_info, primary_key_info', sub {
    my $t = $dbh->table_info(undef, 'public', 'perl_books', 'TABLE')->fetchall_arrayref({});
    check(@$t == 1 && $t->[0]{TABLE_NAME} eq 'perl_books' && $t->[0]{TABLE_TYPE} eq 'TABLE', 'table_info');
    my $cols = $dbh->column_info(undef, 'public', 'perl_books', '%')->fetchall_arrayref({});
    my $desc = join '|', map { join ' ', $_->{COLUMN_NAME}, $_->{TYPE_NAME}, $_->{NULLABLE}, $_->{COLUMN_SIZE} // '-' } @$cols;
    my $want = 'id integer 0 4|title character varying 0 120|author text 1 -|pages integer 1 4|price numeric 1 2,8|tags text[] 1 -|meta jsonb 1 -|added date 1 4';
    check($desc eq $want, "column_info: got $desc, want $want");
    my ($def) = map { $_->{COLUMN_DEF} } grep { $_->{COLUMN_NAME} eq 'id' } @$cols;
    check($def eq q{nextval('perl_books_id_seq'::regclass)}, "COLUMN_DEF $def");
    my @pk = $dbh->primary_key(undef, 'public', 'perl_books');
    check("@pk" eq 'id', "primary_key @pk");
    my $pk = $dbh->primary_key_info(undef, 'public', 'perl_books')->fetchall_arrayref({});
    check(@$pk == 1 && $pk->[0]{PK_NAME} eq 'perl_books_pkey' && $pk->[0]{KEY_SEQ} == 1, 'primary_key_info');
    my @tables = $dbh->tables(undef, 'public', 'perl_%', 'TABLE');
    check(grep({ $_ eq 'public.perl_books' } @tables) == 1, "tables @tables");
});

step('COPY FROM STDIN with pg_putcopydata, COPY TO STDOUT', sub {
    $dbh->do('COPY perl_books (title, author, pages, meta) FROM STDIN');
    $dbh->pg_putcopydata("Solaris\tLem\t204\t{\"lang\": \"pl\"}\n");
    $dbh->pg_putcopydata("Kindred\tButler\t264\t\\N\n");
    $dbh->pg_putcopyend;
    my ($n, $ids) = $dbh->selectrow_array('SELECT count(*), count(DISTINCT id) FROM perl_books');
    check($n == 5 && $ids == 5, "after COPY: $n rows, $ids ids");
    $dbh->do(q{COPY (SELECT title, meta FROM perl_books WHERE id > 3 ORDER BY id) TO STDOUT WITH (FORMAT csv)});
    my ($line, @out);
    push @out, $line while $dbh->pg_getcopydata($line) >= 0;
    check(join('', @out) eq qq{Solaris,"{""lang"": ""pl""}"\nKindred,\n}, 'copied out ' . join('', @out));
});

step('errors: RaiseError messages carry the SQLSTATE', sub {
    my %cases = (
        'SELECT 1/0' => '22012',
        'SELECT nope FROM perl_books' => '42703',
        'SELEC 1' => '42601',
        "SELECT '{bad'::jsonb" => '22P02',
        q{INSERT INTO perl_books (title) VALUES (NULL)} => '23502',
    );
    for my $sql (sort keys %cases) {
        my $ok = eval { $dbh->do($sql); 1 };
        check(!$ok, "$sql: no error");
        check($dbh->state eq $cases{$sql}, "$sql: state " . $dbh->state . ", want $cases{$sql}");
        check($dbh->err == 7, "$sql: err " . $dbh->err);
    }
});

step('drop', sub {
    $dbh->do('DROP TABLE perl_books');
    $dbh->disconnect;
});

exit($failures ? 1 : 0);
