using DivCon.Scheduling;

namespace DivCon.Harness.Cyclic;

/// <summary>How one invocation of a cyclic (or symmetric) test is run.</summary>
/// <param name="Duration">Time limit of each scheme's multiprogram phase.</param>
/// <param name="SpRuns">
/// Single-program runs per program that make its C^SP: the last <paramref name="SpRuns"/> runs once they are steady
/// (<see cref="SteadyState"/>), which is also the window the steadiness is judged over.
/// </param>
/// <param name="WarmupRuns">Runs per program before any run may count (JIT, caches, page faults); recorded as warm-up.</param>
/// <param name="Processors">The processors the schemes use.</param>
/// <param name="Seed">Seeds the programs' inputs (the same in every invocation) and, with the invocation's number, the scheme order.</param>
/// <param name="StopGrace">How long a run may take to stop once canceled at the limit.</param>
/// <param name="RunTimeout">The longest a single-program run may take before the test is abandoned.</param>
/// <param name="ShuffleSchemes">Run the schemes in a seeded random order in each invocation (so no scheme always goes first).</param>
/// <param name="MaxWarmupRuns">
/// The most runs per program beyond <paramref name="WarmupRuns"/> + <paramref name="SpRuns"/> spent waiting for a
/// steady window; then the last window counts anyway and the invocation records that it was not steady.
/// </param>
/// <param name="SteadyCv">The coefficient of variation (sd / mean) a window of C^SP runs must not exceed to be steady.</param>
/// <param name="SequentialRuns">
/// Runs of each program's sequential baseline (after one recorded warm-up run), when a scheme needs scalabilities or the
/// factored decomposition needs T_s: the invocation's scalability is their mean over the mean C^SP.
/// </param>
/// <param name="OneWorkerRuns">Runs on a 1-worker work-stealing scheduler (T_1) per program, when a scheme keeps per-program accounting.</param>
/// <param name="OnlineScalability">
/// The partitioned schemes add their programs without a scalability, so the MultiProgramScheduler estimates each online
/// (<c>--scalability online</c>); the measured scalability is still measured, and recorded beside the estimates.
/// </param>
/// <param name="Budget">
/// The CPU budget every scheduler of the invocation is sized against and the result records (one reading for the
/// invocation); null: detected when it starts.
/// </param>
public sealed record CyclicSettings(
    TimeSpan Duration,
    int SpRuns,
    int WarmupRuns,
    IReadOnlyList<int> Processors,
    int Seed,
    TimeSpan StopGrace,
    TimeSpan RunTimeout,
    bool ShuffleSchemes = true,
    int MaxWarmupRuns = CyclicSettings.DefaultMaxWarmupRuns,
    double SteadyCv = CyclicSettings.DefaultSteadyCv,
    int SequentialRuns = CyclicSettings.DefaultSequentialRuns,
    int OneWorkerRuns = CyclicSettings.DefaultOneWorkerRuns,
    CpuBudget? Budget = null,
    bool OnlineScalability = false)
{
    /// <summary>Default of <see cref="MaxWarmupRuns"/>.</summary>
    public const int DefaultMaxWarmupRuns = 15;

    /// <summary>Default of <see cref="SteadyCv"/>: 3 %.</summary>
    public const double DefaultSteadyCv = 0.03;

    /// <summary>Default of <see cref="SequentialRuns"/>.</summary>
    public const int DefaultSequentialRuns = 3;

    /// <summary>Default of <see cref="OneWorkerRuns"/>.</summary>
    public const int DefaultOneWorkerRuns = 3;
}
