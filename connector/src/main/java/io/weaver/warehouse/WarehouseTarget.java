package io.weaver.warehouse;

import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.install.BuildOutcome;
import io.weaver.install.WarehouseBuild;
import io.weaver.load.WarehouseLoad;
import io.weaver.load.records.LoadResult;
import io.weaver.load.restore.LoadRestore;
import io.weaver.load.spec.LoadIds;
import io.weaver.load.spec.LoadStatus;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceDependencies;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.session.ConfLayer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The Warehouse target as Build and Load see it: each Table's item endpoint resolved from the
 * settings (session conf, then {@code weaver.yaml}), then {@link WarehouseBuilder} or {@link
 * WarehouseLoader}. Without an endpoint a Table is skipped with the exact setting to add; a bad
 * setting fails it with the setting's name.
 */
public final class WarehouseTarget implements WarehouseBuild, WarehouseLoad {
  private final WorkspaceModel model;
  private final ConfLayer settings;
  private final Map<String, String> environment;
  private final Consumer<String> progress;

  /** Items whose catalogue tables this Build already created: once per item, not per Table. */
  private final java.util.Set<String> catalogued = new java.util.HashSet<>();

  public WarehouseTarget(
      WorkspaceModel model,
      ConfLayer settings,
      Map<String, String> environment,
      Consumer<String> progress) {
    this.model = model;
    this.settings = settings;
    this.environment = environment;
    this.progress = progress;
  }

  @Override
  public BuildOutcome build(
      TableDeclaration t, List<WorkspaceDependencies.Edge> edges, boolean write) {
    Optional<WarehouseEndpoint> endpoint;
    try {
      endpoint = WarehouseEndpoint.configured(settings, t.item());
    } catch (IllegalArgumentException e) {
      return new BuildOutcome(t.qualifiedName(), "failed", e.getMessage());
    }
    if (endpoint.isEmpty()) {
      return new BuildOutcome(t.qualifiedName(), "skipped", missing(t));
    }
    List<BuildOutcome> outcomes =
        new WarehouseBuilder(model, endpoint.get(), environment, progress)
            .build(List.of(t), table -> edges, write, write && !catalogued.contains(t.item()));
    if (write && outcomes.stream().noneMatch(BuildOutcome::isFailure)) {
      catalogued.add(t.item());
    }
    return outcomes.get(0);
  }

  @Override
  public Optional<LoadResult> load(
      TableDeclaration t, boolean waiveGates, Optional<String> loadId) {
    Optional<WarehouseEndpoint> endpoint;
    try {
      endpoint = WarehouseEndpoint.configured(settings, t.item());
    } catch (IllegalArgumentException e) {
      Instant now = Instant.now();
      return Optional.of(
          LoadResult.builder(
                  loadId.orElseGet(() -> LoadIds.newLoadId(now)),
                  t.qualifiedName(),
                  LoadStatus.FAILED)
              .message(e.getMessage())
              .startedAt(now)
              .build());
    }
    return endpoint.map(e -> new WarehouseLoader(e, environment).load(t, waiveGates, loadId));
  }

  /**
   * Restores a Warehouse Table to the state {@code loadId} left it in (its row history, {@link
   * UndoTable}).
   *
   * @throws IllegalArgumentException without an endpoint, or for a load that cannot be restored to
   */
  public LoadRestore.Result restore(TableDeclaration t, String loadId) {
    WarehouseEndpoint endpoint =
        WarehouseEndpoint.configured(settings, t.item())
            .orElseThrow(
                () ->
                    new WeaverArgumentException(
                        WeaverErrorClass.WEAVER_INVALID_SETTING,
                        missing(t),
                        ErrorFacts.of(
                            ErrorParameter.SETTING, WarehouseEndpoint.key(t.item(), "jdbcUrl"))));
    return new WarehouseRestorer(endpoint, environment).restore(t, loadId);
  }

  @Override
  public boolean configured(TableDeclaration t) {
    try {
      return WarehouseEndpoint.configured(settings, t.item()).isPresent();
    } catch (IllegalArgumentException e) {
      return true; // a bad setting: the load itself reports it
    }
  }

  /** What a Table without an endpoint needs, in one sentence. */
  public static String missing(TableDeclaration t) {
    return "Warehouse Tables need a T-SQL endpoint: set "
        + WarehouseEndpoint.key(t.item(), "jdbcUrl")
        + " (docs/warehouse.md); none is configured";
  }
}
