package io.weaver.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/weaver load} loads the example's Python Tables through a Python worker attached to its
 * JVM (python3 with pyspark, as CI installs), and their dependants after them; without a usable
 * Python the Python Tables fail with a message that says how to get one.
 */
class PythonTablesCliTest {
  @TempDir Path lakehouse;

  @Test
  void loadRunsThePythonTablesOfTheExampleAndTheirDependants() throws Exception {
    BinWeaverCheckTest.Result built =
        BinWeaverCheckTest.weaver(
            "build", "--workspace", "examples/logistics", "--lakehouse", lakehouse.toString());
    assertEquals(0, built.exit(), built.out() + built.err());

    BinWeaverCheckTest.Result loaded =
        BinWeaverCheckTest.weaver(
            "load", "--workspace", "examples/logistics", "--lakehouse", lakehouse.toString());
    String out = loaded.out();
    assertEquals(0, loaded.exit(), out + loaded.err());
    assertTrue(out.matches("(?s).*succeeded\\s+Logistics\\.Parcel\\.Current\\s+\\+500 .*"), out);
    assertTrue(out.matches("(?s).*succeeded\\s+Sales\\.Order\\.Shipment\\s+\\+300 .*"), out);
    // dependants of the Python Table load after it
    assertTrue(
        out.matches("(?s).*succeeded\\s+Logistics\\.Parcel\\.StatusCount\\s+\\+\\d+ .*"), out);
    assertTrue(out.matches("(?s).*succeeded\\s+Logistics\\.Parcel\\.Event\\s+\\+\\d+ .*"), out);
    assertTrue(loaded.err().contains("weaver: starting the Python worker"), loaded.err());

    BinWeaverCheckTest.Result noPython =
        BinWeaverCheckTest.weaver(
            Map.of("WEAVER_PYTHON", lakehouse.resolve("no-such-python").toString()),
            "load",
            "--workspace",
            "examples/logistics",
            "--lakehouse",
            lakehouse.toString(),
            "--table",
            "Logistics.Parcel.Current");
    assertEquals(1, noPython.exit(), noPython.out() + noPython.err());
    assertTrue(
        noPython.out().matches("(?s).*failed\\s+Logistics\\.Parcel\\.Current .*"), noPython.out());
    assertTrue(noPython.out().contains("pip install pyspark=="), noPython.out());
    assertTrue(noPython.out().contains("WEAVER_PYTHON"), noPython.out());
  }
}
