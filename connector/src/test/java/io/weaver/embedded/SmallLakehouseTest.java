package io.weaver.embedded;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which lakehouses the CLI's session starts interpreted in: by the size of their files. */
class SmallLakehouseTest {
  @TempDir Path root;

  @Test
  void aLakehouseNotCreatedYetOrWithLittleDataIsSmall() throws IOException {
    assertTrue(SmallLakehouse.isSmall(root.resolve("not-yet")));
    file(root.resolve("Logistics/Tables/Parcel/Current/part-0.parquet"), 3L << 20);
    file(root.resolve("Logistics/Files/landing/parcels.csv"), 3L << 20);
    assertTrue(SmallLakehouse.isSmall(root));
  }

  @Test
  void moreBytesThanTheLimitInTheItemsIsNotSmall() throws IOException {
    file(root.resolve("Logistics/Tables/Parcel/Current/part-0.parquet"), 5L << 20);
    file(root.resolve("Sales/Files/orders.json"), 4L << 20);
    assertFalse(SmallLakehouse.isSmall(root));
  }

  @Test
  void theMetastoresFilesAreNotCountedButTheWarehousesAre() throws IOException {
    file(root.resolve(".spark-metastore/metastore_db/seg0/c10.dat"), 20L << 20);
    assertTrue(SmallLakehouse.isSmall(root));
    file(root.resolve(".spark-warehouse/t/part-0.parquet"), 20L << 20);
    assertFalse(SmallLakehouse.isSmall(root), "spark_catalog's tables are data");
  }

  @Test
  void moreFilesThanTheLimitIsNotSmallWhateverTheirSize() throws IOException {
    Path folder = Files.createDirectories(root.resolve("Logistics/Tables/Parcel/Event/_delta_log"));
    for (int i = 0; i <= SmallLakehouse.LIMIT_FILES; i++) {
      Files.createFile(folder.resolve(i + ".json"));
    }
    assertFalse(SmallLakehouse.isSmall(root));
  }

  /** A file of {@code bytes} (sparse: its size is what is counted). */
  private static void file(Path path, long bytes) throws IOException {
    Files.createDirectories(path.getParent());
    try (RandomAccessFile f = new RandomAccessFile(path.toFile(), "rw")) {
      f.setLength(bytes);
    }
  }
}
