package io.weaver.metadata.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * T-SQL statement splitting. Semicolons are optional in T-SQL, so a statement also ends where a
 * statement keyword starts the next one at parenthesis depth 0 and outside {@code CASE … END}.
 *
 * <p>A keyword continues the current statement instead when it:
 *
 * <ul>
 *   <li>follows {@code .}, {@code ,} or {@code AS} (a qualified name, a list, {@code CREATE VIEW v
 *       AS SELECT});
 *   <li>is {@code SELECT} after {@code UNION}, {@code ALL}, {@code EXCEPT}, {@code INTERSECT} or
 *       {@code FOR} (cursor declarations);
 *   <li>is the first {@code SELECT}/{@code EXEC}/{@code EXECUTE} of an {@code INSERT} (its row
 *       source);
 *   <li>is the main {@code SELECT}/{@code INSERT}/{@code UPDATE}/{@code DELETE}/{@code MERGE} after
 *       a {@code WITH cte AS (…)} prefix;
 *   <li>is the first {@code SET} of an {@code UPDATE} or {@code ALTER}, or a {@code SET} after
 *       {@code UPDATE}/{@code DELETE} ({@code MERGE … THEN UPDATE SET}, {@code ON DELETE SET
 *       NULL});
 *   <li>is {@code INSERT}/{@code UPDATE}/{@code DELETE} after {@code THEN} (MERGE actions), {@code
 *       ON} (referential actions) or {@code FOR};
 *   <li>is {@code WITH} not followed by {@code name [(…)] AS (} (table hints, {@code WITH TIES});
 *   <li>is {@code FETCH} after {@code ROWS}/{@code ROW} ({@code OFFSET … FETCH NEXT});
 *   <li>is {@code IF EXISTS} inside a {@code DROP} statement.
 * </ul>
 *
 * <p>Control of flow is split into its own statements: {@code IF condition}, {@code ELSE}, {@code
 * WHILE condition}, {@code BEGIN}, {@code END} (with {@code TRY}/{@code CATCH}/{@code
 * TRAN[SACTION]} kept in the same statement since they are not statement keywords), so the
 * statements inside a block are classified like top-level ones. A {@code GO} that is alone on its
 * line (optionally with a count) becomes a {@code GO_BATCH} statement. A statement that starts with
 * something other than a statement keyword (say, a procedure called without {@code EXEC}) is joined
 * to the one before it, or is its own statement at the start of the body.
 */
final class TsqlStatements {
  private static final Set<String> STATEMENT_KEYWORDS =
      Set.of(
          "SELECT",
          "WITH",
          "INSERT",
          "UPDATE",
          "DELETE",
          "MERGE",
          "DECLARE",
          "SET",
          "IF",
          "ELSE",
          "WHILE",
          "BEGIN",
          "END",
          "EXEC",
          "EXECUTE",
          "CREATE",
          "DROP",
          "ALTER",
          "TRUNCATE",
          "PRINT",
          "RETURN",
          "RAISERROR",
          "THROW",
          "USE",
          "COMMIT",
          "ROLLBACK",
          "SAVE",
          "BREAK",
          "CONTINUE",
          "GOTO",
          "WAITFOR",
          "OPEN",
          "CLOSE",
          "FETCH",
          "DEALLOCATE",
          "GRANT",
          "REVOKE",
          "DENY",
          "DBCC",
          "REVERT");
  private static final Set<String> SET_OPERATORS = Set.of("UNION", "ALL", "EXCEPT", "INTERSECT");
  private static final Set<String> CTE_MAIN_VERBS =
      Set.of("SELECT", "INSERT", "UPDATE", "DELETE", "MERGE");
  private static final Set<String> INSERT_SOURCES = Set.of("SELECT", "EXEC", "EXECUTE", "VALUES");

  private final List<SqlToken> tokens;
  private final List<SqlStatement> statements = new ArrayList<>();
  private int start = -1;
  private int parenDepth;
  private int caseDepth;
  private String verb = "";
  private boolean cteOpen;
  private boolean insertSourceSeen;
  private boolean setSeen;

  private TsqlStatements(List<SqlToken> tokens) {
    this.tokens = tokens;
  }

  static List<SqlStatement> split(List<SqlToken> tokens) {
    TsqlStatements splitter = new TsqlStatements(tokens);
    splitter.run();
    return splitter.statements;
  }

  private void run() {
    for (int i = 0; i < tokens.size(); i++) {
      SqlToken token = tokens.get(i);
      if (token.kind() == SqlToken.Kind.SEMICOLON) {
        finish(i, true);
        continue;
      }
      int goEnd = goLineEnd(i);
      if (goEnd > i) {
        finish(i, false);
        statements.add(
            new SqlStatement(tokens.subList(i, goEnd), false, SqlStatement.Kind.GO_BATCH));
        i = goEnd - 1;
        continue;
      }
      boolean topLevel = parenDepth == 0 && caseDepth == 0;
      if (start >= 0 && topLevel && startsStatement(i)) {
        finish(i, false);
      }
      if (start < 0) {
        begin(i);
      } else if (topLevel) {
        noteContinuation(i);
      }
      trackDepth(token);
    }
    finish(tokens.size(), false);
  }

  private void begin(int i) {
    start = i;
    SqlToken first = tokens.get(i);
    verb = first.kind() == SqlToken.Kind.WORD ? first.upper() : "";
    cteOpen = verb.equals("WITH");
    insertSourceSeen = false;
    setSeen = false;
    parenDepth = 0;
    caseDepth = 0;
  }

  private void finish(int end, boolean terminated) {
    if (start >= 0 && end > start) {
      List<SqlToken> part = tokens.subList(start, end);
      statements.add(new SqlStatement(part, terminated, TsqlResultRule.kindOf(part)));
    }
    start = -1;
  }

  private void trackDepth(SqlToken token) {
    if (token.isSymbol("(")) {
      parenDepth++;
    } else if (token.isSymbol(")")) {
      parenDepth = Math.max(0, parenDepth - 1);
    } else if (token.isWord("CASE")) {
      caseDepth++;
    } else if (token.isWord("END") && caseDepth > 0) {
      caseDepth--;
    }
  }

  /** Updates what the current statement has seen, for a depth-0 token that continues it. */
  private void noteContinuation(int i) {
    SqlToken token = tokens.get(i);
    if (token.kind() != SqlToken.Kind.WORD) {
      return;
    }
    String word = token.upper();
    if (cteOpen && CTE_MAIN_VERBS.contains(word)) {
      cteOpen = false;
      verb = word;
    } else if (word.equals("WITH") && looksLikeCte(i)) {
      cteOpen = true;
    } else if (verb.equals("INSERT") && INSERT_SOURCES.contains(word)) {
      insertSourceSeen = true;
    } else if (word.equals("SET") && (verb.equals("UPDATE") || verb.equals("ALTER"))) {
      setSeen = true;
    }
  }

  private boolean startsStatement(int i) {
    SqlToken token = tokens.get(i);
    if (!TokenScan.isWordIn(token, STATEMENT_KEYWORDS)) {
      return false;
    }
    SqlToken previous = tokens.get(i - 1);
    if (previous.isSymbol(".") || previous.isSymbol(",") || previous.isWord("AS")) {
      return false;
    }
    switch (token.upper()) {
      case "WITH":
        return looksLikeCte(i);
      case "SELECT":
        return !(TokenScan.isWordIn(previous, SET_OPERATORS)
            || previous.isWord("FOR")
            || cteOpen
            || (verb.equals("INSERT") && !insertSourceSeen));
      case "INSERT":
      case "UPDATE":
      case "DELETE":
      case "MERGE":
        return !(cteOpen
            || previous.isWord("THEN")
            || previous.isWord("ON")
            || previous.isWord("FOR"));
      case "SET":
        return !(previous.isWord("UPDATE")
            || previous.isWord("DELETE")
            || ((verb.equals("UPDATE") || verb.equals("ALTER")) && !setSeen));
      case "EXEC":
      case "EXECUTE":
        return !((verb.equals("INSERT") && !insertSourceSeen) || previous.isWord("WITH"));
      case "FETCH":
        return !(previous.isWord("ROWS") || previous.isWord("ROW"));
      case "IF":
        return !(verb.equals("DROP") && TokenScan.isWord(tokens, i + 1, "EXISTS"));
      default:
        return true;
    }
  }

  /** {@code WITH name [( columns )] AS (} — a common table expression, not a hint or option. */
  private boolean looksLikeCte(int with) {
    int i = with + 1;
    if (i >= tokens.size() || !tokens.get(i).isIdentifier()) {
      return false;
    }
    i++;
    if (TokenScan.isSymbol(tokens, i, "(")) {
      i = TokenScan.closingParen(tokens, i) + 1;
    }
    return TokenScan.isWord(tokens, i, "AS") && TokenScan.isSymbol(tokens, i + 1, "(");
  }

  /**
   * When the token at {@code i} is a {@code GO} alone on its line (a count may follow), the index
   * after the separator; otherwise {@code i}.
   */
  private int goLineEnd(int i) {
    SqlToken go = tokens.get(i);
    if (!go.isWord("GO") || (i > 0 && tokens.get(i - 1).endLine() >= go.line())) {
      return i;
    }
    int end = i + 1;
    if (end < tokens.size()
        && tokens.get(end).line() == go.line()
        && tokens.get(end).kind() == SqlToken.Kind.NUMBER) {
      end++;
    }
    boolean aloneOnLine = end == tokens.size() || tokens.get(end).line() > go.line();
    return aloneOnLine ? end : i;
  }
}
