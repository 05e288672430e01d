package io.weaver.metadata.python;

import io.weaver.findings.SourcePos;
import java.util.List;
import java.util.Optional;

/**
 * What Check needs to know of a Python Table module, found without running Python: its top-level
 * classes, their bases and their methods.
 */
public record PythonModule(List<PythonClass> classes) {

  /** A top-level class. */
  public record PythonClass(String name, List<String> bases, List<Method> methods, SourcePos pos) {
    public Optional<Method> method(String methodName) {
      return methods.stream().filter(m -> m.name().equals(methodName)).findFirst();
    }

    /** Whether a base is Weaver's {@code Table} ({@code Table} or {@code weaver.Table}, say). */
    public boolean inheritsTable() {
      return bases.stream().anyMatch(b -> b.equals("Table") || b.endsWith(".Table"));
    }
  }

  /** A method defined directly in a class body. */
  public record Method(String name, List<String> parameters, boolean async, SourcePos pos) {}

  public Optional<PythonClass> findClass(String name) {
    return classes.stream().filter(c -> c.name().equals(name)).findFirst();
  }
}
