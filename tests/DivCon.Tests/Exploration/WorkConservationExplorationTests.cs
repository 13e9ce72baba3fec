using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;
using DivCon.Tests.Scheduling;

namespace DivCon.Tests.Exploration;

/// <summary>
/// Work conservation's protocol explored schedule by schedule (ScheduleExplorer, as ProtocolExplorationTests): recall
/// of a lent worker at a task boundary, lending an idle core at once (a parked worker woken by another program's
/// producer), demand-driven repartitioning (the repartitioner thread, woken by a program that gets work, under the
/// explorer too), and the starved trigger of a program whose workers were moved away while it was marked. Real MultiProgramScheduler code, ticks off, compensation off, two workers. In each scenario the
/// mechanism under test is the only way the waiting task can ever run, so a broken one shows up as a schedule that
/// never finishes: the deliberately broken recall (Worker.s_recallOffForTests) and the mover without its reset of demand
/// marks (Mover.s_keepDemandMarksForTests: Focused seeds 3 and 5 deadlock) are found that way.
/// </summary>
[Collection(nameof(NotParallel))]
public sealed class WorkConservationExplorationTests
{
    private static readonly TimeSpan ScheduleTimeout = TimeSpan.FromSeconds(60);

    // A schedule of these scenarios takes a few thousand steps; one that runs this many is spinning for good.
    private const int MaxSteps = 40_000;

    /// <summary>
    /// Recall: the default policy (equal shares, throughput lending) gives programs a and b one worker each. b runs two
    /// chains of tasks that queue their own successors until told to stop, so b never runs dry; a has nothing, so its
    /// worker is lent to b (woken by b's producer: lending at once). Then a task is queued to a, which stops b's chains.
    /// Both workers run b's chains for ever unless a's lent worker goes home at a task boundary when a has a task: the
    /// recall is the only way that task runs.
    /// </summary>
    [ProcessorTheory(2)]
    [InlineData(ExplorationStrategy.Focused, 1, 150)]
    [InlineData(ExplorationStrategy.Pct, 1000, 100)]
    [InlineData(ExplorationStrategy.StickyRandom, 2000, 100)]
    public void A_lent_worker_is_recalled_at_a_task_boundary_when_its_home_gets_a_task(ExplorationStrategy strategy, int firstSeed, int schedules)
    {
        for (int seed = firstSeed; seed < firstSeed + schedules; seed++)
        {
            string? failure = RecallScenario(seed, strategy);
            Assert.True(failure is null, Replay(seed, strategy, failure, "recall"));
        }
    }

    [StressTheory]
    [Trait("Category", "Stress")]
    [InlineData(ExplorationStrategy.Focused, 100_000, 5_000)]
    [InlineData(ExplorationStrategy.Pct, 200_000, 5_000)]
    public void Stress_recall_under_explored_schedules(ExplorationStrategy strategy, int firstSeed, int schedules)
        => A_lent_worker_is_recalled_at_a_task_boundary_when_its_home_gets_a_task(strategy, firstSeed, schedules);

    /// <summary>
    /// The same scenario with the recall switched off (Worker.s_recallOffForTests, Debug only): the explorer must find a
    /// schedule in which a's task never runs (the schedule spins until its step budget: a livelock), from a fixed seed
    /// within a small budget.
    /// </summary>
    [ProcessorFact(2)]
    public void With_the_recall_switched_off_the_explorer_finds_the_starved_program()
    {
        string? found = null;
        int tried = 0;
        Worker.s_recallOffForTests = true;
        try
        {
            for (int seed = 1; seed < 1 + 20 && found is null; seed++)
            {
                tried++;
                string? failure = RecallScenario(seed, ExplorationStrategy.Focused);
                if (failure is not null)
                {
                    found = $"seed {seed}: {failure}";
                    Assert.True(failure.Contains("livelock", StringComparison.Ordinal) || failure.Contains("steps", StringComparison.Ordinal), found);
                }
            }
        }
        finally
        {
            Worker.s_recallOffForTests = false;
        }

        Assert.True(found is not null, $"the explorer did not find the starved program in {tried} schedules");
    }

