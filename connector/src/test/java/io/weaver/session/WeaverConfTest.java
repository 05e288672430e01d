package io.weaver.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WeaverConfTest {
  @Test
  void lakehouseExplicitWinsOverSessionOverFileOverDefault() {
    ConfLayer yaml = ConfLayer.of(Map.of(WeaverConf.LAKEHOUSE, "/from/yaml"));
    WeaverConf withSession =
        WeaverConf.of(Map.of(WeaverConf.LAKEHOUSE, "/from/session")).withWorkspaceFile(yaml);
    assertEquals("/explicit", withSession.lakehouse(Optional.of("/explicit"), Optional.empty()));
    assertEquals("/from/session", withSession.lakehouse(Optional.empty(), Optional.empty()));
    WeaverConf withoutSession = WeaverConf.of(Map.of()).withWorkspaceFile(yaml);
    assertEquals("/from/yaml", withoutSession.lakehouse(Optional.empty(), Optional.empty()));
  }

  @Test
  void lakehouseDefaultsUnderTheWorkspace() {
    WeaverConf conf = WeaverConf.of(Map.of(WeaverConf.WORKSPACE, "/ws"));
    assertEquals("/ws/.weaver/lakehouse", conf.lakehouse(Optional.empty(), Optional.empty()));
    assertEquals(
        "/other/.weaver/lakehouse", conf.lakehouse(Optional.empty(), Optional.of("/other/")));
    assertEquals(
        "./.weaver/lakehouse",
        WeaverConf.of(Map.of()).lakehouse(Optional.empty(), Optional.empty()));
    assertEquals(
        "/ws/.weaver/lakehouse",
        WeaverConf.of(Map.of(WeaverConf.LAKEHOUSE, " ", WeaverConf.WORKSPACE, "/ws"))
            .lakehouse(Optional.of(""), Optional.empty()),
        "blank values count as unset");
  }

  @Test
  void workspaceExplicitWinsOverSession() {
    WeaverConf conf = WeaverConf.of(Map.of(WeaverConf.WORKSPACE, "/session"));
    assertEquals("/cli", conf.workspace(Optional.of("/cli")));
    assertEquals("/session", conf.workspace(Optional.empty()));
    assertEquals(".", WeaverConf.of(Map.of()).workspace(Optional.empty()));
  }

  @Test
  void itemCatalogsAreParsedAndSessionWinsPerItem() {
    WeaverConf conf =
        WeaverConf.of(
                Map.of(
                    "spark.weaver.item.Sales.catalog", "unity_sales",
                    "spark.weaver.item.Sales.jdbcUrl", "jdbc:ignored",
                    "spark.sql.shuffle.partitions", "2"))
            .withWorkspaceFile(
                ConfLayer.of(
                    Map.of(
                        "spark.weaver.item.Sales.catalog", "from_yaml",
                        "spark.weaver.item.Hr.catalog", "hive_hr")));
    assertEquals(Map.of("Hr", "hive_hr", "Sales", "unity_sales"), conf.itemCatalogs());
    assertEquals(Optional.of("unity_sales"), conf.itemCatalog("Sales"));
    assertEquals(Optional.of("hive_hr"), conf.itemCatalog("Hr"));
    assertEquals(Optional.empty(), conf.itemCatalog("Logistics"));
    assertEquals("spark.weaver.item.Sales.catalog", WeaverConf.itemCatalogKey("Sales"));
  }

  @Test
  void malformedItemCatalogKeysAreRefusedWithTheKey() {
    IllegalArgumentException dotted =
        assertThrows(
            IllegalArgumentException.class,
            () -> WeaverConf.of(Map.of("spark.weaver.item.A.B.catalog", "c")).itemCatalogs());
    assertTrue(dotted.getMessage().contains("spark.weaver.item.A.B.catalog"), dotted.getMessage());
    IllegalArgumentException empty =
        assertThrows(
            IllegalArgumentException.class,
            () -> WeaverConf.of(Map.of("spark.weaver.item.A.catalog", "")).itemCatalogs());
    assertTrue(empty.getMessage().contains("is empty"), empty.getMessage());
  }
}
