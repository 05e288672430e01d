package io.weaver.cli;

import io.weaver.json.Json;
import java.io.PrintStream;

/**
 * {@code bin/weaver <command> [options]}: the command-line entry point (docs/table-contract.md,
 * "Command line"). The same main class runs under {@code spark-submit}. Exit codes: 0 success, 1
 * errors found or work failed, 2 usage error.
 */
public final class WeaverCli {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;

  static final String USAGE_TEXT =
      """
      usage: weaver <command> [options]

      commands:
        check      validate every declaration (no Spark job); prints findings
        build      create and update the tables and the catalogue (--item, --table, --allow-destructive)
        load       load tables (--item, --table, --waive-stability-gates, --threads N)
        run        the whole job: check, build, then load (what the README runs; --threads N)
        plan       what run would do, nothing written (--item, --table, --allow-destructive,
                   --waive-stability-gates); exit 1 when a Table would be refused or fail
        test       run generated and authored tests
        history    recent loads (--table, --limit, default 20)
        describe   one Table's declaration and built shape (--table Item.Schema.Object)
        sql        run Spark SQL statements: weaver sql "<statements>"
        docs       a static documentation site (--out DIR, default <workspace>/.weaver/site; --item)
        tsql       the T-SQL build would install for Warehouse Tables, without connecting
                   (--item, --table, --out DIR: one file per batch)

      options:
        --workspace DIR       the workspace folder (default: .)
        --lakehouse DIR       the lakehouse root (default: <workspace>/.weaver/lakehouse)
        --format text|json    output format (default: text); json prints one document on stdout
        --master URL          Spark master (default: local[*])
        --threads N           how many Tables load at once, 1 to 64 (load, run; default: twice
                              Spark's cores, 2 to 16; 1 loads them one after another)
        --spark 4.0|4.1|4.2   the Spark line, with its artifact (bin/weaver; default 4.1; built on
                              first use; or WEAVER_SPARK)
        --quiet               only errors on stderr: no progress (Tables done, steps, stage bar),
                              no log warnings
        -h, --help            this help
      """;

  private WeaverCli() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs a command line; returns the exit code. {@code out} and {@code err} count as a terminal
   * when they are this process's own streams and it has one.
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, out, err, Terminal.of(out, err));
  }

  /** Runs a command line whose streams are, or are not, a terminal as {@code terminal} says. */
  static int run(String[] args, PrintStream out, PrintStream err, Terminal terminal) {
    if (args.length > 0 && (args[0].equals("--help") || args[0].equals("-h"))) {
      out.print(USAGE_TEXT);
      return OK;
    }
    // A failure prints one JSON document on stdout when the command line asks for JSON, even one
    // that does not parse; stderr says the same in words, as in text mode.
    boolean json = CliArgs.asksForJson(args);
    CliArgs parsed;
    try {
      parsed = CliArgs.parse(args, terminal);
    } catch (UsageException e) {
      return usage(out, err, json, e);
    }
    if (parsed.command.equals("help") || parsed.help()) {
      out.print(USAGE_TEXT);
      return OK;
    }
    try {
      return switch (parsed.command) {
        case "check" -> {
          parsed.allowOnly();
          yield CheckCommand.run(parsed, out);
        }
        case "build" -> {
          parsed.allowOnly("--item", "--table", "--allow-destructive");
          yield BuildCommand.run(parsed, out, err);
        }
        case "load" -> {
          parsed.allowOnly("--item", "--table", "--waive-stability-gates", "--threads");
          yield LoadCommand.run(parsed, out, err);
        }
        case "run" -> {
          parsed.allowOnly(
              "--item", "--table", "--allow-destructive", "--waive-stability-gates", "--threads");
          yield RunCommand.run(parsed, out, err);
        }
        case "plan" -> {
          parsed.allowOnly("--item", "--table", "--allow-destructive", "--waive-stability-gates");
          yield PlanCommand.run(parsed, out, err);
        }
        case "history" -> {
          parsed.allowOnly("--table", "--limit");
          yield InspectCommands.history(parsed, out, err);
        }
        case "describe" -> {
          parsed.allowOnly("--table");
          yield InspectCommands.describe(parsed, out, err);
        }
        case "sql" -> {
          parsed.allowOnly();
          yield InspectCommands.sql(parsed, out, err);
        }
        case "docs" -> {
          parsed.allowOnly("--out", "--item");
          yield DocsCommand.run(parsed, out, err);
        }
        case "tsql" -> {
          parsed.allowOnly("--item", "--table", "--out");
          yield TsqlCommand.run(parsed, out, err);
        }
        case "test" -> {
          parsed.allowOnly("--item", "--table");
          yield TestCommand.run(parsed, out, err);
        }
        default ->
            usage(out, err, json, new UsageException("unknown command '" + parsed.command + "'"));
      };
    } catch (UsageException e) {
      return usage(out, err, json, e);
    } catch (RuntimeException e) {
      if (json) {
        out.println(Json.write(FailureDocument.of(e)));
      }
      err.println("weaver: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
      return FAILED;
    }
  }

  private static int usage(PrintStream out, PrintStream err, boolean json, UsageException e) {
    if (json) {
      out.println(Json.write(FailureDocument.of(e)));
    }
    err.println("weaver: " + e.getMessage());
    err.println();
    err.print(USAGE_TEXT);
    return USAGE;
  }
}
