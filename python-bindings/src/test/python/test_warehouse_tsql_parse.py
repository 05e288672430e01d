"""Every generated Fabric Warehouse T-SQL batch parses with a real T-SQL parser.

The Warehouse generator's golden files (``connector/src/test/resources/warehouse/golden/**/*.sql``,
one batch per file, no ``GO``) are parsed with sqlfluff's ``tsql`` dialect (the version pinned in
requirements-test.txt). Any unparsable segment fails the test with its file, line, column and text,
unless ALLOWED below admits it: a construct that is valid for Fabric Warehouse but that sqlfluff's
tsql dialect cannot parse. Keep ALLOWED minimal: each entry carries an example that must still fail
to parse (a sqlfluff upgrade that learns the construct fails the test, so the entry gets removed),
and each entry must be used by at least one golden file.

``tsql_fixtures/*.sql`` hold hand-written batches with the constructs the generator uses, so the
harness is proven before the generator lands; the negative self-tests prove it reports breakage.

No Spark here: nothing uses conftest's ``spark`` fixture (it is not autouse).
"""

from __future__ import annotations

import bisect
import os
import re
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import List, NamedTuple, Optional, Tuple

import pytest

if os.environ.get("WEAVER_PYSPARK_REQUIRED"):  # the Maven build: a missing sqlfluff is a failure
    import sqlfluff  # noqa: F401
else:
    pytest.importorskip("sqlfluff")
from sqlfluff.core import FluffConfig, Linter  # noqa: E402
from sqlfluff.core.errors import SQLParseError  # noqa: E402
from sqlfluff.core.parser.segments import UnparsableSegment  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]  # python-bindings/src/test/python -> repository root
GOLDEN = ROOT / "connector" / "src" / "test" / "resources" / "warehouse" / "golden"
FIXTURES = HERE / "tsql_fixtures"


@dataclass(frozen=True)
class Allowed:
    """A construct Fabric Warehouse needs that sqlfluff's tsql dialect cannot parse.

    ``unparsable`` must match (re.match, so at its start) the text of the unparsable segment
    sqlfluff reports, and ``before`` must match the source text just before that segment (it is
    searched in the text up to the segment, so anchor it with ``\\Z``). Whatever follows the
    allowed part inside the same unparsable segment is parsed again on its own, so an allowed
    construct cannot hide a broken statement after it.
    """

    name: str
    before: str
    unparsable: str
    reason: str
    example: str


ALLOWED: Tuple[Allowed, ...] = (
    Allowed(
        name="primary key NOT ENFORCED",
        before=r"(?i)\bPRIMARY\s+KEY\s+NONCLUSTERED\s*\([^()]*\)\s*\Z",
        unparsable=r"(?i)NOT\s+ENFORCED\b\s*;?",
        reason="Fabric Warehouse accepts a primary key only as "
        "ALTER TABLE ... ADD CONSTRAINT ... PRIMARY KEY NONCLUSTERED (...) NOT ENFORCED; "
        "sqlfluff 4.5.0's tsql dialect has no ENFORCED keyword at all",
        example="ALTER TABLE [s].[t] ADD CONSTRAINT [PK s.t] PRIMARY KEY NONCLUSTERED ([k]) "
        "NOT ENFORCED;\n",
    ),
    Allowed(
        name="unique key NOT ENFORCED",
        before=r"(?i)\bUNIQUE\s+NONCLUSTERED\s*\([^()]*\)\s*\Z",
        unparsable=r"(?i)NOT\s+ENFORCED\b\s*;?",
        reason="Fabric Warehouse accepts a unique key only as "
        "ALTER TABLE ... ADD CONSTRAINT ... UNIQUE NONCLUSTERED (...) NOT ENFORCED; "
        "sqlfluff 4.5.0's tsql dialect has no ENFORCED keyword at all",
        example="ALTER TABLE [s].[t] ADD CONSTRAINT [UQ s.t 1] UNIQUE NONCLUSTERED ([u]) "
        "NOT ENFORCED;\n",
    ),
)

# Batches sqlfluff's tsql dialect parses but that are wrong for the generator; checked on the tree:
# - INSERT INTO t (...) WITH x AS (...) SELECT ... is a syntax error in SQL Server / Fabric (the CTE
#   comes first: WITH x AS (...) INSERT INTO t (...) SELECT ...), yet sqlfluff 4.5.0 accepts it.
# - T-SQL runs `name args` as a procedure call without EXEC (only as a batch's first statement), so
#   sqlfluff parses any misspelt statement keyword, `SELEC 1;` or `UPDAT t ...`, as such a call.
#   The generator always writes EXEC: a call without EXEC/EXECUTE is reported.


