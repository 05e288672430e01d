package io.weaver.reliability;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.weaver.metadata.HeaderExtractor;
import io.weaver.metadata.SafeYaml;
import io.weaver.metadata.sql.SqlBodyAnalysis;
import io.weaver.metadata.sql.SqlBodyAnalyzer;
import io.weaver.metadata.sql.SqlDialect;
import io.weaver.metadata.sql.SqlSyntaxException;
import io.weaver.metadata.sql.SqlToken;
import io.weaver.metadata.sql.SqlTokenizer;
import io.weaver.metadata.sql.StaticColumns;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Generated inputs for the statement tokenizer, the body analyzer, the header extractor and the
 * YAML reader (docs/reliability.md, "Fuzzing"): every input is either parsed or reported with the
 * documented result (a {@link SqlSyntaxException}, a {@code HeaderError}), never another exception,
 * and each input finishes within a time bound. Seeded: {@code -Dweaver.fuzz.seed=S}, {@code
 * -Dweaver.fuzz.inputs=N} (default 3000 per parser) for a longer run; a failure prints the seed and
 * the input.
 */
class ParserFuzzTest {
  private static final int INPUTS = Integer.getInteger("weaver.fuzz.inputs", 3000);
  private static final long SEED = Long.getLong("weaver.fuzz.seed", 7L);

  /**
   * Per input, in the test thread's CPU time (a hang or quadratic blow-up is far above). CPU time,
   * not wall time, and one repeat before failing: on a shared two-core CI machine a collector pause
   * or another fork's Spark job can stall one input for seconds of wall time (seen once: 2.1 s for
   * an 80-character input), while a genuine blow-up is slow on every attempt.
   */
  private static final long PER_INPUT_MS = 2000;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** Fragments that open and close the lexer's states, plus noise. */
  private static final String[] SQL_PIECES = {
    "select",
    " ",
    "\n",
    "\r\n",
    "\t",
    "from",
    "t",
    "a",
    ",",
    ";",
    "(",
    ")",
    "'",
    "\"",
    "`",
    "``",
    "\\",
    "\\'",
    "--",
    "/*",
    "*/",
    "/*/",
    "[",
    "]",
    "]]",
    "N'",
    "r'",
    "R\"",
    "X'",
    "@",
    "@@",
    "#",
    "##",
    "''",
    "\"\"",
    "1",
    "1.5e10",
    ".",
    "*",
    "=",
    "<>",
    "!=",
    "::",
    "with",
    "as",
    "exec",
    "sp_executesql",
    "values",
    "case",
    "end",
    "go",
    "\u00e9",
    "\u4e2d",
    "\ud83d\ude00",
    "\ud800",
    "\u0000",
    "\u202e",
    "\ufeff",
    "$",
    "{",
    "}",
    "?",
    ":"
  };

  private static final String[] HEADER_PIECES = {
    "/*",
    "*/",
    "\"\"\"",
    "'''",
    "r\"\"\"",
    "u'''",
    "#",
    "# coding: utf-8\n",
    "\n",
    " ",
    "\t",
    "Table ID: A.B",
    "Primary key: id",
    ": ",
    "- ",
    "&a",
    "*a",
    "!!python/object:x",
    "!foo",
    "{",
    "}",
    "[",
    "]",
    "'",
    "\"",
    "\\",
    "\u00e9",
    "\ufeff",
    "\u0000",
    "x",
    "from __future__",
    "import os\n",
    "\"",
    "'"
  };

  @Test
  void tokenizerAndAnalyzerParseOrReportEveryInput() {
    Random random = new Random(SEED);
    assertTimeoutPreemptively(
        Duration.ofSeconds(Math.max(120, INPUTS / 20)),
        () -> {
          for (int n = 0; n < INPUTS; n++) {
            String input = generate(random, SQL_PIECES, 60);
            for (SqlDialect dialect : SqlDialect.values()) {
              int number = n;
              String text = input;
              assertQuick(
                  dialect + " tokenizer and analyzer",
                  n,
                  input,
                  () -> tokenizeAndAnalyze(text, dialect, number));
            }
          }
        });
  }

  @Test
  void longRunsOfOneConstructStayLinear() {
    for (String piece : List.of("/*", "(", "'", "`", "--", "[", "''", "a ", ";")) {
      String input = "select " + piece.repeat(50_000);
      for (SqlDialect dialect : SqlDialect.values()) {
        long ms =
            cpuMillis(
                () -> {
                  try {
                    SqlTokenizer.tokenize(input, dialect, 1, 1);
                  } catch (SqlSyntaxException e) {
                    // reported: fine
                  }
                  SqlBodyAnalyzer.analyze(input, dialect, 1, 1);
                });
        assertTrue(
            ms < 5 * PER_INPUT_MS, dialect + " '" + piece + "' x 50000 took " + ms + " ms of CPU");
      }
    }
  }

