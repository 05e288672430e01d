package io.weaver.check;

import io.weaver.findings.Finding;
import io.weaver.findings.FindingSink;
import io.weaver.findings.Severity;
import io.weaver.metadata.DataTestDeclaration;
import io.weaver.metadata.DeclarationFile;
import io.weaver.metadata.TableBody;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.metadata.sql.StaticColumn;
import io.weaver.workspace.WorkspaceScanner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Check: validates every declaration of a workspace statically (no Spark job, no data) and reports
 * every finding in one run.
 */
public final class Check {
  private Check() {}

  /** The findings and the declaration model they are about. */
  public record Result(CheckReport report, WorkspaceModel model) {

    /** The model, only when Check found no errors. */
    public WorkspaceModel validModel() {
      if (report.hasErrors()) {
        long errors =
            report.findings().stream().filter(f -> f.severity() == Severity.ERROR).count();
        throw new WeaverCheckException(
            "Check found "
                + errors
                + " error(s) in workspace "
                + model.root()
                + "; fix them first (run 'bin/weaver check')",
            report);
      }
      return model;
    }
  }

  /** Checks the workspace rooted at {@code workspace} and returns every finding. */
  public static CheckReport run(Path workspace) {
    return analyze(workspace).report();
  }

  /** Checks a workspace and returns the findings with the declaration model. */
  public static Result analyze(Path workspace) {
    Path root = workspace.toAbsolutePath().normalize();
    WorkspaceScanner.Scan scan = WorkspaceScanner.scan(root);
    List<Finding> findings = new ArrayList<>(scan.findings());
    List<TableDeclaration> tables = new ArrayList<>();
    List<DataTestDeclaration> tests = new ArrayList<>();
    Map<String, Optional<List<String>>> knownColumns = new HashMap<>();
    for (var source : scan.files()) {
      DeclarationFile.Parsed parsed = DeclarationFile.read(source);
      findings.addAll(parsed.findings());
      FindingSink sink = new FindingSink(source.relativePath());
      parsed
          .test()
          .ifPresent(
              test -> {
                BodyRules.testQuery(test.body(), sink);
                tests.add(test);
              });
      parsed
          .table()
          .ifPresent(
              table -> {
                Optional<List<StaticColumn>> resultColumns = Optional.empty();
                if (table.body() instanceof TableBody.Sql sql) {
                  resultColumns = BodyRules.sql(table, sql, sink);
                } else {
                  BodyRules.python(table, parsed.text(), sink);
                }
                TableRules.check(table, sink, resultColumns);
                Optional<List<String>> visible =
                    resultColumns.map(cols -> cols.stream().map(StaticColumn::name).toList());
                Optional<List<String>> business = table.schemaColumnNames().or(() -> visible);
                ExpectationRules.check(table, sink, business);
                knownColumns.put(table.qualifiedName(), business);
                tables.add(table);
              });
      findings.addAll(sink.findings());
    }
    WorkspaceModel model = new WorkspaceModel(root, tables, tests);
    Map<String, List<Finding>> crossFile = new LinkedHashMap<>();
    WorkspaceRules.check(model, knownColumns, crossFile);
    crossFile.values().forEach(findings::addAll);
    return new Result(new CheckReport(findings), model);
  }
}