def _config() -> FluffConfig:
    return FluffConfig(
        overrides={
            "dialect": "tsql",
            # The generated SQL is plain T-SQL: the default jinja templater would treat {{ }} {% %}
            # {# #} in string literals as templating.
            "templater": "raw",
            # Deterministic: the pure-Python parser, whether or not sqlfluffrs happens to be there.
            "use_rust_parser": False,
            # sqlfluff skips files over 20 kB by default (only on paths, but be explicit).
            "large_file_skip_byte_limit": 0,
        }
    )


@lru_cache(maxsize=1)
def _linter() -> Linter:
    return Linter(config=_config())


class Problem(NamedTuple):
    line: int
    column: int
    message: str


class Checked(NamedTuple):
    problems: List[Problem]
    allowed: List[str]  # names of the ALLOWED entries used
    seconds: float


class _Lines:
    """1-based line and column of a character offset in a text."""

    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def at(self, offset: int) -> Tuple[int, int]:
        index = bisect.bisect_right(self.starts, offset) - 1
        return index + 1, offset - self.starts[index] + 1


def _short(text: str, limit: int = 300) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def _allowed(source: str, start: int, raw: str) -> Optional[Tuple[Allowed, int]]:
    """The ALLOWED entry admitting the start of unparsable ``raw`` at ``start``, and its length."""
    for entry in ALLOWED:
        match = re.match(entry.unparsable, raw)
        if match and match.end() > 0 and re.search(entry.before, source[:start]):
            return entry, match.end()
    return None


def _check(source: str, base: int, whole: str, lines: _Lines, checked: Checked) -> None:
    """Parses ``source`` (the text of ``whole`` from offset ``base``) and records its problems."""
    parsed = _linter().parse_string(source)
    variant = parsed.root_variant()
    tree = variant.tree if variant else None
    for violation in parsed.violations:
        segment = getattr(violation, "segment", None)
        if isinstance(violation, SQLParseError) and isinstance(segment, UnparsableSegment):
            continue  # handled below, from the tree
        # A lexing error, an unclosed bracket, a parse depth or size limit, ...: always a problem.
        if violation.line_no and base == 0:
            line, column = violation.line_no, violation.line_pos
        else:  # a re-parsed tail: its own positions are relative to the tail
            line, column = lines.at(base)
            if violation.line_no:
                line, column = line + violation.line_no - 1, (
                    column + violation.line_pos - 1 if violation.line_no == 1 else violation.line_pos
                )
        checked.problems.append(Problem(line, column, violation.desc()))
    if tree is None:
        if not checked.problems:
            checked.problems.append(Problem(*lines.at(base), "sqlfluff returned no parse tree"))
        return
    unparsable = list(tree.recursive_crawl("unparsable"))
    for segment in unparsable:
        piece = segment.pos_marker.source_slice
        start = base + piece.start
        raw = whole[start : base + piece.stop]
        found = _allowed(whole, start, raw)
        if found is None:
            line, column = lines.at(start)
            narrowed = _narrow(raw, start, whole, lines)
            if narrowed:
                checked.problems.extend(
                    p._replace(message=f"{p.message} (in the block at {line}:{column})")
                    for p in narrowed
                )
            else:
                checked.problems.append(Problem(line, column, f"unparsable: {_short(raw)!r}"))
            continue
        entry, length = found
        checked.allowed.append(entry.name)
        rest = raw[length:]
        if rest.strip():
            _check(rest, start + length, whole, lines, checked)
    _lenient(tree, base, lines, checked)


_BLOCKS = tuple(
    re.compile(r"(?is)" + pattern + r"\s*;?\s*\Z")
    for pattern in (
        r"CREATE\s+(?:OR\s+ALTER\s+)?PROC(?:EDURE)?\b.*?\bAS\s+BEGIN\b(?P<b1>.*)\bEND",
        r"BEGIN\s+TRY\b(?P<b1>.*?)\bEND\s+TRY\s+BEGIN\s+CATCH\b(?P<b2>.*)\bEND\s+CATCH",
        r"(?:IF\b.*?\b)?BEGIN\b(?!\s+(?:TRY|CATCH|TRAN|TRANSACTION|DISTRIBUTED)\b)(?P<b1>.*)\bEND",
    )
)


