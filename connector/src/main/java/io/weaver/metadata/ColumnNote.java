package io.weaver.metadata;

import io.weaver.findings.SourcePos;
import java.util.Optional;

/**
 * A column's note: prose, or a reference to another column's note.
 *
 * @param column the business column it describes
 * @param text the prose, or the reference text as authored
 * @param reference present when the note is a {@code $} reference
 */
public record ColumnNote(
    String column, String text, Optional<NoteReference> reference, SourcePos pos) {}
