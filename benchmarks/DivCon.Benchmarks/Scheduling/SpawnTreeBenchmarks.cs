using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using DivCon.Scheduling;

namespace DivCon.Benchmarks.Scheduling;

/// <summary>
/// Per-task cost of a binary spawn tree of near-empty tasks on <c>WorkStealingTaskScheduler(2)</c> vs
/// <c>TaskScheduler.Default</c>, in one run: ns/task per size, the ratio to Default per size, and the slope of time
/// over tree size per scheduler (robust to a fixed per-run cost and to noise in any single size).
/// </summary>
[Config(typeof(Config))]
[MemoryDiagnoser]
public class SpawnTreeBenchmarks
{
    private WorkStealingTaskScheduler? _workStealing;
    private WorkStealingTaskScheduler? _cacheGroupFirst;
    private WorkStealingTaskScheduler? _pinned;

    /// <summary>Tree depth: 2^(Depth+1) - 1 tasks.</summary>
    [Params(16, 18, 20)]
    public int Depth { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _workStealing = SchedulerKind.CreateWorkStealing();
        _cacheGroupFirst = SchedulerKind.CreateCacheGroupFirst();
        _pinned = SchedulerKind.CreatePinned();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _workStealing?.Dispose();
        _cacheGroupFirst?.Dispose();
        _pinned?.Dispose();
    }

    [Benchmark(Baseline = true, Description = "Default")]
    public long Default() => SpawnTree.Run(TaskScheduler.Default, Depth);

    [Benchmark(Description = "WorkStealing(2)")]
    public long WorkStealing() => SpawnTree.Run(_workStealing!, Depth);

    [Benchmark(Description = "WorkStealing(2) pinned")]
    public long Pinned() => SpawnTree.Run(_pinned!, Depth);

    [Benchmark(Description = "WorkStealing(2) CacheGroupFirst")]
    public long CacheGroupFirst() => SpawnTree.Run(_cacheGroupFirst!, Depth);

    private sealed class Config : ManualConfig
    {
        public Config()
        {
            static long Tasks(BenchmarkDotNet.Running.BenchmarkCase c) => SpawnTree.Size((int)c.Parameters["Depth"]);
            AddColumn(new NsPerTaskColumn(Tasks), new NsPerTaskSlopeColumn(Tasks));
            Orderer = new BenchmarkDotNet.Order.DefaultOrderer(BenchmarkDotNet.Order.SummaryOrderPolicy.Declared);
        }
    }
}
