"""``python -m weaver._worker``: the Python worker ``bin/weaver`` attaches to its JVM.

The JVM (``io.weaver.python.PythonWorker``) starts a py4j gateway and this module with
``PYSPARK_GATEWAY_PORT``/``PYSPARK_GATEWAY_SECRET`` - the way ``spark-submit`` starts a Python
application.  The worker connects, wraps the JVM's SparkSession in PySpark, registers its
Python Table runner and says ready; the JVM then runs the loads and calls back into it.  The
worker ends when the JVM closes its standard input.
"""

from __future__ import annotations

import os
import sys


def _fail(message: str, code: int) -> None:
    print(f"weaver worker: {message}", file=sys.stderr, flush=True)
    os._exit(code)


def main() -> None:
    os.dup2(2, 1)  # print() in Tables must not reach the CLI's stdout (JSON output)
    expected = os.environ.get("WEAVER_SPARK_VERSION", "")
    try:
        import pyspark
    except ImportError:
        _fail(
            f"PySpark is not installed for {sys.executable}; install it with "
            f"'{sys.executable} -m pip install pyspark=={expected or '<Spark version>'}' or "
            "set WEAVER_PYTHON to an interpreter that has it",
            3,
        )
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway
    from pyspark.sql import SparkSession

    gateway = launch_gateway()  # connects to the JVM's gateway (PYSPARK_GATEWAY_PORT)
    entry = gateway.entry_point
    version = entry.sparkVersion()
    if pyspark.__version__.split(".")[:2] != version.split(".")[:2]:
        entry.failed(
            f"PySpark {pyspark.__version__} ({sys.executable}) does not match the JVM's Spark "
            f"{version}; install pyspark=={version}"
        )
        os._exit(4)
    try:
        jsc = entry.javaSparkContext()
        sc = SparkContext(gateway=gateway, jsc=jsc, conf=SparkConf(_jconf=jsc.getConf()))
        spark = SparkSession(sc, jsparkSession=entry.session())
        from weaver._runtime import register

        runner = register(spark)
        entry.ready(runner)
    except BaseException as error:  # noqa: BLE001
        try:
            entry.failed(f"the Python worker could not attach to the Spark session: {error!r}")
        finally:
            os._exit(5)
    sys.stdin.read()  # until the JVM closes our stdin
    # The JVM owns the SparkContext: leave without stopping it (no atexit handlers).
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
