package io.weaver.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code publish: together} with a reader in another process (docs/table-contract.md, "Item
 * publish"): a notebook-like PySpark session with only the README's settings queries the join of
 * two Tables of item Shop by name in a loop while {@code bin/weaver} loads the item — a load that
 * publishes, one whose second Table a stability gate refuses, one killed between the two Tables'
 * commits and its rerun. Every answer the reader got must be the join as one publish pinned it.
 *
 * <p>Long mode ({@code -Plong}; 4-8 minutes): CI runs the same guarantee with a reader thread in
 * {@code ItemPublishTest} and the statements in a notebook-like session in {@code
 * WeaverStatementsTest} (docs/reliability.md, "Long mode").
 */
@Tag("long")
class ItemPublishReadersTest {
  private static Path resource(String name) {
    return BinWeaverCheckTest.projectRoot()
        .resolve("integration-tests/src/test/resources/item-publish")
        .resolve(name);
  }

  @Test
  void aReaderInAnotherProcessSeesAllOfALoadOrNone() throws Exception {
    Path dir = Files.createTempDirectory("weaver-item-publish");
    Path workspace = dir.resolve("workspace");
    SessionContractTest.copyTree(resource("workspace"), workspace);
    Path lakehouse = dir.resolve("lakehouse");
    SessionContractTest.Copy copy =
        new SessionContractTest.Copy(dir, workspace, lakehouse, null, 0);
    Path orders = lakehouse.resolve("Shop/Files/landing/orders/orders.csv");

    BundleSubmit submit = BundleSubmit.prepare(dir);
    Map<String, String> confs = new LinkedHashMap<>();
    confs.put("spark.master", "local[2]");
    confs.put("spark.jars", SessionContractTest.jars(submit));
    confs.putAll(SessionContractTest.readmeSettings(copy, BundleSubmit.EXTENSIONS));
    confs.putAll(SessionContractTest.small(copy));
    Path answers = dir.resolve("answers.txt");
    Path stop = dir.resolve("stop");
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("confs", confs);
    args.put("answers", answers.toString());
    args.put("stop", stop.toString());
    args.put("tables", lakehouse.resolve("Shop/Tables").toString());
    Path argsFile = dir.resolve("reader.json");
    Files.writeString(argsFile, SessionContractTest.json(args), StandardCharsets.UTF_8);
    ProcessBuilder builder =
        new ProcessBuilder(
                submit.python, resource("publish_reader.py").toString(), argsFile.toString())
            .directory(dir.toFile())
            .redirectOutput(dir.resolve("reader.out").toFile())
            .redirectError(dir.resolve("reader.err").toFile());
    SessionContractTest.environment(builder, submit);
    // The reader starts beside the first run (its session's start overlaps the run's) and
    // answers once the item is built, loaded and published.
    Process reader = builder.start();
    try {
      BinWeaverCheckTest.Result first = copy.weaver(Map.of(), "run");
      assertEquals(0, first.exit(), first.out() + first.err());
      waitForFirstAnswer(reader, answers, dir);

      // A load that publishes: amounts 2.
      Files.writeString(orders, "id,amount\n1,2\n2,2\n3,2\n4,2\n");
      BinWeaverCheckTest.Result second = copy.weaver(Map.of(), "load", "--item", "Shop");
      assertEquals(0, second.exit(), second.out() + second.err());

      // Sales.OrderTotal refused (3 of 4 orders would go): Sales.Orders committed, not published.
      Files.writeString(orders, "id,amount\n1,3\n");
      BinWeaverCheckTest.Result refused = copy.weaver(Map.of(), "load", "--item", "Shop");
      assertTrue(refused.out().contains("refused"), refused.out() + refused.err());

      // Killed between the two Tables' commits: as soon as Sales.Orders commits.
      Files.writeString(orders, "id,amount\n1,4\n2,4\n3,4\n4,4\n");
      killAfterFirstCommit(copy, lakehouse.resolve("Shop/Tables/Sales/Orders/_delta_log"));
      BinWeaverCheckTest.Result rerun = copy.weaver(Map.of(), "load", "--item", "Shop");
      assertEquals(0, rerun.exit(), rerun.out() + rerun.err());
    } finally {
      Files.writeString(stop, "");
      if (!reader.waitFor(5, TimeUnit.MINUTES)) {
        reader.destroyForcibly();
        fail("the reader did not stop: " + dir);
      }
    }
    String out = Files.readString(dir.resolve("reader.out"));
    Matcher result = Pattern.compile("\\{\"reads\".*}").matcher(out);
    assertTrue(result.find(), out + Files.readString(dir.resolve("reader.err")));
    String json = result.group();
    List<String> published = strings(json, "published");
    List<String> seen = strings(json, "answers");
    assertEquals(
        List.of(
            "0 rows, amount None, total None",
            "4 rows, amount 4, total 40",
            "4 rows, amount 8, total 80",
            "4 rows, amount 16, total 160"),
        published,
        "the first publish (before the first load commits) and three loads': " + json);
    assertTrue(seen.size() >= 2, "the reader saw the publishes change: " + json);
    for (String answer : seen) {
      assertTrue(published.contains(answer), "a reader saw a mix: " + answer + " in " + json);
    }
  }

  private static void waitForFirstAnswer(Process reader, Path answers, Path dir) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
    while (!Files.exists(answers) || Files.readString(answers).isBlank()) {
      if (!reader.isAlive() || System.nanoTime() > deadline) {
        fail(
            "the reader gave no answer: "
                + Files.readString(dir.resolve("reader.out"))
                + Files.readString(dir.resolve("reader.err")));
      }
      Thread.sleep(200);
    }
  }

  /** Starts a load of Shop and kills its process tree once Sales.Orders' log has a new commit. */
  private static void killAfterFirstCommit(SessionContractTest.Copy copy, Path orderLog)
      throws Exception {
    long before = commits(orderLog);
    List<String> command = new ArrayList<>();
    command.add(BinWeaverCheckTest.projectRoot().resolve("bin/weaver").toString());
    command.addAll(
        List.of(
            "load",
            "--workspace",
            copy.workspace().toString(),
            "--lakehouse",
            copy.lakehouse().toString(),
            "--item",
            "Shop"));
    Process load =
        new ProcessBuilder(command)
            .directory(BinWeaverCheckTest.projectRoot().toFile())
            .redirectErrorStream(true)
            .redirectOutput(copy.dir().resolve("killed-load.out").toFile())
            .start();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (commits(orderLog) == before) {
      if (!load.isAlive() || System.nanoTime() > deadline) {
        fail(
            "the load ended before Sales.Orders committed: "
                + Files.readString(copy.dir().resolve("killed-load.out")));
      }
      Thread.sleep(20);
    }
    load.descendants().forEach(ProcessHandle::destroyForcibly);
    load.destroyForcibly();
    load.waitFor(1, TimeUnit.MINUTES);
  }

  private static long commits(Path log) throws Exception {
    try (Stream<Path> files = Files.list(log)) {
      return files.filter(p -> p.getFileName().toString().matches("\\d{20}\\.json")).count();
    }
  }

  /** The strings of one array of the reader's JSON line. */
  private static List<String> strings(String json, String key) {
    Matcher array = Pattern.compile("\"" + key + "\": \\[([^\\]]*)]").matcher(json);
    assertTrue(array.find(), json);
    List<String> out = new ArrayList<>();
    Matcher item = Pattern.compile("\"([^\"]*)\"").matcher(array.group(1));
    while (item.find()) {
      out.add(item.group(1));
    }
    return out;
  }
}
