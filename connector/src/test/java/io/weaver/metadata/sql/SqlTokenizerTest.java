package io.weaver.metadata.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.metadata.sql.SqlToken.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqlTokenizerTest {

  private static List<SqlToken> spark(String text) {
    return SqlTokenizer.tokenize(text, SqlDialect.SPARK, 1, 1);
  }

  private static List<SqlToken> tsql(String text) {
    return SqlTokenizer.tokenize(text, SqlDialect.TSQL, 1, 1);
  }

  private static List<String> texts(List<SqlToken> tokens) {
    return tokens.stream().map(SqlToken::text).toList();
  }

  private static List<Kind> kinds(List<SqlToken> tokens) {
    return tokens.stream().map(SqlToken::kind).toList();
  }

  @Test
  void sparkStringsKeepSemicolonsAndCommentMarkers() {
    List<SqlToken> tokens = spark("select 'a;b', \"--c\", '/*d' ;");
    assertEquals(List.of("select", "'a;b'", ",", "\"--c\"", ",", "'/*d'", ";"), texts(tokens));
    assertEquals(Kind.STRING, tokens.get(3).kind());
    assertEquals(Kind.SEMICOLON, tokens.get(6).kind());
  }

  @Test
  void sparkBackslashEscapesDoNotCloseStrings() {
    List<SqlToken> tokens = spark("select 'it\\'s;' x");
    assertEquals(List.of("select", "'it\\'s;'", "x"), texts(tokens));
  }

  @Test
  void sparkRawStringsIgnoreBackslashes() {
    List<SqlToken> tokens = spark("select r'C:\\dir\\' a, R\"x\\\" b");
    assertEquals("r'C:\\dir\\'", tokens.get(1).text());
    assertEquals(Kind.STRING, tokens.get(1).kind());
    assertEquals("R\"x\\\"", tokens.get(4).text());
  }

  @Test
  void sparkBacktickIdentifiersContainSemicolonsAndDoubledBackticks() {
    List<SqlToken> tokens = spark("select `a;b``c` from t");
    assertEquals(Kind.QUOTED_IDENTIFIER, tokens.get(1).kind());
    assertEquals("a;b`c", tokens.get(1).identifierValue());
    assertEquals(4, tokens.size());
  }

  @Test
  void sparkBlockCommentsNest() {
    List<SqlToken> tokens = spark("select /* outer /* inner */ still comment; */ 1;");
    assertEquals(List.of("select", "1", ";"), texts(tokens));
  }

  @Test
  void lineCommentsRunToEndOfLine() {
    List<SqlToken> tokens = spark("select 1 -- ; not a separator\n;");
    assertEquals(List.of("select", "1", ";"), texts(tokens));
    assertEquals(2, tokens.get(2).line());
  }

  @Test
  void positionsAfterMultiLineCommentAreFilePositions() {
    List<SqlToken> tokens =
        SqlTokenizer.tokenize("  /* one\n two\n three */ select\n\tx", SqlDialect.SPARK, 10, 5);
    assertEquals(new SqlToken(Kind.WORD, "select", 12, 11), tokens.get(0));
    assertEquals(new SqlToken(Kind.WORD, "x", 13, 2), tokens.get(1));
  }

  @Test
  void firstLineStartsAtGivenColumn() {
    List<SqlToken> tokens = spark("a b\nc");
    assertEquals(1, tokens.get(0).column());
    List<SqlToken> shifted = SqlTokenizer.tokenize("a b\nc", SqlDialect.SPARK, 7, 3);
    assertEquals(3, shifted.get(0).column());
    assertEquals(5, shifted.get(1).column());
    assertEquals(8, shifted.get(2).line());
    assertEquals(1, shifted.get(2).column());
  }

  @Test
  void positionsAfterMultiLineStringCountFromTheNewLine() {
    List<SqlToken> tokens = spark("select 'a\nbc' as x");
    assertEquals(2, tokens.get(1).endLine());
    assertEquals(new SqlToken(Kind.WORD, "as", 2, 5), tokens.get(2));
  }

  @Test
  void columnsCountCodePoints() {
    List<SqlToken> tokens = spark("select '😀' as é");
    assertEquals(15, tokens.get(3).column());
    assertEquals(Kind.WORD, tokens.get(3).kind());
  }

  @Test
  void crlfLineEndsCountOnce() {
    List<SqlToken> tokens = spark("a\r\nb\r\n\r\nc");
    assertEquals(List.of(1, 2, 4), tokens.stream().map(SqlToken::line).toList());
    assertEquals(1, tokens.get(2).column());
  }

  @Test
  void sparkCombinesOperatorsAndKeepsCastsIntact() {
    List<SqlToken> tokens = spark("a::int <=> b >= c != d || e -> f");
    assertEquals(
        List.of("a", "::", "int", "<=>", "b", ">=", "c", "!=", "d", "||", "e", "->", "f"),
        texts(tokens));
  }

  @Test
  void sparkParameterMarkersAreColonThenWord() {
    List<SqlToken> tokens = spark("where ts = :load_timestamp;");
    assertEquals(List.of("where", "ts", "=", ":", "load_timestamp", ";"), texts(tokens));
  }

  @Test
  void numbersWithSuffixesAndExponents() {
    List<SqlToken> tokens = spark("1 2.5 .5 1e10 3.0E-2 10L 1.5BD");
    assertEquals(List.of("1", "2.5", ".5", "1e10", "3.0E-2", "10L", "1.5BD"), texts(tokens));
    assertTrue(tokens.stream().allMatch(t -> t.kind() == Kind.NUMBER));
  }

  @Test
  void tsqlStringsUseDoubledQuotesAndNationalPrefix() {
    List<SqlToken> tokens = tsql("select 'it''s;', N'x--y' go");
    assertEquals(List.of("select", "'it''s;'", ",", "N'x--y'", "go"), texts(tokens));
    assertEquals(Kind.STRING, tokens.get(3).kind());
  }

  @Test
  void tsqlBracketAndDoubleQuotedIdentifiers() {
    List<SqlToken> tokens = tsql("select [a;]]b], \"c\"\"d\" from t");
    assertEquals(Kind.QUOTED_IDENTIFIER, tokens.get(1).kind());
    assertEquals("a;]b", tokens.get(1).identifierValue());
    assertEquals(Kind.QUOTED_IDENTIFIER, tokens.get(3).kind());
    assertEquals("c\"d", tokens.get(3).identifierValue());
  }

  @Test
  void tsqlVariablesAndTempTables() {
    List<SqlToken> tokens = tsql("select @x, @@rowcount into ##t from #s");
    assertEquals(
        List.of(Kind.WORD, Kind.VARIABLE, Kind.SYMBOL, Kind.VARIABLE, Kind.WORD, Kind.WORD),
        kinds(tokens).subList(0, 6));
    assertEquals("@@rowcount", tokens.get(3).text());
    assertEquals("##t", tokens.get(5).text());
    assertEquals("#s", tokens.get(7).text());
  }

  @Test
  void tsqlBlockCommentsNest() {
    List<SqlToken> tokens = tsql("select /* a /* b */ c */ 1");
    assertEquals(List.of("select", "1"), texts(tokens));
  }

  @Test
  void tsqlCompoundAssignmentIsOneSymbol() {
    assertEquals(List.of("set", "@x", "+=", "1"), texts(tsql("set @x += 1")));
  }

  @Test
  void unterminatedStringReportsWhereItOpens() {
    SqlSyntaxException e =
        assertThrows(SqlSyntaxException.class, () -> spark("select 1;\nselect 'abc;\n"));
    assertEquals(2, e.line());
    assertEquals(8, e.column());
    assertTrue(e.getMessage().contains("Unterminated string literal"), e.getMessage());
  }

  @Test
  void unterminatedCommentReportsWhereItOpens() {
    SqlSyntaxException e =
        assertThrows(
            SqlSyntaxException.class,
            () -> SqlTokenizer.tokenize("x\n  /* a /* b */", SqlDialect.TSQL, 5, 1));
    assertEquals(6, e.line());
    assertEquals(3, e.column());
    assertTrue(e.getMessage().contains("block comment"), e.getMessage());
  }

  @Test
  void unterminatedQuotedIdentifiersAreErrors() {
    assertThrows(SqlSyntaxException.class, () -> spark("select `a"));
    assertThrows(SqlSyntaxException.class, () -> tsql("select [a"));
    assertThrows(SqlSyntaxException.class, () -> tsql("select \"a"));
  }

  @Test
  void tsqlBackslashDoesNotEscape() {
    List<SqlToken> tokens = tsql("select 'a\\' b");
    assertEquals(List.of("select", "'a\\'", "b"), texts(tokens));
  }
}
