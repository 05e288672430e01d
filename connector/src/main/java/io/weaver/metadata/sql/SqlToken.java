package io.weaver.metadata.sql;

import java.util.Locale;
import java.util.Objects;

/**
 * One token of a SQL body, with the file position of its first character.
 *
 * @param kind what the token is
 * @param text the exact source text, quotes included
 * @param line 1-based file line of the first character
 * @param column 1-based file column (in code points) of the first character
 */
public record SqlToken(Kind kind, String text, int line, int column) {

  /** Token kinds; comments and whitespace never become tokens. */
  public enum Kind {
    /** Keyword or unquoted identifier; T-SQL temp tables ({@code #t}, {@code ##t}) too. */
    WORD,
    /** {@code `a`} in Spark SQL; {@code [a]} or {@code "a"} in T-SQL. */
    QUOTED_IDENTIFIER,
    /** A string literal, prefix included ({@code N'…'}, {@code r'…'}, {@code X'…'}). */
    STRING,
    NUMBER,
    /** T-SQL {@code @x} and {@code @@x}. */
    VARIABLE,
    /** An operator or punctuation; common two-character operators are one token. */
    SYMBOL,
    SEMICOLON
  }

  public SqlToken {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(text, "text");
  }

  /** Whether this is the keyword or unquoted word {@code upperCaseWord}, ignoring case. */
  public boolean isWord(String upperCaseWord) {
    return kind == Kind.WORD && text.equalsIgnoreCase(upperCaseWord);
  }

  /** Whether this is exactly the symbol {@code symbol}. */
  public boolean isSymbol(String symbol) {
    return kind == Kind.SYMBOL && text.equals(symbol);
  }

  /** Whether this token can name something: an unquoted word or a quoted identifier. */
  public boolean isIdentifier() {
    return kind == Kind.WORD || kind == Kind.QUOTED_IDENTIFIER;
  }

  /**
   * The identifier this token spells: quotes removed and doubled closing quotes undone for a quoted
   * identifier ({@code `a``b`} → {@code a`b}, {@code [a]]b]} → {@code a]b}); the text itself for
   * any other token.
   */
  public String identifierValue() {
    if (kind != Kind.QUOTED_IDENTIFIER || text.length() < 2) {
      return text;
    }
    char open = text.charAt(0);
    String close = open == '[' ? "]" : String.valueOf(open);
    return text.substring(1, text.length() - 1).replace(close + close, close);
  }

  /** The file line of the last character; later than {@link #line} for multi-line literals. */
  public int endLine() {
    int end = line;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n' || (c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n'))) {
        end++;
      }
    }
    return end;
  }

  /** The text upper-cased, for keyword sets; only meaningful for words. */
  String upper() {
    return text.toUpperCase(Locale.ROOT);
  }
}
