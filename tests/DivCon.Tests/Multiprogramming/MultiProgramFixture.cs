using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Scheduling;
using DivCon.Tests.Scheduling;

namespace DivCon.Tests.Multiprogramming;

/// <summary>One program alone in a MultiProgramScheduler, seen through the scheduler contract.</summary>
internal sealed class SingleProgramFixture : ISchedulerFixture
{
    private readonly MultiProgramScheduler _mps;
    private readonly ProgramHandle _program;

    public SingleProgramFixture(int workers, bool pinned)
    {
        _mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            Processors = ThreadAffinity.GetProcessAffinity().Take(workers).ToArray(),
            Unpinned = !pinned,
            BestEffortPinning = true,
        });
        _program = _mps.AddProgram("contract");
    }

    public TaskScheduler Scheduler => _program.Scheduler;

    public int Workers => _mps.WorkerCount;

    public long Steals => _program.GetStatistics().Steals;

    public bool IsWorker(Thread thread) => _mps.Pool.Workers.Any(w => ReferenceEquals(w.Thread, thread));

    public void Dispose() => Assert.True(Task.Run(_mps.Dispose).Wait(TimeSpan.FromSeconds(30)), "Dispose did not return within 30 s.");
}

/// <summary>A test policy that gives every core to a random program on every call (chaos): valid, but never stable.</summary>
internal sealed class ChaosPolicy(int seed) : IPartitioningPolicy
{
    private readonly Random _random = new(seed);

    public string Name => "chaos";

    public Shares Decide(PartitioningInput input)
    {
        int m = input.Programs.Count;
        var counts = new int[m];
        lock (_random)
        {
            for (int core = 0; m > 0 && core < input.Cores; core++)
            {
                counts[_random.Next(m)]++;
            }
        }

        return Shares.FromCounts(input, counts, reason: AllocationReason.Fixed);
    }
}

/// <summary>
/// Chaos with idle lending: random allocations, and a borrower rule that lends an idle worker to a random other program
/// (with or without tasks) or to none, so that loans, returns from borrowers without tasks, recalls and the mover's
/// moves all race.
/// </summary>
internal sealed class ChaosLendingPolicy(int seed) : IIdleLendingPolicy
{
    private readonly ChaosPolicy _allocations = new(seed);
    private readonly Random _random = new(seed + 1);
    private long _loans;

    public string Name => "chaos-lending";

    /// <summary>Borrowers chosen (not -1).</summary>
    public long Loans => Interlocked.Read(ref _loans);

    public Shares Decide(PartitioningInput input) => _allocations.Decide(input);

    public int ChooseBorrower(LendingInput input)
    {
        int m = input.Programs.Count;
        int pick;
        lock (_random)
        {
            pick = _random.Next(-1, m);
        }

        if (pick == input.Lender)
        {
            return -1;
        }

        if (pick >= 0)
        {
            Interlocked.Increment(ref _loans);
        }

        return pick;
    }
}

/// <summary>A borrower rule as a delegate (a ref struct cannot be a generic argument of Func).</summary>
internal delegate int BorrowerRule(LendingInput input);

/// <summary>
/// A fixed allocation (per program id) whose idle lending follows a given rule (default: IdleLending.ChooseBorrower),
/// recording every call in which some program had tasks: what the rule saw and what it chose.
/// </summary>
internal sealed class FixedLendingPolicy(IReadOnlyDictionary<int, int> coresByProgramId, BorrowerRule? rule = null) : IIdleLendingPolicy
{
    private readonly FixedAllocationPolicy _fixed = new(coresByProgramId);
    private readonly BorrowerRule _rule = rule ?? IdleLending.ChooseBorrower;
    private readonly List<BorrowerCall> _calls = [];

    public string Name => "fixed-lending";

    public IReadOnlyList<BorrowerCall> Calls
    {
        get
        {
            lock (_calls)
            {
                return [.. _calls];
            }
        }
    }

    public RotationScope Rotation => _fixed.Rotation;

    public Shares Decide(PartitioningInput input) => _fixed.Decide(input);

    public int ChooseBorrower(LendingInput input)
    {
        int chosen = _rule(input);
        bool anyTasks = false;
        foreach (int t in input.AvailableTasks)
        {
            anyTasks |= t > 0;
        }

        if (anyTasks)
        {
            lock (_calls)
            {
                _calls.Add(new BorrowerCall(input.Programs.Select(p => p.Scalability).ToArray(), input.ServingWorkers.ToArray(), input.AvailableTasks.ToArray(), input.Lender, chosen));
            }
        }

        return chosen;
    }
}

