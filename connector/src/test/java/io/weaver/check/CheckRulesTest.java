package io.weaver.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.findings.Finding;
import io.weaver.findings.Severity;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One test per rule id (docs/table-contract.md, "Check") that triggers it with a minimal workspace,
 * and one valid neighbour that must not (no false positives).
 */
class CheckRulesTest {
  private static final String ID = "Table ID: Parcel.Current\n";
  private static final String DESC = "Description: Current state of each parcel.\n";
  private static final String BASE = ID + DESC;
  private static final String QUERY = "select parcel_id, status from src;\n";

  @TempDir Path dir;
  private TestWorkspace ws;

  @BeforeEach
  void setUp() {
    ws = new TestWorkspace(dir);
  }

  // header-missing

  @Test
  void headerMissingInSql() {
    ws.write("Lakehouse/L/Tables/Parcel.Current.sql", "select 1 as a;\n");
    ws.expect("header-missing", 1);
  }

  @Test
  void headerMissingInPython() {
    ws.write("Lakehouse/L/Tables/Parcel__Current.py", "# comment\nfrom weaver import Table\n");
    ws.expect("header-missing", 2);
  }

  @Test
  void headerAfterBlankLinesAndCommentsIsFound() {
    ws.write(
        "Lakehouse/L/Tables/Parcel__Current.py",
        "#!/usr/bin/env python\n\n\"\"\"\n"
            + BASE
            + "Schema:\n  parcel_id: string\n\"\"\"\nfrom weaver import Table\n\nclass"
            + " Parcel__Current(Table):\n    def read(self):\n        return None\n");
    ws.expectClean();
  }

  // header-invalid

  @Test
  void headerInvalidYaml() {
    ws.sql("L", "Parcel.Current", BASE + "Primary key: [a\n", QUERY);
    ws.expect("header-invalid", 0);
  }

  @Test
  void headerNotAMapping() {
    ws.sql("L", "Parcel.Current", "- just\n- a list\n", QUERY);
    ws.expect("header-invalid", 2);
  }

  @Test
  void headerKeyTwice() {
    ws.sql("L", "Parcel.Current", BASE + "Owner: a\nOwner: b\n", QUERY);
    ws.expect("header-invalid", 5);
  }

  @Test
  void validHeaderIsNotInvalid() {
    ws.sql("L", "Parcel.Current", BASE + "Owner: Parcel team\n", QUERY);
    ws.expectClean();
  }

  // unknown-key

  @Test
  void unknownKeyWithSuggestion() {
    ws.sql("L", "Parcel.Current", BASE + "Primary Key: parcel_id\n", QUERY);
    Finding f = ws.expect("unknown-key", 4);
    assertTrue(f.message().contains("did you mean 'Primary key'"), f.message());
  }

  @Test
  void unknownKeyWithoutCloseMatch() {
    ws.sql("L", "Parcel.Current", BASE + "Favourite colour: blue\n", QUERY);
    Finding f = ws.expect("unknown-key", 4);
    assertTrue(!f.message().contains("did you mean"), f.message());
  }

  @Test
  void testKeysAreUnknownOnTables() {
    ws.sql("L", "Parcel.Current", BASE + "Severity: error\n", QUERY);
    ws.expect("unknown-key", 4);
  }

  // required-key-missing

  @Test
  void tableIdMissing() {
    ws.sql("L", "Parcel.Current", DESC, QUERY);
    ws.expect("required-key-missing", 0);
  }

  @Test
  void descriptionMissing() {
    ws.sql("L", "Parcel.Current", ID, QUERY);
    ws.expect("required-key-missing", 0);
  }

  @Test
  void pythonWithoutSchema() {
    ws.py("L", "Parcel.Current", BASE);
    Finding f = ws.expect("required-key-missing", 0);
    assertTrue(f.message().contains("Schema"), f.message());
  }

  @Test
  void sqlWithoutSchemaIsFine() {
    ws.sql("L", "Parcel.Current", BASE, QUERY);
    ws.expectClean();
  }

  // invalid-value