    /// <summary>
    /// Lending's wake-up when a set's own wake went to a worker that takes one task only: programs a and b hold one worker
    /// each; a has nothing, and two tasks of b are queued from outside, each holding its worker until both run. The
    /// second push can find b's worker still parked (being woken for the first) and so make no lending wake; that worker
    /// takes one task, and the second runs only if a's idle worker is woken to lend itself when the last searcher of b
    /// stops (WorkQueueSet.StopSearching). Otherwise it waits for ever: the explorer's step budget.
    /// </summary>
    [ProcessorTheory(2)]
    [InlineData(ExplorationStrategy.Focused, 200, 150)] // includes seed 270, which finds the defect without the wake
    [InlineData(ExplorationStrategy.Pct, 1000, 100)]
    [InlineData(ExplorationStrategy.StickyRandom, 2000, 100)]
    public void A_task_queued_behind_a_busy_program_gets_an_idle_worker_of_another(ExplorationStrategy strategy, int firstSeed, int schedules)
    {
        for (int seed = firstSeed; seed < firstSeed + schedules; seed++)
        {
            string? failure = LendOnStopScenario(seed, strategy);
            Assert.True(failure is null, Replay(seed, strategy, failure, "lend-on-stop"));
        }
    }

    /// <summary>The same with the last searcher's lending wake switched off (Debug only): the explorer must find the stranded task.</summary>
    [ProcessorFact(2)]
    public void With_the_lending_wake_on_stop_switched_off_the_explorer_finds_the_stranded_task()
    {
        string? found = null;
        int tried = 0;
        WorkQueueSet.s_lendOnStopOffForTests = true;
        try
        {
            // Focused seed 270 finds it (a deadlock after about 320 steps: b's worker parked, a's worker in one of b's
            // tasks waiting for the other, which sits in b's queue); the seeds around it keep the test short.
            for (int seed = 250; seed < 250 + 40 && found is null; seed++)
            {
                tried++;
                found = LendOnStopScenario(seed, ExplorationStrategy.Focused) is { } failure ? $"seed {seed}: {failure}" : null;
            }
        }
        finally
        {
            WorkQueueSet.s_lendOnStopOffForTests = false;
        }

        Assert.True(found is not null, $"the explorer did not find the stranded task in {tried} schedules");
    }

    /// <summary>
    /// Demand-driven repartitioning: a policy that gives program b a core only while b has available tasks, with
    /// RepartitionOnDemand on and no lending. a runs endless chains (so its workers never idle) until a task of b stops
    /// them. b holds no core when its task is queued; only a decision taken because b got work can give it one.
    /// </summary>
    [ProcessorTheory(2)]
    [InlineData(ExplorationStrategy.Focused, 1, 100)]
    [InlineData(ExplorationStrategy.Pct, 1000, 100)]
    [InlineData(ExplorationStrategy.StickyRandom, 2000, 100)]
    public void A_program_that_gets_work_gets_a_core_from_a_demand_decision(ExplorationStrategy strategy, int firstSeed, int schedules)
    {
        for (int seed = firstSeed; seed < firstSeed + schedules; seed++)
        {
            string? failure = DemandScenario(seed, strategy);
            Assert.True(failure is null, Replay(seed, strategy, failure, "demand"));
        }
    }

    /// <summary>
    /// The starved trigger after a move (RepartitionWhenStarved, no ticks, no lending, no demand-driven decisions): b holds
    /// both workers and runs two tasks; a third is queued while both run, so b is marked as wanting workers, and taken by
    /// the first worker freed. While those two run, a policy that gives b a core only when it has available tasks
    /// (CoreOnlyWithTasksPolicy) moves both workers to a at their next task boundary. Then b gets one more task, with no
    /// worker: only a decision taken because b is starved can give it a core, and b's producer signals one only when it
    /// sets b's mark. A decision that leaves b no worker must therefore clear the mark (Mover.Apply).
    /// </summary>
    [ProcessorTheory(2)]
    [InlineData(ExplorationStrategy.Focused, 1, 100)]
    [InlineData(ExplorationStrategy.Pct, 1000, 100)]
    [InlineData(ExplorationStrategy.StickyRandom, 2000, 100)]
    public void A_program_whose_workers_left_while_it_wanted_more_gets_a_core_for_its_next_task(ExplorationStrategy strategy, int firstSeed, int schedules)
    {
        for (int seed = firstSeed; seed < firstSeed + schedules; seed++)
        {
            string? failure = StarvedAfterMoveScenario(seed, strategy);
            Assert.True(failure is null, Replay(seed, strategy, failure, "starved-mark"));
        }
    }