/// <summary>One call of a borrower rule: its inputs (per program index) and its answer.</summary>
internal sealed record BorrowerCall(double[] Scalabilities, int[] ServingWorkers, int[] AvailableTasks, int Lender, int Chosen);

/// <summary>A policy whose result is broken in a chosen way.</summary>
internal sealed class BrokenPolicy(string how) : IPartitioningPolicy
{
    public string Name => "broken-" + how;

    public Shares Decide(PartitioningInput input)
    {
        int[] ids = input.Programs.Select(p => p.ProgramId).ToArray();
        return how switch
        {
            "wrong-sum" => new Shares(ids.Select((id, i) => new ProgramShare(id, i == 0 ? input.Cores + 1 : 0, AllocationReason.Fixed))),
            "unassigned" => new Shares(ids.Select(id => new ProgramShare(id, 0, AllocationReason.Fixed))),
            "unknown-program" => new Shares([.. ids.Select(id => new ProgramShare(id, 0, AllocationReason.Fixed)), new ProgramShare(ids.Max() + 1, input.Cores, AllocationReason.Fixed)]),
            "wrong-program-count" => new Shares(ids.Skip(1).Select((id, i) => new ProgramShare(id, i == 0 ? input.Cores : 0, AllocationReason.Fixed))),
            _ => throw new InvalidOperationException("unknown breakage"),
        };
    }
}

/// <summary>A spawn tree where every node has an id and marks itself, so each task's runs can be counted.</summary>
internal sealed class MarkedTree
{
    private readonly int[] _runs;
    private readonly int[] _startThread;
    private readonly int[] _endThread;
    private readonly TaskCompletionSource _done = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly int _depth;
    private long _count;

    public MarkedTree(int depth)
    {
        _depth = depth;
        Size = (int)((2L << depth) - 1);
        _runs = new int[Size];
        _startThread = new int[Size];
        _endThread = new int[Size];
    }

    public int Size { get; }

    public Task Done => _done.Task;

    public long Count => Interlocked.Read(ref _count);

    public void Start(TaskScheduler scheduler)
        => Task.Factory.StartNew(() => Node(0, _depth), CancellationToken.None, TaskCreationOptions.None, scheduler);

    private void Node(int id, int depth)
    {
        _startThread[id] = Environment.CurrentManagedThreadId;
        Interlocked.Increment(ref _runs[id]);
        if (depth > 0)
        {
            // Heap numbering: children of id are 2id+1 and 2id+2. No scheduler given: TaskScheduler.Current.
            Task.Factory.StartNew(() => Node((2 * id) + 1, depth - 1));
            Task.Factory.StartNew(() => Node((2 * id) + 2, depth - 1));
        }

        Thread.SpinWait(20);
        _endThread[id] = Environment.CurrentManagedThreadId;
        if (Interlocked.Increment(ref _count) == Size)
        {
            _done.TrySetResult();
        }
    }

    /// <summary>Ids that did not run exactly once (at most 10).</summary>
    public int[] NotExactlyOnce() => Enumerable.Range(0, Size).Where(i => Volatile.Read(ref _runs[i]) != 1).Take(10).ToArray();

    /// <summary>The managed thread ids the tasks ran on.</summary>
    public IReadOnlySet<int> Threads() => _startThread.Concat(_endThread).ToHashSet();

    /// <summary>Tasks that ended on another thread than the one they started on.</summary>
    public int ChangedThread() => Enumerable.Range(0, Size).Count(i => _startThread[i] != _endThread[i]);
}

/// <summary>
/// A program that competes for the workers while a test runs: it keeps queuing short steps (an await between two), so
/// that the policy moves workers between it and the program under test. Disposing stops it and waits for it (bounded).
/// </summary>
internal sealed class CompetingLoad : IDisposable
{
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _load;

    public CompetingLoad(ProgramHandle program)
    {
        _load = program.Run(async () =>
        {
            while (!_stop.IsCancellationRequested)
            {
                await Task.Yield();
                Thread.SpinWait(2_000);
            }
        });
    }

    public void Dispose()
    {
        _stop.Cancel();
        Assert.True(((IAsyncResult)_load).AsyncWaitHandle.WaitOne(TimeSpan.FromSeconds(30)), "The competing load did not stop within 30 s.");
        _load.GetAwaiter().GetResult();
        _stop.Dispose();
    }
}