  @Test
  void quotedBooleanIsInvalid() {
    ws.sql("L", "Parcel.Current", BASE + "Primary key: parcel_id\nIncremental: \"true\"\n", QUERY);
    Finding f = ws.expect("invalid-value", 5);
    assertTrue(f.message().contains("without quotes"), f.message());
  }

  @Test
  void thresholdOutOfRange() {
    ws.sql("L", "Parcel.Current", BASE + "Delete percentage threshold: 101\n", QUERY);
    ws.expect("invalid-value", 4);
  }

  @Test
  void thresholdAsBooleanOrFloatOrText() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE
            + "Delete percentage threshold: true\nUpdate percentage threshold: 2.5\n"
            + "Stability row threshold: \"10\"\n",
        QUERY);
    var findings = ws.check().stream().filter(f -> f.rule().equals("invalid-value")).toList();
    assertEquals(3, findings.size(), TestWorkspace.describe(findings));
  }

  @Test
  void emptyMemberInColumnSet() {
    ws.sql("L", "Parcel.Current", BASE + "Primary key: parcel_id,,status\n", QUERY);
    ws.expect("invalid-value", 4);
  }

  @Test
  void repeatedColumnInColumnSet() {
    ws.sql("L", "Parcel.Current", BASE + "Primary key: parcel_id, parcel_id\n", QUERY);
    ws.expect("invalid-value", 4);
  }

  @Test
  void deltaMinimaOutOfRange() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE + "Delta minReaderVersion: 4\nDelta minWriterVersion: 0\n",
        QUERY);
    var findings = ws.check().stream().filter(f -> f.rule().equals("invalid-value")).toList();
    assertEquals(2, findings.size(), TestWorkspace.describe(findings));
  }

  @Test
  void emptyDescription() {
    ws.sql("L", "Parcel.Current", ID + "Description: ''\n", QUERY);
    ws.expect("invalid-value", 3);
  }

  @Test
  void tagsMustBeDistinct() {
    ws.sql("L", "Parcel.Current", BASE + "Tags: [a, a]\n", QUERY);
    ws.expect("invalid-value", 4);
  }

  @Test
  void validValuesOfEveryKey() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE
            + "Lineage: Parcel event stream.\nOwner: Logistics team\nTags: [core, daily]\n"
            + "Dependencies: []\nSchema:\n  parcel_id: string\n  status: string\n"
            + "  depot_id: bigint\n  tracking_no: string\n"
            + "Column notes:\n  status: Where the parcel is.\n"
            + "Primary key: parcel_id\nUnique keys:\n  - tracking_no\n"
            + "Not null: [status]\nComparison columns: status, depot_id\n"
            + "Incremental: true\nHas load procedure: true\nDelete percentage threshold: 0\n"
            + "Update percentage threshold: 100\nStability row threshold: 0\n"
            + "Delta minReaderVersion: 3\nDelta minWriterVersion: 7\n"
            + "Identity: parcel_sk\n",
        "select parcel_id, status, depot_id, tracking_no from src;\n");
    ws.expectClean();
  }

  // id-mismatch

  @Test
  void tableIdDisagreesWithFileName() {
    ws.write(
        "Lakehouse/L/Tables/Parcel.Current.sql",
        "/*\nTable ID: Parcel.current\n" + DESC + "*/\n" + QUERY);
    ws.expect("id-mismatch", 2);
  }

  @Test
  void pythonClassNameMustMatch() {
    ws.py(
        "L",
        "Parcel.Current",
        BASE + "Schema:\n  a: string\n",
        "from weaver import Table\nclass ParcelCurrent(Table):\n    def read(self):\n        pass\n");
    ws.expect("python-class", 0);
    Finding f = ws.expect("id-mismatch", 8);
    assertTrue(f.message().contains("'ParcelCurrent'"), f.message());
    assertTrue(f.message().contains("'Parcel__Current'"), f.message());
  }

  @Test
  void pythonClassDisagreeingOnlyInCaseIsAnIdMismatch() {
    ws.py(
        "L",
        "Parcel.Current",
        BASE + "Schema:\n  a: string\n",
        "from weaver import Table\n\nclass Helper:\n    pass\n\n"
            + "class parcel__current(Table):\n    def read(self):\n        pass\n");
    Finding f = ws.expect("id-mismatch", 12);
    assertTrue(f.message().contains("'parcel__current'"), f.message());
    ws.expect("python-class", 0);
  }

  @Test
  void itemFolderNotAnIdentifier() {
    ws.write("Lakehouse/My Item/Tables/Parcel.Current.sql", "/*\n" + BASE + "*/\n" + QUERY);
    ws.expect("id-mismatch", 0);
  }

  @Test
  void pythonFileNameMatches() {
    ws.py("L", "Parcel.Current", BASE + "Schema:\n  a: string\n");
    ws.expectClean();
  }

  // duplicate-id

  @Test
  void sameTableIdTwiceInOneItem() {
    ws.sql("L", "Parcel.Current", BASE, QUERY);
    ws.py("L", "Parcel.Current", BASE + "Schema:\n  a: string\n");
    ws.expect("duplicate-id", 2);
  }

  @Test
  void sameTableIdInTwoItemsIsFine() {
    ws.sql("L", "Parcel.Current", BASE, QUERY);
    ws.sql("M", "Parcel.Current", BASE, QUERY);
    ws.expectClean();
  }

  // python-class

  @Test
  void pythonReadIsAsync() {
    ws.py(
        "L",
        "Parcel.Current",
        BASE + "Schema:\n  a: string\n",
        "from weaver import Table\nclass Parcel__Current(Table):\n    async def read(self):\n        pass\n");
    ws.expect("python-class", 9);
  }

  @Test
  void pythonWithoutRead() {
    ws.py(
        "L",
        "Parcel.Current",
        BASE + "Schema:\n  a: string\n",
        "from weaver import Table\nclass Parcel__Current(Table):\n    def reed(self):\n        pass\n");
    ws.expect("python-class", 8);
  }

  @Test
  void pythonNotInheritingTable() {
    ws.py(
        "L",
        "Parcel.Current",
        BASE + "Schema:\n  a: string\n",
        "class Parcel__Current(object):\n    def read(self):\n        pass\n");
    ws.expect("python-class", 7);
  }

  @Test
  void pythonReadWithExtraParameter() {
    ws.py(
        "L",
        "Parcel.Current",
        BASE + "Schema:\n  a: string\n",
        "from weaver import Table\nclass Parcel__Current(Table):\n    def read(self, x):\n        pass\n");
    ws.expect("python-class", 9);
  }

  @Test
  void pythonClassInsideStringDoesNotCount() {
    ws.py(
        "L",
        "Parcel.Current",
        BASE + "Schema:\n  a: string\n",
        "import weaver\nTEXT = '''\nclass Parcel__Current(Table):\n    def read(self):\n'''\n"
            + "class Parcel__Current(weaver.Table):\n    x = 1\n\n    def read(self) -> 'DataFrame':\n"
            + "        return None\n");
    ws.expectClean();
  }

  // incremental-without-key

  @Test
  void incrementalWithoutKey() {
    ws.sql("L", "Parcel.Current", BASE + "Incremental: true\n", QUERY);
    ws.expect("incremental-without-key", 4);
  }

  @Test
  void incrementalWithKey() {
    ws.sql("L", "Parcel.Current", BASE + "Incremental: true\nPrimary key: parcel_id\n", QUERY);
    ws.expectClean();
  }

  // comparison-columns

  @Test
  void comparisonColumnsWithoutKey() {
    ws.sql("L", "Parcel.Current", BASE + "Comparison columns: status\n", QUERY);
    ws.expect("comparison-columns", 4);
  }

  @Test
  void comparisonColumnsContainingKey() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE + "Primary key: parcel_id\nComparison columns: status, parcel_id\n",
        QUERY);
    ws.expect("comparison-columns", 5);
  }

  @Test
  void comparisonColumnsValid() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE + "Primary key: parcel_id\nComparison columns: status\n",
        QUERY);
    ws.expectClean();
  }

  // not-null-repeats-key

  @Test
  void notNullRepeatsKey() {
    ws.sql("L", "Parcel.Current", BASE + "Primary key: parcel_id\nNot null: [parcel_id]\n", QUERY);
    ws.expect("not-null-repeats-key", 5);
  }

  @Test
  void notNullOfOtherColumn() {
    ws.sql("L", "Parcel.Current", BASE + "Primary key: parcel_id\nNot null: [status]\n", QUERY);
    ws.expectClean();
  }

  // unique-keys

  @Test
  void uniqueKeyRepeated() {
    ws.sql("L", "Parcel.Current", BASE + "Unique keys:\n  - status\n  - status\n", QUERY);
    ws.expect("unique-keys", 6);
  }

  @Test
  void uniqueKeyRepeatedInOtherOrder() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE + "Unique keys:\n  - status, parcel_id\n  - parcel_id, status\n",
        QUERY);
    ws.expect("unique-keys", 6);
  }

  @Test
  void uniqueKeyWithRepeatedColumn() {
    ws.sql("L", "Parcel.Current", BASE + "Unique keys:\n  - status, status\n", QUERY);
    ws.expect("unique-keys", 5);
  }

  @Test
  void uniqueKeyEqualToPrimaryKey() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE + "Primary key: parcel_id\nUnique keys:\n  - parcel_id\n",
        QUERY);
    ws.expect("unique-keys", 6);
  }

  @Test
  void uniqueKeysValid() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE + "Primary key: parcel_id\nUnique keys:\n  - status\n  - parcel_id, status\n",
        QUERY);
    ws.expectClean();
  }

  // foreign-keys

  @Test
  void foreignKeyArityMismatch() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE + "Foreign keys:\n  - parcel_id, status: Depot.Site[site_id]\n",
        QUERY);
    ws.expect("foreign-keys", 5);
  }

  @Test
  void foreignKeyMalformedTarget() {
    ws.sql(
        "L", "Parcel.Current", BASE + "Foreign keys:\n  - parcel_id: Depot.Site(site_id)\n", QUERY);
    ws.expect("foreign-keys", 5);
  }

  @Test
  void foreignKeyDollarTarget() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE + "Foreign keys:\n  - parcel_id: $Depot.Site[site_id]\n",
        QUERY);
    ws.expect("foreign-keys", 5);
  }

  @Test
  void foreignKeyNotAMapping() {
    ws.sql("L", "Parcel.Current", BASE + "Foreign keys:\n  - parcel_id\n", QUERY);
    ws.expect("foreign-keys", 5);
  }

  @Test
  void foreignKeysValidInAllTargetForms() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE
            + "Foreign keys:\n  - parcel_id: Depot.Site[site_id]\n  - status: Files/Ref.Status[code]\n"
            + "  - parcel_id, status: Other.Depot.Site[a, b]\n",
        QUERY);
    ws.expectClean();
  }

  // identity

  @Test
  void identityInSchema() {
    ws.py("L", "Parcel.Current", BASE + "Schema:\n  sk: bigint\n  a: string\nIdentity: sk\n");
    ws.expect("identity", 7);
  }

  @Test
  void identityIsPrimaryKey() {
    ws.sql("L", "Parcel.Current", BASE + "Identity: sk\nPrimary key: sk\n", QUERY);
    ws.expect("identity", 4);
  }

  @Test
  void identityInQueryResult() {
    ws.sql("L", "Parcel.Current", BASE + "Identity: parcel_id\n", QUERY);
    ws.expect("identity", 6);
  }

  @Test
  void identityCollidesWithManagedName() {
    ws.sql("L", "Parcel.Current", BASE + "Identity: Row_Signature\n", QUERY);
    ws.expect("identity", 4);
  }

  @Test
  void identityValid() {
    ws.sql("L", "Parcel.Current", BASE + "Identity: parcel_sk\nPrimary key: parcel_id\n", QUERY);
    ws.expectClean();
  }

  // managed-name

  @Test
  void schemaColumnCollidesWithManagedName() {
    ws.py("L", "Parcel.Current", BASE + "Schema:\n  a: string\n  ROW_INSERT_DATETIME: timestamp\n");
    ws.expect("managed-name", 6);
  }

  @Test
  void queryColumnCollidesWithManagedName() {
    ws.sql(
        "L", "Parcel.Current", BASE, "select parcel_id, now() as row_update_datetime from src;\n");
    ws.expect("managed-name", 5);
  }

  @Test
  void warehouseManagedNamesAreSpaced() {
    ws.tsql("W", "Parcel.Current", BASE, "select [parcel_id], [Row delete datetime] from src\n");
    ws.expect("managed-name", 5);
  }

  @Test
  void lakehouseSpacedNameIsNotManaged() {
    ws.py("L", "Parcel.Current", BASE + "Schema:\n  a: string\n  row_inserted: timestamp\n");
    ws.expectClean();
  }

  // no-load-python

  @Test
  void noLoadProcedureOnPython() {
    ws.py("L", "Parcel.Current", BASE + "Schema:\n  a: string\nHas load procedure: false\n");
    ws.expect("no-load-python", 6);
  }

  @Test
  void noLoadProcedureOnSql() {
    ws.sql("L", "Parcel.Current", BASE + "Has load procedure: false\n", QUERY);
    ws.expectClean();
  }

  // unknown-column

  @Test
  void keyNamesUndeclaredColumn() {
    ws.py("L", "Parcel.Current", BASE + "Schema:\n  parcel_id: string\nPrimary key: Parcel_ID\n");
    Finding f = ws.expect("unknown-column", 6);
    assertTrue(f.message().contains("did you mean 'parcel_id'"), f.message());
  }

  @Test
  void noteNamesUndeclaredColumn() {
    ws.py("L", "Parcel.Current", BASE + "Schema:\n  a: string\nColumn notes:\n  b: note\n");
    ws.expect("unknown-column", 7);
  }

  @Test
  void keyNamesColumnMissingFromVisibleQuery() {
    ws.sql("L", "Parcel.Current", BASE + "Primary key: id\n", QUERY);
    ws.expect("unknown-column", 4);
  }

  @Test
  void keyAgainstInvisibleQueryShapeIsLeftToBuild() {
    ws.sql("L", "Parcel.Current", BASE + "Primary key: id\n", "select * from src;\n");
    ws.expectClean();
  }

  // duplicate-column

  @Test
  void schemaCaseOnlyDuplicate() {
    ws.py("L", "Parcel.Current", BASE + "Schema:\n  a: string\n  A: string\n");
    ws.expect("duplicate-column", 6);
  }

  @Test
  void schemaExactDuplicate() {
    ws.py("L", "Parcel.Current", BASE + "Schema:\n  a: string\n  a: int\n");
    ws.expect("duplicate-column", 6);
  }

  @Test
  void queryDuplicateColumn() {
    ws.sql("L", "Parcel.Current", BASE, "select a, b as A from src;\n");
    ws.expect("duplicate-column", 5);
  }

  // result-queries

  @Test
  void noResultQuery() {
    ws.sql("L", "Parcel.Current", BASE, "create temporary view v as select 1 as a;\n");
    ws.expect("result-queries", 0);
  }

  @Test
  void threeResultQueries() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE + "Incremental: true\nPrimary key: a\n",
        "select 1 as a;\nselect 2 as a;\nselect 3 as a;\n");
    ws.expect("result-queries", 9);
  }

  @Test
  void tsqlWithoutResultQuery() {
    ws.tsql("W", "Parcel.Current", BASE, "declare @x int = 1\n");
    ws.expect("result-queries", 0);
  }

  @Test
  void setupThenOneResultQuery() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE,
        "set spark.sql.ansi.enabled = true;\ncreate or replace temporary view v as select 1 as a;\nselect a from v;\n");
    ws.expectClean();
  }

  // delete-query

  @Test
  void deleteQueryWithoutIncremental() {
    ws.sql("L", "Parcel.Current", BASE + "Primary key: a\n", "select 1 as a;\nselect 2 as a;\n");
    ws.expect("delete-query", 7);
  }

  @Test
  void deleteQueryOnIncrementalKeyedTable() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE + "Primary key: a\nIncremental: true\n",
        "select 1 as a;\nselect 2 as a;\n");
    ws.expectClean();
  }

  @Test
  void deleteQueryReturningMoreThanTheKey() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE + "Primary key: a\nIncremental: true\n",
        "select 1 as a;\nselect a, b from d;\n");
    ws.expect("delete-query", 8);
  }

  // statement-terminator

  @Test
  void lastStatementWithoutSemicolon() {
    ws.sql("L", "Parcel.Current", BASE, "select a from src\n");
    ws.expect("statement-terminator", 5);
  }

  @Test
  void semicolonInsideStringDoesNotTerminate() {
    ws.sql("L", "Parcel.Current", BASE, "select 'a;b' as a from src;\n");
    ws.expectClean();
  }

  @Test
  void tsqlNeedsNoSemicolons() {
    ws.tsql("W", "Parcel.Current", BASE, "select a from src\n");
    ws.expectClean();
  }

  // go-batch

  @Test
  void goInTsql() {
    ws.tsql("W", "Parcel.Current", BASE, "select a from src\nGO\n");
    ws.expect("go-batch", 6);
  }

  @Test
  void goAsAliasIsFine() {
    ws.tsql("W", "Parcel.Current", BASE, "select a as go from src\n");
    ws.expectClean();
  }

  // target-key

  @Test
  void deltaKeyOnWarehouse() {
    ws.tsql("W", "Parcel.Current", BASE + "Delta minReaderVersion: 3\n", "select a from src\n");
    ws.expect("target-key", 4);
  }

  @Test
  void deltaKeyOnLakehouse() {
    ws.sql("L", "Parcel.Current", BASE + "Delta minReaderVersion: 3\n", QUERY);
    ws.expectClean();
  }

  // dependency-unknown

  @Test
  void dependencyOnMissingTable() {
    ws.sql("L", "Parcel.Current", BASE + "Dependencies: [Parcel.Event]\n", QUERY);
    ws.expect("dependency-unknown", 4);
  }

  @Test
  void dependencyOnFilesIsAWarning() {
    ws.sql("L", "Parcel.Current", BASE + "Dependencies: [Files/Raw.Events]\n", QUERY);
    Finding f = ws.expect("dependency-unknown", 4);
    assertEquals(Severity.WARNING, f.severity());
  }

  @Test
  void dependencyAcrossItems() {
    ws.sql("L", "Parcel.Current", BASE + "Dependencies: [M.Parcel.Event, Parcel.Event]\n", QUERY);
    ws.sql("M", "Parcel.Event", "Table ID: Parcel.Event\n" + DESC, QUERY);
    ws.sql("L", "Parcel.Event", "Table ID: Parcel.Event\n" + DESC, QUERY);
    ws.expectClean();
  }

  // dependency-cycle

  @Test
  void dependencyCycle() {
    ws.sql("L", "A.One", "Table ID: A.One\n" + DESC + "Dependencies: [A.Two]\n", QUERY);
    ws.sql("L", "A.Two", "Table ID: A.Two\n" + DESC + "Dependencies: [A.Three]\n", QUERY);
    ws.sql("L", "A.Three", "Table ID: A.Three\n" + DESC + "Dependencies: [A.One]\n", QUERY);
    Finding f = ws.expect("dependency-cycle", 4);
    assertTrue(f.message().contains("L.A.One -> L.A.Two -> L.A.Three -> L.A.One"), f.message());
  }

  @Test
  void selfDependencyIsACycle() {
    ws.sql("L", "A.One", "Table ID: A.One\n" + DESC + "Dependencies: [A.One]\n", QUERY);
    ws.expect("dependency-cycle", 4);
  }

  @Test
  void tablesReadingEachOtherAreACycle() {
    ws.sql("L", "A.One", "Table ID: A.One\n" + DESC, "select k from A.Two;\n");
    ws.sql("L", "A.Two", "Table ID: A.Two\n" + DESC, "select t.k from L.A.One as t;\n");
    List<Finding> cycles = ws.findings("dependency-cycle");
    assertEquals(1, cycles.size(), TestWorkspace.describe(cycles));
    Finding f = cycles.get(0);
    assertEquals(Severity.ERROR, f.severity());
    assertEquals("Lakehouse/L/Tables/A.One.sql", f.path());
    assertEquals(5, f.line(), "at the statement that reads the other Table");
    assertTrue(f.message().contains("L.A.One -> L.A.Two -> L.A.One"), f.message());
    assertTrue(f.message().contains("its SQL reads A.Two"), f.message());
    assertTrue(f.message().contains("its SQL reads L.A.One"), f.message());
  }

  @Test
  void readInASetupStatementCounts() {
    ws.sql(
        "L",
        "A.One",
        "Table ID: A.One\n" + DESC,
        "set spark.sql.ansi.enabled = true;\n"
            + "create or replace temp view v as select k from A.Two;\n"
            + "select k from v;\n");
    ws.sql("L", "A.Two", "Table ID: A.Two\n" + DESC, "select k from A.One;\n");
    Finding f = ws.expect("dependency-cycle", 6);
    assertTrue(f.message().contains("A.One.sql line 6"), f.message());
  }

  @Test
  void declaredAndInferredEdgesFormACycle() {
    ws.sql("L", "A.One", "Table ID: A.One\n" + DESC + "Dependencies: [A.Two]\n", QUERY);
    ws.sql("L", "A.Two", "Table ID: A.Two\n" + DESC, "select k from A.Three;\n");
    ws.sql("L", "A.Three", "Table ID: A.Three\n" + DESC, "select k from A.One;\n");
    List<Finding> cycles = ws.findings("dependency-cycle");
    assertEquals(1, cycles.size(), TestWorkspace.describe(cycles));
    Finding f = cycles.get(0);
    assertEquals(4, f.line(), "a declared first edge is reported at Dependencies");
    assertTrue(f.message().contains("L.A.One -> L.A.Two -> L.A.Three -> L.A.One"), f.message());
    assertTrue(
        f.message().contains("L.A.Three -> L.A.One is inferred because its SQL reads A.One"),
        f.message());
    assertTrue(f.message().contains("remove one of the declared dependencies"), f.message());
  }

  @Test
  void sameSchemaObjectInAnotherItemIsNoCycle() {
    // L.A.One reads M.A.Two, which reads A.One of its own item M; were the two-part name resolved
    // in the reader's item of the first Table, this would be a false cycle.
    ws.sql("L", "A.One", "Table ID: A.One\n" + DESC, "select k from M.A.Two;\n");
    ws.sql("M", "A.Two", "Table ID: A.Two\n" + DESC, "select k from A.One;\n");
    ws.sql("M", "A.One", "Table ID: A.One\n" + DESC, QUERY);
    ws.expectClean();
  }

  @Test
  void readingItsOwnTargetIsNoCycle() {
    ws.sql(
        "L",
        "A.One",
        "Table ID: A.One\n" + DESC,
        "select k from src where k not in (select k from A.One);\n");
    ws.expectClean();
  }

  @Test
  void unknownAndExternalNamesAreNoEdges() {
    ws.sql(
        "L",
        "A.One",
        "Table ID: A.One\n" + DESC,
        "select k from parquet.`/data/x` union all select k from spark_catalog.db.A"
            + " union all select k from A.Nothing;\n");
    ws.expectClean();
  }

  @Test
  void diamondIsNoCycle() {
    ws.sql("L", "A.One", "Table ID: A.One\n" + DESC + "Dependencies: [A.Two, A.Three]\n", QUERY);
    ws.sql("L", "A.Two", "Table ID: A.Two\n" + DESC + "Dependencies: [A.Four]\n", QUERY);
    ws.sql("L", "A.Three", "Table ID: A.Three\n" + DESC + "Dependencies: [A.Four]\n", QUERY);
    ws.sql("L", "A.Four", "Table ID: A.Four\n" + DESC, QUERY);
    ws.expectClean();
  }

  // note-reference

  @Test
  void noteReferenceToMissingTable() {
    ws.py(
        "L", "Parcel.Current", BASE + "Schema:\n  a: string\nColumn notes:\n  a: $Depot.Site.a\n");
    ws.expect("note-reference", 7);
  }

  @Test
  void noteReferenceToMissingColumn() {
    ws.py(
        "L", "Parcel.Current", BASE + "Schema:\n  a: string\nColumn notes:\n  a: $Depot.Site.zz\n");
    ws.py(
        "L",
        "Depot.Site",
        "Table ID: Depot.Site\n" + DESC + "Schema:\n  a: string\nColumn notes:\n  a: The site.\n");
    ws.expect("note-reference", 7);
  }

  @Test
  void noteReferenceToColumnWithoutNote() {
    ws.py(
        "L", "Parcel.Current", BASE + "Schema:\n  a: string\nColumn notes:\n  a: $Depot.Site.a\n");
    ws.py("L", "Depot.Site", "Table ID: Depot.Site\n" + DESC + "Schema:\n  a: string\n");
    ws.expect("note-reference", 7);
  }

  @Test
  void noteReferenceCycle() {
    ws.py(
        "L", "Parcel.Current", BASE + "Schema:\n  a: string\nColumn notes:\n  a: $Depot.Site.a\n");
    ws.py(
        "L",
        "Depot.Site",
        "Table ID: Depot.Site\n"
            + DESC
            + "Schema:\n  a: string\nColumn notes:\n  a: $Parcel.Current.a\n");
    Finding f = ws.expect("note-reference", 7);
    assertTrue(f.message().contains("cycle"), f.message());
  }

  @Test
  void malformedReference() {
    ws.py("L", "Parcel.Current", BASE + "Schema:\n  a: string\nColumn notes:\n  a: $Depot\n");
    ws.expect("note-reference", 7);
  }

  @Test
  void noteReferenceChainResolves() {
    ws.py(
        "L", "Parcel.Current", BASE + "Schema:\n  a: string\nColumn notes:\n  a: $Depot.Site.a\n");
    ws.py(
        "L",
        "Depot.Site",
        "Table ID: Depot.Site\n"
            + DESC
            + "Schema:\n  a: string\nColumn notes:\n  a: $M.Ref.Site.a\n");
    ws.py(
        "M",
        "Ref.Site",
        "Table ID: Ref.Site\n"
            + DESC
            + "Schema:\n  a: string\nColumn notes:\n  a: The site code.\n");
    ws.expectClean();
  }

  // dynamic-sql

  @Test
  void dynamicSqlIsAWarning() {
    ws.tsql(
        "W",
        "Parcel.Current",
        BASE,
        "declare @s nvarchar(max) = N'select 1 as a'\nexec sp_executesql @s\n");
    Finding f = ws.expect("dynamic-sql", 6);
    assertEquals(Severity.WARNING, f.severity());
    ws.expectNo("result-queries");
  }

  @Test
  void storedProcedureCallIsNotDynamic() {
    ws.tsql("W", "Parcel.Current", BASE, "exec dbo.prepare_parcels\nselect a from src\n");
    ws.expectClean();
  }

  // schema-mismatch (Weaver's own; docs/table-contract.md, "Keys": a declared Schema is
  // authoritative)

  @Test
  void queryMissesDeclaredColumn() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE + "Schema:\n  parcel_id: string\n  status: string\n  depot: int\n",
        QUERY);
    ws.expect("schema-mismatch", 4);
  }

  @Test
  void queryReturnsUndeclaredOrMisspelledColumn() {
    ws.sql("L", "Parcel.Current", BASE + "Schema:\n  parcel_id: string\n  Status: string\n", QUERY);
    Finding f = ws.expect("schema-mismatch", 8);
    assertTrue(f.message().contains("Status"), f.message());
  }

  @Test
  void queryMatchesSchemaInOtherOrder() {
    ws.sql("L", "Parcel.Current", BASE + "Schema:\n  status: string\n  parcel_id: string\n", QUERY);
    ws.expectClean();
  }
}
