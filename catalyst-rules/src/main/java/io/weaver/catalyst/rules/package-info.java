/**
 * Weaver's Catalyst rules on Spark's and Delta's own plans: live rows on read ({@link
 * io.weaver.catalyst.rules.ShowLiveRows}), appends as loads ({@link
 * io.weaver.catalyst.rules.WritesAsLoads}) and the DML guards ({@link
 * io.weaver.catalyst.rules.GuardWeaverTables}). What they know of Weaver comes in through {@link
 * io.weaver.catalyst.rules.TableContract}, {@link io.weaver.catalyst.rules.EngineScope} and {@link
 * io.weaver.catalyst.rules.LoadCommands}, which the session extension ({@code
 * io.weaver.sql.WeaverSparkSessionExtensions}) implements and passes in when it injects them.
 */
package io.weaver.catalyst.rules;
