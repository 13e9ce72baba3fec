using DivCon.Metrics.Statistics;

namespace DivCon.Harness.Cyclic;

/// <summary>What was measured of one program alone, summarized over the invocations (the raw runs are in <see cref="CyclicResult.Invocations"/>).</summary>
/// <param name="Program">The program's name.</param>
/// <param name="Csp">
/// C^SP, seconds: over the per-invocation means (n = invocations) when there are two or more, else over the one
/// invocation's runs.
/// </param>
/// <param name="SequentialSeconds">Mean of every timed run of the sequential baseline, when measured; else null.</param>
/// <param name="Scalability">Mean over the invocations of each invocation's T_seq / mean C^SP, when measured; else null.</param>
/// <param name="NotSteady">Invocations whose C^SP window did not reach the CV threshold before the warm-up cap.</param>
/// <param name="OnlineScalability">
/// Per partitioned scheme, the program's online scalability estimate at the end of the phase (mean over the invocations
/// that had one; <c>--scalability online</c>), beside the measured <paramref name="Scalability"/>; null when none.
/// </param>
public sealed record ProgramBaseline(
    string Program, Estimate Csp, double? SequentialSeconds, double? Scalability, int NotSteady, IReadOnlyDictionary<string, double>? OnlineScalability = null);