def _narrow(raw: str, start: int, whole: str, lines: _Lines) -> List[Problem]:
    """The problems in the statements of an unparsable block, each block parsed on its own.

    sqlfluff reports a broken statement inside CREATE PROCEDURE ... AS BEGIN ... END, BEGIN TRY
    ... END CATCH or BEGIN ... END as the whole block being unparsable; the statements inside
    parse on their own, which finds the broken one (recursively). Empty when they parse (the
    caller then reports the whole block): this only sharpens the message, it never hides one.
    """
    for block in _BLOCKS:
        match = block.match(raw)
        if match:
            inner = Checked([], [], 0.0)
            for group in ("b1", "b2"):
                if group in block.groupindex and match.group(group).strip():
                    _check(match.group(group), start + match.start(group), whole, lines, inner)
            return inner.problems
    return []


def _lenient(tree, base: int, lines: _Lines, checked: Checked) -> None:
    """Records what sqlfluff parses but the generator must not emit (see the comment at the top)."""
    for insert in tree.recursive_crawl("insert_statement"):
        for child in insert.segments:
            if child.is_type("with_compound_statement"):
                checked.problems.append(
                    Problem(
                        *lines.at(base + child.pos_marker.source_slice.start),
                        "INSERT ... WITH x AS (...) SELECT is not valid T-SQL (sqlfluff accepts "
                        "it): put the CTE first, WITH x AS (...) INSERT INTO ... SELECT ...",
                    )
                )
    for call in tree.recursive_crawl("execute_script_statement"):
        first = next((c for c in call.segments if c.is_code), None)
        if first is None or first.raw.upper() not in ("EXEC", "EXECUTE"):
            checked.problems.append(
                Problem(
                    *lines.at(base + call.pos_marker.source_slice.start),
                    f"a procedure call without EXEC (a misspelt keyword?): {_short(call.raw)!r}",
                )
            )


def check_batch(sql: str) -> Checked:
    """The parse problems of one T-SQL batch and the ALLOWED entries it used."""
    started = time.perf_counter()
    checked = Checked([], [], 0.0)
    _check(sql, 0, sql, _Lines(sql), checked)
    checked.problems.sort()
    return checked._replace(seconds=time.perf_counter() - started)


@lru_cache(maxsize=None)
def _check_file(path: Path) -> Checked:
    return check_batch(path.read_text(encoding="utf-8-sig"))


def _report(files: List[Path]) -> str:
    lines = []
    for path in files:
        name = path.relative_to(ROOT)
        for problem in _check_file(path).problems:
            lines.append(f"{name}:{problem.line}:{problem.column}: {problem.message}")
    return "\n".join(lines)


def _timings(files: List[Path]) -> str:
    seconds = sorted(((_check_file(p).seconds, p) for p in files), reverse=True)
    total = sum(s for s, _ in seconds)
    slowest = ", ".join(f"{p.name} {s:.2f} s" for s, p in seconds[:3])
    return f"{len(files)} files parsed in {total:.1f} s (slowest: {slowest})"


def _golden_files() -> List[Path]:
    return sorted(GOLDEN.rglob("*.sql")) if GOLDEN.is_dir() else []


FIXTURE_FILES = sorted(FIXTURES.glob("*.sql"))


def test_fixtures_are_there():
    assert len(FIXTURE_FILES) >= 5, f"the T-SQL fixtures are missing from {FIXTURES}"


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.name)
def test_fixture_parses(path: Path):
    problems = _report([path])
    assert not problems, "sqlfluff (tsql) cannot parse:\n" + problems


def test_golden_batches_parse():
    files = _golden_files()
    assert files, (
        f"no Warehouse golden files: expected {GOLDEN.relative_to(ROOT)}/**/*.sql "
        "(one generated T-SQL batch per file)"
    )
    problems = _report(files)
    print(_timings(files))
    assert not problems, (
        f"sqlfluff (tsql) cannot parse generated T-SQL ({_timings(files)}):\n" + problems
    )


def test_every_allowed_construct_is_used_by_a_golden_file():
    files = _golden_files()
    if not files:
        pytest.fail(f"no Warehouse golden files in {GOLDEN.relative_to(ROOT)} (see above)")
    used = {name for path in files for name in _check_file(path).allowed}
    unused = [entry.name for entry in ALLOWED if entry.name not in used]
    assert not unused, f"ALLOWED entries no golden file needs any more (remove them): {unused}"


@pytest.mark.parametrize("entry", ALLOWED, ids=lambda e: e.name)
def test_allowed_construct_still_does_not_parse(entry: Allowed):
    parsed = _linter().parse_string(entry.example)
    segments = list(parsed.tree.recursive_crawl("unparsable")) if parsed.root_variant() else []
    assert segments, f"sqlfluff now parses {entry.example!r}: remove the ALLOWED entry {entry.name!r}"
    checked = check_batch(entry.example)
    assert checked.problems == [] and checked.allowed == [entry.name], checked


