package io.weaver.staging;

import io.weaver.compat.SqlReferences;
import io.weaver.metadata.sql.SqlDialect;
import io.weaver.metadata.sql.SqlSyntaxException;
import io.weaver.metadata.sql.SqlToken;
import io.weaver.metadata.sql.SqlTokenizer;
import io.weaver.workspace.Identifiers;
import io.weaver.workspace.Identity;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * How the statements of a Table (or an authored test) name what they read: exactly as a plain Spark
 * session with the same catalogs would, with two additions.
 *
 * <ul>
 *   <li>A two-part name {@code Schema.Object} that is a table of the statement's own item means
 *       that table (the item first); any other two-part name keeps its plain meaning ({@code
 *       db.table} of the session catalog).
 *   <li>A path read {@code <format>.`Files/…`}, and a {@code path 'Files/…'} option of a {@code
 *       USING <format> OPTIONS (…)} clause (how SQL reads CSV with a header), is a path under the
 *       item's file area ({@code <lakehouse>/<Item>/Files}); any other path is read where it is.
 * </ul>
 *
 * <p>The statement text is rewritten at those names only: Spark's own parser says which names are
 * table references, and the tokens spelling them get the item in front or the absolute path in
 * place. Everything else stays as written, so a temporary view made in a setup statement keeps the
 * rewritten text Spark stores for it.
 */
final class SourceNames {
  /** The formats Spark reads a path with ({@code parquet.`/p`}), as Spark matches them. */
  static final Set<String> PATH_FORMATS =
      Set.of("delta", "parquet", "csv", "json", "orc", "text", "binaryfile", "avro");

  private final String item;
  private final String filesRoot;
  private final String owner;
  private final Predicate<List<String>> itemHasTable;

  /**
   * @param item the item whose tables two-part names mean first
   * @param filesRoot the item's file area (absolute)
   * @param owner the Table or test the statements belong to, for messages
   * @param itemHasTable whether {@code [Schema, Object]} is a table of the item
   */
  SourceNames(String item, String filesRoot, String owner, Predicate<List<String>> itemHasTable) {
    this.item = item;
    this.filesRoot = filesRoot;
    this.owner = owner;
    this.itemHasTable = itemHasTable;
  }

  /** Whether a table reference is a path read ({@code parquet.`/landing/x`}). */
  static boolean isPathRead(List<String> name) {
    return name.size() == 2 && PATH_FORMATS.contains(name.get(0).toLowerCase(Locale.ROOT));
  }

  /** The statement with its item tables qualified and its {@code Files/} paths made absolute. */
  String rewrite(String statement) {
    List<List<String>> references;
    try {
      references = SqlReferences.of(statement);
    } catch (IllegalArgumentException unparsable) {
      return statement; // Spark reports the syntax error, with its position, when it runs it
    }
    Set<List<String>> itemTables = new HashSet<>();
    Set<List<String>> filePaths = new HashSet<>();
    for (List<String> name : references) {
      if (isPathRead(name)) {
        if (name.get(1).startsWith(Identity.FILES_PREFIX)) {
          filePaths.add(name);
        }
      } else if (name.size() == 2 && itemHasTable.test(name)) {
        itemTables.add(name);
      }
    }
    boolean pathOption = statement.contains(Identity.FILES_PREFIX);
    if (itemTables.isEmpty() && filePaths.isEmpty() && !pathOption) {
      return statement;
    }
    return edit(statement, itemTables, filePaths);
  }

