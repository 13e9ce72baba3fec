namespace DivCon.Harness.Open;

/// <summary>What an open-workload experiment runs.</summary>
/// <param name="Rate">Poisson arrivals per second; null with a trace.</param>
/// <param name="DurationSeconds">The arrival window, seconds; null with a trace.</param>
/// <param name="Trace">The trace file the arrivals came from; null for Poisson arrivals.</param>
/// <param name="Repetitions">Repetitions: each a new arrival sequence (the same trace with a trace), run by every scheme.</param>
/// <param name="Seed">Seeds the arrival sequences, the order of the schemes and the programs' inputs.</param>
/// <param name="RepartitionIntervalMs">The partitioned schemes' repartitioning interval, ms.</param>
/// <param name="AloneRuns">Timed runs of each class alone (after one warm-up), on every processor and on one worker.</param>
/// <param name="BatchProgram">The divide-and-conquer program of the batch class.</param>
/// <param name="Size">Its problem size.</param>
/// <param name="Processors">The processors every scheme uses.</param>
/// <param name="Loops">How requests and reports write their loops (<see cref="OpenLoops"/>); files written before it existed read as <see cref="OpenLoops.Parallel"/>.</param>
public sealed record OpenSettings(
    double? Rate, double? DurationSeconds, string? Trace, int Repetitions, int Seed, double RepartitionIntervalMs, int AloneRuns,
    string BatchProgram, string Size, IReadOnlyList<int> Processors, string Loops = OpenLoops.Parallel);
