using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;
using DivCon.Tests.Scheduling;

namespace DivCon.Tests.Exploration;

/// <summary>
/// The wake / park / move / lend / shutdown protocol explored schedule by schedule (ScheduleExplorer): real
/// MultiProgramScheduler code, ticks off, blocking compensation off (its monitor is a clock-driven thread outside the
/// explorer), two workers. Every failure message carries the seed and the strategy; replay one schedule with
/// <c>DIVCON_EXPLORE_SEED=&lt;seed&gt; DIVCON_EXPLORE_STRATEGY=&lt;strategy&gt; dotnet test --filter Replay_one_schedule</c>.
/// </summary>
[Collection(nameof(NotParallel))]
public sealed class ProtocolExplorationTests
{
    private static readonly TimeSpan ScheduleTimeout = TimeSpan.FromSeconds(60);

    /// <summary>
    /// Where the lost-wake-up search starts and how many schedules it may try (a second or two). The bug needs three
    /// preemptions at exact protocol steps; under the Focused strategy few schedules hit it (since issue 18 added the
    /// repartitioner thread, the lender and the demand marks to the explored code: seed 8546 among the first 60,000).
    /// The default run starts just before 8546; the stress run searches 40,000 seeds from 20,000 on its own.
    /// </summary>
    private const int LostWakeUpFirstSeed = 8500;
    private const int LostWakeUpBudget = 400;

    /// <summary>
    /// Defect 1 of issue 14, with its fix switched off (Worker.s_wakeWithoutEpochForTests, Debug only): two workers
    /// parked on program a, the mover adds program b (one worker moves) while a producer queues a task to a. The
    /// explorer must find a schedule in which that task never runs (every thread blocked: a lost wake-up), from a fixed
    /// seed within the budget.
    /// </summary>
    [ProcessorFact(2)]
    public void With_the_park_epoch_switched_off_the_explorer_finds_the_lost_wake_up()
        => FindLostWakeUp(LostWakeUpFirstSeed, LostWakeUpBudget);

    [StressFact]
    [Trait("Category", "Stress")]
    public void Stress_with_the_park_epoch_switched_off_a_wide_search_finds_the_lost_wake_up()
        => FindLostWakeUp(20_000, 40_000);

    /// <summary>The same scenario with the fix: every schedule of the same budget (and more) runs the task.</summary>
    [ProcessorTheory(2)]
    [InlineData(ExplorationStrategy.Focused, LostWakeUpFirstSeed, LostWakeUpBudget)]
    [InlineData(ExplorationStrategy.Pct, 1, 300)]
    public void With_the_park_epoch_the_same_schedules_all_run_the_task(ExplorationStrategy strategy, int firstSeed, int schedules)
        => RunMoveWhileProducing(strategy, firstSeed, schedules);

    [StressFact]
    [Trait("Category", "Stress")]
    public void Stress_with_the_park_epoch_the_wide_search_finds_nothing()
        => RunMoveWhileProducing(ExplorationStrategy.Focused, 20_000, 40_000);

    private static void FindLostWakeUp(int firstSeed, int budget)
    {
        string? found = null;
        int tried = 0;
        Worker.s_wakeWithoutEpochForTests = true;
        Worker.s_spinLimitForTests = 1;
        try
        {
            for (int seed = firstSeed; seed < firstSeed + budget && found is null; seed++)
            {
                tried++;
                string? failure = MoveWhileProducing(seed, ExplorationStrategy.Focused);
                if (failure is not null)
                {
                    found = $"seed {seed}: {failure}";

                    // The producer waits for a task that never runs while every worker is parked: the lost wake-up.
                    Assert.True(failure.Contains("deadlock", StringComparison.Ordinal) && failure.Contains("its task ran", StringComparison.Ordinal), found);
                }
            }
        }
        finally
        {
            Worker.s_wakeWithoutEpochForTests = false;
            Worker.s_spinLimitForTests = 0;
        }

        Assert.True(found is not null, $"the explorer did not find the lost wake-up in {tried} schedules from seed {firstSeed}");
    }

    private static void RunMoveWhileProducing(ExplorationStrategy strategy, int firstSeed, int schedules)
    {
        Worker.s_spinLimitForTests = 1;
        try
        {
            for (int seed = firstSeed; seed < firstSeed + schedules; seed++)
            {
                string? failure = MoveWhileProducing(seed, strategy);
                Assert.True(failure is null, Replay(seed, strategy, failure, "lost-wake-up"));
            }
        }
        finally
        {
            Worker.s_spinLimitForTests = 0;
        }
    }

