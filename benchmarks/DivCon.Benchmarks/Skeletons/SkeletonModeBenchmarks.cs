using BenchmarkDotNet.Attributes;
using DivCon.Skeletons;

namespace DivCon.Benchmarks.Skeletons;

/// <summary>
/// Asynchronous recursion (§4.2.2, the baseline) against blocking fork-join (§4.2.1) for each sample program on 2
/// workers; the Ratio column is fork-join time / asynchronous time in the same run. Granularity: 4 muscles per core
/// for 2 cores.
/// </summary>
public class SkeletonModeBenchmarks : SampleBenchmark
{
    [Params("sumofsquares", "montecarlopi", "strassen", "quicksort", "mergesort", Priority = SchedulerBenchmark.ProgramPriority)]
    public override string Program { get; set; } = "quicksort";

    [Benchmark(Baseline = true)]
    public void Asynchronous() => Run(DivConExecution.Asynchronous);

    [Benchmark]
    public void ForkJoin() => Run(DivConExecution.ForkJoin);

    private void Run(DivConExecution execution)
    {
        Sample.Execution = execution;
        RunParallel();
    }
}