    [StressTheory]
    [Trait("Category", "Stress")]
    [InlineData(ExplorationStrategy.Focused, 100_000, 5_000)]
    [InlineData(ExplorationStrategy.Pct, 200_000, 5_000)]
    public void Stress_starved_after_move_under_explored_schedules(ExplorationStrategy strategy, int firstSeed, int schedules)
        => A_program_whose_workers_left_while_it_wanted_more_gets_a_core_for_its_next_task(strategy, firstSeed, schedules);

    /// <summary>
    /// The same with the reset switched off (Mover.s_keepDemandMarksForTests, Debug only): b's last task finds the mark
    /// still set, signals nothing and is never run; the explorer must report the schedule as a deadlock.
    /// </summary>
    [ProcessorFact(2)]
    public void With_the_demand_reset_switched_off_the_explorer_finds_the_stranded_task()
    {
        string? found = null;
        int tried = 0;
        Mover.s_keepDemandMarksForTests = true;
        try
        {
            for (int seed = 1; seed < 1 + 20 && found is null; seed++)
            {
                tried++;
                found = StarvedAfterMoveScenario(seed, ExplorationStrategy.Focused) is { } failure ? $"seed {seed}: {failure}" : null;
            }
        }
        finally
        {
            Mover.s_keepDemandMarksForTests = false;
        }

        Assert.True(found is not null, $"the explorer did not find the stranded task in {tried} schedules");
        Assert.DoesNotContain("precondition", found, StringComparison.Ordinal);
    }

    /// <summary>
    /// Replays the schedule named by DIVCON_EXPLORE_SEED / DIVCON_EXPLORE_STRATEGY with DIVCON_EXPLORE_SCENARIO=recall or
    /// demand, lend-on-stop or starved-mark (skipped without them); DIVCON_EXPLORE_WITHOUT_RECALL=1 switches the recall off,
    /// DIVCON_EXPLORE_WITHOUT_DEMAND_RESET=1 the mover's reset of demand marks.
    /// </summary>
    [EnvironmentFact("DIVCON_EXPLORE_SEED")]
    public void Replay_one_work_conservation_schedule()
    {
        string? scenario = Environment.GetEnvironmentVariable("DIVCON_EXPLORE_SCENARIO");
        if (scenario is not ("recall" or "demand" or "lend-on-stop" or "starved-mark"))
        {
            return; // ProtocolExplorationTests.Replay_one_schedule replays the other scenarios
        }

        (int seed, ExplorationStrategy strategy) = ScheduleExplorer.ReplayFromEnvironment();
        Worker.s_recallOffForTests = Environment.GetEnvironmentVariable("DIVCON_EXPLORE_WITHOUT_RECALL") == "1";
        WorkQueueSet.s_lendOnStopOffForTests = Environment.GetEnvironmentVariable("DIVCON_EXPLORE_WITHOUT_LEND_ON_STOP") == "1";
        Mover.s_keepDemandMarksForTests = Environment.GetEnvironmentVariable("DIVCON_EXPLORE_WITHOUT_DEMAND_RESET") == "1";
        try
        {
            string? failure = scenario switch
            {
                "recall" => RecallScenario(seed, strategy),
                "demand" => DemandScenario(seed, strategy),
                "starved-mark" => StarvedAfterMoveScenario(seed, strategy),
                _ => LendOnStopScenario(seed, strategy),
            };
            Assert.True(failure is null, Replay(seed, strategy, failure, scenario));
        }
        finally
        {
            Worker.s_recallOffForTests = false;
            WorkQueueSet.s_lendOnStopOffForTests = false;
            Mover.s_keepDemandMarksForTests = false;
        }
    }

    private static string Replay(int seed, ExplorationStrategy strategy, string? failure, string scenario)
        => ScheduleExplorer.FailureWithReplay(seed, strategy, failure, "Replay_one_work_conservation_schedule", scenario);

