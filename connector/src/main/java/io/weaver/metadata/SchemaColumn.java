package io.weaver.metadata;

import io.weaver.findings.SourcePos;

/** One declared business column: exact-case name and the type text passed to the engine. */
public record SchemaColumn(String name, String type, SourcePos pos) {}
