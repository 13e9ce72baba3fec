using BenchmarkDotNet.Attributes;
using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Scheduling;

namespace DivCon.Benchmarks.Multiprogramming;

/// <summary>
/// Latency of the MultiProgramScheduler's two ways of putting a worker to a program's task, each from its idle
/// state, with the wake-up of a parked worker of a standalone scheduler as the baseline measured in the same run:
/// <list type="bullet">
/// <item><b>Move</b>: allocation change → the moved worker runs the new program's task. Program B holds no worker
/// and has one task queued; the operation gives B one worker (a policy switch applied by
/// <see cref="MultiProgramScheduler.Policy"/>) and waits until the task has run. Between operations the allocation
/// goes back and the workers are left to park.</item>
/// <item><b>Recall</b>: task queued to a program whose worker is on loan → that worker, back home at its next task
/// boundary, runs it. Under the default policy (equal shares, throughput lending) program A has nothing to do, so its
/// worker is lent to B, which runs chains of short tasks (about 20 µs each) on every worker; the operation queues
/// one task to A and waits until it has run. Between operations A's worker is lent to B again.</item>
/// </list>
/// One invocation per iteration: a move is not a steady state. On a machine with as many cores as workers the
/// recall's waiting thread competes with the busy workers for a core, which adds its own wake-up to the figure.
/// </summary>
[InvocationCount(1)]
[IterationCount(40)]
[WarmupCount(3)]
public class MoveLatencyBenchmarks
{
    private readonly ManualResetEventSlim _ran = new(false);
    private WorkStealingTaskScheduler? _standalone;
    private MultiProgramScheduler? _move;
    private ProgramHandle? _a;
    private ProgramHandle? _b;
    private FixedAllocationPolicy? _allToA;
    private FixedAllocationPolicy? _oneToB;
    private MultiProgramScheduler? _lending;
    private ProgramHandle? _home;
    private ProgramHandle? _borrower;
    private volatile bool _stopChains;

    [GlobalSetup]
    public void Setup()
    {
        _standalone = new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { Processors = ThreadAffinity.GetProcessAffinity(), BestEffortPinning = true });
        _move = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            BestEffortPinning = true,
            RepartitionInterval = Timeout.InfiniteTimeSpan,
        });
        _a = _move.AddProgram("a");
        _b = _move.AddProgram("b");
        int n = _move.WorkerCount;
        _allToA = new FixedAllocationPolicy(new Dictionary<int, int> { [_a.Id] = n, [_b.Id] = 0 });
        _oneToB = new FixedAllocationPolicy(new Dictionary<int, int> { [_a.Id] = n - 1, [_b.Id] = 1 });

        _lending = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            BestEffortPinning = true,
            RepartitionInterval = Timeout.InfiniteTimeSpan,
            CompensateBlocking = false,
        });
        _home = _lending.AddProgram("home");
        _borrower = _lending.AddProgram("borrower");
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _stopChains = true;
        _standalone?.Dispose();
        _move?.Dispose();
        _lending?.Dispose();
    }

    [IterationSetup(Target = nameof(WakeUp))]
    public void LetWorkersPark()
    {
        _ran.Reset();
        Thread.Sleep(20);
    }

    [IterationSetup(Target = nameof(Move))]
    public void StarveB()
    {
        _move!.Policy = _allToA!;
        _ran.Reset();
        Task.Factory.StartNew(static s => ((ManualResetEventSlim)s!).Set(), _ran, CancellationToken.None, TaskCreationOptions.None, _b!.Scheduler);
        Thread.Sleep(20); // the workers park
    }

    [IterationSetup(Target = nameof(Recall))]
    public void LendHomesWorkers()
    {
        _ran.Reset();
        if (_borrower!.AvailableTasks == 0)
        {
            // Two chains per worker keep the borrower busy on every worker for the whole run.
            for (int i = 0; i < 2 * _lending!.WorkerCount; i++)
            {
                Task.Factory.StartNew(Chain, CancellationToken.None, TaskCreationOptions.None, _borrower.Scheduler);
            }
        }

        // Every worker serves the borrower: the home program's worker is on loan.
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (_lending!.GetSnapshot().WorkerServing.Any(id => id != _borrower.Id) && DateTime.UtcNow < deadline)
        {
            Thread.Sleep(1);
        }
    }

    [Benchmark(Baseline = true, Description = "wake-up: task queued -> a parked worker runs it (standalone)")]
    public bool WakeUp()
    {
        Task.Factory.StartNew(static s => ((ManualResetEventSlim)s!).Set(), _ran, CancellationToken.None, TaskCreationOptions.None, _standalone!);
        return _ran.Wait(TimeSpan.FromSeconds(10));
    }

    [Benchmark(Description = "move: allocation change -> task of the new program runs")]
    public bool Move()
    {
        _move!.Policy = _oneToB!;
        return _ran.Wait(TimeSpan.FromSeconds(10));
    }

    [Benchmark(Description = "recall: task queued to a program whose worker is lent -> it runs")]
    public bool Recall()
    {
        Task.Factory.StartNew(static s => ((ManualResetEventSlim)s!).Set(), _ran, CancellationToken.None, TaskCreationOptions.None, _home!.Scheduler);
        return _ran.Wait(TimeSpan.FromSeconds(10));
    }

    private void Chain()
    {
        long until = System.Diagnostics.Stopwatch.GetTimestamp() + (System.Diagnostics.Stopwatch.Frequency / 50_000); // ~20 µs
        while (System.Diagnostics.Stopwatch.GetTimestamp() < until)
        {
            Thread.SpinWait(10);
        }

        if (!_stopChains)
        {
            Task.Factory.StartNew(Chain, CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Current);
        }
    }
}
