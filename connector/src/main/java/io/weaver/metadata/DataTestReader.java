package io.weaver.metadata;

import static io.weaver.metadata.TableKeys.*;

import io.weaver.findings.FindingSink;
import io.weaver.findings.RuleIds;
import io.weaver.findings.Severity;
import io.weaver.workspace.SourceFile;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/** Reads an authored test's header: {@code Test ID}, {@code Description}, {@code Severity}. */
final class DataTestReader {
  private final SourceFile source;
  private final FindingSink sink;
  private final Values values;

  DataTestReader(SourceFile source, FindingSink sink) {
    this.source = source;
    this.sink = sink;
    this.values = new Values(sink);
  }

  Optional<DataTestDeclaration> read(YamlNode.Mapping header, TableBody.Sql body) {
    Set<String> seen = new HashSet<>();
    for (YamlNode.Entry entry : header.entries()) {
      if (!TEST.contains(entry.key())) {
        String message =
            "unknown key '"
                + entry.key()
                + "' in a test header"
                + TableKeys.suggest(entry.key(), TEST)
                    .map(s -> "; did you mean '" + s + "'?")
                    .orElse("; a test accepts " + String.join(", ", TEST));
        sink.error(RuleIds.UNKNOWN_KEY, entry.keyPos(), message);
      } else if (!seen.add(entry.key())) {
        sink.error(
            RuleIds.HEADER_INVALID, entry.keyPos(), "key '" + entry.key() + "' appears twice");
      }
    }
    Optional<String> testId = header.get(TEST_ID).flatMap(values::text);
    if (header.get(TEST_ID).isEmpty()) {
      sink.error(
          RuleIds.REQUIRED_KEY_MISSING,
          header.pos(),
          "the test header has no 'Test ID'; add 'Test ID: " + source.stem() + "'");
    } else if (testId.isPresent() && !testId.get().equals(source.stem())) {
      sink.error(
          RuleIds.ID_MISMATCH,
          header.get(TEST_ID).get().keyPos(),
          "Test ID '"
              + testId.get()
              + "' does not match the file name '"
              + source.stem()
              + ".sql'; make them agree");
    }
    Optional<String> description = header.get(DESCRIPTION).flatMap(values::text);
    if (header.get(DESCRIPTION).isEmpty()) {
      sink.error(
          RuleIds.REQUIRED_KEY_MISSING,
          header.pos(),
          "the test header has no 'Description'; say what a violation means");
    }
    Severity severity = Severity.ERROR;
    Optional<YamlNode.Entry> severityEntry = header.get(SEVERITY);
    if (severityEntry.isPresent()) {
      Optional<String> word = values.text(severityEntry.get());
      if (word.isPresent() && (word.get().equals("error") || word.get().equals("warning"))) {
        severity = word.get().equals("error") ? Severity.ERROR : Severity.WARNING;
      } else if (word.isPresent()) {
        sink.error(
            RuleIds.INVALID_VALUE,
            severityEntry.get().value().pos(),
            "'Severity' must be error or warning, not '" + word.get() + "'");
      }
    }
    if (testId.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new DataTestDeclaration(source, testId.get(), description.orElse(""), severity, body));
  }
}
