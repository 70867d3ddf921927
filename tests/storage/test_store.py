"""The session database: migrations, permissions, WAL, one row per answered question."""

from __future__ import annotations

import sqlite3
import stat

import pytest

from studybot.storage import migrations
from studybot.storage.store import DB_NAME, Store, Turn


def test_database_is_created_private_with_wal_and_migrations(studybot_home):
    store = Store.open()
    path = studybot_home / DB_NAME
    assert path.is_file()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert store.db.journal_mode == "wal"
    applied = [row["name"] for row in store.db["_migrations"].rows]
    assert applied == [fn.__name__ for fn in migrations.MIGRATIONS]
    assert {"sessions", "segments", "turns", "followups", "prefixes"} <= set(store.db.table_names())


def test_migrations_run_once(studybot_home):
    Store.open().close()
    store = Store.open()
    assert migrations.apply(store.db) == []
    rows = list(store.db["_migrations"].rows)
    assert len(rows) == len(migrations.MIGRATIONS)


def test_a_question_cannot_be_recorded_twice(studybot_home):
    store = Store.open()
    session_id = store.new_session(
        bank="default",
        bank_title="t",
        first_question=1,
        last_question=2,
        provider="offline",
        model="answer-key",
        base_url="",
        wire_api="chat",
        settings={},
        prefix="系统前缀",
        segments=[(1, 2)],
    )
    turn = Turn(
        session_id=session_id,
        segment=0,
        question_id=1,
        question="q",
        answer="a",
        prompt_tokens=10,
        completion_tokens=5,
        cached_tokens=0,
        context_tokens=15,
        local_prompt_tokens=10,
        local_completion_tokens=5,
        usage_source="local",
        latency_ms=1.0,
    )
    store.record_turn(turn)
    with pytest.raises(sqlite3.IntegrityError):
        store.record_turn(turn)
    # committed: another connection sees the turn at once
    other = sqlite3.connect(store.path)
    assert other.execute("select count(*) from turns").fetchone() == (1,)
    record = store.session(session_id)
    assert record.answered == 1 and record.total == 2 and record.status == "stopped at Q2"


def test_unknown_session_is_bad_input(studybot_home):
    from studybot.errors import SessionNotFound

    store = Store.open()
    with pytest.raises(SessionNotFound):
        store.session(42)
    with pytest.raises(SessionNotFound):
        store.session("abc")


def test_an_older_database_is_migrated_in_place(studybot_home):
    from sqlite_utils import Database

    studybot_home.mkdir(parents=True)
    old = Database(studybot_home / DB_NAME)
    old["_migrations"].create({"name": str, "applied_at": str}, pk="name")
    migrations.MIGRATIONS[0](old)
    old["_migrations"].insert({"name": migrations.MIGRATIONS[0].__name__, "applied_at": "then"})
    old.close()
    store = Store.open()
    assert "summary_prompt_tokens" in store.db["segments"].columns_dict
    assert len(list(store.db["_migrations"].rows)) == len(migrations.MIGRATIONS)


def test_summary_requests_record_their_usage(invoke):
    import json

    invoke("run", "--from", "1", "--to", "14")
    data = json.loads(invoke("show", "1", "--json").stdout)
    *carried, last = data["segments"]
    for segment in carried:
        usage = segment["summary_usage"]
        assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
    assert last["summary_usage"] is None  # written only when a later run or export reads it
    # the summary request extends the segment's last request, so the cache covers most of it
    assert data["segments"][0]["summary_usage"]["cached_tokens"] > 0


def test_a_database_from_before_thrown_away_requests_were_kept_opens_and_migrates(
    invoke, studybot_home
):
    import json
    import sqlite3

    invoke("run", "--from", "1", "--to", "6")
    before = json.loads(invoke("show", "1", "--json").stdout)
    # The same file as a studybot before m011 left it: no such columns, no such migration.
    with sqlite3.connect(studybot_home / DB_NAME) as old:
        old.execute("delete from _migrations where name = 'm011_discarded_requests'")
        for table, column in migrations.DISCARDED_COLUMNS:
            old.execute(f"alter table {table} drop column {column}")
    read = Store.open(write=False).view(1)  # a reader never migrates
    assert [t.discarded.requests for t in read.turns] == [0] * 6
    shown = invoke("show", "1", "--json")
    assert shown.exit_code == 0 and json.loads(shown.stdout)["requests"] == before["requests"]
    store = Store.open()
    assert "discarded" in store.db["turns"].columns_dict
    assert store.view(1).turns == read.turns
