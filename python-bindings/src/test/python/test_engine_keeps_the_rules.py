"""The engine's load rules are stated once, in the JVM; the ``weaver`` package never restates them.

Over Spark Connect the client follows a load run the engine keeps (``SHOW WEAVER LOAD PLAN ...
OPEN RUN``, ``... IN RUN``, ``PUBLISH WEAVER RUN``): the engine walks the dependencies, skips a
Table whose dependency stopped, writes the skipped rows, publishes the items and says what waits
for a publish.  This test reads the package's sources and fails when one of them walks the
dependencies (``depends_on``), lists the statuses that stop a dependant, or matches the text of a
message or warning the engine wrote.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterator, List, Tuple

PACKAGE = Path(__file__).resolve().parents[2] / "main" / "python" / "weaver"

# The words of the engine's LoadStatus.
STATUSES = {"succeeded", "no_work", "refused", "failed", "skipped", "recovered", "restored"}

# The one list of statuses the package keeps, and why it is not a load rule: raise_on_failure
# turns the rows the user asked about into an exception (LoadStatus.isFailure); it decides
# nothing the engine does.
ALLOWED_STATUS_LISTS = {("workspace.py", ("failed", "refused"))}

# What the engine's rows hold as text the user reads, never to be matched.
TEXT_FIELDS = {"message", "warnings", "warning"}
MATCHERS = {"startswith", "endswith", "find", "index", "rfind", "count", "search", "match"}
# Fragments of the engine's messages a client once matched or rebuilt.
ENGINE_TEXT = ("committed, not published", "not loaded: dependency", "publishes together")


def _strings(node: ast.AST) -> List[str]:
    return [
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def _reads_text(node: ast.AST) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant):
            if n.slice.value in TEXT_FIELDS:
                return True
        if isinstance(n, ast.Name) and n.id in TEXT_FIELDS:
            return True
    return False


def findings(name: str, source: str) -> Iterator[Tuple[str, int, str]]:
    """(kind, line, what) for each restated rule in one module's source."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        # a dependency walk: the plan's depends_on, or names of one
        if isinstance(node, ast.Constant) and node.value == "depends_on":
            yield ("dependency walk", line, "reads depends_on")
        for ident in (
            getattr(node, "id", None),
            getattr(node, "attr", None),
            getattr(node, "arg", None),
            node.name if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else None,
        ):
            if isinstance(ident, str) and any(
                w in ident.lower() for w in ("depends_on", "dependant", "stops_depend")
            ):
                yield ("dependency walk", line, ident)
        # a status list
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            words = tuple(
                e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in STATUSES
            )
            if len(words) >= 2 and (name, words) not in ALLOWED_STATUS_LISTS:
                yield ("status list", line, repr(words))
        if isinstance(node, ast.Compare) and "skipped" in _strings(node):
            yield ("status list", line, "compares a status with 'skipped'")
        # a message-text match
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if any(fragment in node.value for fragment in ENGINE_TEXT):
                yield ("message-text match", line, node.value[:60])
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in MATCHERS and _reads_text(node):
                yield ("message-text match", line, node.func.attr)
        if isinstance(node, ast.Compare) and _reads_text(node) and _strings(node):
            yield ("message-text match", line, "compares message text with a string")
        if isinstance(node, ast.comprehension) and node.ifs and _reads_text(node.iter):
            yield ("message-text match", line, "filters message text")


def test_the_package_restates_no_load_rule():
    sources = sorted(PACKAGE.glob("*.py"))
    assert any(p.name == "_connect.py" for p in sources), PACKAGE
    found = [
        f"{p.name}:{line}: {kind}: {what}"
        for p in sources
        for kind, line, what in findings(p.name, p.read_text(encoding="utf-8"))
    ]
    assert found == [], "\n".join(found)


# What a client that keeps the rules itself writes; the scan must see each kind in it.
_RESTATED = '''
_STOPS = ("failed", "refused", "skipped")

def load(plan, last):
    for step in plan:
        stopped = [d for d in step["depends_on"] if last[d]["status"] in _STOPS]
        if stopped:
            row = {"status": "skipped", "message": f"not loaded: dependency {stopped[0]} was"}
    for r in last.values():
        r["warnings"] = [w for w in r["warnings"] if not w.startswith("committed, not published")]
'''


def test_the_scan_sees_each_restated_rule():
    kinds = {kind for kind, _, _ in findings("sample.py", _RESTATED)}
    assert kinds == {"dependency walk", "status list", "message-text match"}, kinds
