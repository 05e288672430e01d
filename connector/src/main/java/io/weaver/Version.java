package io.weaver;

/** The Weaver version recorded in the catalogue's registry. */
public final class Version {
  public static final String WEAVER = "0.1.0";

  private Version() {}
}
