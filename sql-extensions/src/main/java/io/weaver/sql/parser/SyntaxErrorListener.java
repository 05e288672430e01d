package io.weaver.sql.parser;

import io.weaver.sql.compat.ParseErrors;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CommonToken;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.misc.Pair;

/**
 * Turns the first syntax error into Spark's {@code PARSE_SYNTAX_ERROR}, whose message shows the
 * line, the position and the statement with a caret under the offending text.
 */
final class SyntaxErrorListener extends BaseErrorListener {
  static final SyntaxErrorListener INSTANCE = new SyntaxErrorListener();

  @Override
  public void syntaxError(
      Recognizer<?, ?> recognizer,
      Object offendingSymbol,
      int line,
      int charPositionInLine,
      String msg,
      RecognitionException e) {
    Token at =
        offendingSymbol instanceof Token token
            ? token
            : tokenAt(recognizer, line, charPositionInLine);
    throw ParseErrors.syntaxError(at, near(at), ": " + msg);
  }

  static String near(Token token) {
    return token.getType() == Token.EOF ? "end of input" : "'" + token.getText() + "'";
  }

  /** A lexer error has no token; make one at the position so the message can point there. */
  private static Token tokenAt(Recognizer<?, ?> recognizer, int line, int charPositionInLine) {
    CharStream input = (CharStream) recognizer.getInputStream();
    int index = Math.max(0, Math.min(input.index(), input.size() - 1));
    CommonToken token =
        new CommonToken(new Pair<>((Lexer) recognizer, input), Token.INVALID_TYPE, 0, index, index);
    token.setLine(line);
    token.setCharPositionInLine(charPositionInLine);
    return token;
  }
}
