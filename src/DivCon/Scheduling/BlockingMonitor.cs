// Blocking compensation: user code that blocks a worker (Task.Wait with a timeout or a token, WaitAll, a lock, an
// event set by a later task) must not deadlock a program whose remaining tasks need a worker. Like the .NET thread
// pool's starvation injection, a monitor watches each queue set and, when a set has tasks queued but nobody took or
// finished one for CompensationDelay while one of its workers is inside a task, starts a compensating worker for that
// set (Worker.cs header): a temporary extra thread, bounded per set (WorkerPool.MaxCompensatingWorkers), unpinned,
// that retires at its next task boundary once the stuck worker it stands in for returns from its task, or as soon as
// it finds nothing to do. One compensating worker per stuck worker; a stuck compensating worker can be stood in for
// too (a chain of tasks each waiting for the next).
//
// Roles
//   producer - WorkQueueSet.SignalWork: arms the monitor when it sleeps (IsDisarmed: one volatile read per push).
//   monitor  - this thread: while armed, samples every watched set each CompensationDelay / 2 (a progress stamp:
//              tasks taken + finished, and AvailableTasks); disarms when no set has a task queued.
//   worker   - a stuck worker returning from its task retires its compensating worker (Worker.ReturnFromStall).
//
// No idle cost (required: an idle scheduler wakes no more often than without compensation): disarmed, the monitor
// blocks without a timeout. No missed arming (required: a stall with tasks queued is always seen), the same
// asymmetric pair as parking: the monitor writes disarmed, executes a process-wide barrier, then re-reads every set's
// AvailableTasks; a producer publishes its task, then reads disarmed. Either the monitor sees the task (and stays
// armed) or the producer sees disarmed (and arms it).
//
// Owed, not served (required, issue 20: no program with queued tasks waits unboundedly for a task boundary). A worker
// moves between sets only between tasks, so a program the allocation gives a worker that is inside another program's
// task (a move still pending, or a lent worker whose recall is pending) has queued tasks and nobody serving it until
// that task ends, which may be never (a task looping a synchronous Parallel.For). The worker is running, not blocked,
// so the first rule never sees it. The same stall detection covers it: a set with tasks queued and no progress for
// CompensationDelay gets a compensating worker standing in for the worker it is owed (FindStuckWorker's last pass;
// timeline reason MoveCompensation). It serves that set until the owed worker returns from its task (and then
// arrives, at that boundary) or until it finds nothing to do; a later stall starts another. Guarantee, with
// compensation on and below the per-set bound: a set with tasks queued that some worker is owed starts a task within
// about 1.5 x CompensationDelay (the sampling period is half the delay) plus a thread start. Not covered: a program the
// policy gives no core at all (it waits for the policy, i.e. the next decision), and compensation turned off.
//
// Blocked, not computing (required: a worker running a long computation is not compensated for, so a pool sized to
// the CPU budget stays at its size, and a CPU quota is not exceeded by a second thread). "No progress with tasks
// queued" alone cannot tell a blocked worker from one running a long task (a 250 ms Monte Carlo chunk while its
// siblings wait): on Linux the monitor reads the worker thread's scheduler state (/proc/self/task/TID/stat) and stands
// in only for a worker that is not running or runnable (state other than R: sleeping in a wait, a lock, I/O). A wait
// that spins before it sleeps (Task.Wait, Monitor, SemaphoreSlim) is seen asleep at a later sample. One reading is
// not enough (required: no compensation for a computing worker caught in a brief sleep): a worker the runtime has
// suspended for a garbage collection, or one in a page fault, is not in state R either, and on a loaded machine the
// monitor can be descheduled inside its read just as a collection suspends the worker. So a worker counts as blocked
// only when it was seen asleep at two consecutive samples, half a delay apart (a blocked worker stays asleep; a brief
// sleep ends between them), and a reading during which a collection paused the runtime does not count at all; the
// first sighting keeps the set's stall clock running, so the second sample checks again and a blocked worker is stood
// in for one sampling period later than with one reading. Limits, said
// plainly: a worker that busy-waits for a queued task without ever sleeping is taken for a computing one and is not
// compensated for; a computing worker that sleeps inside the runtime at two samples (waiting for a JIT, type-loader or
// tiering lock, or in a runtime suspension that is not a collection and so is not in the pause total, while a loaded
// machine deschedules the thread it waits for) is taken for a blocked one and stood in for, and its compensating
// worker retires as above (a thread preempted but runnable reads R and is never taken for blocked); where the state
// cannot be read (other systems, /proc not mounted) every stuck worker counts as blocked, as in the .NET thread pool.
// The owed-not-served rule below is about running workers and reads no state.
// Turn compensation off (the schedulers' options) to keep "never more workers than processors" strictly.
//
// Rejected: detecting blocking calls themselves (SynchronizationContext wait notification is Windows-only and misses
// spinning waits); letting a blocked worker's slot be taken over (its task may push to its deque again when it wakes);
// a timer per set (one thread, asleep when idle, watches all sets).
using System.Diagnostics;