  @Test
  void headerExtractorAndYamlReaderParseOrReportEveryInput() {
    Random random = new Random(SEED + 1);
    assertTimeoutPreemptively(
        Duration.ofSeconds(Math.max(120, INPUTS / 20)),
        () -> {
          for (int n = 0; n < INPUTS; n++) {
            String input = generate(random, HEADER_PIECES, 40);
            int number = n;
            String text = input;
            assertQuick("header and YAML", n, input, () -> extractAndRead(text, number));
          }
        });
  }

  private static void tokenizeAndAnalyze(String input, SqlDialect dialect, int n) {
    try {
      checkTokens(input, SqlTokenizer.tokenize(input, dialect, 1, 1));
    } catch (SqlSyntaxException e) {
      assertTrue(e.line() >= 1 && e.column() >= 1, e.getMessage());
    } catch (RuntimeException | StackOverflowError e) {
      fail(report(dialect + " tokenizer threw " + e, n, input), e);
    }
    try {
      SqlBodyAnalysis analysis = SqlBodyAnalyzer.analyze(input, dialect, 3, 1);
      assertNotNull(analysis.statements());
      analysis.resultQueries().forEach(q -> StaticColumns.of(q, dialect));
    } catch (RuntimeException | StackOverflowError e) {
      fail(report(dialect + " analyzer threw " + e, n, input), e);
    }
  }

  private static void extractAndRead(String input, int n) {
    for (boolean python : new boolean[] {true, false}) {
      HeaderExtractor.Result r;
      try {
        r = python ? HeaderExtractor.python(input) : HeaderExtractor.sqlBlock(input);
      } catch (RuntimeException | StackOverflowError e) {
        fail(report("header extractor threw " + e, n, input), e);
        return;
      }
      assertTrue(
          (r.header() == null) != (r.error() == null),
          report("exactly one of header and error", n, input));
      if (r.error() != null) {
        assertTrue(!r.error().message().isBlank(), report("blank message", n, input));
        continue;
      }
      assertTrue(input.contains(r.header().yaml()), report("header text is the file's", n, input));
      assertTrue(
          r.header().bodyOffset() >= 0 && r.header().bodyOffset() <= input.length(),
          report("body offset inside the file", n, input));
      SafeYaml.Result y;
      try {
        y = SafeYaml.parse(r.header().yaml(), 1, 1);
      } catch (RuntimeException | StackOverflowError e) {
        fail(report("SafeYaml threw " + e, n, input), e);
        return;
      }
      assertTrue(
          (y.node() == null) != (y.error() == null),
          report("exactly one of node and error", n, input));
    }
  }

  /**
   * Runs {@code work} and fails when it took {@code PER_INPUT_MS} of this thread's CPU time on two
   * attempts in a row (see {@link #PER_INPUT_MS}).
   */
  private static void assertQuick(String what, int n, String input, Runnable work) {
    long first = cpuMillis(work);
    if (first < PER_INPUT_MS) {
      return;
    }
    long second = cpuMillis(work);
    assertTrue(
        second < PER_INPUT_MS,
        report(what + " took " + first + " and " + second + " ms of CPU", n, input));
  }

  private static long cpuMillis(Runnable work) {
    long start = THREADS.getCurrentThreadCpuTime();
    work.run();
    return (THREADS.getCurrentThreadCpuTime() - start) / 1_000_000;
  }

  /** Tokens are the input's own text, in order, at increasing positions. */
  private static void checkTokens(String input, List<SqlToken> tokens) {
    int cursor = 0;
    int line = 0;
    int column = 0;
    for (SqlToken t : tokens) {
      int at = input.indexOf(t.text(), cursor);
      assertTrue(at >= 0 && !t.text().isEmpty(), "token " + t + " is not the input's text");
      cursor = at + t.text().length();
      assertTrue(
          t.line() > line || (t.line() == line && t.column() > column),
          "token " + t + " does not follow line " + line + " column " + column);
      line = t.line();
      column = t.column();
    }
  }

  private static String generate(Random random, String[] pieces, int maxPieces) {
    StringBuilder b = new StringBuilder();
    int count = random.nextInt(maxPieces + 1);
    for (int i = 0; i < count; i++) {
      if (random.nextInt(10) == 0) {
        b.append((char) random.nextInt(0x3000));
      } else {
        b.append(pieces[random.nextInt(pieces.length)]);
      }
    }
    return b.toString();
  }

  private static String report(String what, int n, String input) {
    return what
        + " (seed "
        + SEED
        + ", input "
        + n
        + "): "
        + input.replace("\n", "\\n").replace("\r", "\\r");
  }
}
