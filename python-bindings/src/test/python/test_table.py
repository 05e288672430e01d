"""The authoring surface of weaver.Table and weaver.LoadContext."""

from __future__ import annotations

import json
import pydoc
from datetime import datetime, timedelta, timezone

import pytest

import weaver
from fakes import LAST_TS, LOAD_TS, context, df, returning
from weaver import LoadContext, Table
from weaver.contract import run_read

TABLE = "Logistics.Parcel.Current"


class Parcel__Current(Table):
    def read(self):
        return df("parcel_id", "status")


def table(**ctx) -> Parcel__Current:
    return Parcel__Current(context(**ctx))


# --------------------------------------------------------------------------- package

def test_package_exports():
    assert weaver.__version__ == "0.1.0"
    assert set(weaver.__all__) >= {"Table", "LoadContext", "StagingResult",
                                   "ReturnContractError", "__version__"}
    for name in weaver.__all__:
        assert hasattr(weaver, name)


def test_py_typed_marker_is_present():
    from pathlib import Path

    assert (Path(weaver.__file__).parent / "py.typed").is_file()


def test_help_documents_read_and_the_helpers():
    text = pydoc.render_doc(Table, renderer=pydoc.plaintext)
    for phrase in ("read(self)", "synchronous", "(staging, delete_keys)", "None",
                   "self.bookmark", "set_bookmark", "self.table(identity", "self.target()",
                   "last_load_timestamp", "__init__"):
        assert phrase in text, phrase
    assert "synchronous" in Table.read.__doc__ and "delete_keys" in Table.read.__doc__
    assert Table.set_bookmark.__doc__ and Table.table.__doc__ and Table.target.__doc__


# --------------------------------------------------------------------------- attributes

def test_attributes_come_from_the_context():
    spark = object()
    t = table(spark=spark)
    assert t.spark is spark
    assert t.table_id == "Parcel.Current"
    assert t.item == "Logistics"
    assert t.load_timestamp == LOAD_TS and t.load_timestamp.tzinfo is timezone.utc
    assert t.last_load_timestamp == LAST_TS and t.last_load_timestamp.tzinfo is timezone.utc
    assert repr(t) == f"<Parcel__Current Table {TABLE}>"


def test_attributes_are_read_only():
    t = table()
    with pytest.raises(AttributeError):
        t.spark = None  # type: ignore[misc]
    with pytest.raises(AttributeError):
        t.bookmark = 1  # type: ignore[misc]


def test_timestamps_are_normalised_to_utc():
    plus2 = timezone(timedelta(hours=2))
    t = table(load_timestamp=datetime(2026, 11, 30, 11, 0, tzinfo=plus2))
    assert t.load_timestamp == LOAD_TS
    assert t.load_timestamp.tzinfo is timezone.utc
    assert t.load_timestamp.hour == 9


def test_never_loaded_means_1900_utc():
    t = table(last_load_timestamp=None)
    assert t.last_load_timestamp == datetime(1900, 1, 1, tzinfo=timezone.utc)
    assert t.last_load_timestamp.tzinfo is timezone.utc


def test_naive_timestamps_are_refused():
    with pytest.raises(ValueError, match="timezone-aware"):
        context(load_timestamp=datetime(2026, 11, 30))
    with pytest.raises(ValueError, match="last_load_timestamp must be timezone-aware"):
        context(last_load_timestamp=datetime(2026, 11, 30))


def test_table_must_be_constructed_with_a_load_context():
    with pytest.raises(TypeError, match="weaver.LoadContext"):
        Parcel__Current(object())  # type: ignore[arg-type]


def test_unimplemented_read_names_the_table():
    with pytest.raises(NotImplementedError, match=f"Table {TABLE}: .* must implement read"):
        Table(context()).read()


# --------------------------------------------------------------------------- LoadContext

