using DivCon.Scheduling;

namespace DivCon.Harness.Cyclic;

/// <summary>How a cyclic (or symmetric) test is run.</summary>
/// <param name="Duration">Time limit of each scheme's multiprogram phase.</param>
/// <param name="SpRuns">Single-program runs per program per repetition (C^SP is their mean; the thesis uses 5).</param>
/// <param name="WarmupRuns">Runs per program before the C^SP runs, not recorded (JIT, caches, page faults).</param>
/// <param name="Repeat">Repetitions of the whole test (C^SP and every scheme); scheme-level intervals come from these.</param>
/// <param name="Processors">The processors the schemes use.</param>
/// <param name="Seed">Seeds the programs' inputs and the scheme order.</param>
/// <param name="StopGrace">How long a run may take to stop once canceled at the limit.</param>
/// <param name="RunTimeout">The longest a single-program run may take before the test is abandoned.</param>
/// <param name="ShuffleSchemes">Run the schemes in a seeded random order in each repetition (so no scheme always goes first).</param>
/// <param name="Budget">
/// The CPU budget every scheduler of the test is sized against and the result records (one reading for the whole
/// test); null: detected when the test starts.
/// </param>
public sealed record CyclicSettings(
    TimeSpan Duration,
    int SpRuns,
    int WarmupRuns,
    int Repeat,
    IReadOnlyList<int> Processors,
    int Seed,
    TimeSpan StopGrace,
    TimeSpan RunTimeout,
    bool ShuffleSchemes = true,
    CpuBudget? Budget = null);
