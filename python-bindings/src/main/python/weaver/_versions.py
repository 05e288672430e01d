"""The Spark lines Weaver ships a jar for, and the check that the jar in the session is the right one.

Weaver's JVM side is one artifact per Spark minor, each compiled against that minor's Spark and
Delta: a jar on another minor fails late and obscurely, so it is refused up front.  The jar
knows its line (``io/weaver/weaver-build.properties``, read by ``io.weaver.sql.SparkLine``);
this package, which pip installs for any of these lines (``pyspark>=4.0,<4.3``), compares it
with the Spark it runs on.

* The session extension refuses to start a session on another minor (the JVM check).
* In a classic session, :class:`weaver.Workspace` reads the jar's line through py4j and refuses
  a pyspark (or JVM Spark) of another minor: :func:`check_session`.
* Over Spark Connect the client's pyspark may differ from the server's Spark by design; the
  server's own extension check covers the jar (a server whose jar does not match its Spark has no
  session with Weaver's extension), so nothing is compared here.
"""

from __future__ import annotations

import re
from typing import Any, Dict, Optional

from ._errors import SPARK_LINE_MISMATCH, WeaverError

__all__ = ["ARTIFACTS", "SUPPORTED", "artifact_for", "minor_of", "mismatch", "check_session"]

#: The Maven artifact of each Spark minor (io.weaver:weaver-spark-<minor>_2.13); Java's
#: SparkLine.SUPPORTED and the build's modules hold the same lines (test_packaging.py checks).
ARTIFACTS: Dict[str, str] = {
    "4.0": "io.weaver:weaver-spark-4.0_2.13",  # Spark 4.0.x + Delta 4.0
    "4.1": "io.weaver:weaver-spark-4.1_2.13",  # Spark 4.1.x + Delta 4.2/4.3 (Fabric Runtime 2.0)
    "4.2": "io.weaver:weaver-spark-4.2_2.13",  # Spark 4.2.x + Delta 4.4
}

SUPPORTED = tuple(ARTIFACTS)

_MAJOR_MINOR = re.compile(r"^(\d+)\.(\d+)(?:\D.*)?$")


def minor_of(version: Optional[str]) -> Optional[str]:
    """The major.minor of a Spark version (``4.1`` of ``4.1.1``), or None if it has none."""
    match = _MAJOR_MINOR.match((version or "").strip())
    return f"{match.group(1)}.{match.group(2)}" if match else None


def artifact_for(minor: str) -> Optional[str]:
    """The artifact for Spark ``minor``, or None when Weaver ships none for it."""
    return ARTIFACTS.get(minor)


def mismatch(
    pyspark_version: str,
    jar_line: str,
    jar_artifact: str,
    spark_version: Optional[str] = None,
) -> Optional[str]:
    """Why the jar of ``jar_line`` cannot serve this pyspark (and JVM Spark), or None if it can.

    ``spark_version`` is the session's Spark (the JVM's) when it is known: the jar runs there, so
    it decides the artifact to use.
    """
    py_minor = minor_of(pyspark_version)
    jvm_ok = spark_version is None or minor_of(spark_version) == jar_line
    if py_minor == jar_line and jvm_ok:
        return None
    who = f"pyspark {pyspark_version}"
    if spark_version and spark_version != pyspark_version:
        who += f" with Spark {spark_version}"
    if jvm_ok and spark_version is not None:
        # The jar suits the session; pyspark does not (a pip install beside the runtime's Spark).
        return (
            f"{who} is running: this Weaver jar ({jar_artifact}) is built for Spark {jar_line}, "
            f"as the session is, but pyspark is another minor. Install pyspark {jar_line}.x "
            f"(pip install 'pyspark=={jar_line}.*') in this Python."
        )
    target = spark_version or pyspark_version
    target_minor = minor_of(target)
    refused = (
        f"{who} is running, but this Weaver jar ({jar_artifact}) is built for Spark {jar_line} "
        "and cannot run on another Spark minor. "
    )
    artifact = artifact_for(target_minor) if target_minor else None
    if artifact is None:
        return refused + (
            f"There is no Weaver artifact for Spark {target_minor or target}; "
            f"supported: {', '.join(SUPPORTED)}."
        )
    also = "" if py_minor == target_minor else f", with pyspark {target_minor}.x"
    return refused + (
        f"Use {artifact} (Weaver's artifact for Spark {target_minor}) instead "
        f"(spark.jars.packages or --packages){also}."
    )


def check_session(spark: Any) -> None:
    """Refuses a classic session whose Weaver jar was built for another Spark minor.

    Reads the jar's line through py4j (``io.weaver.sql.SparkLine``) and compares it with
    pyspark's version and the JVM's Spark; raises :class:`WeaverError` of class
    ``WEAVER_SPARK_LINE_MISMATCH`` naming both and the artifact to use.  A jar from before this
    check (no ``SparkLine``) is not checked.
    """
    import pyspark
    from py4j.java_gateway import JavaClass

    line_class = spark.sparkContext._jvm.io.weaver.sql.SparkLine
    if not isinstance(line_class, JavaClass):
        return
    jar = line_class.compiled()
    why = mismatch(pyspark.__version__, jar.line(), jar.artifact(), spark.version)
    if why is not None:
        raise WeaverError(why, *SPARK_LINE_MISMATCH, {"message": why})
