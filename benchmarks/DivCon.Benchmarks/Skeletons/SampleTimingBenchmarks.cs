using BenchmarkDotNet.Attributes;

namespace DivCon.Benchmarks.Skeletons;

/// <summary>
/// Each sample program's parallel run (automatic granularity for 2 cores) against its sequential baseline, both on
/// the same data: the Ratio column is 1 / speedup. Also the measurement behind the sizes (medium: about 0.5–2 s per
/// parallel run on 2 cores).
/// </summary>
public class SampleTimingBenchmarks : SampleBenchmark
{
    [Params("sumofsquares", "montecarlopi", "strassen", "quicksort", "mergesort", Priority = SchedulerBenchmark.ProgramPriority)]
    public override string Program { get; set; } = "quicksort";

    [Benchmark(Baseline = true)]
    public void Sequential() => Sample.RunSequential();

    [Benchmark]
    public void Parallel() => RunParallel();
}
