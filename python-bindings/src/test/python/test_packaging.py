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


def _shipped_lines() -> set[str]:
    """The Spark minors the build ships an artifact for: its own line and sql-extensions/runtime's."""
    lines = {ET.parse(ROOT / "pom.xml").getroot().find(f"{POM}properties/{POM}spark.minor").text}
    for pom in sorted((ROOT / "sql-extensions" / "runtime").glob("*/pom.xml")):
        minor = ET.parse(pom).getroot().find(f"{POM}properties/{POM}spark.minor")
        assert minor is not None, f"{pom} has no spark.minor"
        lines.add(minor.text)
    return lines


def test_the_artifact_table_is_the_lines_the_build_ships():
    from weaver import _versions

    assert set(_versions.ARTIFACTS) == _shipped_lines()
    for minor, artifact in _versions.ARTIFACTS.items():
        assert artifact == f"io.weaver:weaver-spark-{minor}_2.13"


def test_pyspark_requirement_admits_every_shipped_line_and_no_other_minor():
    _, spark = _pom()
    [requirement] = [d for d in _project()["dependencies"] if d.startswith("pyspark")]
    lower = _release(re.search(r">=\s*([\d.]+)", requirement).group(1))
    upper = _release(re.search(r"<\s*([\d.]+)", requirement).group(1))
    lines = sorted(_release(m) for m in _shipped_lines())
    assert lower <= _release(spark) < upper, f"{requirement} must admit the build's Spark {spark}"
    assert lower == lines[0], f"{requirement}: the oldest shipped line is {lines[0]}"
    newest = lines[-1]
    assert upper == (newest[0], newest[1] + 1), (
        f"{requirement}: the newest shipped line is {newest}; admit it and no later minor"
    )


def test_package_sources_are_where_setuptools_looks():
    assert (BINDINGS / "src/main/python/weaver/__init__.py").is_file()
    assert (BINDINGS / "src/main/python/weaver/py.typed").is_file()
