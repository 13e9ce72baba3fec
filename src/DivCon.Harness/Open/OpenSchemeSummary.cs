using DivCon.Metrics.Statistics;

namespace DivCon.Harness.Open;

/// <summary>One scheme over every repetition: per class slowdowns, throughput and CPU utilisation (means over repetitions with 99 % bootstrap intervals).</summary>
/// <param name="Scheme">The scheme.</param>
/// <param name="Classes">Per job class.</param>
/// <param name="Throughput">Jobs completed per second of the run (arrival 0 to the last completion).</param>
/// <param name="Utilization">Process CPU time / (cores × elapsed): the share of the cores the process kept busy (spinning workers count).</param>
public sealed record OpenSchemeSummary(string Scheme, IReadOnlyList<OpenClassSummary> Classes, BootstrapEstimate Throughput, BootstrapEstimate Utilization);