    // Two workers, no ticks, no compensation, the default policy (equal shares, throughput lending).
    private static MultiProgramScheduler NewLendingScheduler() => new(new MultiProgramSchedulerOptions
    {
        Processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray(),
        Unpinned = true,
        RepartitionInterval = System.Threading.Timeout.InfiniteTimeSpan,
        CompensateBlocking = false,
        NewcomerQuantum = TimeSpan.Zero, // the named protocols alone: short jobs first would decide for a starved newcomer
    });

    private static MultiProgramScheduler NewScheduler(IPartitioningPolicy policy, bool onDemand, TimeSpan? starvedGap = null)
        => new(new MultiProgramSchedulerOptions
        {
            Processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray(),
            Unpinned = true,
            RepartitionInterval = System.Threading.Timeout.InfiniteTimeSpan,
            Policy = policy,
            RepartitionOnDemand = onDemand,
            StarvedRepartitionGap = starvedGap ?? new MultiProgramSchedulerOptions().StarvedRepartitionGap,
            CompensateBlocking = false,
            NewcomerQuantum = TimeSpan.Zero, // the named protocols alone: short jobs first would decide for a starved newcomer
        });

    // See the recall test. Null when the schedule finished with every task run, else the explorer's failure.
    private static string? RecallScenario(int seed, ExplorationStrategy strategy)
    {
        MultiProgramScheduler? mps = null;
        ProgramHandle? a = null, b = null;
        var chains = new Chains();
        bool ready = false;
        using var explorer = new ScheduleExplorer(seed, strategy, MaxSteps);
        explorer.Run(
        [
            ("mover", () =>
            {
                mps = NewLendingScheduler();
                a = mps.AddProgram("a");
                b = mps.AddProgram("b");
                Volatile.Write(ref ready, true);
            }),
            ("b's producer", () =>
            {
                ScheduleExplorer.WaitUntil(() => Volatile.Read(ref ready), "the programs");
                chains.Start(b!.Scheduler, 2);
            }),
            ("a's producer", () =>
            {
                ScheduleExplorer.WaitUntil(() => Volatile.Read(ref ready), "the programs");

                // Both workers serving b: a's is on loan (lent at once, woken by b's producer).
                ProgramHandle pb = b!;
                MultiProgramScheduler m = mps!;
                ScheduleExplorer.WaitUntil(() => m.Pool.Workers.All(w => ReferenceEquals(w.ServingForReaders, pb.Queues)), "a's worker lent to b");
                Task t = Task.Factory.StartNew(chains.Stop, CancellationToken.None, TaskCreationOptions.None, a!.Scheduler);
                ScheduleExplorer.WaitUntil(() => t.IsCompleted, "a's task ran");
                ScheduleExplorer.WaitUntil(() => chains.Done, "b's chains stopped");
            }),
        ],
        ScheduleTimeout);
        string? failure = explorer.Failure;
        explorer.Dispose();
        if (failure is not null)
        {
            // A failed schedule (the recall switched off) left a's task stranded, which keeps Dispose waiting for it: the
            // recall back on, the lent worker goes home at its next task boundary, so TearDown returns at once instead
            // of after its bound. The caller's loop stops at the first failure, and its finally clears the switch anyway.
            Worker.s_recallOffForTests = false;
        }

        TearDown(mps, failure is not null, chains);
        return failure;
    }