namespace DivCon.Scheduling;

/// <summary>Detects stalled queue sets and starts compensating workers for them (see the file header).</summary>
internal sealed class BlockingMonitor
{
    private readonly WorkerPool _pool;
    private readonly TimeSpan _delay;
    private readonly AutoResetEvent _signal = new(false);
    private readonly Dictionary<WorkQueueSet, (long Stamp, long Since)> _samples = new(ReferenceEqualityComparer.Instance);

    // Monitor thread only. The number of the current sample, and for each worker last seen asleep inside a stalled
    // set's task the number of that sample: asleep at the current sample and the one before means blocked (header,
    // "one reading is not enough").
    private readonly Dictionary<Worker, long> _seenAsleep = new(ReferenceEqualityComparer.Instance);
    private long _sampleNumber;
    private Thread? _thread;

    // 1 while the monitor sleeps (producers arm it), 0 while it samples. Written by producers (Interlocked) and the
    // monitor; read by producers on every push.
    private int _disarmed = 1;

    private volatile bool _stopping;

    public BlockingMonitor(WorkerPool pool, TimeSpan delay)
    {
        _pool = pool;
        _delay = delay;
    }

    public Thread? Thread => _thread;

    public bool IsDisarmed
    {
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
        get => Volatile.Read(ref _disarmed) != 0;
    }

    public void Start()
    {
        _thread = new Thread(Run) { IsBackground = true, Name = "DivCon blocking monitor" };
        _thread.Start();
    }

    /// <summary>Producer: wakes the monitor (the first producer after it disarmed; the others see it armed).</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    public void Arm()
    {
        // Interlocked: a full fence, and only one producer signals per disarmed spell.
        if (Interlocked.Exchange(ref _disarmed, 0) != 0)
        {
            _signal.Set();
        }
    }

    public void Stop()
    {
        _stopping = true;
        _signal.Set();
    }

    private void Run()
    {
        TimeSpan period = _delay / 2;
        while (true)
        {
            if (IsDisarmed)
            {
                _signal.WaitOne();
            }

            if (_stopping)
            {
                return;
            }

            _signal.WaitOne(period); // a Stop (or a stale arming signal) only shortens one period
            if (_stopping)
            {
                return;
            }

            if (!Sample())
            {
                // Nothing queued anywhere: disarm, then look once more (the pair described in the header).
                Volatile.Write(ref _disarmed, 1);
                Interlocked.MemoryBarrierProcessWide();
                if (AnyQueued() && Interlocked.Exchange(ref _disarmed, 0) != 0)
                {
                    continue;
                }

                _samples.Clear();
                _seenAsleep.Clear();
            }
        }
    }

    private bool AnyQueued() => _pool.WatchedSets.Any(s => s.AvailableTasks > 0);

    // One sample of every watched set; true when some set has tasks queued (stay armed).
    private bool Sample()
    {
        long now = Stopwatch.GetTimestamp();
        long delayTicks = (long)(_delay.TotalSeconds * Stopwatch.Frequency);
        bool queued = false;
        _sampleNumber++;
        foreach ((Worker worker, long seen) in _seenAsleep)
        {
            if (seen < _sampleNumber - 1)
            {
                _seenAsleep.Remove(worker); // a sighting no longer confirmable (say, of a compensating worker since retired)
            }
        }

        foreach (WorkQueueSet set in _pool.WatchedSets)
        {
            if (set.AvailableTasks == 0)
            {
                _samples.Remove(set);
                continue;
            }

            queued = true;
            long stamp = set.ProgressStamp();
            if (!_samples.TryGetValue(set, out (long Stamp, long Since) last) || last.Stamp != stamp)
            {
                _samples[set] = (stamp, now);
                continue;
            }

            if (now - last.Since < delayTicks)
            {
                continue;
            }

            // Stalled for the whole delay with tasks queued: stand in for one stuck worker, then wait another delay.
            // A worker seen asleep for the first time is not confirmed yet: keep the stall clock, check again next sample.
            Worker? stuck = FindStuckWorker(set, out bool unconfirmed);
            if (stuck is null && unconfirmed)
            {
                continue;
            }

            if (stuck is not null)
            {
                try
                {
                    _pool.StartCompensating(set, stuck);
                }
                catch (Exception ex) when (ex is not OutOfMemoryException)
                {
                    // No thread could be started (ThreadStartException, resource limits): the monitor lives on and tries
                    // again after another delay; the stalled set is no worse off than without compensation.
                }
            }

            _samples[set] = (stamp, now);
        }

        return queued;
    }

