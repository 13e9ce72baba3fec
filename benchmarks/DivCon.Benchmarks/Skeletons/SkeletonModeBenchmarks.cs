using BenchmarkDotNet.Attributes;
using DivCon.Samples;
using DivCon.Skeletons;

namespace DivCon.Benchmarks.Skeletons;

/// <summary>
/// Asynchronous recursion (§4.2.2, the baseline) against blocking fork-join (§4.2.1) for each sample program on 2
/// workers; the Ratio column is fork-join time / asynchronous time in the same run. Granularity: 4 muscles per core
/// for 2 cores.
/// </summary>
public class SkeletonModeBenchmarks
{
    private IDivConSample _program = null!;
    private TaskScheduler _scheduler = null!;
    private Action? _release;

    [Params("sumofsquares", "montecarlopi", "strassen", "quicksort", "mergesort")]
    public string Program { get; set; } = "quicksort";

    [Params("pair2", "ws2")]
    public string Scheduler { get; set; } = "pair2";

    [Params(ProblemSize.Medium)]
    public ProblemSize Size { get; set; } = ProblemSize.Medium;

    [GlobalSetup]
    public void Setup()
    {
        (_scheduler, _release) = BenchmarkSchedulers.Create(Scheduler);
        _program = SampleCatalog.Create(Program, Size, settings: new SampleSettings { Cores = 2 });
        _program.Initialize();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _program.Verify();
        _release?.Invoke();
    }

    [Benchmark(Baseline = true)]
    public void Asynchronous() => Run(DivConExecution.Asynchronous);

    [Benchmark]
    public void ForkJoin() => Run(DivConExecution.ForkJoin);

    private void Run(DivConExecution execution)
    {
        _program.Execution = execution;
        _program.RunParallelAsync(_scheduler).GetAwaiter().GetResult();
    }
}
