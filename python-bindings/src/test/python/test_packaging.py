"""The pip package (python-bindings/pyproject.toml) stays in step with the Maven build."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

BINDINGS = Path(__file__).resolve().parents[3]
ROOT = BINDINGS.parent
POM = "{http://maven.apache.org/POM/4.0.0}"


def _pom():
    tree = ET.parse(ROOT / "pom.xml").getroot()
    version = tree.find(f"{POM}version").text
    spark = tree.find(f"{POM}properties/{POM}spark.version").text
    return version, spark


def _project():
    with open(BINDINGS / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.match(r"\d+(\.\d+)*", version).group().split("."))


def test_version_is_the_maven_version():
    maven, _ = _pom()
    expected = maven.replace("-SNAPSHOT", ".dev0")
    assert _project()["version"] == expected, (
        f"pyproject.toml version must be {expected} (Maven {maven})"
    )


def test_pyspark_requirement_admits_the_spark_build_and_no_other_minor():
    _, spark = _pom()
    [requirement] = [d for d in _project()["dependencies"] if d.startswith("pyspark")]
    lower = re.search(r">=\s*([\d.]+)", requirement).group(1)
    upper = re.search(r"<\s*([\d.]+)", requirement).group(1)
    major, minor = _release(spark)[:2]
    assert _release(lower) <= _release(spark) < _release(upper), requirement
    assert _release(upper) == (major, minor + 1), (
        f"{requirement}: the JVM build is Spark {spark}; pin pyspark to {major}.{minor}.x"
    )


def test_package_sources_are_where_setuptools_looks():
    assert (BINDINGS / "src/main/python/weaver/__init__.py").is_file()
    assert (BINDINGS / "src/main/python/weaver/py.typed").is_file()
