package io.weaver.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Embedded mode keeps {@code spark_catalog} in a metastore under the lakehouse: a table one {@code
 * bin/weaver} process creates there is read by the next, and loaded by a Table that names it, and a
 * second process on a lakehouse whose metastore is in use is refused with what to do. On the way:
 * {@code --quiet} leaves stderr empty, and no run leaves anything in its {@code java.io.tmpdir}
 * once the process that ran it has exited.
 */
class PersistentMetastoreCliTest {
  @TempDir Path lakehouse;
  @TempDir Path workspace;

  /** The children's own java.io.tmpdir, so what a run leaves there is seen exactly. */
  @TempDir Path tmp;

  /** Stderr without the JVM's note of JAVA_TOOL_OPTIONS, which a CI machine may set. */
  private static String stderr(BinWeaverCheckTest.Result r) {
    return r.err()
        .lines()
        .filter(l -> !l.startsWith("Picked up "))
        .reduce("", (a, b) -> a + b + "\n");
  }

  @Test
  void aTableCreatedInSparkCatalogByOneProcessIsThereForTheNext() throws Exception {
    Map<String, String> env = Map.of("WEAVER_JAVA_OPTS", "-Djava.io.tmpdir=" + tmp);
    BinWeaverCheckTest.Result created =
        BinWeaverCheckTest.weaver(
            env,
            "sql",
            "--workspace",
            "examples/logistics",
            "--lakehouse",
            lakehouse.toString(),
            "--quiet",
            "CREATE SCHEMA spark_catalog.raw;"
                + " CREATE TABLE spark_catalog.raw.t (id INT, name STRING) USING delta;"
                + " INSERT INTO spark_catalog.raw.t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    assertEquals(0, created.exit(), created.out() + created.err());
    // --quiet: only errors on stderr; no Spark warning, no JVM notice, no copied-Files note.
    assertEquals("", stderr(created), "stderr of a quiet run");

    BinWeaverCheckTest.Result read =
        BinWeaverCheckTest.weaver(
            env,
            "sql",
            "--workspace",
            "examples/logistics",
            "--lakehouse",
            lakehouse.toString(),
            "--format",
            "json",
            "--quiet",
            "SELECT count(*) AS n FROM spark_catalog.raw.t");
    assertEquals(0, read.exit(), read.out() + read.err());
    assertEquals("{\"columns\":[\"n\"],\"rows\":[{\"n\":3}]}", read.out().strip());
    assertEquals("", stderr(read), "stderr of a quiet run");

    Path metastore = lakehouse.resolve(".spark-metastore");
    assertTrue(Files.isDirectory(metastore.resolve("metastore_db")), "Derby's database");
    assertTrue(Files.isRegularFile(metastore.resolve("derby.log")), "derby.log stays with it");
    assertTrue(
        Files.isDirectory(lakehouse.resolve(".spark-warehouse/raw.db/t/_delta_log")),
        "the table's data is in the lakehouse's warehouse folder");

    // A Table reading it by its metastore name (the item has no raw.t, so it is spark_catalog's).
    Path table = workspace.resolve("Lakehouse/Shop/Tables/Customer.Copy.sql");
    Files.createDirectories(table.getParent());
    Files.writeString(
        table,
        "/*\nTable ID: Customer.Copy\nDescription: The metastore's raw.t.\nPrimary key: id\n*/\n"
            + "select id, name from raw.t;\n");
    // And a Python Table over it, so the run starts a Python worker, which a quiet run does not
    // announce either.
    Files.writeString(
        table.resolveSibling("Customer__Names.py"),
        """
        \"""
        Table ID: Customer.Names

        Description: The names of the metastore's raw.t, read by Python.

        Primary key: id

        Schema:
          id: int
          name: string
        \"""

        from weaver import Table


        class Customer__Names(Table):
            def read(self):
                return self.spark.table("raw.t").select("id", "name")
        """);
    BinWeaverCheckTest.Result run =
        BinWeaverCheckTest.weaver(
            env,
            "run",
            "--workspace",
            workspace.toString(),
            "--lakehouse",
            lakehouse.toString(),
            "--quiet");
    assertEquals(0, run.exit(), run.out() + run.err());
    assertTrue(
        run.out().matches("(?s).*succeeded\\s+Shop\\.Customer\\.Copy\\s+\\+3 .*"), run.out());
    assertTrue(
        run.out().matches("(?s).*succeeded\\s+Shop\\.Customer\\.Names\\s+\\+3 .*"), run.out());
    assertEquals("", stderr(run), "stderr of a quiet run that started a Python worker");

    // The runs' warm process (docs/decisions.md, "A warm process") holds what a JVM keeps in its
    // java.io.tmpdir until it exits (native libraries, Spark's artifact root); ended as a user's
    // kill would end it, it removes them.
    long warm =
        Long.parseLong(
            Files.readString(lakehouse.resolve(".spark-metastore/weaver.lock"))
                .lines()
                .findFirst()
                .orElseThrow()
                .strip());
    ProcessHandle.of(warm).ifPresent(ProcessHandle::destroy);
    ProcessHandle.of(warm).ifPresent(p -> p.onExit().join());

    // Hive's per-session <uuid>_resources folder, Spark's scratch folders: nothing is left.
    try (Stream<Path> left = Files.list(tmp)) {
      assertEquals(List.of(), left.toList(), "what the runs left in their java.io.tmpdir");
    }
  }

  @Test
  void aSecondProcessOnAMetastoreInUseIsRefusedWithWhatToDo() throws Exception {
    Path lockFile =
        Files.createDirectories(lakehouse.resolve(".spark-metastore")).resolve("weaver.lock");
    try (FileChannel channel =
            FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = channel.tryLock()) {
      assertNotNull(lock);
      BinWeaverCheckTest.Result refused =
          BinWeaverCheckTest.weaver(
              "sql",
              "--workspace",
              "examples/logistics",
              "--lakehouse",
              lakehouse.toString(),
              "SELECT 1");
      assertEquals(1, refused.exit(), refused.out() + refused.err());
      assertTrue(refused.err().contains("is in use by another process"), refused.err());
      assertTrue(refused.err().contains(lockFile.toString()), refused.err());
      assertTrue(refused.err().contains("-Dweaver.metastore=memory"), refused.err());
    }
  }
}