def test_load_context_is_frozen_and_normalises_columns():
    ctx = context(primary_key=["parcel_id"], business_columns=["parcel_id", "status"])
    assert ctx.primary_key == ("parcel_id",)
    assert ctx.business_columns == ("parcel_id", "status")
    assert ctx.qualified_table_id == TABLE
    with pytest.raises(Exception):
        ctx.incremental = True  # type: ignore[misc]


def test_load_context_defaults():
    ctx = LoadContext(spark=None, table_id="A.B", item="I", load_timestamp=LOAD_TS)
    assert ctx.bookmark is None and ctx.bookmark_value is None
    assert ctx.incremental is False
    assert ctx.primary_key == () and ctx.business_columns == ()
    assert ctx.read_table is None and ctx.read_target is None
    assert ctx.last_load_timestamp == datetime(1900, 1, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize("overrides, error, pattern", [
    (dict(table_id="Current"), ValueError, "Schema.Object"),
    (dict(table_id="Logistics.Parcel.Current"), ValueError, "Schema.Object"),
    (dict(item=""), ValueError, "item"),
    (dict(primary_key="parcel_id"), TypeError, "not a single string"),
    (dict(business_columns=("a", "a")), ValueError, "repeats column"),
    (dict(bookmark="{not json"), ValueError, "not valid JSON"),
    (dict(bookmark={"a": 1}), TypeError, "JSON text"),
    (dict(incremental="true"), TypeError, "incremental must be a bool"),
    (dict(read_table="nope"), TypeError, "read_table must be callable"),
])
def test_load_context_validation(overrides, error, pattern):
    with pytest.raises(error, match=pattern):
        context(**overrides)


# --------------------------------------------------------------------------- bookmarks

def test_bookmark_is_none_without_a_committed_bookmark():
    assert table().bookmark is None


def test_bookmark_is_parsed_from_json():
    t = table(bookmark='{"max_id": 41, "files": ["a", "b"]}')
    assert t.bookmark == {"max_id": 41, "files": ["a", "b"]}


def test_bookmark_json_null_reads_as_none():
    assert table(bookmark="null").bookmark is None


def test_bookmark_access_returns_a_fresh_copy():
    t = table(bookmark='{"max_id": 41}')
    t.bookmark["max_id"] = 99
    assert t.bookmark == {"max_id": 41}


def test_set_bookmark_does_not_change_the_committed_bookmark():
    t = table(bookmark='{"max_id": 41}')
    t.set_bookmark({"max_id": 42})
    assert t.bookmark == {"max_id": 41}


def test_set_bookmark_is_staged_in_the_result():
    class Parcel__Current(Table):
        def read(self):
            self.set_bookmark({"max_id": (self.bookmark or {"max_id": 0})["max_id"] + 1})
            return df("parcel_id", "status")

    result = run_read(Parcel__Current, context(bookmark='{"max_id": 41}'))
    assert json.loads(result.bookmark_json) == {"max_id": 42}


def test_bookmark_unchanged_when_set_bookmark_not_called():
    assert run_read(returning(df("parcel_id", "status")), context(bookmark="7")).bookmark_json \
        is None


def test_last_set_bookmark_wins_and_is_serialised_immediately():
    class Parcel__Current(Table):
        def read(self):
            value = {"ids": [1]}
            self.set_bookmark("first")
            self.set_bookmark(value)
            value["ids"].append(2)  # too late: already serialised
            return None

    result = run_read(Parcel__Current, context(incremental=True))
    assert result.no_work and json.loads(result.bookmark_json) == {"ids": [1]}


def test_set_bookmark_none_clears_the_bookmark():
    class Parcel__Current(Table):
        def read(self):
            self.set_bookmark(None)
            return df("parcel_id", "status")

    assert run_read(Parcel__Current, context(bookmark='{"a": 1}')).bookmark_json == "null"


@pytest.mark.parametrize("value", [
    {"max_id": 41}, [1, "two", 3.5, None, True], "2026-11-30T09:00:00Z", 0, {"nested": {"é": [{}]}},
])
def test_bookmark_round_trip(value):
    class First(Table):
        def read(self):
            self.set_bookmark(value)
            return df("parcel_id", "status")

    class Second(Table):
        def read(self):
            assert self.bookmark == value
            return df("parcel_id", "status")

    staged = run_read(First, context()).bookmark_json
    run_read(Second, context(bookmark=staged))


@pytest.mark.parametrize("value, why", [
    (datetime(2026, 1, 1), "datetime"),
    ({"s": {1, 2}}, "set"),
    (object(), "object"),
    (float("nan"), "float"),
    (b"bytes", "bytes"),
])
def test_unserialisable_bookmark_is_rejected(value, why):
    t = table()
    with pytest.raises(TypeError) as info:
        t.set_bookmark(value)
    message = str(info.value)
    assert message.startswith(f"Table {TABLE}: set_bookmark() needs a JSON-serialisable value")
    assert why in message


def test_circular_bookmark_is_rejected_as_type_error():
    loop: list = []
    loop.append(loop)
    with pytest.raises(TypeError, match="JSON-serialisable"):
        table().set_bookmark(loop)


def test_rejected_bookmark_leaves_earlier_staged_value():
    class Parcel__Current(Table):
        def read(self):
            self.set_bookmark({"ok": 1})
            with pytest.raises(TypeError):
                self.set_bookmark({"bad": object()})
            return df("parcel_id", "status")

    assert json.loads(run_read(Parcel__Current, context()).bookmark_json) == {"ok": 1}


# --------------------------------------------------------------------------- table() / target()

def test_table_delegates_to_the_context_reader():
    calls = []
    rows = df("event_id")

    def read_table(identity, include_deleted):
        calls.append((identity, include_deleted))
        return rows

    t = table(read_table=read_table)
    assert t.table("Parcel.Event") is rows
    assert t.table("Sales.Order.Line", include_deleted=True) is rows
    assert t.table("Files/Raw.Parcel", True) is rows
    assert calls == [("Parcel.Event", False), ("Sales.Order.Line", True),
                     ("Files/Raw.Parcel", True)]


def test_target_delegates_to_the_context_reader():
    rows = df("parcel_id", "status")
    assert table(read_target=lambda: rows).target() is rows


def test_table_without_a_reader_fails_clearly():
    with pytest.raises(RuntimeError) as info:
        table().table("Parcel.Event")
    message = str(info.value)
    assert message.startswith(f"Table {TABLE}: self.table('Parcel.Event') is not available")
    assert "not running inside a Weaver load" in message


def test_target_without_a_reader_fails_clearly():
    with pytest.raises(RuntimeError, match=r"Table Logistics\.Parcel\.Current: self\.target\(\)"
                                           r" is not available"):
        table().target()


@pytest.mark.parametrize("identity, error", [("", ValueError), (None, ValueError),
                                             ("Parcel.$Event", ValueError)])
def test_table_rejects_bad_identities(identity, error):
    t = table(read_table=lambda i, d: pytest.fail("reader must not be called"))
    with pytest.raises(error, match=TABLE.replace(".", r"\.")):
        t.table(identity)


def test_table_include_deleted_must_be_bool():
    t = table(read_table=lambda i, d: pytest.fail("reader must not be called"))
    with pytest.raises(TypeError, match="include_deleted must be True or False"):
        t.table("Parcel.Event", include_deleted="yes")  # type: ignore[arg-type]


def test_helpers_are_usable_inside_read():
    events = df("parcel_id", "status")

    class Parcel__Current(Table):
        def read(self):
            assert self.target().columns == ["parcel_id", "status"]
            return self.table("Parcel.Event")

    result = run_read(Parcel__Current,
                      context(read_table=lambda i, d: events,
                              read_target=lambda: df("parcel_id", "status")))
    assert result.staging is events