    // See the lend-on-stop test. Null when both of b's tasks ran, else the explorer's failure.
    private static string? LendOnStopScenario(int seed, ExplorationStrategy strategy)
    {
        MultiProgramScheduler? mps = null;
        ProgramHandle? b = null;
        var chains = new Chains(); // none started: TearDown's signature
        bool ready = false, release = false;
        int started = 0, finished = 0;
        using var explorer = new ScheduleExplorer(seed, strategy, MaxSteps);
        explorer.Run(
        [
            ("mover", () =>
            {
                mps = NewLendingScheduler();
                mps.AddProgram("a");
                b = mps.AddProgram("b");
                Volatile.Write(ref ready, true);
            }),
            ("b's producer", () =>
            {
                ScheduleExplorer.WaitUntil(() => Volatile.Read(ref ready), "the programs");
                for (int i = 0; i < 2; i++)
                {
                    Task.Factory.StartNew(() =>
                    {
                        Interlocked.Increment(ref started);
                        ScheduleExplorer.WaitUntil(() => Volatile.Read(ref release), "both of b's tasks running");
                        Interlocked.Increment(ref finished);
                    }, CancellationToken.None, TaskCreationOptions.None, b!.Scheduler);
                }
            }),
            ("checker", () =>
            {
                ScheduleExplorer.WaitUntil(() => Volatile.Read(ref started) == 2, "both of b's tasks started");
                Volatile.Write(ref release, true);
                ScheduleExplorer.WaitUntil(() => Volatile.Read(ref finished) == 2, "both of b's tasks finished");
            }),
        ],
        ScheduleTimeout);
        string? failure = explorer.Failure;
        explorer.Dispose();
        Volatile.Write(ref release, true);
        TearDown(mps, failure is not null, chains);
        return failure;
    }

    // See the starved-after-move test. Null when b's last task ran, else the explorer's failure (or a broken precondition).
    private static string? StarvedAfterMoveScenario(int seed, ExplorationStrategy strategy)
    {
        MultiProgramScheduler? mps = null;
        ProgramHandle? b = null;
        var chains = new Chains(); // none started: TearDown's signature
        bool ready = false, firstRelease = false, release = false, moved = false;
        int started = 0;
        bool? markedAtDecision = null;
        Task? last = null;
        using var explorer = new ScheduleExplorer(seed, strategy, MaxSteps);
        explorer.Run(
        [
            ("mover", () =>
            {
                // The gap would sleep outside the explorer; 0 serves a starved program at once.
                mps = NewScheduler(new EqualSharesPolicy(), onDemand: false, starvedGap: TimeSpan.Zero);
                ProgramHandle a = mps.AddProgram("a");
                b = mps.AddProgram("b");
                mps.Policy = new FixedAllocationPolicy(new Dictionary<int, int> { [a.Id] = 0, [b.Id] = mps.WorkerCount });
                Volatile.Write(ref ready, true);

                // Both of b's workers in a task, none queued, b marked: the decision leaves b with no core.
                ScheduleExplorer.WaitUntil(() => Volatile.Read(ref started) == 3, "b's third task running");
                markedAtDecision = b.Queues.WantsWorkers;
                mps.Policy = new CoreOnlyWithTasksPolicy();
                Volatile.Write(ref release, true);
                ProgramHandle pb = b;
                ScheduleExplorer.WaitUntil(() => pb.ServingWorkers == 0, "b's workers gone to a");
                Volatile.Write(ref moved, true);
            }),
            ("b's producer", () =>
            {
                ScheduleExplorer.WaitUntil(() => Volatile.Read(ref ready), "the programs");
                for (int i = 0; i < 3; i++)
                {
                    bool first = i == 0;
                    Task.Factory.StartNew(() =>
                    {
                        Interlocked.Increment(ref started);
                        ScheduleExplorer.WaitUntil(() => Volatile.Read(ref first ? ref firstRelease : ref release), "released");
                    }, CancellationToken.None, TaskCreationOptions.None, b!.Scheduler);
                    if (i == 1)
                    {
                        // The third task is queued while both workers run: no worker of b parked, so it marks b.
                        ScheduleExplorer.WaitUntil(() => Volatile.Read(ref started) == 2, "b's two tasks running");
                    }
                }

                // The first worker freed takes the third task straight from the queue (it does not run dry: b stays marked).
                Volatile.Write(ref firstRelease, true);
                ScheduleExplorer.WaitUntil(() => Volatile.Read(ref moved), "the move");
                Task t = Task.Factory.StartNew(() => { }, CancellationToken.None, TaskCreationOptions.None, b!.Scheduler);
                last = t;
                ScheduleExplorer.WaitUntil(() => t.IsCompleted, "b's last task ran");
            }),
        ],
        ScheduleTimeout);
        string? failure = explorer.Failure;
        explorer.Dispose();
        Volatile.Write(ref firstRelease, true);
        Volatile.Write(ref release, true);
        if (failure is not null && mps is { } stranded)
        {
            // A stranded task (the reset switched off) keeps Dispose waiting for b's work: an equal split gives b a core,
            // so that TearDown returns at once instead of after its bound.
            Task.Run(() => stranded.Policy = new EqualSharesPolicy()).Wait(TimeSpan.FromSeconds(5));
        }

        TearDown(mps, failure is not null, chains);
        if (failure is null && markedAtDecision != true)
        {
            failure = $"scenario precondition broken: b was not marked as wanting workers when the decision left it none (marked: {markedAtDecision})";
        }

        return failure;
    }

