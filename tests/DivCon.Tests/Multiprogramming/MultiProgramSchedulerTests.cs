using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Text.Json;
using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;
using DivCon.Tests.Scheduling;

namespace DivCon.Tests.Multiprogramming;

/// <summary>A program's scheduler inside a MultiProgramScheduler passes the same contract as the standalone one.</summary>
public sealed class ProgramSchedulerContractTests : SchedulerContractTests
{

    protected override ISchedulerFixture Create(int workers) => new SingleProgramFixture(workers, pinned: true);
}

public sealed class MultiProgramSchedulerTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(120);

    // Compensation off: these tests hold every worker blocked on purpose (so that queued tasks wait for a removal or a
    // Dispose to cancel them); blocking compensation has its own tests (BlockingPatternTests).
    private static MultiProgramScheduler Create(IPartitioningPolicy? policy = null, TimeSpan? interval = null, bool lending = false, ProgramRemoval disposeMode = ProgramRemoval.WaitForTasks)
        => new(new MultiProgramSchedulerOptions
        {
            Policy = policy,
            RepartitionInterval = interval ?? System.Threading.Timeout.InfiniteTimeSpan,
            IdleLending = lending,
            DisposeMode = disposeMode,
            BestEffortPinning = true,
            CompensateBlocking = false,
        });

    private static Task Run(ProgramHandle p, Action action, CancellationToken token = default)
        => Task.Factory.StartNew(action, token, TaskCreationOptions.None, p.Scheduler);

    /// <summary>Moves take effect at the worker's next task boundary: wait (bounded) until every worker has switched.</summary>
    private static void WaitUntilEveryWorkerServesItsAssignment(MultiProgramScheduler mps)
    {
        var sw = Stopwatch.StartNew();
        MultiProgramSnapshot s;
        while (!(s = mps.GetSnapshot()).WorkerServing.SequenceEqual(s.WorkerPrograms))
        {
            Assert.True(sw.Elapsed < Timeout, "The workers did not switch to their assignments.");
            Thread.Sleep(1);
        }
    }

    /// <summary>
    /// Waits (bounded) until every worker is parked on <paramref name="program"/> and blocked in the park's wait: it has
    /// published itself as parked and passed the re-check, so only a wake-up gets it going again.
    /// </summary>
    private static void WaitUntilEveryWorkerIsBlockedParkedOn(MultiProgramScheduler mps, ProgramHandle program)
        => Wait.Until(
            () => mps.Pool.Workers.All(w => ReferenceEquals(w.ParkedOn, program.Queues) && (w.Thread.ThreadState & System.Threading.ThreadState.WaitSleepJoin) != 0),
            $"every worker blocked in its park on {program.Name}",
            Timeout);

    /// <summary>
    /// For a failed wait: whether the repartitioner still decides (its count over 200 ms), each worker's assignment, what
    /// it serves and whether it is parked (and its thread's state), and each program's cores and available tasks.
    /// </summary>
    private static string Describe(MultiProgramScheduler mps)
    {
        long before = mps.Repartitions;
        Thread.Sleep(200);
        MultiProgramSnapshot s = mps.GetSnapshot();
        IEnumerable<string> workers = mps.Pool.Workers.Select((w, slot) =>
            $"#{slot}: assigned {s.WorkerPrograms[slot]?.ToString() ?? "-"}, serving {s.WorkerServing[slot]?.ToString() ?? "-"}, "
            + $"home {(slot < s.WorkerHomes.Count ? s.WorkerHomes[slot]?.ToString() ?? "-" : "?")}, parked on {w.ParkedOn?.Owner?.Id.ToString() ?? "-"}, thread {w.Thread.ThreadState}");
        IEnumerable<string> programs = s.CoresByProgram.Keys.Order().Select(id =>
            $"program {id}: {s.CoresByProgram[id]} cores, {s.AvailableTasksByProgram.GetValueOrDefault(id)} available tasks"
            + (s.ScalabilityByProgram.TryGetValue(id, out ProgramScalability? sc) ? $", scalability {sc.Scalability:0.00} ({sc.Source}{(sc.Probing ? ", probing" : "")})" : ""));
        IEnumerable<string> lastMoves = mps.Timeline.GetMoves().TakeLast(12).Select(m => $"#{m.Worker} {m.FromProgramId?.ToString() ?? "-"}->{m.ToProgramId?.ToString() ?? "-"} {m.Reason}/{m.Trigger}");
        return $"Repartitions {before} then {mps.Repartitions} 200 ms later; pending moves {s.PendingMoves.Count}; "
            + string.Join("; ", workers) + "; " + string.Join("; ", programs) + "; last moves: " + string.Join(", ", lastMoves) + ".";
    }

    private static void DisposeBounded(MultiProgramScheduler mps)
        => Assert.True(Task.Run(mps.Dispose).Wait(Timeout), "Dispose did not return in time.");

    /// <summary>Must show 1-4: exactly once, snapshots, no thread change, programs added and removed, all under chaos.</summary>
    [Fact]
    public void Under_chaos_every_task_runs_exactly_once_on_one_thread_and_allocations_stay_whole()
        => ChaosRun(depth: 17, programs: 4, seed: 1);

    /// <summary>The same with idle lending: workers also move themselves (CAS) while the mover reassigns them.</summary>
    [Fact]
    public void Under_chaos_with_idle_lending_every_task_still_runs_exactly_once()
        => ChaosRun(depth: 15, programs: 4, seed: 5, lending: true);

    /// <summary>
    /// The same with a policy's own borrower rule (IIdleLendingPolicy) that lends idle workers at random, also to
    /// programs without tasks: loans, returns (the borrower has no task) and the mover's CAS moves all race.
    /// </summary>
    [Fact]
    public void Under_chaos_with_a_lending_policy_loans_and_returns_race_the_mover_and_every_task_still_runs_exactly_once()
        => ChaosRun(depth: 15, programs: 4, seed: 7, lendingPolicy: true);

    [StressTheory]
    [Trait("Category", "Stress")]
    [InlineData(19, 4, 2)]
    [InlineData(17, 8, 3)]
    [InlineData(19, 2, 4)]
    public void Stress_chaos(int depth, int programs, int seed)
    {
        ChaosRun(depth, programs, seed);
        ChaosRun(depth, programs, seed, lending: true);
        ChaosRun(depth, programs, seed, lendingPolicy: true);
    }

    private static void ChaosRun(int depth, int programs, int seed, bool lending = false, bool lendingPolicy = false)
    {
        var chaosLending = lendingPolicy ? new ChaosLendingPolicy(seed) : null;
        var mps = Create(chaosLending ?? (IPartitioningPolicy)new ChaosPolicy(seed), TimeSpan.FromMilliseconds(1), lending);
        using var mpsDisposal = BoundedDisposal.Of(mps);
        lending |= lendingPolicy;
        ProgramHandle[] handles = Enumerable.Range(0, programs).Select(i => mps.AddProgram($"p{i}")).ToArray();
        MarkedTree[] trees = handles.Select(_ => new MarkedTree(depth)).ToArray();
        Assert.True(trees[0].Size >= 200_000 || depth < 17);

        // Snapshots from another thread during the whole run (must show 2).
        var violations = new ConcurrentQueue<string>();
        int snapshots = 0;
        using var stop = new CancellationTokenSource();
        Task watcher = Task.Factory.StartNew(
            () =>
            {
                while (!stop.IsCancellationRequested)
                {
                    MultiProgramSnapshot s = mps.GetSnapshot();
                    snapshots++;
                    int sum = s.CoresByProgram.Values.Sum();
                    if (s.CoresByProgram.Count > 0 && sum != mps.WorkerCount)
                    {
                        violations.Enqueue($"allocations sum to {sum}, not {mps.WorkerCount}");
                    }

                    if (s.CoresByProgram.Count > 0 && s.WorkerPrograms.Any(p => p is null))
                    {
                        violations.Enqueue("a worker is assigned to no program while programs exist");
                    }

                    // With lending a worker may serve another program than the allocation says until the next tick.
                    foreach ((int id, int cores) in lending ? new Dictionary<int, int>() : s.CoresByProgram)
                    {
                        int assigned = s.WorkerPrograms.Count(p => p == id);
                        if (assigned != cores)
                        {
                            violations.Enqueue($"program {id}: {assigned} workers assigned but {cores} allocated");
                        }
                    }

                    Thread.Sleep(1);
                }
            },
            TaskCreationOptions.LongRunning);

        for (int i = 0; i < programs; i++)
        {
            trees[i].Start(handles[i].Scheduler);
        }

        // Must show 4: a program added during the run whose tasks all complete, and one removed with cancellation.
        ProgramHandle waited = mps.AddProgram("added-waited");
        int waitedRan = 0;
        Task[] waitedTasks = Enumerable.Range(0, 2000).Select(_ => Run(waited, () => { Thread.SpinWait(50); Interlocked.Increment(ref waitedRan); })).ToArray();
        ProgramHandle canceled = mps.AddProgram("added-canceled");
        using var gate = new ManualResetEventSlim(false);
        Task[] blockers = Enumerable.Range(0, mps.WorkerCount).Select(_ => Run(canceled, () => gate.Wait(Timeout))).ToArray();
        Task[] cancelable = Enumerable.Range(0, 2000).Select(_ => Run(canceled, () => Thread.SpinWait(50), canceled.CancellationToken)).ToArray();

        Task removeWaited = Task.Run(() => mps.RemoveProgram(waited, ProgramRemoval.WaitForTasks));
        Task removeCanceled = Task.Run(() => mps.RemoveProgram(canceled, ProgramRemoval.CancelTasks));
        for (var sw = Stopwatch.StartNew(); !canceled.CancellationToken.IsCancellationRequested && sw.Elapsed < Timeout;)
        {
            Thread.Sleep(1); // the removal has begun (and canceled) before the blockers are released
        }

        gate.Set();
        Wait.For(removeWaited, Timeout, "RemoveProgram(WaitForTasks)");
        Wait.For(removeCanceled, Timeout, "RemoveProgram(CancelTasks)");
        Assert.Equal(2000, waitedRan);
        Assert.All(waitedTasks, t => Assert.Equal(TaskStatus.RanToCompletion, t.Status));
        Assert.All(cancelable, t => Assert.True(t.IsCompleted, "A task of the removed program was left pending."));
        Assert.Contains(cancelable, t => t.IsCanceled);
        // Queued from outside after the removal (as an await continuation would be): run late, never lost.
        var late = new Task(() => { });
        late.Start(waited.Scheduler);
        Wait.For(late, Timeout, "a task queued after the removal");
        Assert.Equal(1, waited.LateTasks);
        MultiProgramSnapshot after = mps.GetSnapshot();
        Assert.DoesNotContain(after.WorkerPrograms, p => p == waited.Id || p == canceled.Id);
        Assert.False(after.CoresByProgram.ContainsKey(waited.Id));

        for (int i = 0; i < programs; i++)
        {
            Assert.True(trees[i].Done.Wait(Timeout), $"program {i}'s spawn tree ({trees[i].Count} of {trees[i].Size} ran) did not finish within {Timeout.TotalSeconds} s. {Describe(mps)}");
        }

        if (chaosLending is not null)
        {
            // Idle workers ask the rule; with the trees done every worker is idle at home sooner or later (bounded wait).
            var sw = Stopwatch.StartNew();
            while (!(chaosLending.Loans > 0 && mps.Timeline.GetMoves().Any(m => m.Reason == AllocationReason.LoanReturn)))
            {
                Assert.True(sw.Elapsed < Timeout, $"No loan and return under the chaos rule within {Timeout.TotalSeconds} s ({chaosLending.Loans} loans). {Describe(mps)}");
                Thread.Sleep(1);
            }
        }

        stop.Cancel();
        Wait.For(watcher, Timeout, "the snapshot watcher");

        for (int i = 0; i < programs; i++)
        {
            Assert.Empty(trees[i].NotExactlyOnce());
            Assert.Equal(0, trees[i].ChangedThread());

            // Moves lend the pool's threads: no other thread ever ran a task (none created or replaced).
            Assert.Subset(mps.Pool.Workers.Select(w => w.Thread.ManagedThreadId).ToHashSet(), trees[i].Threads().ToHashSet());
            ProgramHandle h = handles[i];
            MarkedTree tree = trees[i];
            Wait.Until(() => h.GetStatistics().TasksExecuted >= tree.Size, "the workers have counted every task");
            Assert.Equal(trees[i].Size, handles[i].GetStatistics().TasksExecuted);
        }

        Assert.True(snapshots > 10, $"only {snapshots} snapshots were taken");
        Assert.True(violations.IsEmpty, string.Join("; ", violations.Distinct().Take(5)));
        Assert.True(mps.Timeline.Recorded > 10, "The chaos policy moved almost no workers.");
        Assert.Equal(0, mps.RejectedAllocations);
        if (chaosLending is not null)
        {
            IReadOnlyList<AllocationMove> moves = mps.Timeline.GetMoves();
            Assert.True(chaosLending.Loans > 0, "The chaos rule chose no borrower.");
            Assert.Contains(moves, m => m.Reason == AllocationReason.IdleLending);
            Assert.Contains(moves, m => m.Reason == AllocationReason.LoanReturn);
        }
    }

    [Fact]
    public void Exceptions_in_one_programs_tasks_do_not_disturb_the_others_or_kill_workers()
    {
        var mps = Create(new EqualSharesPolicy(), TimeSpan.FromMilliseconds(5));
        using var mpsDisposal = BoundedDisposal.Of(mps);
        ProgramHandle bad = mps.AddProgram("bad");
        ProgramHandle good = mps.AddProgram("good");
        Task[] faulting = Enumerable.Range(0, 500).Select(i => Run(bad, () => throw new InvalidOperationException($"bad {i}"))).ToArray();
        var tree = new MarkedTree(12);
        tree.Start(good.Scheduler);
        Wait.For(tree.Done, Timeout);
        Assert.Throws<AggregateException>(() => Task.WaitAll(faulting, Timeout));
        Assert.All(faulting, t => Assert.True(t.IsFaulted));
        Assert.Empty(tree.NotExactlyOnce());
        Assert.All(mps.Pool.Workers, w => Assert.True(w.Thread.IsAlive));
        Assert.Equal(7, Wait.For(Task.Factory.StartNew(() => 7, CancellationToken.None, TaskCreationOptions.None, bad.Scheduler)));
    }

    [Theory]
    [InlineData(ProgramRemoval.WaitForTasks)]
    [InlineData(ProgramRemoval.CancelTasks)]
    public void Dispose_with_programs_running_ends_deterministically_and_leaves_no_thread(ProgramRemoval mode)
    {
        var mps = Create(new EqualSharesPolicy(), TimeSpan.FromMilliseconds(10), disposeMode: mode);
        ProgramHandle a = mps.AddProgram("a");
        ProgramHandle b = mps.AddProgram("b");
        WaitUntilEveryWorkerServesItsAssignment(mps);
        using var gate = new ManualResetEventSlim(false);
        using var started = new CountdownEvent(2);
        Task[] blockers = [Run(a, () => { started.Signal(); gate.Wait(Timeout); }), Run(b, () => { started.Signal(); gate.Wait(Timeout); })];

        // Both workers blocked (one per program), so nothing queued below can run before Dispose.
        Assert.True(started.Wait(Timeout), "The blocking tasks did not start.");
        Task[] pendingA = Enumerable.Range(0, 500).Select(_ => Run(a, () => Thread.SpinWait(10), a.CancellationToken)).ToArray();
        Task[] pendingB = Enumerable.Range(0, 500).Select(_ => Run(b, () => Thread.SpinWait(10), b.CancellationToken)).ToArray();
        Task disposing = Task.Run(mps.Dispose);
        Wait.Until(
            () => mode == ProgramRemoval.CancelTasks
                ? a.CancellationToken.IsCancellationRequested && b.CancellationToken.IsCancellationRequested
                : a.IsRemoving && b.IsRemoving,
            "Dispose has begun removing the programs");
        Assert.False(disposing.IsCompleted, "Dispose returned while tasks were still blocked.");
        gate.Set();
        Wait.For(disposing, Timeout, "Dispose");
        Task[] pending = [.. pendingA, .. pendingB];
        Assert.All(pending, t => Assert.True(t.IsCompleted));
        if (mode == ProgramRemoval.WaitForTasks)
        {
            Assert.All(pending, t => Assert.Equal(TaskStatus.RanToCompletion, t.Status));
        }
        else
        {
            Assert.All(pending, t => Assert.Equal(TaskStatus.Canceled, t.Status));
        }

        Assert.All(blockers, t => Assert.Equal(TaskStatus.RanToCompletion, t.Status));
        Assert.All(mps.Pool.Workers, w => Assert.False(w.Thread.IsAlive, "A worker thread is still running."));
        Assert.False(mps.RepartitionerThread.IsAlive, "The repartitioner thread is still running.");
        Assert.True(a.IsRemoved && b.IsRemoved);
        mps.Dispose(); // twice: harmless
    }

    [Fact]
    public void Dispose_on_one_of_the_pools_workers_returns_and_the_threads_exit()
    {
        var mps = Create();
        ProgramHandle a = mps.AddProgram("a");
        Task t = Run(a, mps.Dispose);
        Wait.For(t, Timeout);
        Assert.True(mps.WaitForShutdown(Timeout));
        Assert.All(mps.Pool.Workers, w => Assert.False(w.Thread.IsAlive));
    }

    [ProcessorFact(2, pinning: true)]
    public void Under_a_fixed_one_plus_one_allocation_each_programs_tasks_run_only_on_its_own_processor()
    {
        IReadOnlyList<int> allowed = ThreadAffinity.GetProcessAffinity();
        var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            Processors = allowed.Take(2).ToArray(),
            RepartitionInterval = TimeSpan.FromMilliseconds(5),

            // Pinning is the subject: no compensating worker (unpinned, by design) may run a task. Where thread states
            // cannot be read, or a long garbage collection spans two samples on a loaded machine, a stall would start one.
            CompensateBlocking = false,
        });
        using var mpsDisposal = BoundedDisposal.Of(mps);
        ProgramHandle a = mps.AddProgram("a");
        ProgramHandle b = mps.AddProgram("b");
        mps.Policy = new FixedAllocationPolicy(new Dictionary<int, int> { [a.Id] = 1, [b.Id] = 1 });
        Assert.Equal(1, a.Allocation);
        Assert.Equal(1, b.Allocation);
        WaitUntilEveryWorkerServesItsAssignment(mps); // a move takes effect at the worker's next task boundary

        var seen = new ConcurrentDictionary<(int Program, int Processor, string Mask), int>();
        void Record(ProgramHandle p) => seen.AddOrUpdate(
            (p.Id, Worker.Current!.ProcessorId!.Value, string.Join(",", ThreadAffinity.GetCurrentThreadAffinity())), 1, (_, n) => n + 1);
        Task[] tasks = Enumerable.Range(0, 2000)
            .Select(i => i % 2 == 0 ? Run(a, () => { Record(a); Thread.SpinWait(200); }) : Run(b, () => { Record(b); Thread.SpinWait(200); }))
            .ToArray();
        Wait.For(Task.WhenAll(tasks), Timeout);

        int[] processorsOfA = seen.Keys.Where(k => k.Program == a.Id).Select(k => k.Processor).Distinct().ToArray();
        int[] processorsOfB = seen.Keys.Where(k => k.Program == b.Id).Select(k => k.Processor).Distinct().ToArray();
        Assert.Single(processorsOfA);
        Assert.Single(processorsOfB);
        Assert.NotEqual(processorsOfA[0], processorsOfB[0]);
        Assert.All(seen.Keys, k => Assert.Equal(k.Processor.ToString(System.Globalization.CultureInfo.InvariantCulture), k.Mask));
    }

    [Fact]
    public void The_snapshot_gives_each_workers_home_and_operating_system_thread_id()
    {
        using MultiProgramScheduler mps = Create();
        ProgramHandle p = mps.AddProgram("p");

        // Inside a task: the kernel's id of the thread running it, and the slot of its worker.
        (int Slot, int Tid) seen = Wait.For(Task.Factory.StartNew(
            () => (Worker.Current!.Slot, OperatingSystem.IsLinux() ? ThreadAffinity.Linux.GetCurrentThreadId() : 0),
            CancellationToken.None, TaskCreationOptions.None, p.Scheduler), Timeout);
        MultiProgramSnapshot snapshot = mps.GetSnapshot();
        IReadOnlyList<int> ids = snapshot.WorkerThreadIds;

        Assert.Equal(Enumerable.Repeat<int?>(p.Id, mps.WorkerCount), snapshot.WorkerHomes); // the only program holds every core
        Assert.Equal(mps.Pool.WorkerCount, ids.Count);
        if (OperatingSystem.IsLinux())
        {
            Assert.Equal(seen.Tid, ids[seen.Slot]);
            Assert.All(ids, id => Assert.True(Directory.Exists($"/proc/self/task/{id}"), $"No thread {id} in this process."));
            Assert.Equal(ids.Count, ids.Distinct().Count());
        }
        else
        {
            Assert.All(ids, id => Assert.Equal(0, id));
        }

        mps.RemoveProgram(p);
    }

    [Fact]
    public void Adding_to_a_disposed_scheduler_or_removing_twice_fails_clearly()
    {
        var mps = Create();
        ProgramHandle a = mps.AddProgram("a");
        mps.RemoveProgram(a);
        Assert.True(a.IsRemoved);
        var twice = Assert.Throws<InvalidOperationException>(() => mps.RemoveProgram(a));
        Assert.Contains("already been removed", twice.Message);
        DisposeBounded(mps);
        var disposed = Assert.Throws<ObjectDisposedException>(() => mps.AddProgram("late"));
        Assert.Contains("disposed", disposed.Message);
        Assert.Throws<ArgumentException>(() => mps.AddProgram(" "));

        var other = Create();

        using var otherDisposal = BoundedDisposal.Of(other);
        ProgramHandle foreign = other.AddProgram("foreign");
        var third = Create();
        using var thirdDisposal = BoundedDisposal.Of(third);
        Assert.Throws<ArgumentException>(() => third.RemoveProgram(foreign));
        Assert.Throws<ArgumentOutOfRangeException>(() => other.AddProgram("nan", double.NaN));
        Assert.Throws<ArgumentOutOfRangeException>(() => other.AddProgram("zero", 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => new MultiProgramScheduler(new MultiProgramSchedulerOptions { RepartitionInterval = TimeSpan.Zero }));
        Assert.Throws<ArgumentException>(() => new MultiProgramScheduler(new MultiProgramSchedulerOptions { Processors = [-5] }));
    }

    [Theory]
    [InlineData("wrong-sum", "shares sum to")]
    [InlineData("unassigned", "sum to 0 cores but there are")]
    [InlineData("wrong-program-count", "has no share")]
    [InlineData("unknown-program", "not in the input")]
    public void An_invalid_policy_result_is_rejected_naming_the_problem_and_the_previous_allocation_is_kept(string how, string expected)
    {
        var mps = Create(new EqualSharesPolicy());
        using var mpsDisposal = BoundedDisposal.Of(mps);
        ProgramHandle a = mps.AddProgram("a");
        ProgramHandle b = mps.AddProgram("b");
        MultiProgramSnapshot before = mps.GetSnapshot();
        var ex = Assert.Throws<InvalidOperationException>(() => mps.Policy = new BrokenPolicy(how));
        Assert.Contains(expected, ex.Message);
        Assert.Contains("kept", ex.Message);
        Assert.IsType<EqualSharesPolicy>(mps.Policy);
        Assert.Equal(1, mps.RejectedAllocations);
        Assert.Equal(ex.Message.Split(" The allocation")[0], mps.LastRejection!.Split(" The allocation")[0]);
        MultiProgramSnapshot after = mps.GetSnapshot();
        Assert.Equal(before.WorkerPrograms, after.WorkerPrograms);
        Assert.Equal(before.CoresByProgram, after.CoresByProgram);

        var fixedWrong = new FixedAllocationPolicy(new Dictionary<int, int> { [a.Id] = mps.WorkerCount + 1, [b.Id] = 0 });
        var ex2 = Assert.Throws<InvalidOperationException>(() => mps.Policy = fixedWrong);
        Assert.Contains($"gives {mps.WorkerCount + 1} cores", ex2.Message);
        Assert.Throws<ArgumentOutOfRangeException>(() => new FixedAllocationPolicy(new Dictionary<int, int> { [a.Id] = -1 }));
        Assert.Equal(before.WorkerPrograms, mps.GetSnapshot().WorkerPrograms);
    }

    [Fact]
    public void A_removed_programs_cores_go_to_the_others()
    {
        var mps = Create(new EqualSharesPolicy());
        using var mpsDisposal = BoundedDisposal.Of(mps);
        ProgramHandle a = mps.AddProgram("a");
        ProgramHandle b = mps.AddProgram("b");
        Assert.Equal(mps.WorkerCount, a.Allocation + b.Allocation);
        mps.RemoveProgram(a);
        Assert.Equal(mps.WorkerCount, b.Allocation);
        Assert.All(mps.GetSnapshot().WorkerPrograms, p => Assert.Equal(b.Id, p));
        Assert.Contains(mps.Timeline.GetMoves(), m => m.Trigger == RepartitionTrigger.ProgramExit && m.FromProgramId == a.Id && m.ToProgramId == b.Id);
        Assert.Equal(0, a.Allocation);
    }

    [Fact]
    public void Per_program_accounting_counts_core_time_held_tasks_and_moves()
    {
        var mps = Create(new EqualSharesPolicy());
        using var mpsDisposal = BoundedDisposal.Of(mps);
        ProgramHandle a = mps.AddProgram("a");

        // Both workers serving a before the window starts (on a loaded machine a woken worker may start late).
        using var barrier = new Barrier(mps.WorkerCount);
        Wait.For(Task.WhenAll(Enumerable.Range(0, mps.WorkerCount).Select(_ => Run(a, () => barrier.SignalAndWait(Timeout)))), Timeout);
        for (var wait = Stopwatch.StartNew(); a.GetStatistics().TasksExecuted < mps.WorkerCount && wait.Elapsed < Timeout;)
        {
            Thread.Sleep(1); // a worker counts its task just after the task completes
        }

        a.ResetStatistics();
        var tree = new MarkedTree(12);
        tree.Start(a.Scheduler);
        Wait.For(tree.Done, Timeout);
        Wait.Until(() => a.GetStatistics().TasksExecuted >= tree.Size, "the workers have counted every task");
        Thread.Sleep(20);
        ProgramStatistics s = a.GetStatistics();
        double held = s.CoreTime.TotalMilliseconds;
        double wall = s.Workers.Elapsed.TotalMilliseconds;
        string detail = string.Join("; ", s.Workers.Workers.Select(w => $"w{w.Worker} busy {w.BusyTime.TotalMilliseconds:F1} idle {w.IdleTime.TotalMilliseconds:F1} tasks {w.TasksExecuted}")) + $"; wall {wall:F1}";
        Assert.True(held / (mps.WorkerCount * wall) is > 0.97 and < 1.03, "it should have held every worker the whole window: " + detail);
        Assert.Equal(tree.Size, s.TasksExecuted);
        Assert.True(s.IdleTime > TimeSpan.Zero);

        ProgramHandle b = mps.AddProgram("b");
        ProgramStatistics a2 = a.GetStatistics();
        Assert.True(a2.MovesOut >= mps.WorkerCount / 2, $"moves out {a2.MovesOut}");
        Assert.Equal(b.Allocation, b.GetStatistics().MovesIn);
    }

    [Fact]
    public void The_timeline_records_moves_with_reasons_and_exports_a_chrome_trace_with_one_track_per_processor()
    {
        var mps = Create(new EqualSharesPolicy());
        using var mpsDisposal = BoundedDisposal.Of(mps);
        ProgramHandle a = mps.AddProgram("alpha");
        ProgramHandle b = mps.AddProgram("beta \"quoted\"");
        mps.RemoveProgram(b);
        IReadOnlyList<AllocationMove> moves = mps.Timeline.GetMoves();
        Assert.Contains(moves, m => m.ToProgramId == a.Id && m.Reason == AllocationReason.EqualShare && m.Trigger == RepartitionTrigger.ProgramArrival);
        Assert.Contains(moves, m => m.FromProgramId == b.Id && m.Trigger == RepartitionTrigger.ProgramExit);
        Assert.True(moves.Zip(moves.Skip(1)).All(p => p.First.Timestamp <= p.Second.Timestamp));

        var writer = new StringWriter();
        mps.Timeline.WriteChromeTrace(writer);
        using JsonDocument doc = JsonDocument.Parse(writer.ToString());
        JsonElement[] events = doc.RootElement.GetProperty("traceEvents").EnumerateArray().ToArray();
        string[] tracks = events.Where(e => e.GetProperty("ph").GetString() == "M").Select(e => e.GetProperty("args").GetProperty("name").GetString()!).ToArray();
        Assert.Equal(mps.WorkerCount, tracks.Length);
        if (mps.IsPinned)
        {
            Assert.Equal(mps.PinnedProcessors.Select(p => $"cpu {p}"), tracks);
        }

        JsonElement[] spans = events.Where(e => e.GetProperty("ph").GetString() == "X").ToArray();
        Assert.Contains(spans, e => e.GetProperty("name").GetString() == "alpha");
        Assert.Contains(spans, e => e.GetProperty("name").GetString() == "beta \"quoted\"");
        Assert.All(spans, e => Assert.True(e.GetProperty("dur").GetInt64() >= 0));
        Assert.Equal(moves.Count, events.Count(e => e.GetProperty("ph").GetString() == "i"));
        Assert.Contains(events, e => e.GetProperty("ph").GetString() == "i" && e.GetProperty("args").GetProperty("trigger").GetString() == "ProgramExit");
        Assert.Contains(events, e => e.GetProperty("ph").GetString() == "i" && e.GetProperty("args").GetProperty("reason").GetString() == "EqualShare");

        string path = Path.Combine(Path.GetTempPath(), $"divcon-trace-{Guid.NewGuid():N}.json");
        try
        {
            mps.Timeline.WriteChromeTrace(path);
            using JsonDocument fromFile = JsonDocument.Parse(File.ReadAllText(path));
            Assert.True(fromFile.RootElement.GetProperty("traceEvents").GetArrayLength() > 0);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void Metrics_are_visible_to_a_MeterListener()
    {
        var mps = Create(new EqualSharesPolicy());
        using var mpsDisposal = BoundedDisposal.Of(mps);
        var measurements = new ConcurrentBag<(string Instrument, double Value, string? Program)>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == MultiProgramScheduler.MeterName)
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        void OnMeasurement<T>(Instrument instrument, T value, ReadOnlySpan<KeyValuePair<string, object?>> tags, object? state)
        {
            string? program = null;
            bool ours = false;
            foreach (KeyValuePair<string, object?> tag in tags)
            {
                if (tag.Key == SchedulingTelemetry.ProgramName)
                {
                    program = tag.Value as string;
                }

                ours |= tag.Key == SchedulingTelemetry.SchedulerId && Equals(tag.Value, mps.Id);
            }

            if (!ours)
            {
                return; // another test's scheduler, publishing on the same meter name
            }

            measurements.Add((instrument.Name, Convert.ToDouble(value, System.Globalization.CultureInfo.InvariantCulture), program));
        }

        listener.SetMeasurementEventCallback<int>(OnMeasurement);
        listener.SetMeasurementEventCallback<long>(OnMeasurement);
        listener.SetMeasurementEventCallback<double>(OnMeasurement);
        listener.Start();

        ProgramHandle a = mps.AddProgram("metrics-a");
        ProgramHandle b = mps.AddProgram("metrics-b");
        Wait.For(Task.WhenAll(Enumerable.Range(0, 100).Select(_ => Run(a, () => { }))), Timeout);
        Wait.Until(() => a.GetStatistics().TasksExecuted >= 100, "the workers have counted every task");
        listener.RecordObservableInstruments();

        double Value(string instrument, string program) => measurements.Where(m => m.Instrument == instrument && m.Program == program).Select(m => m.Value).LastOrDefault(double.NaN);
        Assert.Equal(mps.WorkerCount, Value("divcon.program.core.count", "metrics-a") + Value("divcon.program.core.count", "metrics-b"));
        Assert.Equal(100, Value("divcon.program.executed_tasks", "metrics-a"));
        Assert.Equal(0, Value("divcon.program.queue.length", "metrics-b"));
        Assert.True(Value("divcon.program.worker.time", "metrics-b") >= 0);
        Assert.True(measurements.Where(m => m.Instrument == "divcon.program.worker.time" && m.Program == "metrics-a").Sum(m => m.Value) > 0);
        Assert.Contains(measurements, m => m.Instrument == "divcon.scheduler.moves");
        Assert.Equal(mps.WorkerCount, measurements.Last(m => m.Instrument == SchedulingTelemetry.WorkerCount).Value);
        Assert.Equal(mps.Budget.Cores, measurements.Last(m => m.Instrument == SchedulingTelemetry.CpuLimit).Value);
    }

    [Fact]
    public void With_idle_lending_a_program_without_cores_gets_help_from_an_idle_worker_and_the_workers_go_back()
    {
        var mps = Create(policy: null, interval: TimeSpan.FromMilliseconds(50), lending: true);
        using var mpsDisposal = BoundedDisposal.Of(mps);
        ProgramHandle a = mps.AddProgram("owner");
        ProgramHandle b = mps.AddProgram("starved");
        mps.Policy = new FixedAllocationPolicy(new Dictionary<int, int> { [a.Id] = mps.WorkerCount, [b.Id] = 0 });
        Assert.Equal(0, b.Allocation);
        // Every worker blocked in its park on a (past the park's re-check, which would find b's tasks on its own): b's
        // tasks can then only run if queuing them wakes a lender (WorkerPool.WakeOneFor). A fixed sleep here passed on a
        // loaded machine with the workers still searching, so the wake-up went untested.
        WaitUntilEveryWorkerIsBlockedParkedOn(mps, a);

        // a has nothing to do: a worker of a lends itself to b. Seen from a task of b, the lent worker is assigned to b
        // and its home is still a.
        (MultiProgramSnapshot Seen, int Slot)? fromLentWorker = null;
        Task probe = Run(b, () => fromLentWorker = (mps.GetSnapshot(), Worker.Current!.Slot));
        Wait.For(Task.WhenAll(Enumerable.Range(0, 200).Select(_ => Run(b, () => Thread.SpinWait(100))).Append(probe)), Timeout, "the starved program's tasks");
        Assert.Contains(mps.Timeline.GetMoves(), m => m.Reason == AllocationReason.IdleLending && m.FromProgramId == a.Id && m.ToProgramId == b.Id);
        (MultiProgramSnapshot seen, int slot) = fromLentWorker!.Value;
        Assert.Equal(b.Id, seen.WorkerPrograms[slot]);
        Assert.All(seen.WorkerHomes, home => Assert.Equal(a.Id, home));

        // The lent workers go back: when the borrower runs dry, or at the next tick, whichever comes first.
        var sw = Stopwatch.StartNew();
        while (mps.GetSnapshot().WorkerPrograms.Any(p => p != a.Id) && sw.Elapsed < Timeout)
        {
            Thread.Sleep(5);
        }

        Assert.All(mps.GetSnapshot().WorkerPrograms, p => Assert.Equal(a.Id, p));
    }

    [Fact]
    public void Without_idle_lending_a_program_without_cores_waits_for_the_policy()
    {
        var mps = Create();
        using var mpsDisposal = BoundedDisposal.Of(mps);
        ProgramHandle a = mps.AddProgram("owner");
        ProgramHandle b = mps.AddProgram("starved");
        mps.Policy = new FixedAllocationPolicy(new Dictionary<int, int> { [a.Id] = mps.WorkerCount, [b.Id] = 0 });

        // The default policy gave b a core when it arrived; that worker leaves b at its next task boundary, so a task
        // queued before it has left could still run on it (a move waits for the boundary, by design).
        WaitUntilEveryWorkerServesItsAssignment(mps);
        Task t = Run(b, () => { });
        Assert.False(t.Wait(200), "A program with no cores ran a task without lending.");
        Assert.Equal(1, b.AvailableTasks);
        mps.Policy = new EqualSharesPolicy();
        Wait.For(t, Timeout);
        Assert.Equal(0, b.AvailableTasks);
    }
}
