package io.weaver.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.sqlserver.jdbc.SQLServerDriver;
import io.weaver.warehouse.signature.TsqlSignature;
import io.weaver.warehouse.signature.TsqlSignatureOracle;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Warehouse target against a real T-SQL endpoint (Fabric Warehouse or SQL Server 2022), driven
 * as a user drives it: {@code bin/weaver build} and {@code load} in a child process, the endpoint
 * named in the workspace's {@code weaver.yaml}, the driver on {@code WEAVER_EXTRA_CLASSPATH}. Runs
 * only when {@code WEAVER_TSQL_JDBC_URL} is set (with {@code WEAVER_TSQL_AUTHENTICATION}, {@code
 * WEAVER_TSQL_USER}, {@code WEAVER_TSQL_PASSWORD} as the endpoint needs; docs/warehouse.md);
 * otherwise JUnit reports every test skipped, never passed.
 *
 * <p>Each run works in its own schemas ({@code w<random>} for the Tables, {@code s<random>} for
 * their sources) and drops them at the end; the item's {@code _} catalogue is shared.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WarehouseEndpointTest {
  private static final String URL = System.getenv("WEAVER_TSQL_JDBC_URL");
  private static final String ITEM = "WeaverIt";
  private static final String RUN = HexFormat.of().formatHex(randomBytes());
  private static final String SCHEMA = "w" + RUN;
  private static final String SOURCE = "s" + RUN;

  @TempDir static Path workspace;

  private static Connection connection;

  private static byte[] randomBytes() {
    byte[] b = new byte[4];
    ThreadLocalRandom.current().nextBytes(b);
    return b;
  }

  /** Without an endpoint every test is reported skipped, one by one, with the reason. */
  @BeforeEach
  void needsAnEndpoint() {
    Assumptions.assumeTrue(
        configured(),
        "WEAVER_TSQL_JDBC_URL is not set: the Warehouse endpoint suite needs a real T-SQL endpoint"
            + " (docs/warehouse.md)");
  }

  private static boolean configured() {
    return URL != null && !URL.isBlank();
  }

  @BeforeAll
  static void endpoint() throws Exception {
    if (!configured()) {
      return;
    }
    Properties p = new Properties();
    env("WEAVER_TSQL_AUTHENTICATION").ifPresent(v -> p.setProperty("authentication", v));
    env("WEAVER_TSQL_USER").ifPresent(v -> p.setProperty("user", v));
    env("WEAVER_TSQL_PASSWORD").ifPresent(v -> p.setProperty("password", v));
    connection = DriverManager.getConnection(URL, p);
    sql("CREATE SCHEMA [" + SOURCE + "]");
    sql(
        "CREATE TABLE ["
            + SOURCE
            + "].[parcel] ([parcel_id] varchar(20) NULL, [tracking_code] varchar(20) NULL,"
            + " [status] varchar(20) NULL, [weight] decimal(9, 3) NULL)");
    StringBuilder yaml = new StringBuilder();
    yaml.append("item.").append(ITEM).append(".jdbcUrl: \"").append(URL).append("\"\n");
    env("WEAVER_TSQL_AUTHENTICATION")
        .ifPresent(v -> yaml.append("item." + ITEM + ".authentication: " + v + "\n"));
    env("WEAVER_TSQL_USER").ifPresent(v -> yaml.append("item." + ITEM + ".user: \"" + v + "\"\n"));
    env("WEAVER_TSQL_PASSWORD")
        .ifPresent(v -> yaml.append("item." + ITEM + ".passwordEnv: WEAVER_TSQL_PASSWORD\n"));
    Files.writeString(workspace.resolve("weaver.yaml"), yaml.toString());
    Path item = Files.createDirectories(workspace.resolve("Warehouse").resolve(ITEM));
    Files.writeString(
        item.resolve(SCHEMA + ".Parcel.sql"),
        "/*\nTable ID: "
            + SCHEMA
            + ".Parcel\n\nDescription: Parcels.\n\nPrimary key: parcel_id\n\nUnique keys:\n"
            + "  - tracking_code\n\nDelete percentage threshold: 50\n\nUpdate percentage threshold:"
            + " 100\n\nStability row threshold: 0\n\nExpectations:\n  weight not negative:\n"
            + "    rule: weight >= 0\n    on violation: quarantine\n  status not forbidden:\n"
            + "    rule: status <> 'forbidden'\n\nSchema:\n  parcel_id: varchar(20)\n"
            + "  tracking_code: varchar(20)\n  status: varchar(20)\n  weight: decimal(9, 3)\n*/\n"
            + "select parcel_id, tracking_code, status, weight from ["
            + SOURCE
            + "].[parcel]\n",
        StandardCharsets.UTF_8);
  }

  @AfterAll
  static void dropSchemas() throws SQLException {
    if (connection == null) {
      return;
    }
    for (String table :
        new String[] {
          SOURCE + "].[parcel",
          SOURCE + "].[signature_vectors",
          SOURCE + "].[hard",
          SOURCE + "].[keep",
          SOURCE + "].[sequenced",
          SOURCE + "].[versioned",
          SCHEMA + "].[Versioned__History"
        }) {
      sql("DROP TABLE IF EXISTS [" + table + "]");
    }
    for (String object : new String[] {"Parcel", "Hard", "Keep", "Sequenced", "Versioned"}) {
      sql("DROP TABLE IF EXISTS [" + SCHEMA + "].[" + object + "]");
      sql("DROP TABLE IF EXISTS [_].[Undo " + SCHEMA + "." + object + "]");
      sql("DROP PROCEDURE IF EXISTS [_].[Load " + SCHEMA + "." + object + "]");
      sql("DROP PROCEDURE IF EXISTS [_].[Restore " + SCHEMA + "." + object + "]");
    }
    sql("DROP SCHEMA IF EXISTS [" + SCHEMA + "]");
    sql("DROP SCHEMA IF EXISTS [" + SOURCE + "]");
    connection.close();
  }

  @Test
  @Order(1)
  void buildCreatesTheTableTheProcedureAndTheCatalogue() throws Exception {
    BinWeaverCheckTest.Result r = weaver("build");
    assertEquals(0, r.exit(), r.out() + r.err());
    assertTrue(r.out().contains("\"created\""), r.out());
    assertEquals(
        "1",
        scalar("SELECT COUNT(*) FROM [_].[Registry] WHERE [object_id] = '" + SCHEMA + ".Parcel'"));
    BinWeaverCheckTest.Result again = weaver("build");
    assertTrue(again.out().contains("\"unchanged\""), again.out());
  }

  @Test
  @Order(2)
  void loadsFollowTheChangeTable() throws Exception {
    source(
        "('p1','t1','new',1.5),('p2','t2','new',2.0),('p3','t3','new',0.25),('p4','t4','new',4)");
    assertLoad("succeeded", 4, 0, 0, 0);
    String p3Signature = scalar(signatureOf("p3"));
    sql("UPDATE [" + SOURCE + "].[parcel] SET [status] = 'shipped' WHERE [parcel_id] = 'p1'");
    sql("DELETE FROM [" + SOURCE + "].[parcel] WHERE [parcel_id] = 'p2'");
    source("('p5','t5','new',5)");
    assertLoad("succeeded", 1, 1, 1, 0);
    assertEquals(p3Signature, scalar(signatureOf("p3")), "an unchanged row keeps its signature");
    source("('p2','t2','back',2.0)");
    assertLoad("succeeded", 0, 0, 0, 1);
    assertEquals(
        "9999-12-31 00:00:00.000000",
        scalar(
            "SELECT CONVERT(varchar(26), [Row delete datetime], 121) FROM ["
                + SCHEMA
                + "].[Parcel] WHERE [parcel_id] = 'p2'"));
  }

  @Test
  @Order(3)
  void theDeleteGateRefusesAndWritesNothingUntilWaived() throws Exception {
    String before =
        scalar(
            "SELECT COUNT(*) FROM ["
                + SCHEMA
                + "].[Parcel] WHERE [Row delete datetime] < '9999-01-01'");
    sql("DELETE FROM [" + SOURCE + "].[parcel] WHERE [parcel_id] IN ('p1','p2','p3')");
    BinWeaverCheckTest.Result refused = weaver("load");
    assertEquals(1, refused.exit(), refused.out());
    assertTrue(refused.out().contains("\"refused\""), refused.out());
    assertEquals(
        before,
        scalar(
            "SELECT COUNT(*) FROM ["
                + SCHEMA
                + "].[Parcel] WHERE [Row delete datetime] < '9999-01-01'"));
    BinWeaverCheckTest.Result waived = weaver("load", "--waive-stability-gates");
    assertEquals(0, waived.exit(), waived.out() + waived.err());
    assertTrue(waived.out().contains("\"rows_deleted\":3"), waived.out());
  }

  @Test
  @Order(4)
  void aDuplicateUniqueKeyIsRejectedNotLoaded() throws Exception {
    source("('p6','t4','clash',6)");
    BinWeaverCheckTest.Result r = weaver("load");
    assertTrue(r.out().contains("\"rows_rejected\":1"), r.out());
    assertEquals(
        "unique-key:1",
        scalar(
            "SELECT TOP 1 [reason] FROM [_].[LoadRejection] WHERE [table_id] = '"
                + SCHEMA
                + ".Parcel'"));
    sql("DELETE FROM [" + SOURCE + "].[parcel] WHERE [parcel_id] = 'p6'");
  }

  @Test
  @Order(5)
  void aRetriedLoadIdIsAppliedOnce() throws Exception {
    source("('p7','t7','new',7)");
    String call =
        "EXEC [_].[Load "
            + SCHEMA
            + ".Parcel] @load_id = 'it-retry-"
            + RUN
            + "',"
            + " @load_timestamp = '2026-12-02T00:00:00', @waive_gates = 0";
    sql(call);
    sql(call); // the crash-and-retry case: the caller did not see the first answer
    assertEquals(
        "1",
        scalar("SELECT COUNT(*) FROM [_].[LoadHistory] WHERE [load_id] = 'it-retry-" + RUN + "'"));
    assertEquals(
        "1", scalar("SELECT COUNT(*) FROM [" + SCHEMA + "].[Parcel] WHERE [parcel_id] = 'p7'"));
  }

  @Test
  @Order(6)
  void aNullKeyFailsTheLoadAndWritesNothing() throws Exception {
    String rows = scalar("SELECT COUNT(*) FROM [" + SCHEMA + "].[Parcel]");
    source("(NULL,'t8','bad',8)");
    BinWeaverCheckTest.Result r = weaver("load");
    assertEquals(1, r.exit(), r.out());
    assertTrue(r.out().contains("column parcel_id"), r.out());
    assertEquals(rows, scalar("SELECT COUNT(*) FROM [" + SCHEMA + "].[Parcel]"));
    sql(
        "DELETE FROM ["
            + SOURCE
            + "].[parcel] WHERE [parcel_id] IS NULL"); // the next loads' source
  }

  /**
   * RESTORE WEAVER TABLE puts back the rows (values, managed times, signatures) and the load state
   * of an earlier load from the row history; the next load then applies the undone change again,
   * and the undone load cannot be restored to.
   */
  @Test
  @Order(7)
  void restoreToALoadPutsItsRowsAndStateBack() throws Exception {
    String table = ITEM + "." + SCHEMA + ".Parcel";
    String rows = rowsSnapshot();
    String last = lastSucceededLoad();
    sql("UPDATE [" + SOURCE + "].[parcel] SET [status] = 'lost' WHERE [parcel_id] = 'p4'");
    source("('p9','t9','new',9)");
    assertLoad("succeeded", 1, 1, 0, 0);
    String undone = lastSucceededLoad();
    assertNotEquals(rows, rowsSnapshot());

    BinWeaverCheckTest.Result r =
        weaver("sql", "RESTORE WEAVER TABLE " + table + " TO LOAD '" + last + "'");
    assertEquals(0, r.exit(), r.out() + r.err());
    assertTrue(r.out().contains("restored to load " + last), r.out());
    assertEquals(rows, rowsSnapshot(), "the rows as the load left them");
    assertEquals(
        last,
        scalar(
            "SELECT [last_load_id] FROM [_].[LoadState] WHERE [table_id] = '"
                + SCHEMA
                + ".Parcel'"));

    assertLoad("succeeded", 1, 1, 0, 0);
    BinWeaverCheckTest.Result gone =
        weaver("sql", "RESTORE WEAVER TABLE " + table + " TO LOAD '" + undone + "'");
    assertEquals(1, gone.exit(), gone.out());
    assertTrue(gone.err().contains("undone by an earlier restore"), gone.err());
  }

  /**
   * Row expectations in the load procedure: a quarantined row leaves its key's target row exactly
   * as it was and a new key out, is kept in {@code _.LoadQuarantine}, and is counted in {@code
   * _.LoadExpectation}; a failing expectation fails the load naming it, and writes nothing.
   */
  @Test
  @Order(9)
  void aQuarantinedRowKeepsItsTargetRowAndAFailingExpectationWritesNothing() throws Exception {
    String rows = rowsSnapshot();
    sql("UPDATE [" + SOURCE + "].[parcel] SET [weight] = -1 WHERE [parcel_id] = 'p4'");
    source("('p10','t10','new',-2)");
    BinWeaverCheckTest.Result r = weaver("load");
    assertEquals(0, r.exit(), r.out() + r.err());
    assertTrue(r.out().contains("\"rows_quarantined\":2"), r.out());
    assertTrue(r.out().contains("\"expectation\":\"weight not negative\""), r.out());
    assertEquals(rows, rowsSnapshot(), "quarantined rows change no row of the Table");
    String table = SCHEMA + ".Parcel";
    String load = lastSucceededLoad();
    assertEquals(
        "2",
        scalar(
            "SELECT COUNT(*) FROM [_].[LoadQuarantine] WHERE [load_id] = '"
                + load
                + "' AND [table_id] = '"
                + table
                + "' AND [expectations] = '[\"weight not negative\"]'"));
    assertEquals(
        "1",
        scalar(
            "SELECT COUNT(*) FROM [_].[LoadQuarantine] WHERE [load_id] = '"
                + load
                + "' AND [key_json] = '{\"parcel_id\":\"p4\"}'"));
    assertEquals("2", violations(load, "weight not negative"));
    assertEquals("0", violations(load, "status not forbidden"));

    source("('p11','t11','forbidden',1)");
    BinWeaverCheckTest.Result failed = weaver("load");
    assertEquals(1, failed.exit(), failed.out());
    assertTrue(failed.out().contains("expectation 'status not forbidden'"), failed.out());
    assertTrue(failed.out().contains("p11"), failed.out());
    assertEquals(rows, rowsSnapshot(), "a failing expectation writes nothing");
    sql("DELETE FROM [" + SOURCE + "].[parcel] WHERE [parcel_id] IN ('p10', 'p11')");
    sql("UPDATE [" + SOURCE + "].[parcel] SET [weight] = 4 WHERE [parcel_id] = 'p4'");
  }

  /**
   * {@code Deletes: hard}: an absent key's row is removed (not soft-deleted), the same delivery
   * again deletes nothing, a restore inserts the removed row back from the row history, and a key
   * that returns after a removal is a new row with a new Identity value.
   */
  @Test
  @Order(10)
  void hardDeletesRemoveTheRowAndAReturningKeyIsANewRow() throws Exception {
    String table = modeTable("Hard", "hard");
    source("hard", "('h1', 1), ('h2', 2), ('h3', 3)");
    assertCounts(weaver("load", "--table", table), 3, 0, 0, 0);
    String first = lastSucceededLoad("Hard");
    String rows = modeRows("Hard");
    String key = scalar(identityOf("Hard", "h2"));

    sql("DELETE FROM [" + SOURCE + "].[hard] WHERE [id] = 'h2'");
    assertCounts(weaver("load", "--table", table), 0, 0, 1, 0);
    assertEquals("0", count("Hard", "[id] = 'h2'"), "removed, not soft-deleted");
    assertCounts(weaver("load", "--table", table), 0, 0, 0, 0);

    BinWeaverCheckTest.Result r =
        weaver("sql", "RESTORE WEAVER TABLE " + table + " TO LOAD '" + first + "'");
    assertEquals(0, r.exit(), r.out() + r.err());
    assertEquals(rows, modeRows("Hard"), "the removed row is back as the load left it");
    assertCounts(weaver("load", "--table", table), 0, 0, 1, 0);

    source("hard", "('h2', 2)");
    assertCounts(weaver("load", "--table", table), 1, 0, 0, 0);
    assertEquals("1", count("Hard", "[id] = 'h2' AND [Row delete datetime] > '9999-01-01'"));
    assertNotEquals(key, scalar(identityOf("Hard", "h2")), "a new Identity value");
  }

  /**
   * {@code Deletes: keep}: keys absent from a snapshot stay live and untouched, are not counted as
   * deleted and do not trip the delete gate; a key that comes back with other values is updated.
   */
  @Test
  @Order(11)
  void keepLeavesAbsentKeysLiveAndOutOfTheDeleteGate() throws Exception {
    String table = modeTable("Keep", "keep");
    source("keep", "('k1', 1), ('k2', 2), ('k3', 3), ('k4', 4)");
    assertCounts(weaver("load", "--table", table), 4, 0, 0, 0);
    String rows = modeRows("Keep");

    sql("DELETE FROM [" + SOURCE + "].[keep] WHERE [id] IN ('k1', 'k2', 'k3')");
    BinWeaverCheckTest.Result kept = weaver("load", "--table", table);
    assertCounts(kept, 0, 0, 0, 0);
    assertTrue(kept.out().contains("\"status\":\"succeeded\""), "no gate refusal: " + kept.out());
    assertEquals(rows, modeRows("Keep"), "absent keys are left exactly as they were");
    assertEquals("4", count("Keep", "[Row delete datetime] > '9999-01-01'"));

    source("keep", "('k1', 10)");
    assertCounts(weaver("load", "--table", table), 0, 1, 0, 0);
  }

  /**
   * {@code Sequence column}: a row older than the Table's is not applied, the newest of a key's
   * rows in one delivery wins (the others are stale), {@code rows_stale} counts both in the answer
   * and in {@code _.LoadHistory}, and a tie at a key's newest value fails the load and writes
   * nothing.
   */
  @Test
  @Order(12)
  void aSequenceColumnKeepsOlderRowsOutAndTheNewestOfAKeyWins() throws Exception {
    sql(
        "CREATE TABLE ["
            + SOURCE
            + "].[sequenced] ([id] varchar(20) NULL, [v] int NULL, [ts] int NULL)");
    Files.writeString(
        workspace.resolve("Warehouse").resolve(ITEM).resolve(SCHEMA + ".Sequenced.sql"),
        "/*\nTable ID: "
            + SCHEMA
            + ".Sequenced\n\nDescription: Sequence column: ts.\n\nPrimary key: id\n\n"
            + "Sequence column: ts\n\nDelete percentage threshold: 100\n\n"
            + "Update percentage threshold: 100\n\nStability row threshold: 0\n\n"
            + "Schema:\n  id: varchar(20)\n  v: int\n  ts: int\n*/\n"
            + "select id, v, ts from ["
            + SOURCE
            + "].[sequenced]\n",
        StandardCharsets.UTF_8);
    BinWeaverCheckTest.Result built = weaver("build");
    assertEquals(0, built.exit(), built.out() + built.err());
    String table = ITEM + "." + SCHEMA + ".Sequenced";
    source("sequenced", "('s1', 1, 10), ('s2', 2, 10)");
    assertCounts(weaver("load", "--table", table), 2, 0, 0, 0);

    sql("DELETE FROM [" + SOURCE + "].[sequenced]");
    source("sequenced", "('s1', 5, 5), ('s2', 7, 12), ('s2', 8, 11)");
    BinWeaverCheckTest.Result ordered = weaver("load", "--table", table);
    assertCounts(ordered, 0, 1, 0, 0);
    assertTrue(ordered.out().contains("\"rows_stale\":2"), ordered.out());
    assertEquals("1", count("Sequenced", "[id] = 's1' AND [v] = 1"), "the older row is stale");
    assertEquals("1", count("Sequenced", "[id] = 's2' AND [v] = 7"), "the newest row wins");
    assertEquals(
        "2",
        scalar(
            "SELECT TOP 1 [rows_stale] FROM [_].[LoadHistory] WHERE [table_id] = '"
                + SCHEMA
                + ".Sequenced' AND [status] = 'succeeded' ORDER BY [finished_at] DESC"));

    source("sequenced", "('s3', 1, 20), ('s3', 2, 20)");
    BinWeaverCheckTest.Result tied = weaver("load", "--table", table);
    assertEquals(1, tied.exit(), tied.out());
    assertTrue(tied.out().contains("repeat their key's highest"), tied.out());
    assertEquals("0", count("Sequenced", "[id] = 's3'"), "a failed load writes nothing");
  }

  /**
   * A keyed Table {@code <SCHEMA>.<object>} with the {@code Deletes} mode, an Identity and a delete
   * gate that refuses any deletion, over its own source table; built, then named as {@code --table}
   * takes it.
   */
  /**
   * {@code History: true}: each load's changes are versions in {@code [Schema].[Object__History]},
   * written in the load's transaction (an update and a soft delete each close a version and open
   * one), the same delivery again adds none, and a restore takes the history back with the Table.
   */
  @Test
  @Order(13)
  void historyKeepsEveryVersionAndARestoreTakesItBack() throws Exception {
    sql("CREATE TABLE [" + SOURCE + "].[versioned] ([id] varchar(20) NULL, [v] int NULL)");
    Files.writeString(
        workspace.resolve("Warehouse").resolve(ITEM).resolve(SCHEMA + ".Versioned.sql"),
        "/*\nTable ID: "
            + SCHEMA
            + ".Versioned\n\nDescription: History: true.\n\nPrimary key: id\n\nHistory: true\n\n"
            + "Delete percentage threshold: 100\n\nUpdate percentage threshold: 100\n\n"
            + "Stability row threshold: 0\n\nSchema:\n  id: varchar(20)\n  v: int\n*/\n"
            + "select id, v from ["
            + SOURCE
            + "].[versioned]\n",
        StandardCharsets.UTF_8);
    BinWeaverCheckTest.Result built = weaver("build");
    assertEquals(0, built.exit(), built.out() + built.err());
    String table = ITEM + "." + SCHEMA + ".Versioned";
    source("versioned", "('v1', 1), ('v2', 2)");
    assertCounts(weaver("load", "--table", table), 2, 0, 0, 0);
    String first = lastSucceededLoad("Versioned");
    assertEquals("v1|1|open|0;v2|2|open|0", versions());

    sql("DELETE FROM [" + SOURCE + "].[versioned]");
    source("versioned", "('v1', 10)");
    assertCounts(weaver("load", "--table", table), 0, 1, 1, 0);
    assertEquals("v1|1|closed|0;v1|10|open|0;v2|2|closed|0;v2|2|open|1", versions());
    assertCounts(weaver("load", "--table", table), 0, 0, 0, 0);
    assertEquals(4, versions().split(";").length, "the same delivery adds no version");

    BinWeaverCheckTest.Result r =
        weaver("sql", "RESTORE WEAVER TABLE " + table + " TO LOAD '" + first + "'");
    assertEquals(0, r.exit(), r.out() + r.err());
    assertEquals("v1|1|open|0;v2|2|open|0", versions(), "the history is back at the first load");
  }

  /** The history's versions: key, value, open or closed, deleted, in key and time order. */
  private static String versions() throws SQLException {
    return scalar(
        "SELECT STRING_AGG(CONCAT([id], '|', [v], '|', CASE WHEN [is_current] = 1 AND [valid_to]"
            + " > '9999-01-01' THEN 'open' ELSE 'closed' END, '|', CAST([is_deleted] AS int)), ';')"
            + " WITHIN GROUP (ORDER BY [id], [valid_from]) FROM ["
            + SCHEMA
            + "].[Versioned__History]");
  }

  private static String modeTable(String object, String mode) throws Exception {
    String source = object.toLowerCase(java.util.Locale.ROOT);
    sql("CREATE TABLE [" + SOURCE + "].[" + source + "] ([id] varchar(20) NULL, [v] int NULL)");
    Files.writeString(
        workspace.resolve("Warehouse").resolve(ITEM).resolve(SCHEMA + "." + object + ".sql"),
        "/*\nTable ID: "
            + SCHEMA
            + "."
            + object
            + "\n\nDescription: Deletes: "
            + mode
            + ".\n\nPrimary key: id\n\nIdentity: row_key\n\nDeletes: "
            + mode
            + "\n\nDelete percentage threshold: "
            + ("hard".equals(mode) ? "100" : "1")
            + "\n\nUpdate percentage threshold: 100\n\nStability row threshold: 0\n\nSchema:\n  id: varchar(20)\n  v: int\n*/\n"
            + "select id, v from ["
            + SOURCE
            + "].["
            + source
            + "]\n",
        StandardCharsets.UTF_8);
    BinWeaverCheckTest.Result built = weaver("build");
    assertEquals(0, built.exit(), built.out() + built.err());
    return ITEM + "." + SCHEMA + "." + object;
  }

  /** A mode Table's rows without the Identity column, managed columns included, ordered. */
  private static String modeRows(String object) throws SQLException {
    return scalar(
        "SELECT STRING_AGG(CONCAT([id], '|', [v], '|', CONVERT(varchar(26), [Row insert datetime],"
            + " 121), '|', CONVERT(varchar(26), [Row update datetime], 121), '|',"
            + " CONVERT(varchar(26), [Row delete datetime], 121), '|', CONVERT(varchar(64), [Row"
            + " signature], 2)), ';') WITHIN GROUP (ORDER BY [id]) FROM ["
            + SCHEMA
            + "].["
            + object
            + "]");
  }

  private static String identityOf(String object, String id) {
    return "SELECT [row_key] FROM [" + SCHEMA + "].[" + object + "] WHERE [id] = '" + id + "'";
  }

  private static String count(String object, String where) throws SQLException {
    return scalar("SELECT COUNT(*) FROM [" + SCHEMA + "].[" + object + "] WHERE " + where);
  }

  private static String lastSucceededLoad(String object) throws SQLException {
    return scalar(
        "SELECT TOP 1 [load_id] FROM [_].[LoadHistory] WHERE [table_id] = '"
            + SCHEMA
            + "."
            + object
            + "' AND [status] = 'succeeded' ORDER BY [finished_at] DESC");
  }

  private static String violations(String load, String expectation) throws SQLException {
    return scalar(
        "SELECT [rows_violating] FROM [_].[LoadExpectation] WHERE [load_id] = '"
            + load
            + "' AND [table_id] = '"
            + SCHEMA
            + ".Parcel' AND [expectation] = '"
            + expectation
            + "'");
  }

  /** Every row of the Table, managed columns included, as one ordered text. */
  private static String rowsSnapshot() throws SQLException {
    return scalar(
        "SELECT STRING_AGG(CONCAT([parcel_id], '|', [tracking_code], '|', [status], '|',"
            + " CONVERT(varchar(20), [weight]), '|', CONVERT(varchar(26), [Row insert datetime],"
            + " 121), '|', CONVERT(varchar(26), [Row update datetime], 121), '|',"
            + " CONVERT(varchar(26), [Row delete datetime], 121), '|', CONVERT(varchar(64), [Row"
            + " signature], 2)), ';') WITHIN GROUP (ORDER BY [parcel_id]) FROM ["
            + SCHEMA
            + "].[Parcel]");
  }

  private static String lastSucceededLoad() throws SQLException {
    return lastSucceededLoad("Parcel");
  }

  /**
   * The generated signature expression run by the real engine equals the Java model the connector
   * tests hold against the Delta encoding's golden vectors: values at the edges of each rule
   * (nulls, empty text, Unicode, decimals at scale, shortest floats, dates, microseconds).
   */
  @Test
  @Order(8)
  void theEnginesSignaturesEqualTheModelledDeltaEncoding() throws Exception {
    List<TsqlSignature.Column> columns =
        List.of(
            TsqlSignature.Column.of("s", "varchar(100)"),
            TsqlSignature.Column.of("i", "bigint"),
            TsqlSignature.Column.of("d", "decimal(10, 2)"),
            TsqlSignature.Column.of("f", "float"),
            TsqlSignature.Column.of("r", "real"),
            TsqlSignature.Column.of("dt", "date"),
            TsqlSignature.Column.of("ts", "datetime2(6)"),
            TsqlSignature.Column.of("b", "bit"));
    String table = "[" + SOURCE + "].[signature_vectors]";
    sql(
        "CREATE TABLE "
            + table
            + " ([n] int NOT NULL, [s] varchar(100) NULL, [i] bigint NULL, [d] decimal(10, 2) NULL,"
            + " [f] float NULL, [r] real NULL, [dt] date NULL, [ts] datetime2(6) NULL, [b] bit NULL)");
    List<List<Object>> rows =
        List.of(
            java.util.Arrays.asList(null, null, null, null, null, null, null, null),
            List.of(
                "",
                0L,
                new BigDecimal("0.00"),
                0.1,
                0.1f,
                LocalDate.of(2026, 12, 2),
                LocalDateTime.of(2026, 12, 2, 10, 11, 12, 123456000),
                true),
            List.of(
                "ä€😀",
                -42L,
                new BigDecimal("-1.50"),
                1.0E-7,
                3.4028235E38f,
                LocalDate.of(1, 1, 1),
                LocalDateTime.of(1970, 1, 1, 0, 0),
                false),
            List.of(
                "a",
                Long.MAX_VALUE,
                new BigDecimal("12345678.90"),
                123456789012345680.0,
                16777216f,
                LocalDate.of(9999, 12, 31),
                LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999999000),
                true));
    String[] literals = {
      "(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
      "(1, '', 0, 0.00, 0.1E0, CAST(0.1E0 AS real), '2026-12-02', '2026-12-02T10:11:12.123456', 1)",
      "(2, CAST(N'ä€😀' COLLATE Latin1_General_100_BIN2_UTF8 AS varchar(100)), -42, -1.50, 1.0E-7,"
          + " CAST(3.4028235E38 AS real), '0001-01-01', '1970-01-01T00:00:00', 0)",
      "(3, 'a', 9223372036854775807, 12345678.90, 123456789012345680E0, CAST(16777216 AS real),"
          + " '9999-12-31', '9999-12-31T23:59:59.999999', 1)"
    };
    sql("INSERT INTO " + table + " VALUES " + String.join(", ", literals));
    for (int n = 0; n < rows.size(); n++) {
      String engine =
          scalar(
              "SELECT CONVERT(varchar(64), "
                  + TsqlSignature.hashExpression(columns, "v")
                  + ", 2) FROM "
                  + table
                  + " AS v WHERE v.[n] = "
                  + n);
      String modelled =
          HexFormat.of()
              .withUpperCase()
              .formatHex(TsqlSignatureOracle.evaluateHash(columns, rows.get(n)));
      assertEquals(modelled, engine, "row " + n + " " + rows.get(n));
    }
  }

  private static String signatureOf(String id) {
    return "SELECT CONVERT(varchar(64), [Row signature], 2) FROM ["
        + SCHEMA
        + "].[Parcel] WHERE [parcel_id] = '"
        + id
        + "'";
  }

  private static void assertLoad(String status, int inserted, int updated, int deleted, int revived)
      throws Exception {
    BinWeaverCheckTest.Result r = weaver("load");
    assertTrue(r.out().contains("\"status\":\"" + status + "\""), r.out());
    assertCounts(r, inserted, updated, deleted, revived);
  }

  private static void assertCounts(
      BinWeaverCheckTest.Result r, int inserted, int updated, int deleted, int revived) {
    assertEquals(0, r.exit(), r.out() + r.err());
    for (String expected :
        new String[] {
          "\"rows_inserted\":" + inserted,
          "\"rows_updated\":" + updated,
          "\"rows_deleted\":" + deleted,
          "\"rows_revived\":" + revived
        }) {
      assertTrue(r.out().contains(expected), expected + " in " + r.out());
    }
  }

  private static BinWeaverCheckTest.Result weaver(String command, String... more) throws Exception {
    String[] args = new String[4 + more.length];
    args[0] = command;
    args[1] = "--workspace";
    args[2] = workspace.toString();
    args[3] = "--format=json";
    System.arraycopy(more, 0, args, 4, more.length);
    Map<String, String> env = new HashMap<>();
    env.put(
        "WEAVER_EXTRA_CLASSPATH",
        Path.of(SQLServerDriver.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .toString());
    return BinWeaverCheckTest.weaver(env, args);
  }

  private static void source(String values) throws SQLException {
    source("parcel", values);
  }

  private static void source(String table, String values) throws SQLException {
    sql("INSERT INTO [" + SOURCE + "].[" + table + "] VALUES " + values);
  }

  private static void sql(String text) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute(text);
    }
  }

  private static String scalar(String query) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  private static java.util.Optional<String> env(String name) {
    return java.util.Optional.ofNullable(System.getenv(name)).filter(v -> !v.isBlank());
  }
}
