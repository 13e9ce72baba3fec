// WorkStealingTaskScheduler: a TaskScheduler façade over one WorkQueueSet, with a WorkerPool whose threads all
// serve that set for the scheduler's whole life.
//
// Roles and protocols
//   - Producers, owners, thieves and the no-lost-wake-up protocol: WorkQueueSet.cs.
//   - Workers, parking, shutdown steps: Worker.cs. This file adds only who calls what:
//     QueueTask -> WorkQueueSet.Enqueue (own deque on a worker of this scheduler, else the global queue);
//     TryExecuteTaskInline -> only on this scheduler's own workers, and for a task that was queued only after
//     removing it from the worker's own deque (so it cannot run twice and the available-task count stays exact);
//     TaskCreationOptions.LongRunning runs on a dedicated thread outside the pool (counted as running by Dispose), unless
//     compensation is off, where it runs on a worker like any other task (no thread beyond WorkerCount).
//   - Blocking user code: Task.Wait on a worker inlines the awaited task when it is in that worker's own deque (the
//     TPL tries inlining only for an untimed, token-less Wait); any other blocking is survived by blocking
//     compensation (BlockingMonitor.cs, on by default): a temporary compensating worker when the scheduler stalls with
//     tasks queued. With it off the pool has exactly WorkerCount threads and a blocked task blocks its worker.
//   - Late tasks: after Dispose, a task queued from outside (an await continuation) runs on the .NET thread pool and
//     is counted (WorkQueueSet.cs header), never rejected silently.
//
// Dispose, in order: (1) close the queue set to outside producers (a task queued from a non-worker thread now runs
// late, on the thread pool; the scheduler's own running tasks may still queue children, which completes the work
// already started); (2) BeginShutdown: workers run until the set is idle (nothing queued or running), then exit;
// (3) join the workers, compensating workers and the blocking monitor — skipped when Dispose runs on one of the
// workers, which would otherwise wait for itself; that worker exits on its own. A second Dispose returns at once.
//
// Rejected: running tasks queued after Dispose on the caller's thread (the caller may hold locks the task needs);
// throwing for them (the TPL swallows the exception for an await continuation: a silent loss); dropping queued tasks
// at Dispose (a task accepted must run).
namespace DivCon.Scheduling;

/// <summary>
/// A <see cref="TaskScheduler"/> with a fixed number of worker threads, each owning a work-stealing deque (owner
/// LIFO, thieves FIFO), and a global FIFO queue for tasks queued from other threads. Optionally pins one worker to
/// each of a set of processors.
/// </summary>
public sealed partial class WorkStealingTaskScheduler : TaskScheduler, IDisposable, ITaskExecutor
{
    private readonly WorkerPool _pool;
    private readonly WorkQueueSet _queues;
    private readonly StatisticsWindow _statistics;
    private readonly int[]? _processors;
    private int _disposed;

    /// <summary>Creates a scheduler with one unpinned worker per core of the CPU budget (<see cref="CpuBudget.Detect"/>).</summary>
    public WorkStealingTaskScheduler()
        : this(new WorkStealingSchedulerOptions())
    {
    }

    /// <summary>Creates a scheduler with <paramref name="workerCount"/> unpinned workers.</summary>
    /// <param name="workerCount">Number of workers, from 1 to <see cref="WorkStealingSchedulerOptions.MaxWorkerCount"/>.</param>
    public WorkStealingTaskScheduler(int workerCount)
        : this(new WorkStealingSchedulerOptions { WorkerCount = ValidateWorkerCount(workerCount, nameof(workerCount)) })
    {
    }

    /// <summary>Creates a scheduler as described by <paramref name="options"/>.</summary>
    /// <exception cref="ArgumentException">A worker count outside 1..4096, or processor ids that are empty, repeated, not allowed for this process, or fewer/more than the worker count.</exception>
    /// <exception cref="PlatformNotSupportedException">Processors were given, pinning is impossible here and <see cref="WorkStealingSchedulerOptions.BestEffortPinning"/> is false.</exception>
    public WorkStealingTaskScheduler(WorkStealingSchedulerOptions options)
        : this(options, WorkStealingDeque<Task>.DefaultInitialCapacity, 0)
    {
    }

