package io.weaver.load.spec;

/** Input a load refuses before writing anything; the message names table, column and keys. */
public final class LoadFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public LoadFailure(String message) {
    super(message);
  }

  public static String firstLine(String message) {
    return message.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse(message);
  }
}
