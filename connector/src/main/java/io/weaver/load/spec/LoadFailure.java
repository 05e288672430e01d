package io.weaver.load;

/** Input a load refuses before writing anything; the message names table, column and keys. */
public final class LoadFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public LoadFailure(String message) {
    super(message);
  }
}
