package io.weaver.site;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.lakehouse.ItemCatalogs;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.load.StagingProvider;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.testing.SharedSpark;
import io.weaver.workspace.Form;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * The bundled example (examples/logistics) built, loaded twice (first and second delivery) and
 * tested, then its site generated: made once per test JVM and shared by the site tests, since
 * building and loading cost far more than reading pages.
 *
 * <p>Items are renamed {@code Docs<Item>} in the copy: item catalogs live as long as the shared
 * session, and other test classes register {@code Logistics} at their own roots. The two Python
 * Tables are staged by a Java stand-in for their {@code read()} (no Python runtime in this JVM).
 */
final class LogisticsSite {
  static final String PREFIX = "Docs";
  static final String LOGISTICS = PREFIX + "Logistics";
  static final String SALES = PREFIX + "Sales";
  static final String REPORTING = PREFIX + "Reporting";

  private static LogisticsSite site;
  private static RuntimeException failed;

  final Path dir;
  final Path workspace;
  final Path lake;
  final Path out;
  final SiteGenerator.Result result;
  final WorkspaceModel model;

  private LogisticsSite(Path dir) {
    this.dir = dir;
    this.workspace = dir.resolve("ws");
    this.lake = dir.resolve("lake");
    this.out = dir.resolve("site");
    Path example = projectRoot().resolve("examples/logistics");
    copyRenamed(example.resolve("Lakehouse"), workspace.resolve("Lakehouse"));
    copyRenamed(example.resolve("Warehouse"), workspace.resolve("Warehouse"));
    SparkSession spark = SharedSpark.get();
    for (String item : List.of(LOGISTICS, SALES)) {
      ItemCatalogs.register(spark, lake, item);
      copy(workspace.resolve("Lakehouse/" + item + "/Files"), lake.resolve(item + "/Files"));
    }
    LakehouseLayout layout = LakehouseLayout.at(lake.toString());
    WeaverWorkspace weaver =
        new WeaverWorkspace(spark, workspace, lake.toString(), m -> {})
            .withProvider(Form.PYTHON, pythonStandIn(spark, layout));
    weaver.build(Scope.all(), false);
    weaver.load(Scope.all(), false);
    // The second delivery for one item: its Tables get a second bar in their charts.
    copy(example.resolve("deliveries/second/Logistics/Files"), lake.resolve(LOGISTICS + "/Files"));
    weaver.load(Scope.item(LOGISTICS), false);
    weaver.test(Scope.all());
    model = weaver.model();
    result = new SiteGenerator(spark, layout).generate(model, out);
  }

  static synchronized LogisticsSite get() {
    if (failed != null) {
      throw failed; // one attempt per JVM: its item catalogs now point at its folder
    }
    if (site == null) {
      try {
        site = new LogisticsSite(Files.createTempDirectory("weaver-site"));
      } catch (IOException e) {
        failed = new UncheckedIOException(e);
      } catch (RuntimeException e) {
        failed = e;
      }
      if (failed != null) {
        throw failed;
      }
    }
    return site;
  }

  static Path projectRoot() {
    String root = System.getProperty("weaver.projectRoot");
    Path p = root == null ? Path.of("..") : Path.of(root);
    return p.toAbsolutePath().normalize();
  }

  /** What the example's two Python bodies return, for a JVM without Python. */
  private static StagingProvider pythonStandIn(SparkSession spark, LakehouseLayout layout) {
    return (table, context) -> {
      String files = layout.itemFilesRoot(table.item());
      var df =
          switch (table.tableId().toString()) {
            case "Parcel.Current" ->
                spark
                    .read()
                    .parquet(files + "/Landing/Parcels")
                    .select(
                        functions.col("parcel_id"),
                        functions.col("status"),
                        functions.col("site_id").cast("int").alias("site_id"),
                        functions.col("weight_kg").cast("decimal(9,3)").alias("weight_kg"),
                        functions.col("last_event_at"));
            case "Order.Shipment" -> spark.read().parquet(files + "/Orders/Shipments");
            default -> throw new IllegalArgumentException("no stand-in for " + table);
          };
      return new StagingProvider.Staging(df, Optional.empty(), Optional.empty());
    };
  }

  /** Copies a tree, renaming item folders and item-qualified names to {@code Docs<Item>}. */
  private static void copyRenamed(Path from, Path to) {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path source : walk.toList()) {
        Path rel = from.relativize(source);
        Path target =
            rel.getNameCount() == 0 || rel.toString().isEmpty()
                ? to
                : to.resolve(PREFIX + rel.getName(0))
                    .resolve(
                        rel.getNameCount() > 1
                            ? rel.subpath(1, rel.getNameCount()).toString()
                            : "");
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          String name = source.getFileName().toString();
          if (name.endsWith(".sql") || name.endsWith(".py")) {
            String text = Files.readString(source, StandardCharsets.UTF_8);
            text = text.replaceAll("(?<![A-Za-z_$])(Logistics|Sales|Reporting)\\.", PREFIX + "$1.");
            text = text.replace("$Logistics.", "$" + PREFIX + "Logistics.");
            Files.writeString(target, text, StandardCharsets.UTF_8);
          } else {
            Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void copy(Path from, Path to) {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path source : walk.toList()) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
