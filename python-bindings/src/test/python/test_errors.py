"""WeaverError's class, SQLSTATE and message parameters, read from the engine's exception."""

from __future__ import annotations

from typing import Dict, Optional

from weaver import CheckError, LoadError, WeaverError
from weaver._errors import error_class, error_parameters


class _Thrown(Exception):
    """What PySpark raises for a SparkThrowable (classic and Spark Connect answer the same)."""

    def __init__(self, condition: Optional[str], sqlstate: Optional[str],
                 parameters: Dict[str, str]) -> None:
        super().__init__(parameters.get("message", ""))
        self._condition = condition
        self._sqlstate = sqlstate
        self._parameters = parameters

    def getCondition(self) -> Optional[str]:  # noqa: N802 - PySpark's name
        return self._condition

    def getSqlState(self) -> Optional[str]:  # noqa: N802 - PySpark's name
        return self._sqlstate

    def getMessageParameters(self) -> Dict[str, str]:  # noqa: N802 - PySpark's name
        return self._parameters


def test_a_weaver_error_exposes_its_parameters_by_name() -> None:
    thrown = _Thrown(
        "WEAVER_TABLE_NOT_FOUND", "42P01", {"message": "no Table A.B.C", "table": "A.B.C"}
    )
    error = WeaverError(str(thrown), *error_class(thrown), error_parameters(thrown))
    assert (error.error_class, error.sqlstate, error.sql_state) == (
        "WEAVER_TABLE_NOT_FOUND", "42P01", "42P01")
    assert error.parameters == {"message": "no Table A.B.C", "table": "A.B.C"}
    assert str(error) == "no Table A.B.C"


def test_spark_s_own_classes_and_plain_exceptions_have_no_parameters() -> None:
    spark = _Thrown("TABLE_OR_VIEW_NOT_FOUND", "42P01", {"relationName": "t"})
    assert error_parameters(spark) == {}
    assert error_parameters(ValueError("x")) == {}
    assert WeaverError("local").parameters == {}


def test_a_check_error_and_a_load_error_carry_parameters() -> None:
    check = CheckError("bad", [], "42000", {"message": "bad", "errors": "1"})
    assert check.error_class == "WEAVER_CHECK_FAILED" and check.parameters["errors"] == "1"
    rows = [
        {"table_id": "A.B.C", "load_id": "l1", "status": "succeeded", "message": None},
        {"table_id": "A.B.D", "load_id": "l2", "status": "refused", "message": "gate"},
    ]
    load = LoadError("A.B.D: refused: gate", rows)
    assert (load.error_class, load.sqlstate) == ("WEAVER_LOAD_REFUSED", "22000")
    assert load.parameters == {
        "message": "A.B.D: refused: gate", "table": "A.B.D", "loadId": "l2", "status": "refused"}