    /// <summary>Test hook: deque capacity and start index (near int.MaxValue exercises wrap-around).</summary>
    internal WorkStealingTaskScheduler(WorkStealingSchedulerOptions options, int dequeInitialCapacity, int dequeStartIndex)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentException.ThrowIfNullOrWhiteSpace(options.ThreadName, nameof(options));
        Budget = options.Budget ?? CpuBudget.Detect();
        Budget.Validate(nameof(options));
        PoolPinning pinning = ResolveWorkers(options, Budget);
        _processors = pinning.Processors;
        BudgetWarning = Budget.CheckWorkers(pinning.Workers);
        _pool = PoolConstruction.Build(
            options.ThreadName, pinning, options.StealingScope, options.StealingGroups, options.StealingTopology,
            options.CompensateBlocking, options.CompensationDelay, options.MaxCompensatingWorkers, nameof(options));
        _queues = new WorkQueueSet(_pool, this, $"{nameof(WorkStealingTaskScheduler)} {Id}", dequeInitialCapacity, dequeStartIndex);
        _pool.Watch(_queues);
        foreach (Worker worker in _pool.Workers)
        {
            worker.SetInitialAssignment(_queues);
        }

        UnpinnedReason = PoolConstruction.Start(_pool, pinning, options.BestEffortPinning);
        IsPinned = pinning.Pinner is not null && UnpinnedReason is null;
        _statistics = new StatisticsWindow(_queues, i => IsPinned ? _processors![i] : null, BudgetWarning);
        _meterStatistics = new StatisticsWindow(_queues, _ => null);
        _meter = CreateMeter();
    }

    /// <summary>Number of worker threads (fixed for the scheduler's life).</summary>
    public int WorkerCount => _pool.WorkerCount;

    /// <inheritdoc/>
    public override int MaximumConcurrencyLevel => _pool.WorkerCount;

    /// <summary>True when every worker is pinned to its processor.</summary>
    public bool IsPinned { get; }

    /// <summary>Per worker, its processor id when <see cref="IsPinned"/>; empty otherwise.</summary>
    public IReadOnlyList<int> PinnedProcessors => IsPinned ? _processors! : [];

    /// <summary>Why the workers are unpinned although processors were requested (best effort); null otherwise.</summary>
    public string? UnpinnedReason { get; }

    /// <summary>Tasks queued and not yet started: a sum of per-worker counters, independent of the queue lengths.</summary>
    public int AvailableTasks => _queues.AvailableTasks;

    /// <summary>
    /// Tasks queued from outside after <see cref="Dispose"/> (typically await continuations coming back late): they
    /// ran on the .NET thread pool instead of being lost.
    /// </summary>
    public long LateTasks => _queues.LateTasks;

    /// <summary>Compensating workers started because every worker was stuck in a task with tasks queued.</summary>
    public long Compensations => _queues.Compensations;

    /// <summary>True when blocking compensation is on (<see cref="WorkStealingSchedulerOptions.CompensateBlocking"/>).</summary>
    public bool CompensatesBlocking => _pool.MaxCompensatingWorkers > 0;

    /// <summary>True once <see cref="Dispose"/> has been called.</summary>
    public bool IsDisposed => Volatile.Read(ref _disposed) != 0;

    /// <summary>Per-worker and total counters since the scheduler started or <see cref="ResetStatistics"/>.</summary>
    public SchedulerStatistics GetStatistics() => _statistics.Snapshot();

    /// <summary>Starts a new statistics window now.</summary>
    public void ResetStatistics() => _statistics.Reset();

    /// <summary>
    /// Closes the scheduler to outside threads, lets every task already queued or running (and the children they queue)
    /// finish, and waits for the workers to exit — except when called on one of this scheduler's workers, where it
    /// returns at once and the workers exit after the remaining tasks. A task queued from outside afterwards (an await
    /// continuation) runs on the .NET thread pool and is counted in <see cref="LateTasks"/>. Calling it again does nothing.
    /// </summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        _meter?.Dispose(); // null when the constructor failed (pinning) before creating it
        _queues.CloseExternal();
        _pool.BeginShutdown();
        if (!_pool.IsCurrentThreadAWorker)
        {
            _pool.Join();
        }
    }

    /// <inheritdoc/>
    protected override void QueueTask(Task task) => _queues.Schedule(task);

    /// <inheritdoc/>
    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) => _queues.TryExecuteInline(task, taskWasPreviouslyQueued);

    /// <inheritdoc/>
    protected override IEnumerable<Task> GetScheduledTasks() => _queues.GetScheduledTasks();

    bool ITaskExecutor.ExecuteTask(Task task) => TryExecuteTask(task);

    internal WorkQueueSet Queues => _queues;

    internal WorkerPool Pool => _pool;

    private static int ValidateWorkerCount(int workerCount, string paramName)
    {
        if (workerCount is < 1 or > WorkStealingSchedulerOptions.MaxWorkerCount)
        {
            throw new ArgumentOutOfRangeException(
                paramName, workerCount, $"The worker count must be between 1 and {WorkStealingSchedulerOptions.MaxWorkerCount}.");
        }

        return workerCount;
    }
}
