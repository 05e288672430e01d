package io.weaver.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How a load's {@code sample_keys} are read back: one bad sample never costs the counts. */
class RecordedExpectationsTest {

  @Test
  void aListOfKeyTexts() {
    assertEquals(
        List.of("{\"id\":1}", "{\"id\":2}"),
        RecordedExpectations.samples("e", "[\"{\\\"id\\\":1}\",\"{\\\"id\\\":2}\"]"));
    assertEquals(List.of(), RecordedExpectations.samples("e", "[]"));
    assertEquals(List.of(), RecordedExpectations.samples("e", null));
  }

  @Test
  void aListCutShortKeepsTheKeysBeforeTheCut() {
    assertEquals(
        List.of("{\"id\":1}"),
        RecordedExpectations.samples("e", "[\"{\\\"id\\\":1}\",\"{\\\"id\\\":"));
    assertEquals(List.of(), RecordedExpectations.samples("e", "not json"));
    assertEquals(List.of(), RecordedExpectations.samples("e", "{\"id\":1}"));
  }
}