    /// <summary>
    /// Random scenarios (arrivals, removals, moves by fixed and random allocations, idle lending with loans, returns and
    /// recalls, the default work-conserving policy, demand-driven decisions on the repartitioner thread, producers,
    /// local children and steals, then Dispose): every schedule finishes, every task runs exactly once. Fast version.
    /// </summary>
    [ProcessorTheory(2)]
    [InlineData(ExplorationStrategy.Focused, 1000, 400)]
    [InlineData(ExplorationStrategy.Pct, 2000, 300)]
    [InlineData(ExplorationStrategy.StickyRandom, 3000, 300)]
    public void Random_scenarios_under_explored_schedules_run_every_task_exactly_once(ExplorationStrategy strategy, int firstSeed, int schedules)
        => Explore(strategy, firstSeed, schedules);

    [StressTheory]
    [Trait("Category", "Stress")]
    [InlineData(ExplorationStrategy.Focused, 100_000, 20_000)]
    [InlineData(ExplorationStrategy.Pct, 200_000, 10_000)]
    [InlineData(ExplorationStrategy.StickyRandom, 300_000, 10_000)]
    public void Stress_random_scenarios_under_explored_schedules(ExplorationStrategy strategy, int firstSeed, int schedules)
        => Explore(strategy, firstSeed, schedules);

    /// <summary>
    /// Replays the schedule named by DIVCON_EXPLORE_SEED / DIVCON_EXPLORE_STRATEGY (skipped without them);
    /// DIVCON_EXPLORE_SCENARIO=lost-wake-up picks defect 1's scenario, and DIVCON_EXPLORE_WITHOUT_EPOCH=1 switches its
    /// fix off (then seed 1755 with Focused fails, showing the interleaving step by step).
    /// </summary>
    [EnvironmentFact("DIVCON_EXPLORE_SEED")]
    public void Replay_one_schedule()
    {
        (int seed, ExplorationStrategy strategy) = ScheduleExplorer.ReplayFromEnvironment();
        bool lostWakeUp = Environment.GetEnvironmentVariable("DIVCON_EXPLORE_SCENARIO") == "lost-wake-up";
        Worker.s_spinLimitForTests = lostWakeUp ? 1 : 2;
        Worker.s_wakeWithoutEpochForTests = Environment.GetEnvironmentVariable("DIVCON_EXPLORE_WITHOUT_EPOCH") == "1";
        try
        {
            string? failure = lostWakeUp ? MoveWhileProducing(seed, strategy) : RandomScenario(seed, strategy);
            Assert.True(failure is null, Replay(seed, strategy, failure, lostWakeUp ? "lost-wake-up" : null));
        }
        finally
        {
            Worker.s_spinLimitForTests = 0;
            Worker.s_wakeWithoutEpochForTests = false;
        }
    }

    private static void Explore(ExplorationStrategy strategy, int firstSeed, int schedules)
    {
        Worker.s_spinLimitForTests = 2;
        try
        {
            for (int seed = firstSeed; seed < firstSeed + schedules; seed++)
            {
                string? failure = RandomScenario(seed, strategy);
                Assert.True(failure is null, Replay(seed, strategy, failure));
            }
        }
        finally
        {
            Worker.s_spinLimitForTests = 0;
        }
    }

    private static string Replay(int seed, ExplorationStrategy strategy, string? failure, string? scenario = null)
        => ScheduleExplorer.FailureWithReplay(seed, strategy, failure, "Replay_one_schedule", scenario);

    private static MultiProgramScheduler NewScheduler(bool lending, bool onDemand = false)
        => new(new MultiProgramSchedulerOptions
        {
            Processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray(),
            Unpinned = true,
            RepartitionInterval = System.Threading.Timeout.InfiniteTimeSpan,
            Policy = new EqualSharesPolicy(),
            IdleLending = lending,
            RepartitionOnDemand = onDemand,
            CompensateBlocking = false,
            NewcomerQuantum = TimeSpan.Zero, // the named protocols alone: short jobs first would decide for a starved newcomer
        });

    // Defect 1's scenario (see the test above). Null when the schedule finished, else the explorer's failure.
    private static string? MoveWhileProducing(int seed, ExplorationStrategy strategy)
    {
        MultiProgramScheduler? mps = null;
        ProgramHandle? a = null;
        Task? task = null;
        bool setUp = false;
        using var explorer = new ScheduleExplorer(seed, strategy);
        explorer.Run(
        [
            ("mover", () =>
            {
                mps = NewScheduler(lending: false);
                a = mps.AddProgram("a");
                ProgramHandle pa = a;
                ScheduleExplorer.WaitUntil(() => pa.Queues.WakeState.Parked == 2, "both workers parked on a");
                Volatile.Write(ref setUp, true);
                mps.AddProgram("b"); // equal shares: one worker moves to b
            }),
            ("producer", () =>
            {
                ScheduleExplorer.WaitUntil(() => Volatile.Read(ref setUp), "the set-up");
                Task t = Task.Factory.StartNew(() => { }, CancellationToken.None, TaskCreationOptions.None, a!.Scheduler);
                task = t;
                ScheduleExplorer.WaitUntil(() => t.IsCompleted, "its task ran");
            }),
        ],
        ScheduleTimeout);
        string? failure = explorer.Failure;
        explorer.Dispose();
        TearDown(mps, failure is not null);
        return failure;
    }

