using BenchmarkDotNet.Attributes;
using DivCon.Multiprogramming;
using DivCon.Scheduling;

namespace DivCon.Benchmarks.Multiprogramming;

/// <summary>
/// Move latency: from an allocation change (a policy switch applied by <see cref="MultiProgramScheduler.Policy"/>)
/// to the moved worker running the new program's task. Program B holds no worker and has one task queued; the
/// operation gives B one worker and waits until the task has run. Between operations the allocation goes back
/// (<see cref="IterationSetup"/>), and the workers are left to park, so every move starts from the idle state.
/// One invocation per iteration: a move is not a steady state.
/// </summary>
[InvocationCount(1)]
[IterationCount(40)]
[WarmupCount(3)]
public class MoveLatencyBenchmarks
{
    private readonly ManualResetEventSlim _ran = new(false);
    private MultiProgramScheduler? _multi;
    private ProgramHandle? _a;
    private ProgramHandle? _b;
    private FixedAllocationPolicy? _allToA;
    private FixedAllocationPolicy? _oneToB;

    [GlobalSetup]
    public void Setup()
    {
        _multi = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            BestEffortPinning = true,
            RepartitionInterval = Timeout.InfiniteTimeSpan,
        });
        _a = _multi.AddProgram("a");
        _b = _multi.AddProgram("b");
        int n = _multi.WorkerCount;
        _allToA = new FixedAllocationPolicy(new Dictionary<int, int> { [_a.Id] = n, [_b.Id] = 0 });
        _oneToB = new FixedAllocationPolicy(new Dictionary<int, int> { [_a.Id] = n - 1, [_b.Id] = 1 });
    }

    [GlobalCleanup]
    public void Cleanup() => _multi?.Dispose();

    [IterationSetup]
    public void StarveB()
    {
        _multi!.Policy = _allToA!;
        _ran.Reset();
        Task.Factory.StartNew(static s => ((ManualResetEventSlim)s!).Set(), _ran, CancellationToken.None, TaskCreationOptions.None, _b!.Scheduler);
        Thread.Sleep(20); // the workers park
    }

    [Benchmark(Description = "allocation change -> task of the new program runs")]
    public bool Move()
    {
        _multi!.Policy = _oneToB!;
        return _ran.Wait(TimeSpan.FromSeconds(10));
    }
}
