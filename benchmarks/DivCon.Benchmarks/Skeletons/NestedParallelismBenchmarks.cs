using BenchmarkDotNet.Attributes;
using DivCon.Samples;

namespace DivCon.Benchmarks.Skeletons;

/// <summary>
/// Nested parallelism (thesis §8.2, issue 15): each program with its level-1 split and merge run on one worker (the
/// baseline, as the thesis's programs do) against the same run with them shared among the workers
/// (<c>ParallelSplitAndMerge</c>, <see cref="NestedParallelism"/>), on 2 workers; the Ratio column is the nested time
/// over the sequential-split time in the same run. Granularity: 4 muscles per core for 2 cores.
/// </summary>
public class NestedParallelismBenchmarks : SampleBenchmark
{
    [Params("strassen", "quicksort", "mergesort", Priority = SchedulerBenchmark.ProgramPriority)]
    public override string Program { get; set; } = "strassen";

    [Benchmark(Baseline = true)]
    public void SequentialSplitAndMerge() => Run(nested: false);

    [Benchmark]
    public void ParallelSplitAndMerge() => Run(nested: true);

    private void Run(bool nested)
    {
        if (Sample is not INestedParallelSample sample)
        {
            throw new InvalidOperationException($"{Program} has no parallel split and merge.");
        }

        sample.ParallelSplitAndMerge = nested;
        RunParallel();
    }
}