    // A scenario drawn from the seed; null when the schedule finished with every task run exactly once.
    private static string? RandomScenario(int seed, ExplorationStrategy strategy)
    {
        var draw = new Random(seed ^ 0x5EED);
        bool lending = draw.Next(2) == 0;
        bool onDemand = draw.Next(3) == 0;
        int producers = draw.Next(1, 3);
        int tasksPerProducer = draw.Next(1, 4);
        int moverOps = draw.Next(1, 4);
        int[] runs = new int[producers * tasksPerProducer * 2];
        MultiProgramScheduler? mps = null;
        ProgramHandle? main = null;
        int producersDone = 0;
        bool ready = false;
        using var explorer = new ScheduleExplorer(seed, strategy);
        var scenario = new List<(string, Action)>
        {
            ("mover", () =>
            {
                mps = NewScheduler(lending, onDemand);
                main = mps.AddProgram("main");
                Volatile.Write(ref ready, true);
                var extra = new List<ProgramHandle>();
                var ops = new Random(seed);
                for (int op = 0; op < moverOps; op++)
                {
                    switch (ops.Next(5))
                    {
                        case 0:
                            extra.Add(mps.AddProgram($"extra{op}"));
                            break;
                        case 1 when extra.Count > 0:
                            ProgramHandle leaving = extra[^1];
                            extra.RemoveAt(extra.Count - 1);
                            mps.RemoveProgram(leaving);
                            break;
                        case 2:
                            // A fixed allocation: every worker to one program (the others get none: loans or waits).
                            ProgramHandle[] all = [main, .. extra];
                            ProgramHandle owner = all[ops.Next(all.Length)];
                            mps.Policy = new FixedAllocationPolicy(all.ToDictionary(p => p.Id, p => ReferenceEquals(p, owner) ? mps.WorkerCount : 0));
                            break;
                        case 3:
                            // The default policy: equal shares, idle workers lent at once, recalled at task boundaries.
                            mps.Policy = new WorkConservingPolicy();
                            break;
                        default:
                            mps.Policy = new EqualSharesPolicy();
                            break;
                    }
                }

                // A policy may have left main without a worker (and without lending its tasks wait for the policy, by
                // design): from here on main holds every worker, and its pending tasks must all run.
                ProgramHandle[] programs = [main, .. extra];
                mps.Policy = new FixedAllocationPolicy(programs.ToDictionary(p => p.Id, p => ReferenceEquals(p, main) ? mps.WorkerCount : 0));
                ScheduleExplorer.WaitUntil(() => Volatile.Read(ref producersDone) == producers, "the producers' tasks ran");
                foreach (ProgramHandle p in extra)
                {
                    mps.RemoveProgram(p);
                }

                mps.Dispose();
            }),
        };
        for (int p = 0; p < producers; p++)
        {
            int producer = p;
            scenario.Add(($"producer{p}", () =>
            {
                ScheduleExplorer.WaitUntil(() => Volatile.Read(ref ready), "the first program");
                var tasks = new List<Task>();
                for (int i = 0; i < tasksPerProducer; i++)
                {
                    int id = ((producer * tasksPerProducer) + i) * 2;
                    bool child = (seed + i) % 2 == 0;
                    tasks.Add(Task.Factory.StartNew(
                        () =>
                        {
                            Interlocked.Increment(ref runs[id]);
                            if (child)
                            {
                                // Queued from a worker: its own deque, then taken by it or stolen.
                                Task.Factory.StartNew(() => Interlocked.Increment(ref runs[id + 1]), TaskCreationOptions.AttachedToParent);
                            }
                            else
                            {
                                Interlocked.Increment(ref runs[id + 1]);
                            }
                        },
                        CancellationToken.None,
                        TaskCreationOptions.None,
                        main!.Scheduler));
                }

                ScheduleExplorer.WaitUntil(() => tasks.All(t => t.IsCompleted), "its tasks ran");
                Interlocked.Increment(ref producersDone);
            }));
        }

        explorer.Run(scenario, ScheduleTimeout);
        string? failure = explorer.Failure;
        explorer.Dispose();
        TearDown(mps, failure is not null);
        if (failure is null && runs.Any(r => r != 1))
        {
            failure = $"tasks did not run exactly once: [{string.Join(", ", runs)}]";
        }

        return failure;
    }

    // Outside the explorer: a failed schedule may have left workers parked for good; shutting the pool down first
    // wakes them (they then run what is left), so that Dispose returns (bounded either way).
    private static void TearDown(MultiProgramScheduler? mps, bool failed)
    {
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
}
