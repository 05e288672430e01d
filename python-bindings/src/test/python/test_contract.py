"""Return-contract validation of Table.read() (docs/table-contract.md, "Forms and targets")."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings

import pytest

from fakes import FakeDataFrame, context, df, returning
from weaver import ReturnContractError, StagingResult, Table
from weaver.contract import is_dataframe, run_read

TABLE = "Logistics.Parcel.Current"


def error_of(value, **ctx) -> str:
    with pytest.raises(ReturnContractError) as info:
        run_read(returning(value), context(**ctx))
    assert info.value.table_id == TABLE
    message = str(info.value)
    assert message.startswith(f"Table {TABLE}: ")
    return message


# --------------------------------------------------------------------------- accepted forms

def test_snapshot_dataframe_is_accepted():
    staging = df("parcel_id", "status")
    result = run_read(returning(staging), context())
    assert result == StagingResult(staging=staging, delete_keys=None, no_work=False,
                                   bookmark_json=None)


def test_empty_snapshot_dataframe_is_accepted():
    staging = df("status", "parcel_id")  # column order is free
    assert run_read(returning(staging), context()).staging is staging


def test_incremental_dataframe_is_accepted():
    staging = df("parcel_id", "status")
    result = run_read(returning(staging), context(incremental=True))
    assert (result.staging, result.delete_keys, result.no_work) == (staging, None, False)


def test_incremental_staging_and_delete_keys_are_accepted():
    staging, keys = df("parcel_id", "status"), df("parcel_id")
    result = run_read(returning((staging, keys)), context(incremental=True))
    assert (result.staging, result.delete_keys, result.no_work) == (staging, keys, False)


def test_incremental_none_is_no_work():
    result = run_read(returning(None), context(incremental=True))
    assert result == StagingResult(staging=None, delete_keys=None, no_work=True)


def test_incremental_deletion_only_is_accepted():
    keys = df("parcel_id")
    result = run_read(returning((None, keys)), context(incremental=True))
    assert (result.staging, result.delete_keys, result.no_work) == (None, keys, False)


def test_composite_key_delete_keys_in_any_order():
    ctx = dict(incremental=True, primary_key=("site", "parcel_id"),
               business_columns=("site", "parcel_id", "status"))
    keys = df("parcel_id", "site")
    assert run_read(returning((None, keys)), context(**ctx)).delete_keys is keys


def test_column_checks_skipped_when_context_does_not_know_columns():
    staging, keys = df("anything"), df("whatever")
    result = run_read(returning((staging, keys)),
                      context(incremental=True, primary_key=(), business_columns=()))
    assert result.staging is staging and result.delete_keys is keys


# --------------------------------------------------------------------------- wrong forms

def test_tuple_from_non_incremental_table_is_rejected():
    message = error_of((df("parcel_id", "status"), df("parcel_id")))
    assert "returned a tuple of 2 items (DataFrame, DataFrame)" in message
    assert "not incremental" in message
    assert "Return only the staging DataFrame" in message
    assert "Incremental: true" in message


def test_none_from_non_incremental_table_is_rejected():
    message = error_of(None)
    assert "returned None" in message and "not incremental" in message
    assert "empty DataFrame" in message


def test_non_dataframe_from_non_incremental_table_is_rejected():
    message = error_of([1, 2])
    assert "returned a value of type list" in message
    assert "Return the staging DataFrame" in message


def test_pandas_like_frame_is_not_a_spark_dataframe():
    Frame = type("DataFrame", (), {"__module__": "pandas.core.frame"})
    frame = Frame()
    frame.columns = ["parcel_id", "status"]
    assert not is_dataframe(frame)
    message = error_of(frame)
    assert "pandas DataFrame" in message and "createDataFrame" in message


@pytest.mark.parametrize("value, described", [
    ((df("parcel_id", "status"),), "a tuple of 1 item (DataFrame)"),
    ((df("parcel_id", "status"), df("parcel_id"), df("parcel_id")), "a tuple of 3 items"),
    ((), "an empty tuple"),
])
def test_incremental_tuple_of_wrong_length_is_rejected(value, described):
    message = error_of(value, incremental=True)
    assert f"returned {described}" in message
    assert "exactly 2 items" in message
    assert "(staging, delete_keys)" in message


def test_incremental_none_none_is_rejected():
    message = error_of((None, None), incremental=True)
    assert "returned (None, None)" in message
    assert "Return None when there is no work" in message
    assert "(None, delete_keys)" in message


def test_incremental_list_is_rejected():
    message = error_of([df("parcel_id", "status"), df("parcel_id")], incremental=True)
    assert "use a tuple, not a list" in message


def test_incremental_non_dataframe_staging_is_rejected():
    message = error_of(("rows", df("parcel_id")), incremental=True)
    assert "first item (staging) must be a DataFrame or None" in message
    assert "type str" in message


def test_incremental_non_dataframe_delete_keys_is_rejected():
    message = error_of((df("parcel_id", "status"), ["p1"]), incremental=True)
    assert "second item (delete_keys) must be a DataFrame" in message
    assert "type list" in message


def test_incremental_staging_with_none_delete_keys_is_rejected():
    message = error_of((df("parcel_id", "status"), None), incremental=True)
    assert "return the staging DataFrame alone" in message


def test_incremental_scalar_is_rejected():
    message = error_of(42, incremental=True)
    assert "returned a value of type int" in message


# --------------------------------------------------------------------------- columns

def test_missing_business_column_is_rejected():
    message = error_of(df("parcel_id"))
    assert "staging is missing business column(s) `status`" in message
    assert "staging needs exactly `parcel_id`, `status`" in message


def test_extra_business_column_is_rejected():
    message = error_of(df("parcel_id", "status", "loaded_at"))
    assert "staging has column(s) `loaded_at` that are not business columns" in message
    assert "missing" not in message


def test_missing_and_extra_columns_are_both_listed():
    message = error_of(df("parcel_id", "state", "x"))
    assert "missing business column(s) `status`" in message
    assert "`state`, `x` that are not business columns" in message


def test_case_different_column_is_rejected():
    message = error_of(df("Parcel_ID", "status"))
    assert "missing business column(s) `parcel_id`" in message
    assert "`Parcel_ID` that are not business columns" in message
    assert "exact-case: `Parcel_ID` should be `parcel_id`" in message


def test_duplicate_staging_column_is_rejected():
    message = error_of(df("parcel_id", "status", "status"))
    assert "duplicate column(s) `status`" in message


def test_staging_columns_checked_for_incremental_too():
    message = error_of((df("parcel_id"), df("parcel_id")), incremental=True)
    assert "staging is missing business column(s) `status`" in message


def test_delete_keys_missing_a_key_column_is_rejected():
    ctx = dict(incremental=True, primary_key=("site", "parcel_id"),
               business_columns=("site", "parcel_id", "status"))
    message = error_of((None, df("parcel_id")), **ctx)
    assert "delete_keys is missing primary-key column(s) `site`" in message
    assert "delete_keys needs exactly `site`, `parcel_id`" in message


def test_delete_keys_with_extra_column_is_rejected():
    message = error_of((df("parcel_id", "status"), df("parcel_id", "status")),
                       incremental=True)
    assert "delete_keys has column(s) `status` that are not primary-key columns" in message


def test_staging_and_delete_key_problems_reported_together():
    message = error_of((df("parcel_id"), df("PARCEL_ID")), incremental=True)
    assert "staging is missing business column(s) `status`" in message
    assert "delete_keys is missing primary-key column(s) `parcel_id`" in message
    assert "`PARCEL_ID` should be `parcel_id`" in message


# --------------------------------------------------------------------------- read() itself

def test_async_read_is_rejected_before_running():
    ran = []

    class Parcel__Current(Table):
        async def read(self):
            ran.append(True)
            return df("parcel_id", "status")

    with pytest.raises(ReturnContractError, match=r"asynchronous \(async def\)") as info:
        run_read(Parcel__Current, context())
    assert "plain `def read(self):`" in str(info.value)
    assert str(info.value).startswith(f"Table {TABLE}: ")
    assert ran == []


def test_read_returning_a_coroutine_is_rejected_without_warning():
    async def produce():
        return df("parcel_id", "status")

    class Parcel__Current(Table):
        def read(self):
            return produce()

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ReturnContractError, match="asynchronous"):
            run_read(Parcel__Current, context())


def test_exceptions_from_read_propagate_unchanged():
    class Parcel__Current(Table):
        def read(self):
            raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        run_read(Parcel__Current, context())


def test_class_without_read_is_rejected():
    class Parcel__Current(Table):
        pass

    with pytest.raises(TypeError, match="must implement a synchronous read"):
        run_read(Parcel__Current, context())


def test_class_overriding_init_is_rejected():
    class Parcel__Current(Table):
        def __init__(self, context):
            super().__init__(context)

        def read(self):
            return df("parcel_id", "status")

    with pytest.raises(TypeError, match="overrides __init__"):
        run_read(Parcel__Current, context())


def test_non_table_class_is_rejected():
    class Parcel__Current:
        def read(self):
            return df("parcel_id", "status")

    with pytest.raises(TypeError, match="not a subclass of weaver.Table"):
        run_read(Parcel__Current, context())


def test_each_run_constructs_a_fresh_instance():
    seen = []

    class Parcel__Current(Table):
        def read(self):
            seen.append(self)
            return df("parcel_id", "status")

    run_read(Parcel__Current, context())
    run_read(Parcel__Current, context())
    assert len(seen) == 2 and seen[0] is not seen[1]


# --------------------------------------------------------------------------- DataFrame test

def test_is_dataframe_duck_typing():
    assert is_dataframe(FakeDataFrame("a"))
    assert not is_dataframe(None)
    assert not is_dataframe(("a",))
    assert not is_dataframe(["a"])
    assert not is_dataframe(object())
    assert not is_dataframe(type("X", (), {"columns": "a,b"})())


def test_is_dataframe_recognises_loaded_pyspark_classes(monkeypatch):
    """Classes from already-imported pyspark modules count, whatever their columns look like."""
    import types

    classic = types.ModuleType("pyspark.sql.dataframe")
    connect = types.ModuleType("pyspark.sql.connect.dataframe")
    classic.DataFrame = type("DataFrame", (), {"columns": property(lambda self: 1 / 0)})
    connect.DataFrame = type("DataFrame", (), {})
    monkeypatch.setitem(sys.modules, "pyspark.sql.dataframe", classic)
    monkeypatch.setitem(sys.modules, "pyspark.sql.connect.dataframe", connect)
    assert is_dataframe(classic.DataFrame())
    assert is_dataframe(connect.DataFrame())


def test_importing_weaver_does_not_import_pyspark():
    code = ("import sys, weaver, weaver.contract, weaver.table, weaver.context; "
            "assert not any(m == 'pyspark' or m.startswith('pyspark.') for m in sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_staging_result_is_frozen():
    result = StagingResult(staging=None, delete_keys=None, no_work=True)
    with pytest.raises(Exception):
        result.no_work = False  # type: ignore[misc]
    assert result.bookmark_json is None
    assert re.search(r"no_work=True", repr(result))
