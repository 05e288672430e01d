package io.weaver.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Embedded mode keeps {@code spark_catalog} in a metastore under the lakehouse: a table one {@code
 * bin/weaver} process creates there is read by the next, and loaded by a Table that names it, and a
 * second process on a lakehouse whose metastore is in use is refused with what to do.
 */
class PersistentMetastoreCliTest {
  @TempDir Path lakehouse;
  @TempDir Path workspace;

  @Test
  void aTableCreatedInSparkCatalogByOneProcessIsThereForTheNext() throws Exception {
    BinWeaverCheckTest.Result created =
        BinWeaverCheckTest.weaver(
            "sql",
            "--workspace",
            "examples/logistics",
            "--lakehouse",
            lakehouse.toString(),
            "CREATE SCHEMA spark_catalog.raw;"
                + " CREATE TABLE spark_catalog.raw.t (id INT, name STRING) USING delta;"
                + " INSERT INTO spark_catalog.raw.t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    assertEquals(0, created.exit(), created.out() + created.err());

    BinWeaverCheckTest.Result read =
        BinWeaverCheckTest.weaver(
            "sql",
            "--workspace",
            "examples/logistics",
            "--lakehouse",
            lakehouse.toString(),
            "--format",
            "json",
            "SELECT count(*) AS n FROM spark_catalog.raw.t");
    assertEquals(0, read.exit(), read.out() + read.err());
    assertEquals("{\"columns\":[\"n\"],\"rows\":[{\"n\":3}]}", read.out().strip());

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
    BinWeaverCheckTest.Result run =
        BinWeaverCheckTest.weaver(
            "run", "--workspace", workspace.toString(), "--lakehouse", lakehouse.toString());
    assertEquals(0, run.exit(), run.out() + run.err());
    assertTrue(
        run.out().matches("(?s).*succeeded\\s+Shop\\.Customer\\.Copy\\s+\\+3 .*"), run.out());
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
