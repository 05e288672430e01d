"""The Spark line check of weaver.Workspace (weaver/_versions.py): the jar's line against pyspark's."""

from __future__ import annotations

import pytest

import weaver
from weaver import _versions
from weaver.workspace import WeaverError

JAR_41 = "io.weaver:weaver-spark-4.1_2.13"


def test_the_same_minor_passes_whatever_the_patch():
    assert _versions.mismatch("4.1.1", "4.1", JAR_41) is None
    assert _versions.mismatch("4.1.0", "4.1", JAR_41, "4.1.3") is None
    assert _versions.mismatch("4.1.0.dev1", "4.1", JAR_41) is None


def test_another_shipped_minor_is_refused_naming_both_versions_and_the_artifact():
    assert _versions.mismatch("4.0.2", "4.1", JAR_41, "4.0.2") == (
        "pyspark 4.0.2 is running, but this Weaver jar (io.weaver:weaver-spark-4.1_2.13) is built "
        "for Spark 4.1 and cannot run on another Spark minor. Use io.weaver:weaver-spark-4.0_2.13 "
        "(Weaver's artifact for Spark 4.0) instead (spark.jars.packages or --packages)."
    )
    why = _versions.mismatch("4.2.0", "4.1", JAR_41)
    assert "pyspark 4.2.0" in why and "Spark 4.1" in why and JAR_41 in why
    assert "Use io.weaver:weaver-spark-4.2_2.13" in why


def test_pyspark_of_another_minor_than_the_session_is_refused():
    assert _versions.mismatch("4.2.0", "4.1", JAR_41, "4.1.1") == (
        "pyspark 4.2.0 with Spark 4.1.1 is running: this Weaver jar "
        "(io.weaver:weaver-spark-4.1_2.13) is built for Spark 4.1, as the session is, but pyspark "
        "is another minor. Install pyspark 4.1.x (pip install 'pyspark==4.1.*') in this Python."
    )


def test_a_session_of_another_minor_than_the_jar_is_refused_with_its_artifact():
    why = _versions.mismatch("4.1.1", "4.1", JAR_41, "4.0.1")
    assert why.startswith("pyspark 4.1.1 with Spark 4.0.1 is running, but this Weaver jar")
    assert why.endswith(
        "Use io.weaver:weaver-spark-4.0_2.13 (Weaver's artifact for Spark 4.0) instead "
        "(spark.jars.packages or --packages), with pyspark 4.0.x."
    )


@pytest.mark.parametrize("running,minor", [("3.5.1", "3.5"), ("4.3.0", "4.3"), ("4.10.0", "4.10")])
def test_an_unshipped_spark_is_refused_with_the_supported_lines(running, minor):
    assert _versions.mismatch(running, "4.1", JAR_41) == (
        f"pyspark {running} is running, but this Weaver jar (io.weaver:weaver-spark-4.1_2.13) is "
        "built for Spark 4.1 and cannot run on another Spark minor. There is no Weaver artifact "
        f"for Spark {minor}; supported: 4.0, 4.1, 4.2."
    )


def test_the_real_session_passes_and_its_jar_is_for_pysparks_line(spark, tmp_path):
    import pyspark

    jar = spark.sparkContext._jvm.io.weaver.sql.SparkLine.compiled()
    assert jar.line() == _versions.minor_of(pyspark.__version__)
    assert jar.artifact() == _versions.ARTIFACTS[jar.line()]
    _versions.check_session(spark)  # does not raise
    weaver.Workspace(spark, tmp_path)  # the check runs first; an empty folder opens


def test_workspace_refuses_a_jar_of_another_line(spark, tmp_path, monkeypatch):
    import pyspark

    jar_line = spark.sparkContext._jvm.io.weaver.sql.SparkLine.compiled().line()
    other = next(m for m in _versions.SUPPORTED if m != jar_line)
    # pyspark as if it were another shipped minor; the jar and the JVM stay what they are
    monkeypatch.setattr(pyspark, "__version__", other + ".0")
    with pytest.raises(WeaverError) as raised:
        weaver.Workspace(spark, tmp_path)
    assert raised.value.error_class == "WEAVER_SPARK_LINE_MISMATCH"
    assert raised.value.sqlstate == "0A000"
    message = str(raised.value)
    assert message.startswith(f"pyspark {other}.0 with Spark {spark.version} is running")
    assert _versions.ARTIFACTS[jar_line] in message
    assert f"Install pyspark {jar_line}.x" in message
