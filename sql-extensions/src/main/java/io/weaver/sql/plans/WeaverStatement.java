package io.weaver.sql.plans;

import io.weaver.sql.compat.WeaverLeafNode;

/**
 * A parsed, unresolved Weaver statement. Weaver's resolution rule replaces it with the command that
 * runs it; until then the plan is unresolved, so it can never run by accident.
 */
public abstract class WeaverStatement extends WeaverLeafNode {

  /** The statement's leading keywords, e.g. {@code LOAD WEAVER}, as used in messages. */
  public abstract String keywords();
}