    // See the demand test.
    private static string? DemandScenario(int seed, ExplorationStrategy strategy)
    {
        MultiProgramScheduler? mps = null;
        ProgramHandle? b = null;
        var chains = new Chains();
        bool ready = false;
        using var explorer = new ScheduleExplorer(seed, strategy, MaxSteps);
        explorer.Run(
        [
            ("mover", () =>
            {
                mps = NewScheduler(new CoreOnlyWithTasksPolicy(), onDemand: true);
                ProgramHandle a = mps.AddProgram("a");
                chains.Start(a.Scheduler, 2);
                b = mps.AddProgram("b");
                Volatile.Write(ref ready, true);
            }),
            ("b's producer", () =>
            {
                ScheduleExplorer.WaitUntil(() => Volatile.Read(ref ready), "the programs");
                Task t = Task.Factory.StartNew(chains.Stop, CancellationToken.None, TaskCreationOptions.None, b!.Scheduler);
                ScheduleExplorer.WaitUntil(() => t.IsCompleted, "b's task ran");
                ScheduleExplorer.WaitUntil(() => chains.Done, "a's chains stopped");
            }),
        ],
        ScheduleTimeout);
        string? failure = explorer.Failure;
        explorer.Dispose();
        TearDown(mps, failure is not null, chains);
        return failure;
    }

    // Outside the explorer: stop the chains (a failed schedule left them running), shut down, dispose (bounded).
    private static void TearDown(MultiProgramScheduler? mps, bool failed, Chains chains)
    {
        chains.Stop();
        if (mps is null)
        {
            return;
        }

        if (failed)
        {
            mps.Pool.BeginShutdown();
        }

        Task.Run(mps.Dispose).Wait(TimeSpan.FromSeconds(20));
    }

    /// <summary>Program index 1 holds one core while it has available tasks and none otherwise; index 0 holds the rest.</summary>
    internal sealed class CoreOnlyWithTasksPolicy : IPartitioningPolicy
    {
        public string Name => "core-only-with-tasks";

        public Shares Decide(PartitioningInput input)
        {
            int m = input.Programs.Count;
            int[] counts = new int[m];
            if (m > 0)
            {
                int second = m > 1 && input.Programs[1].AvailableTasks > 0 ? 1 : 0;
                counts[0] = input.Cores - second;
                if (m > 1)
                {
                    counts[1] = second;
                }
            }

            return Shares.FromCounts(input, counts, reason: AllocationReason.Fixed);
        }
    }

    /// <summary>Chains of tasks, each queuing its successor on the current scheduler until stopped.</summary>
    private sealed class Chains
    {
        private volatile bool _stop;
        private int _running;

        public bool Done => _stop && Volatile.Read(ref _running) == 0;

        public void Start(TaskScheduler scheduler, int chains)
        {
            for (int i = 0; i < chains; i++)
            {
                Interlocked.Increment(ref _running);
                Task.Factory.StartNew(Step, CancellationToken.None, TaskCreationOptions.None, scheduler);
            }
        }

        public void Stop() => _stop = true;

        private void Step()
        {
            if (_stop)
            {
                Interlocked.Decrement(ref _running);
                return;
            }

            // A chain polls for its stop: under the explorer it says so, so that PCT lowers it below the threads it
            // waits for (a poller that never yields would starve them: a livelock of the test, not of the protocol).
            bool explored = false;
            ScheduleHook.Spin("chain.poll", ref explored);

            // No scheduler given: TaskScheduler.Current, the chain's program; from its worker, its own deque.
            Task.Factory.StartNew(Step);
        }
    }
}
