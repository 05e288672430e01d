package io.weaver.metadata;

import io.weaver.findings.Severity;
import io.weaver.workspace.SourceFile;

/**
 * An authored test, {@code Lakehouse/<Item>/Tests/<Name>.sql}: one query whose rows are the
 * violations.
 */
public record DataTestDeclaration(
    SourceFile source, String testId, String description, Severity severity, TableBody.Sql body) {

  public String item() {
    return source.item();
  }
}
