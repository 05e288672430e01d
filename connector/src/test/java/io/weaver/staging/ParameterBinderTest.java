package io.weaver.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParameterBinderTest {
  private static final Map<String, Instant> PARAMS =
      Map.of(
          "load_timestamp", Instant.parse("2026-01-02T03:04:05.000006Z"),
          "last_load_timestamp", Instant.parse("1900-01-01T00:00:00Z"));

  @Test
  void markersBecomeExactInstants() {
    assertEquals(
        "select * from t where a > timestamp_micros(-2208988800000000L)\n and b <= timestamp_micros(1767323045000006L)",
        ParameterBinder.bind(
            "select * from t where a > :last_load_timestamp\n and b <= :load_timestamp", PARAMS));
  }

  @Test
  void markersInStringsCommentsAndCastsAreLeftAlone() {
    String sql =
        "select ':load_timestamp', a::string -- :load_timestamp\n from t /* :last_load_timestamp */";
    assertEquals(sql, ParameterBinder.bind(sql, PARAMS));
  }

  @Test
  void unknownMarkersStay() {
    assertEquals("select :other", ParameterBinder.bind("select :other", PARAMS));
  }
}
