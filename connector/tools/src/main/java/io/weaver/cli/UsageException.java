package io.weaver.cli;

/** A command line that cannot be run as given (exit code 2). */
final class UsageException extends RuntimeException {
  UsageException(String message) {
    super(message);
  }
}
