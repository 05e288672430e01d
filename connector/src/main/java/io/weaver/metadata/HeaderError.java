package io.weaver.metadata;

import io.weaver.findings.SourcePos;

/** A header that cannot be read: the rule id to report, where, and why. */
public record HeaderError(String rule, SourcePos pos, String message) {}
