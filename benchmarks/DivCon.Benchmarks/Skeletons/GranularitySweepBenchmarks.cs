using BenchmarkDotNet.Attributes;
using DivCon.Samples;

namespace DivCon.Benchmarks.Skeletons;

/// <summary>
/// Time against granularity (the data behind Figure 7.1): one program on <see cref="SampleBenchmark.Scheduler"/> with
/// automatic granularity for 2 cores and a varying number of execute muscles per core. MusclesPerCore = 0 runs the
/// sequential elision (granularity = problem size, one muscle); compare the other rows' means with that row's.
/// </summary>
public class GranularitySweepBenchmarks : SampleBenchmark
{
    [Params("montecarlopi", Priority = SchedulerBenchmark.ProgramPriority)]
    public override string Program { get; set; } = "montecarlopi";

    [Params(0, 1, 2, 4, 8, 16, 64, 256, 1024, 4096)]
    public int MusclesPerCore { get; set; }

    /// <inheritdoc/>
    protected override SampleSettings Settings => MusclesPerCore == 0
        ? new SampleSettings { SequentialElision = true }
        : new SampleSettings { Cores = 2, MusclesPerCore = MusclesPerCore };

    [Benchmark]
    public void Run() => RunParallel();
}
