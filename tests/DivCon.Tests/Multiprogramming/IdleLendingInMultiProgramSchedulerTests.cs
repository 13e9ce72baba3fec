using System.Runtime.CompilerServices;
using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;
using DivCon.Tests.Scheduling;

namespace DivCon.Tests.Multiprogramming;

/// <summary>
/// Idle lending in a real MultiProgramScheduler (two workers, no periodic tick unless said, so only a loan or a return
/// can move a worker): the borrower rule in force is the one followed, a loan ends when the borrower runs dry, the
/// lending in force follows the policy, and a broken rule never kills a worker. Every wait is bounded.
/// </summary>
public sealed class IdleLendingInMultiProgramSchedulerTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    private static int[]? TwoProcessors()
    {
        int[] processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray();
        return processors.Length < 2 ? null : processors; // one worker cannot be lent while another program holds it
    }

    // No decision but the test's own: no ticks, and no demand decision for a program left without a worker (these tests
    // count repartitionings to show that loans and returns need none). No compensating worker either: the scenarios
    // block workers on purpose, and on a loaded machine a compensation for one would add moves the tests count.
    private static MultiProgramScheduler Create(int[] processors, bool lendingOption = false) => new(new MultiProgramSchedulerOptions
    {
        Processors = processors,
        RepartitionInterval = System.Threading.Timeout.InfiniteTimeSpan,
        IdleLending = lendingOption,
        BestEffortPinning = true,
        RepartitionWhenStarved = false,
        CompensateBlocking = false,
    });

    private static Task Run(ProgramHandle p, Action action)
        => Task.Factory.StartNew(action, CancellationToken.None, TaskCreationOptions.None, p.Scheduler);

    private static void WaitUntilEveryWorkerServesItsAssignment(MultiProgramScheduler mps)
        => Wait.Until(
            () => mps.GetSnapshot() is var s && s.WorkerServing.SequenceEqual(s.WorkerPrograms),
            "every worker to switch to its assignment",
            Timeout);

    private static void Dispose(MultiProgramScheduler mps)
        => Assert.True(Task.Run(mps.Dispose).Wait(Timeout), "Dispose did not return in time.");

    /// <summary>
    /// Lender L holds one worker, A one (blocked in a task), B none; A and B both have queued tasks when L's worker
    /// runs dry. IdleLending.ChooseBorrower picks the lower serving/scalability score: B (0/1) before A (1/2), where
    /// the old first-program-with-work scan would have picked A. A policy rule that prefers A is followed instead. Each
    /// loan ends when the borrower runs dry (a LoanReturn to L), then the worker asks again and serves the other: all of
    /// A's and B's tasks run while A's own worker is still blocked, and the allocation never changes.
    /// </summary>
    [ProcessorTheory(2)]
    [InlineData(false)]
    [InlineData(true)]
    public void The_rule_in_force_chooses_the_borrower_and_each_loan_ends_when_the_borrower_runs_dry(bool ruleThatPrefersA)
    {
        int[] processors = TwoProcessors()!;

        MultiProgramScheduler mps = Create(processors);
        using var gateL = new ManualResetEventSlim(false);
        using var gateA = new ManualResetEventSlim(false);
        try
        {
            ProgramHandle l = mps.AddProgram("lender", 1.0);
            ProgramHandle a = mps.AddProgram("a", 2.0);
            ProgramHandle b = mps.AddProgram("b", 1.0);
            const int L = 0, A = 1, B = 2; // indexes in arrival order, as policies see them
            BorrowerRule preferA = input => input.AvailableTasks[A] > 0 && input.Lender != A ? A : IdleLending.ChooseBorrower(input);
            var shares = new Dictionary<int, int> { [l.Id] = 1, [a.Id] = 1, [b.Id] = 0 };
            var policy = new FixedLendingPolicy(shares, ruleThatPrefersA ? preferA : null);

            // The same shares without lending first, so that each blocking task below runs on its own program's worker
            // (with lending in force an idle worker is lent at once, and could run the other program's blocking task).
            mps.Policy = new FixedAllocationPolicy(shares);
            WaitUntilEveryWorkerServesItsAssignment(mps);
            int lenderSlot = mps.GetSnapshot().WorkerPrograms.ToList().IndexOf(l.Id);
            Assert.True(lenderSlot >= 0);

            // Both workers busy in a blocked task, so the tasks queued next wait.
            using var started = new CountdownEvent(2);
            Task blockL = Run(l, () => { started.Signal(); gateL.Wait(Timeout); });
            Task blockA = Run(a, () => { started.Signal(); gateA.Wait(Timeout); });
            Assert.True(started.Wait(Timeout), "The blocking tasks did not start.");
            mps.Policy = policy; // the same owners: no worker moves, lending is now in force
            Assert.Equal(lenderSlot, mps.GetSnapshot().WorkerPrograms.ToList().IndexOf(l.Id));
            Task[] tasksA = Enumerable.Range(0, 20).Select(_ => Run(a, () => Thread.SpinWait(200))).ToArray();
            Task[] tasksB = Enumerable.Range(0, 20).Select(_ => Run(b, () => Thread.SpinWait(200))).ToArray();
            Assert.Equal(20, a.AvailableTasks);
            Assert.Equal(20, b.AvailableTasks);
            l.ResetStatistics();
            a.ResetStatistics();
            b.ResetStatistics();

            long scenario = System.Diagnostics.Stopwatch.GetTimestamp();
            gateL.Set(); // L's worker runs dry: the only worker free to lend
            Wait.For(Task.WhenAll([.. tasksA, .. tasksB]), Timeout, "A's and B's tasks, run by the lent worker while A's worker is blocked");
            Assert.False(blockA.IsCompleted);
            Wait.For(blockL, Timeout);
            AllocationMove[] LendingMoves() => mps.Timeline.GetMoves().Where(m => m.Timestamp > scenario).ToArray();
            Wait.Until(() => LendingMoves().Length >= 4, "the second loan to end", Timeout);

            ProgramHandle first = ruleThatPrefersA ? a : b, second = ruleThatPrefersA ? b : a;
            (int?, int?, AllocationReason)[] expected =
            [
                (l.Id, first.Id, AllocationReason.IdleLending),
                (first.Id, l.Id, AllocationReason.LoanReturn),
                (l.Id, second.Id, AllocationReason.IdleLending),
                (second.Id, l.Id, AllocationReason.LoanReturn),
            ];
            AllocationMove[] moves = LendingMoves();
            Assert.Equal(expected, moves.Take(4).Select(m => (m.FromProgramId, m.ToProgramId, m.Reason)).ToArray());
            Assert.All(moves, m => Assert.Equal(lenderSlot, m.Worker));

            // What the rule saw when it chose the first borrower: serving counts (owned + lent in - lent out), the
            // decision's scalabilities, the queued tasks, and L as the lender.
            BorrowerCall call = policy.Calls.First(c => c.AvailableTasks[A] > 0 && c.AvailableTasks[B] > 0);
            Assert.Equal([1, 1, 0], call.ServingWorkers);
            Assert.Equal([1.0, 2.0, 1.0], call.Scalabilities);
            Assert.Equal([0, 20, 20], call.AvailableTasks);
            Assert.Equal(L, call.Lender);
            Assert.Equal(ruleThatPrefersA ? A : B, call.Chosen);

            // The worker is home again, the allocation unchanged, and the statistics count one loan and return each.
            Wait.Until(
                () => mps.GetSnapshot() is var s && s.WorkerPrograms[lenderSlot] == l.Id && s.WorkerServing[lenderSlot] == l.Id,
                "the lent worker to serve L again",
                Timeout);
            Assert.Equal((1, 1, 0), (l.Allocation, a.Allocation, b.Allocation));
            Assert.Equal((2L, 2L), (l.GetStatistics().MovesIn, l.GetStatistics().MovesOut));
            Assert.Equal((1L, 1L), (a.GetStatistics().MovesIn, a.GetStatistics().MovesOut));
            Assert.Equal((1L, 1L), (b.GetStatistics().MovesIn, b.GetStatistics().MovesOut));
            Assert.Equal(20, b.GetStatistics().TasksExecuted);
            Assert.Equal(0, mps.RejectedAllocations);
            gateA.Set();
            Wait.For(blockA, Timeout);
        }
        finally
        {
            gateL.Set();
            gateA.Set();
            Dispose(mps);
        }
    }

    /// <summary>
    /// L holds both workers, B none, no tick. B's tasks wake L's idle workers, which lend themselves to B; once B has no
    /// task left they go back to L by themselves (each loan has its LoanReturn), with no repartitioning since. Lending
    /// switched on by the option (another policy, IdleLending.ChooseBorrower) or by a policy's own rule.
    /// </summary>
    [ProcessorTheory(2)]
    [InlineData(true)]
    [InlineData(false)]
    public void A_loan_ends_when_the_borrower_runs_dry_and_the_worker_goes_back_home_without_a_tick(bool viaOption)
    {
        int[] processors = TwoProcessors()!;

        MultiProgramScheduler mps = Create(processors, lendingOption: viaOption);
        try
        {
            ProgramHandle l = mps.AddProgram("home");
            ProgramHandle b = mps.AddProgram("borrower");
            var cores = new Dictionary<int, int> { [l.Id] = mps.WorkerCount, [b.Id] = 0 };
            mps.Policy = viaOption ? new FixedAllocationPolicy(cores) : new FixedLendingPolicy(cores);
            WaitUntilEveryWorkerServesItsAssignment(mps);
            l.ResetStatistics();
            b.ResetStatistics();
            long repartitions = mps.Repartitions;

            Task[] tasks = Enumerable.Range(0, 200).Select(_ => Run(b, () => Thread.SpinWait(500))).ToArray();
            Wait.For(Task.WhenAll(tasks), Timeout, "the borrower's tasks, run only by lent workers");

            AllocationMove[] Loans() => mps.Timeline.GetMoves().Where(m => m.Reason == AllocationReason.IdleLending).ToArray();
            AllocationMove[] Returns() => mps.Timeline.GetMoves().Where(m => m.Reason == AllocationReason.LoanReturn).ToArray();
            Wait.Until(
                () => mps.GetSnapshot() is var s && s.WorkerPrograms.All(p => p == l.Id) && s.WorkerServing.All(p => p == l.Id) && Returns().Length == Loans().Length,
                "every lent worker to come back home",
                Timeout);
            AllocationMove[] loans = Loans(), returns = Returns();
            ProgramStatistics borrower = b.GetStatistics();
            string detail = $"moves: {string.Join("; ", mps.Timeline.GetMoves())}; borrower in {borrower.MovesIn} out {borrower.MovesOut} tasks {borrower.TasksExecuted}; repartitions {repartitions} -> {mps.Repartitions}";
            Assert.True(repartitions == mps.Repartitions, "No allocation may bring them back: " + detail);
            Assert.True(loans.Length > 0 && loans.Length == returns.Length, detail);
            Assert.True(loans.All(m => (m.FromProgramId, m.ToProgramId, m.Trigger) == (l.Id, b.Id, RepartitionTrigger.IdleLending)), detail);
            Assert.True(returns.All(m => (m.FromProgramId, m.ToProgramId, m.Trigger) == (b.Id, l.Id, RepartitionTrigger.IdleLending)), detail);
            Assert.True(borrower.MovesIn == loans.Length && borrower.MovesOut == loans.Length && borrower.TasksExecuted == 200, detail);
            Assert.Equal(0, b.Allocation);
            Assert.Equal(mps.WorkerCount, l.Allocation);
        }
        finally
        {
            Dispose(mps);
        }
    }

    /// <summary>
    /// The lending in force follows the policy in force: a policy implementing IIdleLendingPolicy set at run time turns
    /// lending on (a starved program's task runs with no change of allocation); a plain policy set after it turns it off.
    /// </summary>
    [ProcessorFact(2)]
    public void Setting_a_lending_policy_at_run_time_turns_lending_on_and_a_plain_one_turns_it_off()
    {
        int[] processors = TwoProcessors()!;

        MultiProgramScheduler mps = Create(processors);
        try
        {
            ProgramHandle l = mps.AddProgram("home");
            ProgramHandle b = mps.AddProgram("starved");
            var cores = new Dictionary<int, int> { [l.Id] = mps.WorkerCount, [b.Id] = 0 };
            mps.Policy = new FixedAllocationPolicy(cores);
            WaitUntilEveryWorkerServesItsAssignment(mps);

            Task first = Run(b, () => { });
            Assert.False(first.Wait(200), "A program with no cores ran a task without lending.");
            mps.Policy = new FixedLendingPolicy(cores); // the workers are parked: switching lending on must wake them
            Wait.For(first, Timeout, "the starved program's task, once lending is in force");
            Assert.Equal(0, b.Allocation);
            Wait.Until(() => mps.GetSnapshot().WorkerPrograms.All(p => p == l.Id), "the lent worker to come back", Timeout);

            mps.Policy = new FixedAllocationPolicy(cores);
            WaitUntilEveryWorkerServesItsAssignment(mps);
            Task second = Run(b, () => { });
            Assert.False(second.Wait(200), "A task ran by lending after a plain policy replaced the lending one.");
            mps.Policy = new EqualSharesPolicy();
            Wait.For(second, Timeout, "the task, once the program holds a core");
        }
        finally
        {
            Dispose(mps);
        }
    }

    /// <summary>
    /// A rule that throws, or names the lender itself, lends nothing: the decision is counted as rejected with the
    /// reason, no worker dies, and the programs go on once a valid policy gives the starved program a core.
    /// </summary>
    [ProcessorTheory(2)]
    [InlineData("throws", "InvalidOperationException: broken rule")]
    [InlineData("lender", "for an idle worker of program index 0")]
    public void A_broken_borrower_rule_lends_nothing_and_is_reported(string how, string expected)
    {
        int[] processors = TwoProcessors()!;

        MultiProgramScheduler mps = Create(processors);
        try
        {
            ProgramHandle l = mps.AddProgram("home");
            ProgramHandle b = mps.AddProgram("starved");
            BorrowerRule rule = how == "throws"
                ? _ => throw new InvalidOperationException("broken rule")
                : input => input.Lender;
            mps.Policy = new FixedLendingPolicy(new Dictionary<int, int> { [l.Id] = mps.WorkerCount, [b.Id] = 0 }, rule);
            WaitUntilEveryWorkerServesItsAssignment(mps);

            Task t = Run(b, () => { });
            Wait.Until(() => mps.RejectedAllocations > 0, "an idle worker to ask the rule", Timeout);
            Assert.Contains("idle-lending rule", mps.LastRejection);
            Assert.Contains(expected, mps.LastRejection);
            Assert.DoesNotContain(mps.Timeline.GetMoves(), m => m.Trigger == RepartitionTrigger.IdleLending);
            Assert.All(mps.Pool.Workers, w => Assert.True(w.Thread.IsAlive));
            Assert.False(t.IsCompleted);

            mps.Policy = new EqualSharesPolicy();
            Wait.For(t, Timeout, "the task, once the program holds a core");
            Wait.For(Run(l, () => { }), Timeout, "a task of the lender");
        }
        finally
        {
            Dispose(mps);
        }
    }

    /// <summary>
    /// The borrower choice runs on workers between tasks: it allocates nothing, with the counts on the stack (3
    /// programs) or in the slot's own buffer (130 programs, more than fit on the stack).
    /// </summary>
    [ProcessorTheory(2)]
    [InlineData(3)]
    [InlineData(130)]
    public void Choosing_a_borrower_allocates_nothing(int programs)
    {
        int[] processors = TwoProcessors()!;

        MultiProgramScheduler mps = Create(processors);
        try
        {
            ProgramHandle[] handles = Enumerable.Range(0, programs).Select(i => mps.AddProgram($"p{i}", 1.0 + (i % 5))).ToArray();
            long calls = 0;
            BorrowerRule counting = input =>
            {
                Interlocked.Increment(ref calls);
                return IdleLending.ChooseBorrower(input);
            };
            mps.Policy = new FixedLendingPolicy(handles.ToDictionary(h => h.Id, h => h == handles[0] || h == handles[1] ? 1 : 0), counting);
            WaitUntilEveryWorkerServesItsAssignment(mps);
            IPoolOwner lender = mps.Pool.Owner!;
            Worker worker = mps.Pool.Workers[0];
            WorkQueueSet home = worker.Assigned!;
            for (int i = 0; i < 100; i++)
            {
                Assert.Null(lender.FindIdleWork(worker, home).Target); // warm-up; nothing has tasks: no loan
                Assert.Null(lender.FindRecall(worker, home, out _));
            }

            long callsBefore = Interlocked.Read(ref calls);
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 1000; i++)
            {
                lender.FindIdleWork(worker, home);
                lender.FindRecall(worker, home, out _);
            }

            long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            Assert.Equal(0, allocated);
            Assert.True(Interlocked.Read(ref calls) - callsBefore >= 1000, "The lender did not ask the rule.");
        }
        finally
        {
            Dispose(mps);
        }
    }

    /// <summary>
    /// A program whose only worker is on loan to a program that never runs dry, with no tick: removing it (it has a
    /// queued task) still finishes: its task recalls the worker at its next task boundary, and failing that the removal
    /// repartitions when nobody serves the program, which ends the loan.
    /// </summary>
    [ProcessorFact(2)]
    public void Removing_a_program_whose_worker_is_on_loan_to_a_never_dry_program_finishes()
    {
        int[] processors = TwoProcessors()!;

        MultiProgramScheduler mps = Create(processors);
        var stop = new StrongBox<bool>(false);
        int inFlight = 0;
        void Chain(ProgramHandle p)
        {
            Thread.SpinWait(200);
            if (Volatile.Read(ref stop.Value))
            {
                Interlocked.Decrement(ref inFlight);
                return;
            }

            Run(p, () => Chain(p));
        }

        try
        {
            ProgramHandle home = mps.AddProgram("home");
            ProgramHandle busy = mps.AddProgram("busy");
            mps.Policy = new FixedLendingPolicy(new Dictionary<int, int> { [home.Id] = 1, [busy.Id] = 1 });
            WaitUntilEveryWorkerServesItsAssignment(mps);
            for (int i = 0; i < 8; i++)
            {
                Interlocked.Increment(ref inFlight);
                Run(busy, () => Chain(busy));
            }

            Wait.Until(() => mps.GetSnapshot().WorkerPrograms.All(p => p == busy.Id), "home's worker to be lent to the busy program", Timeout);
            int ran = 0;
            Task queued = Run(home, () => Interlocked.Increment(ref ran));
            Assert.True(Task.Run(() => mps.RemoveProgram(home)).Wait(Timeout), "RemoveProgram did not finish while its worker was on loan.");
            Assert.True(queued.IsCompletedSuccessfully);
            Assert.Equal(1, ran);

            // Home's worker came back either by recall (home got a task) or by the removal's repartitioning.
            Assert.Contains(mps.Timeline.GetMoves(), m => m.ToProgramId == home.Id && (m.Reason == AllocationReason.Recall || m.Trigger == RepartitionTrigger.ProgramExit));
        }
        finally
        {
            Volatile.Write(ref stop.Value, true);
            Wait.Until(() => Volatile.Read(ref inFlight) == 0, "every chain to end", Timeout);
            Dispose(mps);
        }
    }

    /// <summary>
    /// Bursts of spawn trees with idle gaps in several programs under IdleLendingPolicy with a 5 ms tick: loans, returns
    /// and the ticks' moves race. Every task runs exactly once, and once everything is done each program's serving count
    /// (owned + lent in - lent out, what the rule sees) equals the workers actually assigned to it. Some worker must have
    /// been lent: if none was during the bursts, a last burst goes to a program that a fixed allocation leaves with no
    /// worker while the others are idle, and only a loan can run it.
    /// </summary>
    /// <remarks>
    /// Why the last burst: during the bursts a worker lends itself only after it spun without finding work (24 rounds, most
    /// of them yields), and IdleLendingPolicy's tick gives an idle worker to a program with tasks at the next decision, as
    /// a loan would. On a loaded 2-core machine each yield can hand the core away for a time slice, so the tick usually
    /// moves the idle worker before it asks. Measured (counters, not kept) under `yes` ×2 beside other test runs: 78% of
    /// 9641 idle spells ended by a tick's move and 0.9% reached the lender; of 89 loan CASes, 2 failed, both on a
    /// changed set, none on a renewed token alone; the first loan came after a median 0.3 s, up to 10 s, of bursts (the
    /// code before the assignment token alike), and once in CI none came in 30 s. With a fixed allocation the ticks
    /// publish nothing, so the idle owner's spin ends and it asks, however slowly.
    /// </remarks>
    [Fact]
    public void Under_bursts_and_ticks_every_task_runs_exactly_once_and_the_serving_counts_stay_exact()
        => BurstsRun(programs: 3, bursts: 6, depth: 10, seed: 1);

    [StressTheory]
    [Trait("Category", "Stress")]
    [InlineData(3, 60, 12, 2)]
    [InlineData(5, 40, 11, 3)]
    [InlineData(2, 80, 13, 4)]
    public void Stress_bursts(int programs, int bursts, int depth, int seed)
        => BurstsRun(programs, bursts, depth, seed);

    private static void BurstsRun(int programs, int bursts, int depth, int seed)
    {
        MultiProgramScheduler mps = new(new MultiProgramSchedulerOptions
        {
            Policy = new IdleLendingPolicy(),
            RepartitionInterval = TimeSpan.FromMilliseconds(5),
            BestEffortPinning = true,
        });
        try
        {
            ProgramHandle[] handles = Enumerable.Range(0, programs).Select(i => mps.AddProgram($"p{i}", 1.0 + i)).ToArray();
            bool Lent() => mps.Timeline.GetMoves().Any(m => m.Reason == AllocationReason.IdleLending);
            Task[] drivers = handles.Select((h, i) => Task.Run(() =>
            {
                var random = new Random(seed * 100 + i);

                for (int k = 0; k < bursts; k++)
                {
                    var tree = new MarkedTree(depth);
                    tree.Start(h.Scheduler);
                    Wait.For(tree.Done, Timeout, $"burst {k} of {h} ({tree.Count} of {tree.Size} ran)");
                    Assert.Empty(tree.NotExactlyOnce());
                    Assert.Equal(0, tree.ChangedThread());
                    Thread.Sleep(random.Next(0, 4)); // an idle gap: its workers may be lent, or come back
                }
            })).ToArray();
            Wait.For(Task.WhenAll(drivers), Timeout, "every program's bursts");
            if (!Lent())
            {
                LastBurstOnLoan(mps, handles);
            }

            int Assigned(ProgramHandle h) => mps.Pool.Workers.Count(w => ReferenceEquals(w.Assigned, h.Queues));
            string Counts() => string.Join(", ", handles.Select(h => $"{h}: serving {h.ServingWorkers}, assigned {Assigned(h)}"));
            for (var sw = System.Diagnostics.Stopwatch.StartNew(); !handles.All(h => h.ServingWorkers == Assigned(h));)
            {
                Assert.True(sw.Elapsed < Timeout, "The serving counts do not match the assignments: " + Counts());
                Thread.Sleep(1);
            }

            Assert.True(Lent(), "No worker was lent during the bursts.");
            Assert.Equal(0, mps.RejectedAllocations);
        }
        finally
        {
            Dispose(mps);
        }
    }

    // No loan during the bursts (see BurstsRun's remarks): every worker to the last program, none to the first, the other
    // programs idle, and one burst in the first. Its tasks can run only on a loan (a starved decision keeps the same
    // allocation, the ticks publish nothing), so the wait is for the loan itself, bounded; the tree must then finish.
    private static void LastBurstOnLoan(MultiProgramScheduler mps, ProgramHandle[] handles)
    {
        ProgramHandle borrower = handles[0], owner = handles[^1];
        var shares = handles.ToDictionary(h => h.Id, h => ReferenceEquals(h, owner) ? mps.WorkerCount : 0);
        mps.Policy = new FixedLendingPolicy(shares);
        var tree = new MarkedTree(8);
        tree.Start(borrower.Scheduler);
        Wait.Until(
            () => mps.Timeline.GetMoves().Any(m => m.Reason == AllocationReason.IdleLending && m.ToProgramId == borrower.Id),
            $"a worker of {owner} is lent to {borrower}, which holds none and has {tree.Size} tasks to run",
            Timeout / 2);
        Wait.For(tree.Done, Timeout, $"the last burst of {borrower} ({tree.Count} of {tree.Size} ran)");
        Assert.Empty(tree.NotExactlyOnce());
        Assert.Equal(0, tree.ChangedThread());
    }
}
