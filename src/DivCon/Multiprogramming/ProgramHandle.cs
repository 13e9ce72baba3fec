using DivCon.Partitioning;
using DivCon.Partitioning.Estimation;
using DivCon.Scheduling;

namespace DivCon.Multiprogramming;

/// <summary>
/// A program registered with a <see cref="MultiProgramScheduler"/>: its own <see cref="TaskScheduler"/>, its
/// current allocation, its load and its statistics. Remove it with <see cref="MultiProgramScheduler.RemoveProgram"/>.
/// </summary>
public sealed partial class ProgramHandle : IQueueSetOwner
{
    private readonly ProgramTaskScheduler _scheduler;
    private readonly StatisticsWindow _statistics;
    private readonly CancellationTokenSource _cancellation = new();
    private double _userScalability;             // NaN: none given (estimated online); any thread, Volatile
    private ProgramScalability _scalabilityState; // written by the mover under the scheduler's lock, read by anyone (Volatile)
    private long _movesIn;
    private long _movesOut;
    private long _movesInBaseline;
    private long _movesOutBaseline;
    private bool _isNewcomer;                    // mover under the lock writes, producers read (IsNewcomer)

    // Workers assigned to the program now (owned + lent in - lent out). Interlocked by whoever wins the CAS that changes
    // a worker's assignment (the mover, or the worker in a loan, return or recall: IQueueSetOwner); read by lenders
    // choosing a borrower.
    private int _servingWorkers;

    internal ProgramHandle(MultiProgramScheduler owner, int id, string name, double? scalability, ScalabilityTable? table, WorkerPool pool, Func<int, int?> processorOf)
    {
        Owner = owner;
        Id = id;
        Name = name;
        _userScalability = scalability ?? double.NaN;
        ScalabilityTable = table;
        _scalabilityState = new ProgramScalability(
            scalability ?? table?.SpeedupAt(pool.WorkerCount) ?? 1.0,
            scalability is not null || table is not null ? ScalabilitySource.User : ScalabilitySource.Default,
            OnlineScalabilityEstimator.NoEstimate,
            false);
        _scheduler = new ProgramTaskScheduler(pool, $"program '{name}' ({id})");
        _scheduler.Queues.Owner = this;
        _statistics = new StatisticsWindow(_scheduler.Queues, processorOf);
    }

    /// <summary>A stable id, unique within the scheduler (the <see cref="ProgramLoad.ProgramId"/> policies see).</summary>
    public int Id { get; }

    /// <summary>The name given when the program was added (a metrics tag and the timeline's label).</summary>
    public string Name { get; }

    /// <summary>The program's scheduler: queue its tasks here (or run them with it as <see cref="TaskScheduler.Current"/>).</summary>
    public TaskScheduler Scheduler => _scheduler;

    /// <summary>Canceled when the program is removed with <see cref="ProgramRemoval.CancelTasks"/>; give it to the program's tasks.</summary>
    public CancellationToken CancellationToken => _cancellation.Token;

    /// <summary>
    /// The program's speedup alone on the whole machine, as policies see it; positive and finite: the user's number
    /// when one was given (to <see cref="MultiProgramScheduler.AddProgram"/> or here), else the online estimate
    /// (<see cref="ScalabilityState"/>). Settable, e.g. by a harness that has measured it: a number set here wins over
    /// the estimate from the next repartitioning on.
    /// </summary>
    public double Scalability
    {
        get => UserScalability ?? Volatile.Read(ref _scalabilityState).Scalability;
        set
        {
            MultiProgramScheduler.ValidateScalability(value, nameof(value));
            Volatile.Write(ref _userScalability, value);
            Owner.WakeRepartitioner(); // a dormant repartitioner decides with the new value at once
        }
    }

    /// <summary>
    /// The scalability the policy was given at the last repartitioning, where it came from (user, online estimate,
    /// default) and the online estimate with its confidence (docs/online-scalability.md).
    /// </summary>
    public ProgramScalability ScalabilityState => Volatile.Read(ref _scalabilityState);

    /// <summary>Optional speedups at several core counts, for policies that use them.</summary>
    public ScalabilityTable? ScalabilityTable { get; }

    /// <summary>Worker slots the program holds in the allocation in force.</summary>
    public int Allocation => Owner.CoresOf(this);

    /// <summary>
    /// Pool workers serving the program now: those that have entered it at a task boundary, whatever the allocation
    /// says. Below <see cref="Allocation"/> while a worker given to the program is still inside another program's task
    /// (a move waits for the task in hand: <see cref="MultiProgramSnapshot.PendingMoves"/> shows each with its age) or
    /// has not yet run to its next look at its assignment (between two tasks, or waiting for the operating system to give
    /// its thread a processor: <see cref="MultiProgramSnapshot.WorkerThreadIds"/>), or while its own worker is lent to
    /// another program (a recall pending: <see cref="MultiProgramSnapshot.WorkerHomes"/>); above it while a worker lent
    /// by another program serves it. Compensating workers are not counted
    /// (<see cref="Compensations"/>). O(workers), racy: a display, not a decision.
    /// </summary>
    public int ServedWorkers
    {
        get
        {
            WorkQueueSet queues = Queues;
            int served = 0;
            foreach (Worker worker in Owner.Pool.Workers)
            {
                if (ReferenceEquals(worker.ServingForReaders, queues))
                {
                    served++;
                }
            }

            return served;
        }
    }

    /// <summary>Tasks queued and not yet started: a sum of per-slot counters (O(workers)), not a queue walk.</summary>
    public int AvailableTasks => _scheduler.Queues.AvailableTasks;

