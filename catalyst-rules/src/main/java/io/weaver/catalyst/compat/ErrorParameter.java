package io.weaver.catalyst.compat;

/**
 * A named fact an error carries beside its message ({@code getMessageParameters()}), as Spark's and
 * Delta's errors name theirs: a client reads the Table, the column or the file by name instead of
 * parsing the message. Which class carries which is declared in {@value
 * WeaverErrorClasses#PARAMETERS} (checked against the throw sites by {@code WeaverErrorClassTest}).
 */
public enum ErrorParameter {
  /** The error's whole message, as {@link Throwable#getMessage()}; every class carries it. */
  MESSAGE("message"),
  /** A Table identity, {@code Item.Schema.Object} as written. */
  TABLE("table"),
  /** An item of the workspace. */
  ITEM("item"),
  /** A Spark catalog's name. */
  CATALOG("catalog"),
  /** A column's name. */
  COLUMN("column"),
  /** A file, as the message names it. */
  FILE("file"),
  /** A line of {@link #FILE} (1-based). */
  LINE("line"),
  /** A setting's key (a session conf or a weaver.yml setting). */
  SETTING("setting"),
  /** The value given to {@link #SETTING} or to an option. */
  VALUE("value"),
  /** A read option's name. */
  OPTION("option"),
  /** A Delta version. */
  VERSION("version"),
  /** A load's id. */
  LOAD_ID("loadId"),
  /** A load's status as its history row writes it ({@code failed}, {@code refused}, …). */
  STATUS("status"),
  /** A temporary view's name. */
  VIEW("view"),
  /** A statement or operation (DELETE, UPDATE, …). */
  OPERATION("operation"),
  /** The workspace folder, as given. */
  WORKSPACE("workspace"),
  /** How many errors (Check's findings of severity error). */
  ERRORS("errors"),
  /** The class name of an exception Weaver did not expect. */
  EXCEPTION("exception");

  private final String key;

  ErrorParameter(String key) {
    this.key = key;
  }

  /** The name in {@code getMessageParameters()} and in the declarations. */
  public String key() {
    return key;
  }
}
