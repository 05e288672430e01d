package io.weaver.lakehouse;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The folders of one item: {@code <root>/<Schema>/<Object>}, a table being a folder with a {@code
 * _delta_log}. Every path is built from checked names, so it stays under the root.
 */
final class TableFolders {
  static final String DELTA_LOG = "_delta_log";

  private final String item;
  private final FileSystem fs;
  private final Path root;

  TableFolders(String item, String root, Configuration hadoopConf) {
    this.item = item;
    try {
      Path raw = new Path(root);
      this.fs = raw.getFileSystem(hadoopConf);
      this.root = fs.makeQualified(raw);
    } catch (IOException e) {
      throw new UncheckedIOException("Item " + item + ": cannot open the root " + root, e);
    }
  }

  /** A user-given location, qualified like the root so the two compare. */
  Path qualify(String location) {
    try {
      return fs.makeQualified(new Path(location));
    } catch (IllegalArgumentException otherFileSystem) {
      return new Path(location);
    }
  }

  Path root() {
    return root;
  }

  String item() {
    return item;
  }

  /** {@code Item.Schema}, for messages. */
  String qualified(String schema) {
    return item + "." + schema;
  }

  /** {@code Item.Schema.Object}, for messages. */
  String qualified(String schema, String object) {
    return item + "." + schema + "." + object;
  }

  FileSystem fileSystem() {
    return fs;
  }

  Path schemaPath(String schema) {
    PathNames.requireSegment("Schema", schema, qualified(schema));
    return new Path(LakehouseLayout.join(root.toString(), schema));
  }

  Path tablePath(String schema, String object) {
    String qualified = qualified(schema, object);
    PathNames.requireSegment("Schema", schema, qualified);
    PathNames.requireSegment("Object", object, qualified);
    return new Path(LakehouseLayout.join(root.toString(), schema, object));
  }

  boolean isTable(Path table) {
    return isDirectory(new Path(table, DELTA_LOG));
  }

  boolean isDirectory(Path path) {
    try {
      return fs.getFileStatus(path).isDirectory();
    } catch (FileNotFoundException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("Item " + item + ": cannot read " + path, e);
    }
  }

  /** Schema folders, sorted; hidden ({@code .}) and unusable names are skipped. */
  List<String> schemas() {
    List<String> names = new ArrayList<>();
    for (FileStatus child : children(root)) {
      String name = child.getPath().getName();
      if (child.isDirectory() && !name.startsWith(".") && PathNames.isSegment(name)) {
        names.add(name);
      }
    }
    names.sort(null);
    return names;
  }

  /** Object folders of one schema that are Delta tables, sorted. */
  List<String> tables(String schema) {
    List<String> names = new ArrayList<>();
    for (FileStatus child : children(schemaPath(schema))) {
      String name = child.getPath().getName();
      if (child.isDirectory() && PathNames.isSegment(name) && isTable(child.getPath())) {
        names.add(name);
      }
    }
    names.sort(null);
    return names;
  }

  boolean isEmpty(Path folder) {
    return children(folder).length == 0;
  }

  void mkdirs(Path folder) {
    try {
      if (!fs.mkdirs(folder)) {
        throw new IOException("mkdirs returned false");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Item " + item + ": cannot create " + folder, e);
    }
  }

  boolean deleteRecursively(Path folder) {
    try {
      return fs.delete(folder, true);
    } catch (IOException e) {
      throw new UncheckedIOException("Item " + item + ": cannot delete " + folder, e);
    }
  }

  void rename(Path from, Path to) {
    try {
      fs.mkdirs(to.getParent());
      if (!fs.rename(from, to)) {
        throw new IOException("rename returned false");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Item " + item + ": cannot move " + from + " to " + to, e);
    }
  }

  private FileStatus[] children(Path folder) {
    try {
      return fs.listStatus(folder);
    } catch (FileNotFoundException e) {
      return new FileStatus[0];
    } catch (IOException e) {
      throw new UncheckedIOException("Item " + item + ": cannot list " + folder, e);
    }
  }
}