# The harness must not pass vacuously: broken batches are reported, with the right place.


def _one_problem(sql: str) -> Problem:
    checked = check_batch(sql)
    assert len(checked.problems) == 1, checked
    return checked.problems[0]


def test_reports_an_unparsable_statement():
    problem = _one_problem("SELECT 1;\nUPDATE t SET a = 1 FROM;\n")
    assert (problem.line, problem.column, problem.message) == (2, 20, "unparsable: 'FROM;'")


def test_reports_a_misspelt_statement_keyword():
    # sqlfluff parses `SELEC 2` as a call of a procedure SELEC without EXEC.
    problem = _one_problem("SELECT 1;\n  SELEC 2;\n")
    assert (problem.line, problem.column) == (2, 3) and "without EXEC" in problem.message
    assert check_batch("EXEC [_].[p] @a = 1;\nEXECUTE(N'SELECT 1');\n").problems == []


def test_reports_a_broken_statement_inside_a_procedure():
    sql = (
        "CREATE OR ALTER PROCEDURE [_].[p] @a int AS\nBEGIN\n    SET NOCOUNT ON;\n"
        "    SELEC 1 FROM t;\nEND\n"
    )
    # sqlfluff fails the whole CREATE PROCEDURE; the checker parses its body to find the statement.
    assert check_batch(sql).problems == [
        Problem(4, 5, "a procedure call without EXEC (a misspelt keyword?): 'SELEC 1' "
                "(in the block at 1:1)"),
        Problem(4, 13, "unparsable: 'FROM t;' (in the block at 1:1)"),
    ]
    # A procedure whose header is broken is reported whole.
    header = "CREATE OR ALTER PROCEDURE [_].[p] @a int = AS\nBEGIN\n    SELECT 1;\nEND\n"
    problem = _one_problem(header)
    assert (problem.line, problem.column) == (1, 1), problem
    assert problem.message.startswith("unparsable: 'CREATE OR ALTER PROCEDURE"), problem


def test_reports_lexing_errors_and_unclosed_brackets():
    assert check_batch("SELECT 'unterminated FROM t;\n").problems
    assert check_batch("SELECT a FROM t WHERE (a = 1;\n").problems


def test_reports_jinja_like_text_as_sql_not_as_a_template():
    assert check_batch("SELECT N'{{ x }}' AS a;\n").problems == []
    assert check_batch("SELECT {{ x }} FROM t;\n").problems


def test_reports_insert_before_with():
    problem = _one_problem("INSERT INTO #s (a)\nWITH x AS (SELECT 1 AS a) SELECT a FROM x;\n")
    assert (problem.line, problem.column) == (2, 1) and "put the CTE first" in problem.message
    cte_first = "WITH x AS (SELECT 1 AS a) INSERT INTO #s (a) SELECT a FROM x;\n"
    assert check_batch(cte_first).problems == []


def test_not_enforced_is_allowed_only_after_a_nonclustered_key():
    assert _one_problem("SELECT 1 NOT ENFORCED;\n").message.startswith("unparsable: 'NOT ENFORCED")
    unique = "ALTER TABLE t ADD CONSTRAINT u UNIQUE NONCLUSTERED (k) NOT ENFORCED;\n"
    assert check_batch(unique).allowed == ["unique key NOT ENFORCED"]
    clustered = "ALTER TABLE t ADD CONSTRAINT u UNIQUE CLUSTERED (k) NOT ENFORCED;\n"
    assert check_batch(clustered).problems


def test_an_allowed_construct_does_not_hide_what_follows_it():
    key = "ALTER TABLE t ADD CONSTRAINT p PRIMARY KEY NONCLUSTERED (k) NOT ENFORCED;\n"
    fine = check_batch(key + "SELECT 1 AS a;\n")
    assert fine.problems == [] and fine.allowed == ["primary key NOT ENFORCED"], fine
    problem = _one_problem(key + "SELECT 1 AS a;\nUPDATE t SET a = 1 FROM;\n")
    assert (problem.line, problem.column, problem.message) == (3, 20, "unparsable: 'FROM;'")
    problem = _one_problem(key + "SELECT 1 AS a;\nSELEC 2;\n")
    assert (problem.line, problem.column) == (3, 1) and "SELEC 2" in problem.message, problem
    assert check_batch(key + "SELECT 'unterminated;\n").problems