    /// <summary>
    /// Tasks queued from outside the program's tasks after its removal began (typically await continuations coming
    /// back late): they ran on the .NET thread pool instead of being lost.
    /// </summary>
    public long LateTasks => _scheduler.Queues.LateTasks;

    /// <summary>Compensating workers started for the program because its workers were stuck in tasks with tasks queued.</summary>
    public long Compensations => _scheduler.Queues.Compensations;

    /// <summary>True once the program has been removed (a task queued to it from outside then runs late, see <see cref="LateTasks"/>).</summary>
    public bool IsRemoved { get; internal set; }

    /// <summary>True from the start of its removal: tasks queued from outside its own tasks then run late (<see cref="LateTasks"/>).</summary>
    public bool IsRemoving { get; internal set; }

    /// <summary>The scheduler the program belongs to.</summary>
    public MultiProgramScheduler Owner { get; }

    /// <summary>The program's accounting since it was added or <see cref="ResetStatistics"/>.</summary>
    public ProgramStatistics GetStatistics()
        => new(Id, Name, _statistics.Snapshot(), Interlocked.Read(ref _movesIn) - Interlocked.Read(ref _movesInBaseline), Interlocked.Read(ref _movesOut) - Interlocked.Read(ref _movesOutBaseline));

    /// <summary>Starts a new statistics window now.</summary>
    public void ResetStatistics()
    {
        _statistics.Reset();
        Interlocked.Exchange(ref _movesInBaseline, Interlocked.Read(ref _movesIn));
        Interlocked.Exchange(ref _movesOutBaseline, Interlocked.Read(ref _movesOut));
    }

    /// <inheritdoc/>
    public override string ToString() => $"{Name} ({Id})";

    internal WorkQueueSet Queues => _scheduler.Queues;

    /// <summary>The user-given scalability, or null (then it is estimated online).</summary>
    internal double? UserScalability => Volatile.Read(ref _userScalability) is double v && !double.IsNaN(v) ? v : null;

    // Mover only (under the scheduler's lock); Volatile.Write pairs with the Volatile.Read of ScalabilityState.
    internal void PublishScalability(ProgramScalability state) => Volatile.Write(ref _scalabilityState, state);

    /// <summary>The program's cumulative counters over every slot (pool and compensating), without allocating.</summary>
    internal ProgramCounters ReadCounters(long now)
    {
        WorkQueueSet set = Queues;
        long busy = 0, idle = 0, tasks = 0;
        for (int i = 0; i < set.UsedSlotCount; i++)
        {
            WorkerCounterValues v = set.ReadCounters(i, now);
            busy += v.BusyTicks;
            idle += v.IdleTicks;
            tasks += v.TasksExecuted;
        }

        double perSecond = 1.0 / System.Diagnostics.Stopwatch.Frequency;
        return new ProgramCounters((busy + idle) * perSecond, idle * perSecond, tasks);
    }

    /// <summary>
    /// The program's attained service up to <paramref name="now"/>: the time its tasks ran, summed over every slot (pool
    /// workers, lent ones included, and compensating ones) since it was added; a task still running counts up to now.
    /// Not reset by <see cref="ResetStatistics"/>. O(slots), no allocation.
    /// </summary>
    internal TimeSpan AttainedService(long now)
    {
        WorkQueueSet set = Queues;
        long busy = 0;
        for (int i = 0; i < set.UsedSlotCount; i++)
        {
            busy += set.ReadCounters(i, now).BusyTicks;
        }

        return TimeSpan.FromSeconds((double)busy / System.Diagnostics.Stopwatch.Frequency);
    }

    /// <summary>Tasks of the program running now (taken, not finished) on any slot. O(slots), racy: a momentary observation.</summary>
    internal int RunningTasks
    {
        get
        {
            WorkQueueSet set = Queues;
            int running = 0;
            for (int i = 0; i < set.UsedSlotCount; i++)
            {
                running += set.IsRunningTask(i) ? 1 : 0;
            }

            return running;
        }
    }

    /// <summary>
    /// True when the last decision found the program a newcomer (attained service below the quantum,
    /// <see cref="MultiProgramSchedulerOptions.NewcomerQuantum"/>). Written by the mover under the scheduler's lock
    /// (Volatile.Write), read without it by a producer's demand signal (MultiProgramScheduler.OnDemandChanged,
    /// Volatile.Read). Racy by design: a stale true costs one quiet decision, a stale false leaves the newcomer to the
    /// starvation trigger or the tick.
    /// </summary>
    internal bool IsNewcomer
    {
        get => Volatile.Read(ref _isNewcomer);
        set => Volatile.Write(ref _isNewcomer, value);
    }

    internal long TotalTasksExecuted => _statistics.Snapshot().TasksExecuted;

    internal long MovesInTotal => Interlocked.Read(ref _movesIn);

    /// <summary>
    /// Workers whose assignment is this program now (owned plus lent in, minus lent out). Exact once the moves in flight
    /// have been counted; a racy read may be off by those (a load estimate for the borrower rule).
    /// </summary>
    internal int ServingWorkers => Volatile.Read(ref _servingWorkers);

    void IQueueSetOwner.WorkerArrived()
    {
        Interlocked.Increment(ref _servingWorkers);
        Interlocked.Increment(ref _movesIn);
    }

    void IQueueSetOwner.WorkerLeft()
    {
        Interlocked.Decrement(ref _servingWorkers);
        Interlocked.Increment(ref _movesOut);
    }

    void IQueueSetOwner.LateTaskQueued() => Owner.RecordLateTask();

    internal void Cancel() => _cancellation.Cancel();
}
