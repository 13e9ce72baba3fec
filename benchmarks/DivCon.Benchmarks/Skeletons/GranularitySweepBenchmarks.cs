using BenchmarkDotNet.Attributes;
using DivCon.Samples;

namespace DivCon.Benchmarks.Skeletons;

/// <summary>
/// Time against granularity (the data behind Figure 7.1): one program on <see cref="Scheduler"/> with automatic
/// granularity for 2 cores and a varying number of execute muscles per core. MusclesPerCore = 0 runs the sequential
/// elision (granularity = problem size, one muscle); compare the other rows' means with that row's.
/// </summary>
public class GranularitySweepBenchmarks
{
    private IDivConSample _program = null!;
    private TaskScheduler _scheduler = null!;
    private Action? _release;

    [Params("montecarlopi")]
    public string Program { get; set; } = "montecarlopi";

    [Params("pair2", "ws2")]
    public string Scheduler { get; set; } = "pair2";

    [Params(ProblemSize.Medium)]
    public ProblemSize Size { get; set; } = ProblemSize.Medium;

    [Params(0, 1, 2, 4, 8, 16, 64, 256, 1024, 4096)]
    public int MusclesPerCore { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        (_scheduler, _release) = BenchmarkSchedulers.Create(Scheduler);
        SampleSettings settings = MusclesPerCore == 0
            ? new SampleSettings { SequentialElision = true }
            : new SampleSettings { Cores = 2, MusclesPerCore = MusclesPerCore };
        _program = SampleCatalog.Create(Program, Size, settings: settings);
        _program.Initialize();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _program.Verify();
        _release?.Invoke();
    }

    [Benchmark]
    public void Run() => _program.RunParallelAsync(_scheduler).GetAwaiter().GetResult();
}