    // A worker serving the set, inside one of its tasks, that nobody stands in for yet and that is blocked (asleep at
    // this sample and the one before); else a worker the set is owed, inside another set's task (header: owed, not
    // served). unconfirmed: some worker of the set was seen asleep for the first time at this sample.
    private Worker? FindStuckWorker(WorkQueueSet set, out bool unconfirmed)
    {
        unconfirmed = false;
        foreach (Worker worker in _pool.Workers)
        {
            if (ReferenceEquals(worker.ServingForReaders, set) && worker.ReplacedBy is null && set.IsRunningTask(worker.Slot)
                && IsBlocked(worker, ref unconfirmed))
            {
                return worker;
            }
        }

        foreach (Worker worker in _pool.CompensatingWorkers)
        {
            if (ReferenceEquals(worker.CompensatingSet, set) && worker.ReplacedBy is null && set.IsRunningTask(worker.Slot)
                && IsBlocked(worker, ref unconfirmed))
            {
                return worker;
            }
        }

        // Owed, not served (issue 20): a worker the set is owed (assigned to it, a move pending; or its home by the
        // allocation in force, lent away, a recall pending) that is inside a task of another set. It reaches the set
        // only at that task's end, which may never come (a task looping Parallel.For for ever). Slots are the same in
        // every set of the pool, so the other set's running-task count of the worker's slot is the one to read.
        IPoolOwner? owner = _pool.Owner;
        foreach (Worker worker in _pool.Workers)
        {
            if (worker.ServingForReaders is { } other
                && !ReferenceEquals(other, set)
                && worker.ReplacedBy is null
                && (ReferenceEquals(worker.Assigned, set) || (owner is not null && owner.IsHomeOf(worker, set)))
                && other.IsRunningTask(worker.Slot))
            {
                return worker;
            }
        }

        return null;
    }

    // Header, "one reading is not enough": asleep now and at the previous sample. A first sighting is remembered and
    // sets unconfirmed; a worker seen running is forgotten.
    private bool IsBlocked(Worker worker, ref bool unconfirmed)
    {
        TimeSpan pausedBefore = s_totalPause();
        if (s_isComputing(worker))
        {
            _seenAsleep.Remove(worker);
            return false;
        }

        if (s_totalPause() != pausedBefore)
        {
            // A collection paused the runtime during the reading: the worker may have been suspended for it, not blocked
            // (two different collections could otherwise catch it at two consecutive samples). Inconclusive: no sighting
            // (an earlier one lapses), the stall clock keeps running, and the next sample reads again. The monitor, back
            // from the reading (a file read: preemptive mode), runs managed code only after that collection's pause has
            // ended. Assumed, not checked in the runtime's source: the pause is added to the total by then. Where it is
            // added later, this check misses that collection and the two-sample rule alone applies, as before it.
            _seenAsleep.Remove(worker);
            unconfirmed = true;
            return false;
        }

        if (_seenAsleep.TryGetValue(worker, out long seen) && seen == _sampleNumber - 1)
        {
            _seenAsleep.Remove(worker);
            return true;
        }

        _seenAsleep[worker] = _sampleNumber;
        unconfirmed = true;
        return false;
    }

#if DEBUG
    /// <summary>
    /// Tests only: replaces the reading of a worker's thread state (<see cref="IsComputing"/>), so a test can script a
    /// computing worker caught asleep at single samples. Never set outside those tests.
    /// </summary>
    internal static Func<Worker, bool> s_isComputing = IsComputing;

    /// <summary>Tests only: replaces the runtime's total garbage-collection pause time read around each state reading.</summary>
    internal static Func<TimeSpan> s_totalPause = GC.GetTotalPauseDuration;
#else
    private static readonly Func<Worker, bool> s_isComputing = IsComputing;
    private static readonly Func<TimeSpan> s_totalPause = GC.GetTotalPauseDuration;
#endif

    // Header, "blocked, not computing": true when the worker's thread is running or runnable (state R in
    // /proc/self/task/TID/stat, the character after the command name's closing parenthesis); false when it sleeps, or
    // when the state cannot be read (then it counts as blocked, the rule without this check).
    internal static bool IsComputing(Worker worker)
    {
        int tid = worker.OsThreadId;
        if (tid == 0 || !OperatingSystem.IsLinux())
        {
            return false;
        }

        try
        {
            string stat = File.ReadAllText($"/proc/self/task/{tid}/stat");
            int close = stat.LastIndexOf(')');
            return close >= 0 && close + 2 < stat.Length && stat[close + 2] == 'R';
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }
}
