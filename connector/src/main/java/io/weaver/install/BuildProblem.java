package io.weaver.install;

/**
 * A Build-time finding about one Table (a type the engine rejects, a shape rule on the inferred
 * shape).
 */
public final class BuildProblem extends RuntimeException {
  public BuildProblem(String message) {
    super(message);
  }

  public BuildProblem(String message, Throwable cause) {
    super(message, cause);
  }
}
