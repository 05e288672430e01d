package io.weaver.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What the CLI's progress prints, from the job descriptions Weaver sets. */
class ProgressTest {
  @Test
  void theStepIsWhatAWeaverJobDescriptionNamesAfterTheTable() {
    assertEquals("diff", Progress.stepOf("Weaver load Logistics.Parcel.Event: diff"));
    assertEquals("", Progress.stepOf("Weaver load Logistics.Parcel.Event"));
    assertEquals("", Progress.stepOf("a notebook cell: count"));
    assertEquals("", Progress.stepOf(null));
  }

  @Test
  void theStatusLineShowsTheTableTheStepAndTheStagesTasks() {
    assertEquals(
        "weaver: load 2/5 L.P.E: diff  stage 7 [============            ] 100/200",
        Progress.status("load 2/5 L.P.E", "diff", 7, 100, 200));
    assertEquals("weaver: load 2/5 L.P.E", Progress.status("load 2/5 L.P.E", "", -1, 0, 0));
    assertEquals(
        "weaver: build 1/1 L.P.E: x  stage 3 [========================] 9/9",
        Progress.status("build 1/1 L.P.E", "x", 3, 9, 9));
  }
}
