using BenchmarkDotNet.Attributes;
using DivCon.Samples;

namespace DivCon.Benchmarks.Skeletons;

/// <summary>
/// Each sample program's parallel run (automatic granularity for 2 cores) against its sequential baseline, both on
/// the same data: the Ratio column is 1 / speedup. Also the measurement behind the sizes (medium: about 0.5–2 s per
/// parallel run on 2 cores).
/// </summary>
public class SampleTimingBenchmarks
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
    public void Sequential() => _program.RunSequential();

    [Benchmark]
    public void Parallel() => _program.RunParallelAsync(_scheduler).GetAwaiter().GetResult();
}
