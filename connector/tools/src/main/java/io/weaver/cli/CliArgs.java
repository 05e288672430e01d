package io.weaver.cli;

import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.WeaverErrorClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The parsed command line: a command, its options and positional arguments. */
final class CliArgs {
  /** Options that take a value. */
  static final Set<String> VALUED =
      Set.of(
          "--workspace",
          "--lakehouse",
          "--format",
          "--master",
          "--item",
          "--table",
          "--limit",
          "--out",
          "--threads");

  /** Options that are switches. */
  static final Set<String> SWITCHES =
      Set.of("--allow-destructive", "--waive-stability-gates", "--quiet", "--help", "-h");

  final String command;
  private final Map<String, String> values = new HashMap<>();
  private final List<String> switches = new ArrayList<>();
  final List<String> positional = new ArrayList<>();

  /** Which of the call's output streams are a terminal. */
  private final Terminal terminal;

  private CliArgs(String command, Terminal terminal) {
    this.command = command;
    this.terminal = terminal;
  }

  static CliArgs parse(String[] args, Terminal terminal) {
    if (args.length == 0) {
      throw new UsageException("no command given");
    }
    CliArgs parsed = new CliArgs(args[0], terminal);
    for (int i = 1; i < args.length; i++) {
      String arg = args[i];
      String name = arg;
      String value = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      }
      if (VALUED.contains(name)) {
        if (value == null) {
          if (i + 1 >= args.length) {
            throw new UsageException("option " + name + " needs a value");
          }
          value = args[++i];
        }
        parsed.values.put(name, value);
      } else if (SWITCHES.contains(name) && value == null) {
        parsed.switches.add(name);
      } else if (arg.startsWith("-")) {
        throw new UsageException("unknown option '" + arg + "'");
      } else {
        parsed.positional.add(arg);
      }
    }
    return parsed;
  }

  Optional<String> value(String option) {
    return Optional.ofNullable(values.get(option));
  }

  boolean has(String option) {
    return switches.contains(option);
  }

  Terminal terminal() {
    return terminal;
  }

  boolean help() {
    return has("--help") || has("-h");
  }

  /** Options every command accepts. */
  static final Set<String> COMMON =
      Set.of("--workspace", "--format", "--lakehouse", "--master", "--quiet");

  /** Refuses options given that this command does not accept: {@link #COMMON} and {@code more}. */
  void allowOnly(String... more) {
    Set<String> accepted = new HashSet<>(COMMON);
    accepted.addAll(List.of(more));
    for (String option : values.keySet()) {
      if (!accepted.contains(option)) {
        throw new UsageException("option " + option + " does not apply to '" + command + "'");
      }
    }
    for (String option : switches) {
      if (!accepted.contains(option) && !option.equals("--help") && !option.equals("-h")) {
        throw new UsageException("option " + option + " does not apply to '" + command + "'");
      }
    }
  }

  /**
   * Whether {@code args} ask for {@code --format json}, read without parsing them: a command line
   * that does not parse still reports its failure in the format it asked for.
   */
  static boolean asksForJson(String[] args) {
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--format=json")
          || (args[i].equals("--format") && i + 1 < args.length && args[i + 1].equals("json"))) {
        return true;
      }
    }
    return false;
  }

  /** The output format: text (default) or json. */
  boolean json() {
    String format = value("--format").orElse("text");
    if (!format.equals("text") && !format.equals("json")) {
      throw new UsageException("--format must be text or json, not '" + format + "'");
    }
    return format.equals("json");
  }

  /** The workspace directory (default: the current directory); it must exist. */
  Path workspace() {
    Path path = Path.of(value("--workspace").orElse(".")).toAbsolutePath().normalize();
    if (!Files.isDirectory(path)) {
      throw new UsageException(
          "workspace " + path + " is not a directory (give --workspace DIR)",
          WeaverErrorClass.WEAVER_WORKSPACE_NOT_FOUND,
          ErrorFacts.of(ErrorParameter.WORKSPACE, path));
    }
    return path;
  }
}
