package io.weaver.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.delta.tables.DeltaTable;
import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.testing.WeaverFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Build plan says what Build would do — the same action as the Build that follows — and writes
 * nothing: no table, no catalogue (not even an empty one), no Delta version.
 */
class BuildPlanTest {
  @RegisterExtension final WeaverFixture fixture = WeaverFixture.item("Plan");
  private final SparkSession spark = fixture.spark();

  private static final String SITE =
      "/*\nTable ID: Depot.Site\nDescription: Depots.\nPrimary key: site_id\n*/\n"
          + "select site_id, code from values (1, 'AMS'), (2, 'RTM') as t(site_id, code);\n";

  private static final String SITE_WITH_REGION =
      "/*\nTable ID: Depot.Site\nDescription: Depots.\nPrimary key: site_id\n*/\n"
          + "select site_id, code, region from values (1, 'AMS', 'N'), (2, 'RTM', 'N')"
          + " as t(site_id, code, region);\n";

  private static final String SITE_KEYED_BY_CODE =
      "/*\nTable ID: Depot.Site\nDescription: Depots.\nPrimary key: code\n*/\n"
          + "select cast(site_id as string) as site_id, code from values (1, 'AMS'), (2, 'RTM')"
          + " as t(site_id, code);\n";

  private Map<String, String> outcomes(List<BuildOutcome> outcomes) {
    return outcomes.stream()
        .collect(
            Collectors.toMap(
                BuildOutcome::tableId,
                o -> o.action() + ": " + o.message(),
                (a, b) -> a,
                TreeMap::new));
  }

  private Map<String, String> plan(boolean allowDestructive) {
    return outcomes(fixture.buildRunner().plan(t -> true, allowDestructive));
  }

  private Map<String, String> build(boolean allowDestructive) {
    return outcomes(fixture.buildRunner().run(t -> true, allowDestructive));
  }

  private long version() {
    return DeltaTable.forPath(spark, fixture.path("Depot.Site")).history(1).first().getLong(0);
  }

  private long catalogueVersion() {
    Catalogue catalogue = new Catalogue(spark, fixture.layout(), fixture.item());
    return DeltaTable.forPath(spark, catalogue.path(CatalogueTable.REGISTRY))
        .history(1)
        .first()
        .getLong(0);
  }

  @Test
  void aPlanSaysWhatBuildWouldDoAndWritesNothing() {
    String site = fixture.item() + ".Depot.Site";
    fixture.write("Tables/Depot.Site.sql", SITE);

    // A new item: everything would be created, and nothing exists afterwards.
    Map<String, String> first = plan(false);
    assertTrue(first.get(site).startsWith("created: would create "), first.toString());
    Path table = Path.of(fixture.path("Depot.Site"));
    Path registry =
        Path.of(
            new Catalogue(spark, fixture.layout(), fixture.item()).path(CatalogueTable.REGISTRY));
    assertFalse(Files.exists(table), "a plan creates no table: " + table);
    assertFalse(Files.exists(registry), "a plan creates no catalogue: " + registry);
    assertEquals(Map.of(site, "created"), actions(build(false)));

    long tableVersion = version();
    long catalogue = catalogueVersion();
    assertTrue(plan(false).get(site).startsWith("unchanged: "), plan(false).toString());

    // An added column: altered by the plan, nothing written until Build.
    fixture.write("Tables/Depot.Site.sql", SITE_WITH_REGION);
    Map<String, String> altered = plan(false);
    assertTrue(altered.get(site).startsWith("altered: would add region"), altered.toString());
    assertEquals(tableVersion, version());
    assertEquals(catalogue, catalogueVersion());
    assertTrue(build(false).get(site).startsWith("altered: added region"));

    // A changed key is destructive: refused under Build protection, replaced when allowed.
    fixture.write("Tables/Depot.Site.sql", SITE_KEYED_BY_CODE);
    long before = version();
    Map<String, String> refused = plan(false);
    assertTrue(refused.get(site).startsWith("refused: Build protection"), refused.toString());
    assertTrue(plan(true).get(site).startsWith("replaced: would replace"), plan(true).toString());
    assertEquals(before, version());
    assertEquals(actions(Map.of(site, refused.get(site))), actions(build(false)));
    assertTrue(build(true).get(site).startsWith("replaced: "));
  }

  private static Map<String, String> actions(Map<String, String> outcomes) {
    return outcomes.entrySet().stream()
        .collect(
            Collectors.toMap(
                Map.Entry::getKey, e -> e.getValue().substring(0, e.getValue().indexOf(':'))));
  }
}
