package io.weaver.metadata;

import io.weaver.findings.SourcePos;
import io.weaver.workspace.Identity;
import java.util.List;

/**
 * A logical foreign key: child columns of this Table reference parent columns of another object.
 *
 * @param childColumns the columns of this Table, in order
 * @param parentText the target as authored ({@code Schema.Object}, {@code Files/…}, {@code
 *     Item.Schema.Object})
 * @param parent the parsed target
 * @param parentColumns the parent's columns, in order, as many as the child columns
 */
public record ForeignKey(
    ColumnSet childColumns,
    String parentText,
    Identity parent,
    List<String> parentColumns,
    SourcePos pos) {

  public ForeignKey {
    parentColumns = List.copyOf(parentColumns);
  }
}
