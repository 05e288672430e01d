package io.weaver.metadata;

import io.weaver.findings.SourcePos;

/**
 * The YAML text of a source header and where things are in the file.
 *
 * @param yaml the header text (between the quotes or the comment delimiters)
 * @param yamlStart file position of the first character of {@code yaml}
 * @param bodyOffset character offset in the file where the body after the header starts
 * @param bodyStart file position of {@code bodyOffset}
 */
public record Header(String yaml, SourcePos yamlStart, int bodyOffset, SourcePos bodyStart) {}
