package io.weaver.lakehouse;

/**
 * The rule every name must pass before it becomes a folder under a lakehouse root: a path built
 * from names must stay under the root, whatever the names are.
 */
final class PathNames {
  private PathNames() {}

  /**
   * Returns {@code name} unchanged when it is safe as one path segment, else throws.
   *
   * @param kind what the name is ({@code Item}, {@code Schema}, {@code Object}), for the message
   * @param qualified the full name as the user wrote it, for the message
   */
  static String requireSegment(String kind, String name, String qualified) {
    String reason = problem(name);
    if (reason != null) {
      throw new IllegalArgumentException(
          kind
              + " name "
              + printable(name)
              + " in "
              + qualified
              + " is not allowed: "
              + reason
              + ". Use a plain name such as Sales or Customer.");
    }
    return name;
  }

  static boolean isSegment(String name) {
    return problem(name) == null;
  }

  private static String problem(String name) {
    if (name == null || name.isEmpty()) {
      return "it is empty";
    }
    if (name.equals(".") || name.equals("..")) {
      return "it would leave its folder";
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '/' || c == '\\') {
        return "it contains a path separator";
      }
      if (c == ':') {
        // Hadoop parses a ':' in a child path as a URI scheme, so such folders cannot be listed.
        return "it contains ':'";
      }
      if (Character.isISOControl(c)) {
        return "it contains a control character";
      }
    }
    if (!name.strip().equals(name)) {
      return "it starts or ends with white space";
    }
    return null;
  }

  private static String printable(String name) {
    if (name == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder("'");
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      out.append(Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : c);
    }
    return out.append('\'').toString();
  }
}
