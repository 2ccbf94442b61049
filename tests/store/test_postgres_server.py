"""The suite's own PostgreSQL server (tests/support/postgres_server.py): loopback, non-superuser, fresh databases."""

import psycopg


def test_the_role_is_not_a_superuser_and_owns_its_database(postgres_url):
    with psycopg.connect(postgres_url) as conn:
        user, superuser, owner = conn.execute(
            "SELECT current_user, rolsuper, pg_get_userbyid(d.datdba) FROM pg_roles r, pg_database d"
            " WHERE r.rolname = current_user AND d.datname = current_database()").fetchone()
        assert (user, superuser, owner) == ("unjargon", False, "unjargon")
        assert conn.execute("SHOW listen_addresses").fetchone()[0] == "127.0.0.1"


def test_each_test_gets_a_fresh_empty_database(postgres_database, postgres_url):
    assert postgres_database != postgres_url
    with psycopg.connect(postgres_database) as conn:
        assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()[0] == 0
        conn.execute("CREATE TABLE scratch (id int)")  # the owner may create tables in public
