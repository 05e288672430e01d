package io.weaver.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.check.Check;
import io.weaver.install.BuildOutcome;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.session.ConfLayer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What Build and Load do with a Warehouse Table for each state of its item's settings. */
class WarehouseTargetTest {
  private static final WorkspaceModel MODEL =
      Check.analyze(Path.of("src/test/resources/warehouse/workspace")).validModel();
  private static final TableDeclaration CUSTOMER =
      MODEL.tables().stream()
          .filter(t -> t.tableId().toString().equals("Sales.Customer"))
          .findFirst()
          .orElseThrow();
  private static final String URL = "jdbc:sqlserver://localhost:1;database=Sales;encrypt=false";

  private static WarehouseTarget target(Map<String, String> settings, List<String> progress) {
    return new WarehouseTarget(MODEL, ConfLayer.of(settings), Map.of(), progress::add);
  }

  @Test
  void withoutAnEndpointBuildSkipsNamingTheSettingAndLoadLeavesItToTheSkip() {
    BuildOutcome built = target(Map.of(), new ArrayList<>()).build(CUSTOMER, List.of(), true);
    assertEquals("skipped", built.action());
    assertEquals(
        "Warehouse Tables need a T-SQL endpoint: set spark.weaver.item.Sales.jdbcUrl"
            + " (docs/warehouse.md); none is configured",
        built.message());
    assertEquals(
        Optional.empty(),
        target(Map.of(), new ArrayList<>()).load(CUSTOMER, false, Optional.empty()));
  }

  @Test
  void restoreNeedsAnEndpointADriverAndALoadProcedure() {
    IllegalArgumentException noEndpoint =
        assertThrows(
            IllegalArgumentException.class,
            () -> target(Map.of(), new ArrayList<>()).restore(CUSTOMER, "id-1"));
    assertEquals(WarehouseTarget.missing(CUSTOMER), noEndpoint.getMessage());
    Map<String, String> settings = Map.of("spark.weaver.item.Sales.jdbcUrl", URL);
    WarehouseException noDriver =
        assertThrows(
            WarehouseException.class,
            () -> target(settings, new ArrayList<>()).restore(CUSTOMER, "id-1"));
    assertTrue(
        noDriver.getMessage().contains(WarehouseEndpoint.DRIVER_ARTIFACT), noDriver.getMessage());
    TableDeclaration archive =
        MODEL.tables().stream().filter(t -> !t.hasLoadProcedure()).findFirst().orElseThrow();
    IllegalArgumentException noProcedure =
        assertThrows(
            IllegalArgumentException.class,
            () -> target(settings, new ArrayList<>()).restore(archive, "id-1"));
    assertTrue(
        noProcedure.getMessage().contains("'Has load procedure: false'"), noProcedure.getMessage());
  }

  @Test
  void aSecretInTheSettingsFailsBothNamingTheSetting() {
    Map<String, String> settings =
        Map.of("spark.weaver.item.Sales.jdbcUrl", URL, "spark.weaver.item.Sales.password", "x");
    BuildOutcome built = target(settings, new ArrayList<>()).build(CUSTOMER, List.of(), true);
    assertEquals("failed", built.action());
    assertTrue(built.message().contains("spark.weaver.item.Sales.passwordEnv"), built.message());
    LoadResult loaded =
        target(settings, new ArrayList<>())
            .load(CUSTOMER, false, Optional.of("id-1"))
            .orElseThrow();
    assertEquals(LoadStatus.FAILED, loaded.status());
    assertEquals("id-1", loaded.loadId());
  }

  @Test
  void withoutTheDriverBuildAndLoadFailSayingWhatToAdd() {
    Map<String, String> settings = Map.of("spark.weaver.item.Sales.jdbcUrl", URL);
    List<String> progress = new ArrayList<>();
    BuildOutcome built = target(settings, progress).build(CUSTOMER, List.of(), true);
    assertEquals("failed", built.action());
    assertTrue(built.message().contains(WarehouseEndpoint.DRIVER_ARTIFACT), built.message());
    LoadResult loaded =
        target(settings, progress).load(CUSTOMER, false, Optional.empty()).orElseThrow();
    assertEquals(LoadStatus.FAILED, loaded.status());
    assertTrue(loaded.message().contains(WarehouseEndpoint.DRIVER_ARTIFACT), loaded.message());
  }
}
