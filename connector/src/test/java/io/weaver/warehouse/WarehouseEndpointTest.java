package io.weaver.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.session.ConfLayer;
import io.weaver.session.WeaverYaml;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WarehouseEndpointTest {
  private static final String URL =
      "jdbc:sqlserver://x.datawarehouse.fabric.microsoft.com:1433;database=Reporting;encrypt=true";

  @Test
  void noUrlMeansNoEndpoint() {
    assertEquals(
        Optional.empty(), WarehouseEndpoint.configured(ConfLayer.of(Map.of()), "Reporting"));
  }

  @Test
  void settingsAreReadPerItem() {
    WarehouseEndpoint e =
        WarehouseEndpoint.configured(
                ConfLayer.of(
                    Map.of(
                        "spark.weaver.item.Reporting.jdbcUrl", URL,
                        "spark.weaver.item.Reporting.authentication",
                            "ActiveDirectoryServicePrincipal",
                        "spark.weaver.item.Reporting.user", "client-id",
                        "spark.weaver.item.Reporting.passwordEnv", "REPORTING_SECRET",
                        "spark.weaver.item.Reporting.warehouseDml", "MERGE",
                        "spark.weaver.item.Other.jdbcUrl", "jdbc:sqlserver://other")),
                "Reporting")
            .orElseThrow();
    assertEquals(URL, e.jdbcUrl());
    assertEquals(Optional.of("ActiveDirectoryServicePrincipal"), e.authentication());
    assertEquals(Optional.of("client-id"), e.user());
    assertEquals(Optional.of("REPORTING_SECRET"), e.passwordEnv());
    assertEquals(DmlForm.MERGE, e.form());
  }

  @Test
  void aCredentialInASettingOrTheUrlIsRefused() {
    IllegalArgumentException inSetting =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                WarehouseEndpoint.configured(
                    ConfLayer.of(
                        Map.of(
                            "spark.weaver.item.Reporting.jdbcUrl",
                            URL,
                            "spark.weaver.item.Reporting.password",
                            "hunter2")),
                    "Reporting"));
    assertTrue(inSetting.getMessage().contains("spark.weaver.item.Reporting.passwordEnv"));
    IllegalArgumentException inUrl =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                WarehouseEndpoint.configured(
                    ConfLayer.of(
                        Map.of("spark.weaver.item.Reporting.jdbcUrl", URL + ";password=hunter2")),
                    "Reporting"));
    assertTrue(inUrl.getMessage().contains("holds a credential"), inUrl.getMessage());
  }

  @Test
  void aBadDmlFormOrUrlNamesTheSetting() {
    IllegalArgumentException dml =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                WarehouseEndpoint.configured(
                    ConfLayer.of(
                        Map.of(
                            "spark.weaver.item.R.jdbcUrl",
                            URL,
                            "spark.weaver.item.R.warehouseDml",
                            "upsert")),
                    "R"));
    assertEquals(
        "spark.weaver.item.R.warehouseDml is 'upsert'; use 'update-insert' (the default) or 'merge'",
        dml.getMessage());
    IllegalArgumentException url =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                WarehouseEndpoint.configured(
                    ConfLayer.of(Map.of("spark.weaver.item.R.jdbcUrl", "jdbc:postgresql://x")),
                    "R"));
    assertTrue(url.getMessage().startsWith("spark.weaver.item.R.jdbcUrl must be"));
  }

  @Test
  void withoutTheDriverTheErrorSaysWhatToAdd() {
    WarehouseEndpoint e =
        WarehouseEndpoint.configured(ConfLayer.of(Map.of("spark.weaver.item.R.jdbcUrl", URL)), "R")
            .orElseThrow();
    SQLException missing = assertThrows(SQLException.class, () -> e.connect(Map.of()));
    assertTrue(
        missing.getMessage().contains(WarehouseEndpoint.DRIVER_ARTIFACT), missing.getMessage());
  }

  @Test
  void weaverYamlHoldsTheSameSettingsAndNoSecrets() {
    ConfLayer yaml =
        WeaverYaml.parse(
            "item.Reporting.jdbcUrl: " + URL + "\nspark.weaver.item.Reporting.user: app\n",
            "weaver.yaml");
    assertEquals(Optional.of(URL), yaml.get("spark.weaver.item.Reporting.jdbcUrl"));
    assertEquals(Optional.of("app"), yaml.get("spark.weaver.item.Reporting.user"));
    IllegalArgumentException secret =
        assertThrows(
            IllegalArgumentException.class,
            () -> WeaverYaml.parse("a: 1\nitem.Reporting.password: x\n", "weaver.yaml"));
    assertTrue(secret.getMessage().startsWith("weaver.yaml:2: setting"), secret.getMessage());
    IllegalArgumentException list =
        assertThrows(
            IllegalArgumentException.class, () -> WeaverYaml.parse("- a\n- b\n", "weaver.yaml"));
    assertTrue(list.getMessage().contains("mapping"), list.getMessage());
  }
}
