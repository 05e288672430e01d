package io.weaver.check;

import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.catalyst.compat.WeaverThrowable;

/**
 * Thrown when work needs a valid workspace and Check found errors; carries the report. Its error
 * class is {@code WEAVER_CHECK_FAILED}.
 */
public final class WeaverCheckException extends RuntimeException implements WeaverThrowable {
  private final transient CheckReport report;

  public WeaverCheckException(String message, CheckReport report) {
    super(message);
    this.report = report;
  }

  @Override
  public WeaverErrorClass errorClass() {
    return WeaverErrorClass.WEAVER_CHECK_FAILED;
  }

  public CheckReport report() {
    return report;
  }
}
