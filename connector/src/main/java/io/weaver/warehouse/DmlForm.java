package io.weaver.warehouse;

import java.util.Locale;

/**
 * How the generated load procedure applies updates, revivals and inserts. Fabric Warehouse's MERGE
 * is in preview (late 2026), so plain {@code UPDATE} + {@code INSERT} is the default; {@code merge}
 * is chosen per item by {@code spark.weaver.item.<Item>.warehouseDml=merge}. Soft deletes are an
 * {@code UPDATE} and hard deletes ({@code Deletes: hard}) a {@code DELETE} in both forms.
 */
public enum DmlForm {
  UPDATE_INSERT("update-insert"),
  MERGE("merge");

  private final String word;

  DmlForm(String word) {
    this.word = word;
  }

  public String word() {
    return word;
  }

  /** The form a setting names; a clear error names the setting and the accepted words. */
  public static DmlForm parse(String setting, String value) {
    String v = value.strip().toLowerCase(Locale.ROOT);
    for (DmlForm form : values()) {
      if (form.word.equals(v)) {
        return form;
      }
    }
    throw new IllegalArgumentException(
        setting + " is '" + value + "'; use 'update-insert' (the default) or 'merge'");
  }
}
