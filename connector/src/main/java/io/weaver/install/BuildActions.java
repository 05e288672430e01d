package io.weaver.install;

/**
 * What Build does at each step that changes something, chosen once per run: a Build applies the
 * change ({@link #APPLY}); a plan leaves it undone and words its outcome as what a Build would do
 * ({@link #PLAN}). The classification and outcome of every step are the same for both.
 */
interface BuildActions {

  /** A Build: tables created and altered, catalogue rows written. */
  BuildActions APPLY = new Applying();

  /** A plan: nothing written, not even an empty catalogue. */
  BuildActions PLAN = new Planning();

  /** Runs {@code change} (a table or catalogue write) when this Build applies its changes. */
  void change(Runnable change);

  /** The wording of an outcome: {@code done} when applied, {@code wouldBe} in a plan. */
  String said(String done, String wouldBe);

  /** Whether changes are applied (handed as it is to a Warehouse endpoint's Build). */
  boolean applies();

  /** The job label and progress word of one Table's step. */
  default String label() {
    return said("build", "plan build");
  }

  /** Applies every change. */
  final class Applying implements BuildActions {
    private Applying() {}

    @Override
    public void change(Runnable change) {
      change.run();
    }

    @Override
    public String said(String done, String wouldBe) {
      return done;
    }

    @Override
    public boolean applies() {
      return true;
    }
  }

  /** Applies none; says what a Build would do. */
  final class Planning implements BuildActions {
    private Planning() {}

    @Override
    public void change(Runnable change) {
      // a plan writes nothing
    }

    @Override
    public String said(String done, String wouldBe) {
      return wouldBe;
    }

    @Override
    public boolean applies() {
      return false;
    }
  }
}
