package io.weaver.metadata;

import io.weaver.findings.Finding;
import io.weaver.findings.FindingSink;
import io.weaver.findings.RuleIds;
import io.weaver.findings.SourcePos;
import io.weaver.metadata.sql.SqlBodyAnalyzer;
import io.weaver.metadata.sql.SqlDialect;
import io.weaver.workspace.Form;
import io.weaver.workspace.SourceFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;

/**
 * Reads one declaration file: strict UTF-8 text, the header, its YAML and the body. The result
 * holds the parsed declaration (when one could be established) and the findings of parsing; the
 * rules in {@code io.weaver.check} run on top of it.
 */
public final class DeclarationFile {

  /** Largest declaration file read, in bytes; larger files are a finding, not an OOM. */
  static final long MAX_BYTES = 4L * 1024 * 1024;

  /** The outcome of reading a file. */
  public record Parsed(
      SourceFile source,
      String text,
      Optional<TableDeclaration> table,
      Optional<DataTestDeclaration> test,
      List<Finding> findings) {}

  private DeclarationFile() {}

  public static Parsed read(SourceFile source) {
    FindingSink sink = new FindingSink(source.relativePath());
    Optional<String> text = decode(source, sink);
    if (text.isEmpty()) {
      return new Parsed(source, "", Optional.empty(), Optional.empty(), sink.findings());
    }
    HeaderExtractor.Result extracted =
        source.form() == Form.PYTHON
            ? HeaderExtractor.python(text.get())
            : HeaderExtractor.sqlBlock(text.get());
    if (extracted.error() != null) {
      sink.error(extracted.error().rule(), extracted.error().pos(), extracted.error().message());
      return new Parsed(source, text.get(), Optional.empty(), Optional.empty(), sink.findings());
    }
    Header header = extracted.header();
    SafeYaml.Result yaml =
        SafeYaml.parse(header.yaml(), header.yamlStart().line(), header.yamlStart().column());
    if (yaml.error() != null) {
      sink.error(yaml.error().rule(), yaml.error().pos(), yaml.error().message());
      return new Parsed(source, text.get(), Optional.empty(), Optional.empty(), sink.findings());
    }
    YamlNode.Mapping mapping = (YamlNode.Mapping) yaml.node();
    if (source.kind() == SourceFile.Kind.TEST) {
      TableBody.Sql body = sqlBody(text.get(), header, SqlDialect.SPARK);
      Optional<DataTestDeclaration> test = new DataTestReader(source, sink).read(mapping, body);
      return new Parsed(source, text.get(), Optional.empty(), test, sink.findings());
    }
    TableBody body =
        switch (source.form()) {
          case PYTHON -> new TableBody.Python(source.stem());
          case SPARK_SQL -> sqlBody(text.get(), header, SqlDialect.SPARK);
          case TSQL -> sqlBody(text.get(), header, SqlDialect.TSQL);
        };
    Optional<TableDeclaration> table = new DeclarationReader(source, sink).read(mapping, body);
    return new Parsed(source, text.get(), table, Optional.empty(), sink.findings());
  }

  private static TableBody.Sql sqlBody(String text, Header header, SqlDialect dialect) {
    String body = text.substring(header.bodyOffset());
    SourcePos start = header.bodyStart();
    return new TableBody.Sql(
        body, start, dialect, SqlBodyAnalyzer.analyze(body, dialect, start.line(), start.column()));
  }

  private static Optional<String> decode(SourceFile source, FindingSink sink) {
    byte[] bytes;
    try {
      if (Files.size(source.file()) > MAX_BYTES) {
        sink.error(
            RuleIds.HEADER_INVALID,
            new SourcePos(1, 1),
            "the file is larger than " + MAX_BYTES / (1024 * 1024) + " MiB; split it");
        return Optional.empty();
      }
      bytes = Files.readAllBytes(source.file());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + source.file(), e);
    }
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      return Optional.of(decoder.decode(ByteBuffer.wrap(bytes)).toString());
    } catch (CharacterCodingException e) {
      int line = 1;
      int bad = firstInvalidByte(bytes);
      for (int i = 0; i < bad; i++) {
        if (bytes[i] == '\n') {
          line++;
        }
      }
      sink.error(
          RuleIds.ENCODING,
          new SourcePos(line, 0),
          "the file is not valid UTF-8 (byte " + bad + " on line " + line + "); save it as UTF-8");
      return Optional.empty();
    }
  }

  private static int firstInvalidByte(byte[] bytes) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder();
    int lo = 0;
    int hi = bytes.length;
    // Binary search for the shortest prefix that fails to decode strictly.
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      try {
        decoder.reset().decode(ByteBuffer.wrap(bytes, 0, mid + 1));
        lo = mid + 1;
      } catch (CharacterCodingException e) {
        hi = mid;
      }
    }
    return lo;
  }
}