  private String edit(String statement, Set<List<String>> itemTables, Set<List<String>> paths) {
    List<SqlToken> tokens;
    try {
      tokens = SqlTokenizer.tokenize(statement, SqlDialect.SPARK, 1, 1);
    } catch (SqlSyntaxException e) {
      return statement; // Spark's parser accepted it; Spark reports anything wrong when it runs
    }
    int[] offsets = offsets(statement, tokens);
    StringBuilder out = new StringBuilder(statement.length() + 64);
    int copied = 0;
    int optionsDepth = 0; // > 0 inside OPTIONS ( … )
    for (int i = 0; i < tokens.size(); i++) {
      SqlToken token = tokens.get(i);
      if (optionsDepth == 0
          && token.isWord("OPTIONS")
          && i + 1 < tokens.size()
          && tokens.get(i + 1).isSymbol("(")) {
        optionsDepth = 1;
        i++;
        continue;
      }
      if (optionsDepth > 0) {
        if (token.isSymbol("(")) {
          optionsDepth++;
        } else if (token.isSymbol(")")) {
          optionsDepth--;
        } else if (isFilesPathOption(tokens, i)) {
          int v = i + (tokens.get(i + 1).isSymbol("=") ? 2 : 1);
          SqlToken value = tokens.get(v);
          int at = offsets[v];
          String relative = value.text().substring(1, value.text().length() - 1);
          out.append(statement, copied, at).append(literal(filesPath(relative)));
          copied = at + value.text().length();
        }
        continue;
      }
      if (i + 2 >= tokens.size() || !isTwoPartName(tokens, i)) {
        continue;
      }
      List<String> name =
          List.of(tokens.get(i).identifierValue(), tokens.get(i + 2).identifierValue());
      if (itemTables.contains(name)) {
        out.append(statement, copied, offsets[i]).append(Identifiers.quote(item)).append('.');
        copied = offsets[i];
      } else if (paths.contains(name)) {
        int at = offsets[i + 2];
        out.append(statement, copied, at).append(Identifiers.quote(filesPath(name.get(1))));
        copied = at + tokens.get(i + 2).text().length();
      }
    }
    return out.append(statement, copied, statement.length()).toString();
  }

  /** {@code a . b} at {@code i}, not part of a longer dotted name. */
  private static boolean isTwoPartName(List<SqlToken> tokens, int i) {
    if (!tokens.get(i).isIdentifier()
        || !tokens.get(i + 1).isSymbol(".")
        || !tokens.get(i + 2).isIdentifier()) {
      return false;
    }
    boolean dotBefore = i > 0 && tokens.get(i - 1).isSymbol(".");
    boolean dotAfter = i + 3 < tokens.size() && tokens.get(i + 3).isSymbol(".");
    return !dotBefore && !dotAfter;
  }

  /** {@code path 'Files/…'} or {@code path = 'Files/…'} at {@code i}. */
  private static boolean isFilesPathOption(List<SqlToken> tokens, int i) {
    if (!tokens.get(i).isWord("PATH") || i + 1 >= tokens.size()) {
      return false;
    }
    int v = tokens.get(i + 1).isSymbol("=") ? i + 2 : i + 1;
    if (v >= tokens.size() || tokens.get(v).kind() != SqlToken.Kind.STRING) {
      return false;
    }
    String text = tokens.get(v).text();
    char quote = text.charAt(0);
    return (quote == '\'' || quote == '"')
        && text.length() >= 2
        && text.substring(1).startsWith(Identity.FILES_PREFIX)
        && text.indexOf('\\') < 0;
  }

  /** The absolute path of {@code Files/…}; a path that would leave the file area is refused. */
  private String filesPath(String relative) {
    String rest = relative.substring(Identity.FILES_PREFIX.length());
    for (String segment : rest.split("/", -1)) {
      if (segment.equals("..") || segment.equals(".")) {
        throw new IllegalArgumentException(
            owner
                + ": the path '"
                + relative
                + "' has a '"
                + segment
                + "' segment; a Files/ path names a folder or file under the item's file area "
                + filesRoot
                + ", write it without '.' or '..'");
      }
    }
    return filesRoot + (filesRoot.endsWith("/") ? "" : "/") + rest;
  }

  /** Character offsets of the tokens (the tokenizer gives 1-based lines and code-point columns). */
  private static int[] offsets(String text, List<SqlToken> tokens) {
    int[] out = new int[tokens.size()];
    int line = 1;
    int column = 1;
    int i = 0;
    for (int t = 0; t < tokens.size(); t++) {
      SqlToken token = tokens.get(t);
      while (i < text.length()
          && (line < token.line() || (line == token.line() && column < token.column()))) {
        int cp = text.codePointAt(i);
        i += Character.charCount(cp);
        if (cp == '\n' || (cp == '\r' && (i >= text.length() || text.charAt(i) != '\n'))) {
          line++;
          column = 1;
        } else if (cp != '\r') {
          column++;
        }
      }
      out[t] = i;
    }
    return out;
  }

  /** A Spark SQL string literal. */
  private static String literal(String value) {
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
