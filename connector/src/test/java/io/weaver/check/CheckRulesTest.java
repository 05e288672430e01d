package io.weaver.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.findings.Finding;
import io.weaver.findings.Severity;
import io.weaver.metadata.Expectation;
import io.weaver.metadata.TableDeclaration;
import io.weaver.workspace.TableId;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One test per rule id (docs/table-contract.md, "Check") that triggers it with a minimal workspace,
 * and one valid neighbour that must not (no false positives). Most have one shape — write
 * declarations, then expect one rule on one line (and what its message says) or a clean workspace —
 * and are the {@link #cases()}; the rest are ordinary tests below them.
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

  /**
   * One case: the declarations it writes, then the rule expected on a line (0: any line), or none
   * at all when {@code rule} is null; {@code checks} run on the first finding of the rule.
   */
  record Case(
      String name,
      Consumer<TestWorkspace> files,
      String rule,
      int line,
      List<Consumer<Finding>> checks) {
    Case messageContains(String text) {
      return with(f -> assertTrue(f.message().contains(text), f.message()));
    }

    Case messageLacks(String text) {
      return with(f -> assertTrue(!f.message().contains(text), f.message()));
    }

    Case severity(Severity severity) {
      return with(f -> assertEquals(severity, f.severity()));
    }

    private Case with(Consumer<Finding> check) {
      List<Consumer<Finding>> more = new ArrayList<>(checks);
      more.add(check);
      return new Case(name, files, rule, line, List.copyOf(more));
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** The workspace {@code files} writes reports {@code rule} on {@code line}. */
  private static Case flags(String name, String rule, int line, Consumer<TestWorkspace> files) {
    return new Case(name, files, rule, line, List.of());
  }

  /** The workspace {@code files} writes is clean. */
  private static Case clean(String name, Consumer<TestWorkspace> files) {
    return new Case(name, files, null, 0, List.of());
  }

  static Stream<Case> cases() {
    return Stream.of(
        // header-missing
        flags(
            "headerMissingInSql",
            "header-missing",
            1,
            ws -> ws.write("Lakehouse/L/Tables/Parcel.Current.sql", "select 1 as a;\n")),
        flags(
            "headerMissingInPython",
            "header-missing",
            2,
            ws ->
                ws.write(
                    "Lakehouse/L/Tables/Parcel__Current.py",
                    "# comment\nfrom weaver import Table\n")),
        clean(
            "headerAfterBlankLinesAndCommentsIsFound",
            ws ->
                ws.write(
                    "Lakehouse/L/Tables/Parcel__Current.py",
                    "#!/usr/bin/env python\n\n\"\"\"\n"
                        + BASE
                        + "Schema:\n  parcel_id: string\n\"\"\"\nfrom weaver import Table\n\nclass"
                        + " Parcel__Current(Table):\n    def read(self):\n        return None\n")),
        // header-invalid
        flags(
            "headerInvalidYaml",
            "header-invalid",
            0,
            ws -> ws.sql("L", "Parcel.Current", BASE + "Primary key: [a\n", QUERY)),
        flags(
            "headerNotAMapping",
            "header-invalid",
            2,
            ws -> ws.sql("L", "Parcel.Current", "- just\n- a list\n", QUERY)),
        flags(
            "headerKeyTwice",
            "header-invalid",
            5,
            ws -> ws.sql("L", "Parcel.Current", BASE + "Owner: a\nOwner: b\n", QUERY)),
        clean(
            "validHeaderIsNotInvalid",
            ws -> ws.sql("L", "Parcel.Current", BASE + "Owner: Parcel team\n", QUERY)),
        // unknown-key
        flags(
                "unknownKeyWithSuggestion",
                "unknown-key",
                4,
                ws -> ws.sql("L", "Parcel.Current", BASE + "Primary Key: parcel_id\n", QUERY))
            .messageContains("did you mean 'Primary key'"),
        flags(
                "unknownKeyWithoutCloseMatch",
                "unknown-key",
                4,
                ws -> ws.sql("L", "Parcel.Current", BASE + "Favourite colour: blue\n", QUERY))
            .messageLacks("did you mean"),
        flags(
            "testKeysAreUnknownOnTables",
            "unknown-key",
            4,
            ws -> ws.sql("L", "Parcel.Current", BASE + "Severity: error\n", QUERY)),
        // required-key-missing
        flags(
            "tableIdMissing",
            "required-key-missing",
            0,
            ws -> ws.sql("L", "Parcel.Current", DESC, QUERY)),
        flags(
            "descriptionMissing",
            "required-key-missing",
            0,
            ws -> ws.sql("L", "Parcel.Current", ID, QUERY)),
        flags(
                "pythonWithoutSchema",
                "required-key-missing",
                0,
                ws -> ws.py("L", "Parcel.Current", BASE))
            .messageContains("Schema"),
        clean("sqlWithoutSchemaIsFine", ws -> ws.sql("L", "Parcel.Current", BASE, QUERY)),
        // invalid-value
        flags(
                "quotedBooleanIsInvalid",
                "invalid-value",
                5,
                ws ->
                    ws.sql(
                        "L",
                        "Parcel.Current",
                        BASE + "Primary key: parcel_id\nIncremental: \"true\"\n",
                        QUERY))
            .messageContains("without quotes"),
        flags(
            "thresholdOutOfRange",
            "invalid-value",
            4,
            ws ->
                ws.sql("L", "Parcel.Current", BASE + "Delete percentage threshold: 101\n", QUERY)),
        flags(
            "emptyMemberInColumnSet",
            "invalid-value",
            4,
            ws -> ws.sql("L", "Parcel.Current", BASE + "Primary key: parcel_id,,status\n", QUERY)),
        flags(
            "repeatedColumnInColumnSet",
            "invalid-value",
            4,
            ws ->
                ws.sql("L", "Parcel.Current", BASE + "Primary key: parcel_id, parcel_id\n", QUERY)),
        flags(
            "emptyDescription",
            "invalid-value",
            3,
            ws -> ws.sql("L", "Parcel.Current", ID + "Description: ''\n", QUERY)),
        flags(
            "tagsMustBeDistinct",
            "invalid-value",
            4,
            ws -> ws.sql("L", "Parcel.Current", BASE + "Tags: [a, a]\n", QUERY)),
        clean(
            "validValuesOfEveryKey",
            ws ->
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
                    "select parcel_id, status, depot_id, tracking_no from src;\n")),
        // id-mismatch
        flags(
            "tableIdDisagreesWithFileName",
            "id-mismatch",
            2,
            ws ->
                ws.write(
                    "Lakehouse/L/Tables/Parcel.Current.sql",
                    "/*\nTable ID: Parcel.current\n" + DESC + "*/\n" + QUERY)),
        flags(
            "itemFolderNotAnIdentifier",
            "id-mismatch",
            0,
            ws ->
                ws.write(
                    "Lakehouse/My Item/Tables/Parcel.Current.sql", "/*\n" + BASE + "*/\n" + QUERY)),
        clean(
            "pythonFileNameMatches",
            ws -> ws.py("L", "Parcel.Current", BASE + "Schema:\n  a: string\n")),
        // duplicate-id
        flags(
            "sameTableIdTwiceInOneItem",
            "duplicate-id",
            2,
            ws -> {
              ws.sql("L", "Parcel.Current", BASE, QUERY);
              ws.py("L", "Parcel.Current", BASE + "Schema:\n  a: string\n");
            }),
        clean(
            "sameTableIdInTwoItemsIsFine",
            ws -> {
              ws.sql("L", "Parcel.Current", BASE, QUERY);
              ws.sql("M", "Parcel.Current", BASE, QUERY);
            }),
        // python-class
        flags(
            "pythonReadIsAsync",
            "python-class",
            9,
            ws ->
                ws.py(
                    "L",
                    "Parcel.Current",
                    BASE + "Schema:\n  a: string\n",
                    "from weaver import Table\nclass Parcel__Current(Table):\n    async def read(self):\n        pass\n")),
        flags(
            "pythonWithoutRead",
            "python-class",
            8,
            ws ->
                ws.py(
                    "L",
                    "Parcel.Current",
                    BASE + "Schema:\n  a: string\n",
                    "from weaver import Table\nclass Parcel__Current(Table):\n    def reed(self):\n        pass\n")),
        flags(
            "pythonNotInheritingTable",
            "python-class",
            7,
            ws ->
                ws.py(
                    "L",
                    "Parcel.Current",
                    BASE + "Schema:\n  a: string\n",
                    "class Parcel__Current(object):\n    def read(self):\n        pass\n")),
        flags(
            "pythonReadWithExtraParameter",
            "python-class",
            9,
            ws ->
                ws.py(
                    "L",
                    "Parcel.Current",
                    BASE + "Schema:\n  a: string\n",
                    "from weaver import Table\nclass Parcel__Current(Table):\n    def read(self, x):\n        pass\n")),
        clean(
            "pythonClassInsideStringDoesNotCount",
            ws ->
                ws.py(
                    "L",
                    "Parcel.Current",
                    BASE + "Schema:\n  a: string\n",
                    "import weaver\nTEXT = '''\nclass Parcel__Current(Table):\n    def read(self):\n'''\n"
                        + "class Parcel__Current(weaver.Table):\n    x = 1\n\n    def read(self) -> 'DataFrame':\n"
                        + "        return None\n")),
        // incremental-without-key
        flags(
            "incrementalWithoutKey",
            "incremental-without-key",
            4,
            ws -> ws.sql("L", "Parcel.Current", BASE + "Incremental: true\n", QUERY)),
        clean(
            "incrementalWithKey",
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Incremental: true\nPrimary key: parcel_id\n",
                    QUERY)),
        // deletes
        clean(
            "deletesHardOnAKeyedTable",
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Primary key: parcel_id\nDeletes: hard\n",
                    QUERY)),
        clean(
            "deletesKeepOnAnIncrementalTable",
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Incremental: true\nPrimary key: parcel_id\nDeletes: keep\n",
                    QUERY)),
        flags(
                "deletesUnknownMode",
                "deletes",
                5,
                ws ->
                    ws.sql(
                        "L",
                        "Parcel.Current",
                        BASE + "Primary key: parcel_id\nDeletes: remove\n",
                        QUERY))
            .messageContains("'Deletes' must be soft")
            .messageContains("'remove'"),
        flags(
                "deletesCapitalised",
                "deletes",
                5,
                ws ->
                    ws.sql(
                        "L",
                        "Parcel.Current",
                        BASE + "Primary key: parcel_id\nDeletes: Hard\n",
                        QUERY))
            .messageContains("write 'hard', in lower case"),
        flags(
                "deletesWithoutKey",
                "deletes",
                4,
                ws -> ws.sql("L", "Parcel.Current", BASE + "Deletes: hard\n", QUERY))
            .messageContains("'Deletes' needs a 'Primary key'"),
        clean(
            "deletesHardOnWarehouse",
            ws ->
                ws.tsql(
                    "W",
                    "Parcel.Current",
                    BASE + "Primary key: a\nDeletes: hard\n",
                    "select a from src\n")),
        clean(
            "deletesKeepOnWarehouse",
            ws ->
                ws.tsql(
                    "W",
                    "Parcel.Current",
                    BASE + "Primary key: a\nDeletes: keep\n",
                    "select a from src\n")),
        clean(
            "deletesSoftOnWarehouse",
            ws ->
                ws.tsql(
                    "W",
                    "Parcel.Current",
                    BASE + "Primary key: a\nDeletes: soft\n",
                    "select a from src\n")),
        // history
        clean(
            "historyOnAKeyedLakehouseTable",
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Primary key: parcel_id\nHistory: true\n",
                    QUERY)),
        flags(
                "historyWithoutKey",
                "history",
                4,
                ws -> ws.sql("L", "Parcel.Current", BASE + "History: true\n", QUERY))
            .messageContains("'History: true' needs a 'Primary key'"),
        clean(
            "historyOnAKeyedWarehouseTable",
            ws ->
                ws.tsql(
                    "W",
                    "Parcel.Current",
                    BASE + "Primary key: a\nHistory: true\n",
                    "select a from src\n")),
        flags(
                "historyOnATableWeaverDoesNotLoad",
                "history",
                6,
                ws ->
                    ws.tsql(
                        "W",
                        "Parcel.Current",
                        BASE + "Primary key: a\nHas load procedure: false\nHistory: true\n",
                        "select a from src\n"))
            .messageContains("'History: true' with 'Has load procedure: false'"),
        flags(
                "objectNameWithTheHistorySuffix",
                "history",
                2,
                ws ->
                    ws.sql(
                        "L",
                        "Parcel.Current__History",
                        "Table ID: Parcel.Current__History\n" + DESC + "Primary key: parcel_id\n",
                        QUERY))
            .messageContains("ends in '__History'"),
        flags(
                "historyTableNameTooLong",
                "history",
                5,
                ws ->
                    ws.sql(
                        "L",
                        "Parcel." + "P".repeat(120),
                        "Table ID: Parcel."
                            + "P".repeat(120)
                            + "\n"
                            + DESC
                            + "Primary key: parcel_id\nHistory: true\n",
                        QUERY))
            .messageContains("at most 119"),
        // sequence-column
        clean(
            "sequenceColumnValid",
            ws ->
                ws.py(
                    "L",
                    "Parcel.Current",
                    BASE
                        + "Schema:\n  parcel_id: string\n  changed_at: timestamp\n"
                        + "Primary key: parcel_id\nSequence column: changed_at\n")),
        clean(
            "sequenceColumnOfEveryOrderedType",
            ws ->
                ws.py(
                    "L",
                    "Parcel.Current",
                    BASE
                        + "Schema:\n  parcel_id: string\n  a: tinyint\n  b: smallint\n  c: int\n"
                        + "  d: bigint\n  e: decimal(18,2)\n  f: float\n  g: double\n"
                        + "  h: string\n  i: date\n  j: timestamp_ntz\n  k: varchar(10)\n"
                        + "Primary key: parcel_id\nSequence column: e\n")),
        clean(
            "sequenceColumnInVisibleQuery",
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Primary key: parcel_id\nSequence column: status\n",
                    QUERY)),
        clean(
            "sequenceColumnAgainstInvisibleQueryShapeIsLeftToBuild",
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Primary key: parcel_id\nSequence column: changed_at\n",
                    "select * from src;\n")),
        flags(
                "sequenceColumnWithoutKey",
                "sequence-column",
                4,
                ws -> ws.sql("L", "Parcel.Current", BASE + "Sequence column: status\n", QUERY))
            .messageContains("'Sequence column' needs a 'Primary key'")
            .messageContains("'status'"),
        flags(
                "sequenceColumnAsList",
                "sequence-column",
                5,
                ws ->
                    ws.sql(
                        "L",
                        "Parcel.Current",
                        BASE + "Primary key: parcel_id\nSequence column: [status, parcel_id]\n",
                        QUERY))
            .messageContains("names one column")
            .messageContains("not a list"),
        flags(
                "sequenceColumnAsBlockList",
                "sequence-column",
                5,
                ws ->
                    ws.sql(
                        "L",
                        "Parcel.Current",
                        BASE + "Primary key: parcel_id\nSequence column:\n  - status\n",
                        QUERY))
            .messageContains("not a list"),
        flags(
                "sequenceColumnCommaSeparated",
                "sequence-column",
                5,
                ws ->
                    ws.sql(
                        "L",
                        "Parcel.Current",
                        BASE + "Primary key: parcel_id\nSequence column: status, changed_at\n",
                        QUERY))
            .messageContains("names one column, not several ('status, changed_at')"),
        flags(
            "sequenceColumnEmpty",
            "invalid-value",
            5,
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Primary key: parcel_id\nSequence column:\n",
                    QUERY)),
        flags(
                "sequenceColumnNotInSchema",
                "sequence-column",
                7,
                ws ->
                    ws.py(
                        "L",
                        "Parcel.Current",
                        BASE
                            + "Schema:\n  parcel_id: string\n"
                            + "Primary key: parcel_id\nSequence column: changed_at\n"))
            .messageContains("sequence column 'changed_at' is not a column of Schema"),
        flags(
                "sequenceColumnCaseOnlyDifferent",
                "sequence-column",
                8,
                ws ->
                    ws.py(
                        "L",
                        "Parcel.Current",
                        BASE
                            + "Schema:\n  parcel_id: string\n  changed_at: timestamp\n"
                            + "Primary key: parcel_id\nSequence column: Changed_At\n"))
            .messageContains("did you mean 'changed_at'"),
        flags(
                "sequenceColumnNotInVisibleQuery",
                "sequence-column",
                5,
                ws ->
                    ws.sql(
                        "L",
                        "Parcel.Current",
                        BASE + "Primary key: parcel_id\nSequence column: changed_at\n",
                        QUERY))
            .messageContains("is not a column of the query result"),
        flags(
                "sequenceColumnIsKeyColumn",
                "sequence-column",
                5,
                ws ->
                    ws.sql(
                        "L",
                        "Parcel.Current",
                        BASE + "Primary key: parcel_id, status\nSequence column: status\n",
                        QUERY))
            .messageContains("sequence column 'status' is a primary-key column"),
        flags(
                "sequenceColumnIsIdentity",
                "sequence-column",
                6,
                ws ->
                    ws.sql(
                        "L",
                        "Parcel.Current",
                        BASE
                            + "Primary key: parcel_id\nIdentity: parcel_sk\n"
                            + "Sequence column: parcel_sk\n",
                        QUERY))
            .messageContains("sequence column 'parcel_sk' is the Identity column")
            .messageLacks("is not a column of"),
        flags(
                "sequenceColumnBoolean",
                "sequence-column",
                8,
                ws ->
                    ws.py(
                        "L",
                        "Parcel.Current",
                        BASE
                            + "Schema:\n  parcel_id: string\n  is_latest: boolean\n"
                            + "Primary key: parcel_id\nSequence column: is_latest\n"))
            .messageContains("'is_latest' has type boolean")
            .messageContains("decimal, float, double, string, date, timestamp or timestamp_ntz"),
        flags(
                "sequenceColumnBinary",
                "sequence-column",
                8,
                ws ->
                    ws.py(
                        "L",
                        "Parcel.Current",
                        BASE
                            + "Schema:\n  parcel_id: string\n  v: binary\n"
                            + "Primary key: parcel_id\nSequence column: v\n"))
            .messageContains("has type binary"),
        flags(
                "sequenceColumnComplex",
                "sequence-column",
                8,
                ws ->
                    ws.py(
                        "L",
                        "Parcel.Current",
                        BASE
                            + "Schema:\n  parcel_id: string\n  v: struct<at:timestamp,n:int>\n"
                            + "Primary key: parcel_id\nSequence column: v\n"))
            .messageContains("has type struct<at:timestamp,n:int>"),
        clean(
            "sequenceColumnOnWarehouse",
            ws ->
                ws.tsql(
                    "W",
                    "Parcel.Current",
                    BASE + "Primary key: a\nSequence column: changed_at\n",
                    "select a, changed_at from src\n")),
        clean(
            "sequenceColumnOfOrderedTsqlTypes",
            ws ->
                ws.tsql(
                    "W",
                    "Parcel.Current",
                    BASE
                        + "Schema:\n  a: int\n  changed_at: datetime2(6)\n"
                        + "Primary key: a\nSequence column: changed_at\n",
                    "select a, changed_at from src\n")),
        flags(
                "sequenceColumnOfBitOnWarehouse",
                "sequence-column",
                8,
                ws ->
                    ws.tsql(
                        "W",
                        "Parcel.Current",
                        BASE
                            + "Schema:\n  a: int\n  flag: bit\n"
                            + "Primary key: a\nSequence column: flag\n",
                        "select a, flag from src\n"))
            .messageContains("has type bit")
            .messageContains("datetime2"),
        flags(
                "sequenceColumnIsKeyOnWarehouse",
                "sequence-column",
                5,
                ws ->
                    ws.tsql(
                        "W",
                        "Parcel.Current",
                        BASE + "Primary key: a\nSequence column: a\n",
                        "select a, changed_at from src\n"))
            .messageContains("is a primary-key column"),
        // comparison-columns
        flags(
            "comparisonColumnsWithoutKey",
            "comparison-columns",
            4,
            ws -> ws.sql("L", "Parcel.Current", BASE + "Comparison columns: status\n", QUERY)),
        flags(
            "comparisonColumnsContainingKey",
            "comparison-columns",
            5,
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Primary key: parcel_id\nComparison columns: status, parcel_id\n",
                    QUERY)),
        clean(
            "comparisonColumnsValid",
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Primary key: parcel_id\nComparison columns: status\n",
                    QUERY)),
        // not-null-repeats-key
        flags(
            "notNullRepeatsKey",
            "not-null-repeats-key",
            5,
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Primary key: parcel_id\nNot null: [parcel_id]\n",
                    QUERY)),
        clean(
            "notNullOfOtherColumn",
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Primary key: parcel_id\nNot null: [status]\n",
                    QUERY)),
        // unique-keys
        flags(
            "uniqueKeyRepeated",
            "unique-keys",
            6,
            ws ->
                ws.sql(
                    "L", "Parcel.Current", BASE + "Unique keys:\n  - status\n  - status\n", QUERY)),
        flags(
            "uniqueKeyRepeatedInOtherOrder",
            "unique-keys",
            6,
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Unique keys:\n  - status, parcel_id\n  - parcel_id, status\n",
                    QUERY)),
        flags(
            "uniqueKeyWithRepeatedColumn",
            "unique-keys",
            5,
            ws ->
                ws.sql("L", "Parcel.Current", BASE + "Unique keys:\n  - status, status\n", QUERY)),
        flags(
            "uniqueKeyEqualToPrimaryKey",
            "unique-keys",
            6,
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Primary key: parcel_id\nUnique keys:\n  - parcel_id\n",
                    QUERY)),
        clean(
            "uniqueKeysValid",
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE
                        + "Primary key: parcel_id\nUnique keys:\n  - status\n  - parcel_id, status\n",
                    QUERY)),
        // foreign-keys
        flags(
            "foreignKeyArityMismatch",
            "foreign-keys",
            5,
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Foreign keys:\n  - parcel_id, status: Depot.Site[site_id]\n",
                    QUERY)),
        flags(
            "foreignKeyMalformedTarget",
            "foreign-keys",
            5,
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Foreign keys:\n  - parcel_id: Depot.Site(site_id)\n",
                    QUERY)),
        flags(
            "foreignKeyDollarTarget",
            "foreign-keys",
            5,
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Foreign keys:\n  - parcel_id: $Depot.Site[site_id]\n",
                    QUERY)),
        flags(
            "foreignKeyNotAMapping",
            "foreign-keys",
            5,
            ws -> ws.sql("L", "Parcel.Current", BASE + "Foreign keys:\n  - parcel_id\n", QUERY)),
        clean(
            "foreignKeysValidInAllTargetForms",
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE
                        + "Foreign keys:\n  - parcel_id: Depot.Site[site_id]\n  - status: Files/Ref.Status[code]\n"
                        + "  - parcel_id, status: Other.Depot.Site[a, b]\n",
                    QUERY)),
        // identity
        flags(
            "identityInSchema",
            "identity",
            7,
            ws ->
                ws.py(
                    "L",
                    "Parcel.Current",
                    BASE + "Schema:\n  sk: bigint\n  a: string\nIdentity: sk\n")),
        flags(
            "identityIsPrimaryKey",
            "identity",
            4,
            ws -> ws.sql("L", "Parcel.Current", BASE + "Identity: sk\nPrimary key: sk\n", QUERY)),
        flags(
            "identityInQueryResult",
            "identity",
            6,
            ws -> ws.sql("L", "Parcel.Current", BASE + "Identity: parcel_id\n", QUERY)),
        flags(
            "identityCollidesWithManagedName",
            "identity",
            4,
            ws -> ws.sql("L", "Parcel.Current", BASE + "Identity: Row_Signature\n", QUERY)),
        clean(
            "identityValid",
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Identity: parcel_sk\nPrimary key: parcel_id\n",
                    QUERY)),
        // managed-name
        flags(
            "schemaColumnCollidesWithManagedName",
            "managed-name",
            6,
            ws ->
                ws.py(
                    "L",
                    "Parcel.Current",
                    BASE + "Schema:\n  a: string\n  ROW_INSERT_DATETIME: timestamp\n")),
        flags(
            "queryColumnCollidesWithManagedName",
            "managed-name",
            5,
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE,
                    "select parcel_id, now() as row_update_datetime from src;\n")),
        flags(
            "warehouseManagedNamesAreSpaced",
            "managed-name",
            5,
            ws ->
                ws.tsql(
                    "W",
                    "Parcel.Current",
                    BASE,
                    "select [parcel_id], [Row delete datetime] from src\n")),
        clean(
            "lakehouseSpacedNameIsNotManaged",
            ws ->
                ws.py(
                    "L",
                    "Parcel.Current",
                    BASE + "Schema:\n  a: string\n  row_inserted: timestamp\n")),
        // no-load-python
        flags(
            "noLoadProcedureOnPython",
            "no-load-python",
            6,
            ws ->
                ws.py(
                    "L",
                    "Parcel.Current",
                    BASE + "Schema:\n  a: string\nHas load procedure: false\n")),
        clean(
            "noLoadProcedureOnSql",
            ws -> ws.sql("L", "Parcel.Current", BASE + "Has load procedure: false\n", QUERY)),
        // unknown-column
        flags(
                "keyNamesUndeclaredColumn",
                "unknown-column",
                6,
                ws ->
                    ws.py(
                        "L",
                        "Parcel.Current",
                        BASE + "Schema:\n  parcel_id: string\nPrimary key: Parcel_ID\n"))
            .messageContains("did you mean 'parcel_id'"),
        flags(
            "noteNamesUndeclaredColumn",
            "unknown-column",
            7,
            ws ->
                ws.py(
                    "L",
                    "Parcel.Current",
                    BASE + "Schema:\n  a: string\nColumn notes:\n  b: note\n")),
        flags(
            "keyNamesColumnMissingFromVisibleQuery",
            "unknown-column",
            4,
            ws -> ws.sql("L", "Parcel.Current", BASE + "Primary key: id\n", QUERY)),
        clean(
            "keyAgainstInvisibleQueryShapeIsLeftToBuild",
            ws ->
                ws.sql("L", "Parcel.Current", BASE + "Primary key: id\n", "select * from src;\n")),
        // duplicate-column
        flags(
            "schemaCaseOnlyDuplicate",
            "duplicate-column",
            6,
            ws -> ws.py("L", "Parcel.Current", BASE + "Schema:\n  a: string\n  A: string\n")),
        flags(
            "schemaExactDuplicate",
            "duplicate-column",
            6,
            ws -> ws.py("L", "Parcel.Current", BASE + "Schema:\n  a: string\n  a: int\n")),
        flags(
            "queryDuplicateColumn",
            "duplicate-column",
            5,
            ws -> ws.sql("L", "Parcel.Current", BASE, "select a, b as A from src;\n")),
        // result-queries
        flags(
            "noResultQuery",
            "result-queries",
            0,
            ws ->
                ws.sql("L", "Parcel.Current", BASE, "create temporary view v as select 1 as a;\n")),
        flags(
            "threeResultQueries",
            "result-queries",
            9,
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Incremental: true\nPrimary key: a\n",
                    "select 1 as a;\nselect 2 as a;\nselect 3 as a;\n")),
        flags(
            "tsqlWithoutResultQuery",
            "result-queries",
            0,
            ws -> ws.tsql("W", "Parcel.Current", BASE, "declare @x int = 1\n")),
        clean(
            "setupThenOneResultQuery",
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE,
                    "set spark.sql.ansi.enabled = true;\ncreate or replace temporary view v as select 1 as a;\nselect a from v;\n")),
        // delete-query
        flags(
            "deleteQueryWithoutIncremental",
            "delete-query",
            7,
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Primary key: a\n",
                    "select 1 as a;\nselect 2 as a;\n")),
        clean(
            "deleteQueryOnIncrementalKeyedTable",
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Primary key: a\nIncremental: true\n",
                    "select 1 as a;\nselect 2 as a;\n")),
        flags(
            "deleteQueryReturningMoreThanTheKey",
            "delete-query",
            8,
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Primary key: a\nIncremental: true\n",
                    "select 1 as a;\nselect a, b from d;\n")),
        // statement-terminator
        flags(
            "lastStatementWithoutSemicolon",
            "statement-terminator",
            5,
            ws -> ws.sql("L", "Parcel.Current", BASE, "select a from src\n")),
        clean(
            "semicolonInsideStringDoesNotTerminate",
            ws -> ws.sql("L", "Parcel.Current", BASE, "select 'a;b' as a from src;\n")),
        clean(
            "tsqlNeedsNoSemicolons",
            ws -> ws.tsql("W", "Parcel.Current", BASE, "select a from src\n")),
        // go-batch
        flags(
            "goInTsql",
            "go-batch",
            6,
            ws -> ws.tsql("W", "Parcel.Current", BASE, "select a from src\nGO\n")),
        clean(
            "goAsAliasIsFine",
            ws -> ws.tsql("W", "Parcel.Current", BASE, "select a as go from src\n")),
        // target-key
        flags(
            "deltaKeyOnWarehouse",
            "target-key",
            4,
            ws ->
                ws.tsql(
                    "W",
                    "Parcel.Current",
                    BASE + "Delta minReaderVersion: 3\n",
                    "select a from src\n")),
        clean(
            "deltaKeyOnLakehouse",
            ws -> ws.sql("L", "Parcel.Current", BASE + "Delta minReaderVersion: 3\n", QUERY)),
        flags(
                "deletionVectorsKeyOnWarehouse",
                "target-key",
                4,
                ws ->
                    ws.tsql(
                        "W",
                        "Parcel.Current",
                        BASE + "Delta deletion vectors: false\n",
                        "select a from src\n"))
            .messageContains("'Delta deletion vectors' applies to Lakehouse (Delta) Tables only"),
        clean(
            "deletionVectorsOffOnLakehouse",
            ws -> ws.sql("L", "Parcel.Current", BASE + "Delta deletion vectors: false\n", QUERY)),
        flags(
                "deletionVectorsNotABoolean",
                "invalid-value",
                4,
                ws -> ws.sql("L", "Parcel.Current", BASE + "Delta deletion vectors: off\n", QUERY))
            .messageContains("'Delta deletion vectors' must be the YAML boolean true or false"),
        flags(
                "deletionVectorsQuoted",
                "invalid-value",
                4,
                ws ->
                    ws.sql(
                        "L", "Parcel.Current", BASE + "Delta deletion vectors: \"false\"\n", QUERY))
            .messageContains("without quotes"),
        flags(
                "deletionVectorsMisspelt",
                "unknown-key",
                4,
                ws -> ws.sql("L", "Parcel.Current", BASE + "Delta deletion vector: false\n", QUERY))
            .messageContains("did you mean 'Delta deletion vectors'"),
        // dependency-unknown
        flags(
            "dependencyOnMissingTable",
            "dependency-unknown",
            4,
            ws -> ws.sql("L", "Parcel.Current", BASE + "Dependencies: [Parcel.Event]\n", QUERY)),
        flags(
                "dependencyOnFilesIsAWarning",
                "dependency-unknown",
                4,
                ws ->
                    ws.sql(
                        "L", "Parcel.Current", BASE + "Dependencies: [Files/Raw.Events]\n", QUERY))
            .severity(Severity.WARNING),
        clean(
            "dependencyAcrossItems",
            ws -> {
              ws.sql(
                  "L",
                  "Parcel.Current",
                  BASE + "Dependencies: [M.Parcel.Event, Parcel.Event]\n",
                  QUERY);
              ws.sql("M", "Parcel.Event", "Table ID: Parcel.Event\n" + DESC, QUERY);
              ws.sql("L", "Parcel.Event", "Table ID: Parcel.Event\n" + DESC, QUERY);
            }),
        // dependency-cycle
        flags(
                "dependencyCycle",
                "dependency-cycle",
                4,
                ws -> {
                  ws.sql(
                      "L", "A.One", "Table ID: A.One\n" + DESC + "Dependencies: [A.Two]\n", QUERY);
                  ws.sql(
                      "L",
                      "A.Two",
                      "Table ID: A.Two\n" + DESC + "Dependencies: [A.Three]\n",
                      QUERY);
                  ws.sql(
                      "L",
                      "A.Three",
                      "Table ID: A.Three\n" + DESC + "Dependencies: [A.One]\n",
                      QUERY);
                })
            .messageContains("L.A.One -> L.A.Two -> L.A.Three -> L.A.One"),
        flags(
            "selfDependencyIsACycle",
            "dependency-cycle",
            4,
            ws ->
                ws.sql(
                    "L", "A.One", "Table ID: A.One\n" + DESC + "Dependencies: [A.One]\n", QUERY)),
        flags(
                "readInASetupStatementCounts",
                "dependency-cycle",
                6,
                ws -> {
                  ws.sql(
                      "L",
                      "A.One",
                      "Table ID: A.One\n" + DESC,
                      "set spark.sql.ansi.enabled = true;\n"
                          + "create or replace temp view v as select k from A.Two;\n"
                          + "select k from v;\n");
                  ws.sql("L", "A.Two", "Table ID: A.Two\n" + DESC, "select k from A.One;\n");
                })
            .messageContains("A.One.sql line 6"),
        // L.A.One reads M.A.Two, which reads A.One of its own item M; were the two-part name
        // resolved
        // in the reader's item of the first Table, this would be a false cycle.
        clean(
            "sameSchemaObjectInAnotherItemIsNoCycle",
            ws -> {
              ws.sql("L", "A.One", "Table ID: A.One\n" + DESC, "select k from M.A.Two;\n");
              ws.sql("M", "A.Two", "Table ID: A.Two\n" + DESC, "select k from A.One;\n");
              ws.sql("M", "A.One", "Table ID: A.One\n" + DESC, QUERY);
            }),
        clean(
            "readingItsOwnTargetIsNoCycle",
            ws ->
                ws.sql(
                    "L",
                    "A.One",
                    "Table ID: A.One\n" + DESC,
                    "select k from src where k not in (select k from A.One);\n")),
        clean(
            "unknownAndExternalNamesAreNoEdges",
            ws ->
                ws.sql(
                    "L",
                    "A.One",
                    "Table ID: A.One\n" + DESC,
                    "select k from parquet.`/data/x` union all select k from spark_catalog.db.A"
                        + " union all select k from A.Nothing;\n")),
        clean(
            "diamondIsNoCycle",
            ws -> {
              ws.sql(
                  "L",
                  "A.One",
                  "Table ID: A.One\n" + DESC + "Dependencies: [A.Two, A.Three]\n",
                  QUERY);
              ws.sql("L", "A.Two", "Table ID: A.Two\n" + DESC + "Dependencies: [A.Four]\n", QUERY);
              ws.sql(
                  "L", "A.Three", "Table ID: A.Three\n" + DESC + "Dependencies: [A.Four]\n", QUERY);
              ws.sql("L", "A.Four", "Table ID: A.Four\n" + DESC, QUERY);
            }),
        // note-reference
        flags(
            "noteReferenceToMissingTable",
            "note-reference",
            7,
            ws ->
                ws.py(
                    "L",
                    "Parcel.Current",
                    BASE + "Schema:\n  a: string\nColumn notes:\n  a: $Depot.Site.a\n")),
        flags(
            "noteReferenceToMissingColumn",
            "note-reference",
            7,
            ws -> {
              ws.py(
                  "L",
                  "Parcel.Current",
                  BASE + "Schema:\n  a: string\nColumn notes:\n  a: $Depot.Site.zz\n");
              ws.py(
                  "L",
                  "Depot.Site",
                  "Table ID: Depot.Site\n"
                      + DESC
                      + "Schema:\n  a: string\nColumn notes:\n  a: The site.\n");
            }),
        flags(
            "noteReferenceToColumnWithoutNote",
            "note-reference",
            7,
            ws -> {
              ws.py(
                  "L",
                  "Parcel.Current",
                  BASE + "Schema:\n  a: string\nColumn notes:\n  a: $Depot.Site.a\n");
              ws.py("L", "Depot.Site", "Table ID: Depot.Site\n" + DESC + "Schema:\n  a: string\n");
            }),
        flags(
                "noteReferenceCycle",
                "note-reference",
                7,
                ws -> {
                  ws.py(
                      "L",
                      "Parcel.Current",
                      BASE + "Schema:\n  a: string\nColumn notes:\n  a: $Depot.Site.a\n");
                  ws.py(
                      "L",
                      "Depot.Site",
                      "Table ID: Depot.Site\n"
                          + DESC
                          + "Schema:\n  a: string\nColumn notes:\n  a: $Parcel.Current.a\n");
                })
            .messageContains("cycle"),
        flags(
            "malformedReference",
            "note-reference",
            7,
            ws ->
                ws.py(
                    "L",
                    "Parcel.Current",
                    BASE + "Schema:\n  a: string\nColumn notes:\n  a: $Depot\n")),
        clean(
            "noteReferenceChainResolves",
            ws -> {
              ws.py(
                  "L",
                  "Parcel.Current",
                  BASE + "Schema:\n  a: string\nColumn notes:\n  a: $Depot.Site.a\n");
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
            }),
        // dynamic-sql (and dynamicSqlIsAWarning below)
        clean(
            "storedProcedureCallIsNotDynamic",
            ws ->
                ws.tsql(
                    "W", "Parcel.Current", BASE, "exec dbo.prepare_parcels\nselect a from src\n")),
        // schema-mismatch (Weaver's own; docs/table-contract.md, "Keys": a declared Schema is
        // authoritative)
        flags(
            "queryMissesDeclaredColumn",
            "schema-mismatch",
            4,
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Schema:\n  parcel_id: string\n  status: string\n  depot: int\n",
                    QUERY)),
        flags(
                "queryReturnsUndeclaredOrMisspelledColumn",
                "schema-mismatch",
                8,
                ws ->
                    ws.sql(
                        "L",
                        "Parcel.Current",
                        BASE + "Schema:\n  parcel_id: string\n  Status: string\n",
                        QUERY))
            .messageContains("Status"),
        clean(
            "queryMatchesSchemaInOtherOrder",
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Schema:\n  status: string\n  parcel_id: string\n",
                    QUERY)),
        // expectations (the form; line 4 is "Expectations:", 5 the first name, 6 its first key)
        flags(
                "expectationKeyMisspelled",
                "expectations",
                7,
                expecting("  known status:\n    rule: status is not null\n    on violaton: warn\n"))
            .messageContains("did you mean 'on violation'"),
        flags(
                "expectationKeyFarFromAny",
                "expectations",
                7,
                expecting("  known status:\n    rule: status is not null\n    severity: high\n"))
            .messageLacks("did you mean")
            .messageContains("rule, on violation, max percentage"),
        flags(
                "expectationNameEmpty",
                "expectations",
                5,
                expecting("  \"\":\n    rule: status is not null\n"))
            .messageContains("empty name"),
        flags(
                "expectationNamesDifferingInCase",
                "expectations",
                7,
                expecting(
                    "  Known status:\n    rule: status is not null\n"
                        + "  known STATUS:\n    rule: status <> ''\n"))
            .messageContains("repeats 'Known status'"),
        flags(
                "expectationActionUnknown",
                "expectations",
                7,
                expecting(
                    "  known status:\n    rule: status is not null\n    on violation: drop\n"))
            .messageContains("warn, quarantine or fail"),
        flags(
                "expectationCeilingAboveHundred",
                "expectations",
                8,
                expecting(
                    "  known status:\n    rule: status is not null\n"
                        + "    on violation: quarantine\n    max percentage: 150\n"))
            .messageContains("from 0 to 100"),
        flags(
                "expectationCeilingNotANumber",
                "expectations",
                8,
                expecting(
                    "  known status:\n    rule: status is not null\n"
                        + "    on violation: quarantine\n    max percentage: few\n"))
            .messageContains("from 0 to 100"),
        flags(
                "expectationCeilingWithoutQuarantine",
                "expectations",
                8,
                expecting(
                    "  known status:\n    rule: status is not null\n"
                        + "    on violation: warn\n    max percentage: 1\n"))
            .messageContains("applies only to 'on violation: quarantine'"),
        flags(
                "expectationCeilingWithDefaultAction",
                "expectations",
                7,
                expecting("  known status:\n    rule: status is not null\n    max percentage: 1\n"))
            .messageContains("applies only to 'on violation: quarantine'"),
        flags(
                "expectationWithoutRule",
                "expectations",
                5,
                expecting("  known status:\n    on violation: warn\n"))
            .messageContains("has no 'rule'"),
        flags(
                "expectationNotAMapping",
                "expectations",
                5,
                expecting("  known status: status is not null\n"))
            .messageContains("must be a mapping with a 'rule'"),
        flags(
                "expectationKeySetTwice",
                "expectations",
                7,
                expecting(
                    "  known status:\n    rule: status is not null\n    rule: status <> ''\n"))
            .messageContains("sets 'rule' twice"),
        clean(
            "expectationsValid",
            expecting(
                "  known status:\n    rule: status in ('in_transit', 'delivered')\n"
                    + "    on violation: warn\n"
                    + "  has parcel:\n    rule: parcel_id is not null\n"
                    + "    on violation: quarantine\n    max percentage: 0.5\n"
                    + "  long enough:\n    rule: length(PARCEL_ID) >= 8\n")),
        // expectation-rule (the rule's meaning; line 6 is the first rule)
        flags(
                "expectationRuleDoesNotParse",
                "expectation-rule",
                6,
                expecting("  known status:\n    rule: status in ('a', \n"))
            .messageContains("is not a Spark SQL expression")
            .messageContains("PARSE_SYNTAX_ERROR")
            .messageContains("of the rule")
            .messageLacks("== SQL =="),
        flags(
                "expectationRuleIsTwoStatements",
                "expectation-rule",
                6,
                expecting("  known status:\n    rule: status is not null; drop table x\n"))
            .messageContains("is not a Spark SQL expression"),
        flags(
                "expectationRuleMisspellsColumn",
                "expectation-rule",
                6,
                expecting("  known status:\n    rule: stauts is not null\n"))
            .messageContains("column 'stauts', which the query result does not have")
            .messageContains("did you mean 'status'?"),
        flags(
                "expectationRuleNamesUnknownColumn",
                "expectation-rule",
                6,
                expecting("  heavy:\n    rule: weight_kg > 0\n"))
            .messageContains("column 'weight_kg'")
            .messageContains("use one of: parcel_id, status"),
        flags(
                "expectationRuleColumnOutsideSchema",
                "expectation-rule",
                8,
                ws ->
                    ws.py(
                        "L",
                        "Parcel.Current",
                        BASE
                            + "Schema:\n  parcel_id: string\n"
                            + "Expectations:\n  heavy:\n    rule: weight_kg > 0\n"))
            .messageContains("which Schema does not have"),
        flags(
                "expectationRuleReadsManagedColumn",
                "expectation-rule",
                6,
                expecting("  fresh:\n    rule: Row_Insert_Datetime > '2026-01-01'\n"))
            .messageContains("managed column 'row_insert_datetime'")
            .messageContains("row_signature"),
        flags(
                "expectationRuleReadsIdentity",
                "expectation-rule",
                7,
                ws ->
                    ws.sql(
                        "L",
                        "Parcel.Current",
                        BASE
                            + "Identity: parcel_key\n"
                            + "Expectations:\n  keyed:\n    rule: parcel_key > 0\n",
                        QUERY))
            .messageContains("Identity column 'parcel_key'"),
        flags(
                "expectationRuleAggregates",
                "expectation-rule",
                6,
                expecting("  few:\n    rule: count(parcel_id) < 10\n"))
            .messageContains("aggregate function 'count'"),
        flags(
                "expectationRuleAggregateBesideRowFunction",
                "expectation-rule",
                6,
                expecting("  few:\n    rule: upper(status) <> 'X' and max(length(status)) < 10\n"))
            .messageContains("aggregate function 'max'")
            .messageLacks("upper"),
        flags(
                "expectationRuleUsesWindow",
                "expectation-rule",
                6,
                expecting("  first:\n    rule: row_number() over (order by parcel_id) = 1\n"))
            .messageContains("window function row_number(…) OVER"),
        flags(
                "expectationRuleUsesWindowFunctionWithoutOver",
                "expectation-rule",
                6,
                expecting("  first:\n    rule: rank() = 1\n"))
            .messageContains("window function rank()"),
        flags(
                "expectationRuleScalarSubquery",
                "expectation-rule",
                6,
                expecting("  known:\n    rule: status = (select max(s) from Ref.Status)\n"))
            .messageContains("subquery (SELECT …)")
            .messageLacks("aggregate"),
        flags(
                "expectationRuleInSubquery",
                "expectation-rule",
                6,
                expecting("  known:\n    rule: status in (select s from Ref.Status)\n"))
            .messageContains("subquery IN (SELECT …)"),
        flags(
                "expectationRuleExists",
                "expectation-rule",
                6,
                expecting(
                    "  known:\n    rule: exists (select 1 from Ref.Status r where r.s = status)\n"))
            .messageContains("subquery EXISTS (SELECT …)"),
        clean(
            "expectationRuleRowFunctionsAndLambdas",
            expecting(
                "  fine:\n    rule: >-\n      coalesce(`Status`, '') <> ''\n"
                    + "      and current_date >= date'2020-01-01'\n"
                    + "      and exists(array(parcel_id), p -> p is not null)\n"
                    + "      and src.parcel_id is not null and status.code is null\n")),
        clean(
            "expectationRuleColumnsUncheckedWhenShapeUnknown",
            ws ->
                ws.sql(
                    "L",
                    "Parcel.Current",
                    BASE + "Expectations:\n  heavy:\n    rule: weight_kg > 0\n",
                    "select * from src;\n")),
        // expectation-rule on a Warehouse Table: a T-SQL rule, read from its tokens
        flags(
                "tsqlExpectationRuleUnbalanced",
                "expectation-rule",
                6,
                tsqlExpecting("  known status:\n    rule: status in ('a', 'b'\n"))
            .messageContains("is not one T-SQL expression")
            .messageContains("'(' at character 11 of the rule is not closed"),
        flags(
                "tsqlExpectationRuleUnterminatedString",
                "expectation-rule",
                6,
                tsqlExpecting("  known status:\n    rule: status = 'a\n"))
            .messageContains("is not one T-SQL expression")
            .messageContains("of the rule"),
        flags(
                "tsqlExpectationRuleIsTwoStatements",
                "expectation-rule",
                6,
                tsqlExpecting("  known status:\n    rule: status is not null; drop table x\n"))
            .messageContains("statement separator ';'"),
        flags(
                "tsqlExpectationRuleHasGo",
                "expectation-rule",
                6,
                tsqlExpecting("  known status:\n    rule: status is not null go\n"))
            .messageContains("statement separator 'go'"),
        flags(
                "tsqlExpectationRuleMisspellsColumn",
                "expectation-rule",
                6,
                tsqlExpecting("  known status:\n    rule: \"[stauts] is not null\"\n"))
            .messageContains("column 'stauts', which the query result does not have")
            .messageContains("did you mean 'status'?"),
        flags(
                "tsqlExpectationRuleNamesUnknownColumn",
                "expectation-rule",
                6,
                tsqlExpecting("  heavy:\n    rule: weight_kg > 0\n"))
            .messageContains("column 'weight_kg'")
            .messageContains("use one of: parcel_id, status"),
        flags(
                "tsqlExpectationRuleQualifiedColumn",
                "expectation-rule",
                6,
                tsqlExpecting("  known status:\n    rule: s.status is not null\n"))
            .messageContains("without a qualifier; write 'status'"),
        flags(
                "tsqlExpectationRuleReadsManagedColumn",
                "expectation-rule",
                6,
                tsqlExpecting("  fresh:\n    rule: \"[Row insert datetime] > '2026-01-01'\"\n"))
            .messageContains("managed column 'Row insert datetime'")
            .messageContains("Row signature"),
        flags(
                "tsqlExpectationRuleReadsIdentity",
                "expectation-rule",
                7,
                ws ->
                    ws.tsql(
                        "W",
                        "Parcel.Current",
                        BASE
                            + "Identity: parcel_key\n"
                            + "Expectations:\n  keyed:\n    rule: parcel_key > 0\n",
                        "select parcel_id, status from src\n"))
            .messageContains("Identity column 'parcel_key'"),
        flags(
                "tsqlExpectationRuleAggregates",
                "expectation-rule",
                6,
                tsqlExpecting("  few:\n    rule: upper(status) <> 'X' and COUNT(parcel_id) < 10\n"))
            .messageContains("aggregate function 'COUNT'")
            .messageLacks("upper"),
        flags(
                "tsqlExpectationRuleUsesWindow",
                "expectation-rule",
                6,
                tsqlExpecting("  first:\n    rule: row_number() over (order by parcel_id) = 1\n"))
            .messageContains("window function row_number(…) OVER"),
        flags(
                "tsqlExpectationRuleInSubquery",
                "expectation-rule",
                6,
                tsqlExpecting("  known:\n    rule: status in (select s from ref.status)\n"))
            .messageContains("subquery IN (SELECT …)"),
        flags(
                "tsqlExpectationRuleReadsVariable",
                "expectation-rule",
                6,
                tsqlExpecting(
                    "  fresh:\n    rule: parcel_id is not null and @load_timestamp > 0\n"))
            .messageContains("variable '@load_timestamp' at character 27 of the rule")
            .messageContains("a rule reads only the row's columns"),
        flags(
                "tsqlExpectationRuleReadsGeneratedVariable",
                "expectation-rule",
                6,
                tsqlExpecting("  few:\n    rule: \"@weaver_staged < 10 and status is not null\"\n"))
            .messageContains("variable '@weaver_staged' at character 1 of the rule")
            .messageLacks("does not have"),
        clean(
            "tsqlExpectationRuleKeywordsFunctionsAndTypes",
            tsqlExpecting(
                "  fine:\n    rule: >-\n"
                    + "      coalesce([status], N'') <> N'' and status not like 'x%' escape '!'\n"
                    + "      and try_cast(parcel_id as decimal(10, 2)) is not null\n"
                    + "      and convert(varchar(20), parcel_id, 1) <> ''\n"
                    + "      and dateadd(day, 1, sysutcdatetime()) > current_timestamp\n"
                    + "      and sysutcdatetime() at time zone 'UTC' is not null\n"
                    + "      and case when status is null then 0 else 1 end = 1\n"
                    + "      and status collate Latin1_General_100_CI_AS between 'a' and 'z'\n"
                    + "      and iif(status in ('a', 'b'), 1, 0) = 1\n")),
        flags(
                "tsqlExpectationsWithoutLoadProcedure",
                "expectations",
                6,
                ws ->
                    ws.tsql(
                        "W",
                        "Parcel.Current",
                        BASE
                            + "Has load procedure: false\n"
                            + "Expectations:\n  heavy:\n    rule: status is not null\n",
                        "select parcel_id, status from src\n"))
            .messageContains("'Has load procedure: false'"),
        clean(
            "tsqlExpectationsValid",
            tsqlExpecting(
                "  known status:\n    rule: status in ('in_transit', 'delivered')\n"
                    + "    on violation: warn\n"
                    + "  has parcel:\n    rule: parcel_id is not null\n"
                    + "    on violation: quarantine\n    max percentage: 0.5\n")));
  }

  /** A T-SQL (Warehouse) Table returning parcel_id and status, with these Expectations entries. */
  private static Consumer<TestWorkspace> tsqlExpecting(String entries) {
    return ws ->
        ws.tsql(
            "W",
            "Parcel.Current",
            BASE + "Expectations:\n" + entries,
            "select parcel_id, status from src\n");
  }

  /** A Spark SQL Table returning parcel_id and status, with these Expectations entries. */
  private static Consumer<TestWorkspace> expecting(String entries) {
    return ws -> ws.sql("L", "Parcel.Current", BASE + "Expectations:\n" + entries, QUERY);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void rule(Case c) {
    c.files().accept(ws);
    if (c.rule() == null) {
      ws.expectClean();
      return;
    }
    Finding f = ws.expect(c.rule(), c.line());
    c.checks().forEach(check -> check.accept(f));
  }

  // Tests of other shapes: counts of findings, two rules in one workspace, a finding's path.

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

  // expectations, expectation-rule

  @Test
  void validExpectationsAreReadWithDefaults() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE
            + "Expectations:\n"
            + "  known status:\n    rule: status in ('in_transit', 'delivered')\n"
            + "    on violation: warn\n"
            + "  has parcel:\n    rule: parcel_id is not null\n"
            + "    on violation: quarantine\n    max percentage: 0.5\n"
            + "  long enough:\n    rule: length(parcel_id) >= 8\n",
        QUERY);
    Check.Result result = Check.analyze(dir);
    assertEquals(List.of(), result.report().findings());
    TableDeclaration table =
        result.model().find("L", TableId.parse("Parcel.Current").orElseThrow()).orElseThrow();
    List<Expectation> e = table.expectations();
    assertEquals(3, e.size());
    assertEquals("known status", e.get(0).name());
    assertEquals("status in ('in_transit', 'delivered')", e.get(0).rule());
    assertEquals(Expectation.Action.WARN, e.get(0).action());
    assertEquals(Optional.empty(), e.get(0).maxPercentage());
    assertEquals(5, e.get(0).pos().line());
    assertEquals(6, e.get(0).rulePos().line());
    assertEquals(Expectation.Action.QUARANTINE, e.get(1).action());
    assertEquals(Optional.of(0.5), e.get(1).maxPercentage());
    assertEquals("long enough", e.get(2).name());
    assertEquals(Expectation.Action.FAIL, e.get(2).action(), "the default action");
  }

  @Test
  void everyProblemOfEveryRuleIsReported() {
    ws.sql(
        "L",
        "Parcel.Current",
        BASE
            + "Expectations:\n"
            + "  one:\n    rule: sum(weigth) > 0 and row_signature is not null\n"
            + "  two:\n    rule: stauts <> 'x'\n",
        QUERY);
    List<Finding> findings = ws.findings("expectation-rule");
    assertEquals(4, findings.size(), TestWorkspace.describe(findings));
    assertEquals(List.of(6, 6, 6, 8), findings.stream().map(Finding::line).toList());
    assertTrue(findings.get(0).message().startsWith("expectation 'one' of Parcel.Current: "));
    assertTrue(findings.get(3).message().contains("did you mean 'status'?"));
  }

  @Test
  void brokenExpectationIsNotCheckedForItsMeaning() {
    // An expectation with a bad form is dropped by the reader; Check does not pile on.
    ws.sql(
        "L",
        "Parcel.Current",
        BASE + "Expectations:\n  one:\n    rule: sum(nope) > 0\n    on violation: maybe\n",
        QUERY);
    ws.expect("expectations", 7);
    ws.expectNo("expectation-rule");
  }
}
