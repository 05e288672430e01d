package io.weaver.metadata;

import io.weaver.check.Severity;
import io.weaver.workspace.SourceFile;

/**
 * An authored test, {@code Lakehouse/<Item>/Tests/<Name>.sql}: one query whose rows are the
 * violations.
 */
public record TestDeclaration(
    SourceFile source, String testId, String description, Severity severity, TableBody.Sql body) {

  public String item() {
    return source.item();
  }
}
