using System.Collections.Concurrent;
using System.Globalization;
using Xunit.Abstractions;
using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;
using DivCon.Tests.Scheduling;

namespace DivCon.Tests.Exploration;

/// <summary>
/// The chunked loop's completion explored schedule by schedule (ScheduleExplorer): two replicas of a two-chunk
/// <see cref="ChunkedLoops.ForAsync(TaskScheduler, int, int, Action{int, int}, ChunkedLoopOptions?)"/> run on two
/// controlled threads, which take the replicas from a scheduler that only queues. The loop must complete after both
/// chunks have returned and never while one runs. With the re-read of the in-flight count switched off (the code before
/// the fix) the explorer finds the early completion (Pct, seed 80); replay a schedule with
/// <c>DIVCON_EXPLORE_SEED=&lt;seed&gt; DIVCON_EXPLORE_STRATEGY=&lt;strategy&gt; [DIVCON_EXPLORE_WITHOUT_RECHECK=1] dotnet test
/// tests/DivCon.Tests --filter FullyQualifiedName~Replay_one_loop_completion_schedule</c>.
/// </summary>
[Collection(nameof(NotParallel))]
public sealed class ChunkedLoopExplorationTests(ITestOutputHelper output)
{
    private static readonly TimeSpan ScheduleTimeout = TimeSpan.FromSeconds(30);

    [Fact]
    public void Without_the_recheck_the_explorer_finds_a_completion_while_a_chunk_runs()
    {
        string? found = null;
        int tried = 0;
        SetRecheckOff(true);
        try
        {
            for (int seed = 1; seed <= 300 && found is null; seed++)
            {
                tried++;
                string? failure = TwoReplicas(seed, ExplorationStrategy.Pct);
                if (failure is not null)
                {
                    found = $"seed {seed}: {failure}";
                    Assert.Contains("completed while a chunk was running", failure, StringComparison.Ordinal);
                }
            }
        }
        finally
        {
            SetRecheckOff(false);
        }

        Assert.True(found is not null, $"the explorer did not find the early completion in {tried} schedules");
        output.WriteLine($"found after {tried} schedules: {found}");
    }

    [Theory]
    [InlineData(ExplorationStrategy.Pct, 1, 300)]
    [InlineData(ExplorationStrategy.StickyRandom, 1, 300)]
    [InlineData(ExplorationStrategy.Focused, 1, 300)]
    public void With_the_recheck_every_schedule_completes_after_both_chunks(ExplorationStrategy strategy, int firstSeed, int schedules)
    {
        for (int seed = firstSeed; seed < firstSeed + schedules; seed++)
        {
            string? failure = TwoReplicas(seed, strategy);
            Assert.True(failure is null, Replay(seed, strategy, failure));
        }
    }

    [EnvironmentFact("DIVCON_EXPLORE_SEED")]
    public void Replay_one_loop_completion_schedule()
    {
        (int seed, ExplorationStrategy strategy) = ScheduleExplorer.ReplayFromEnvironment();
        SetRecheckOff(Environment.GetEnvironmentVariable("DIVCON_EXPLORE_WITHOUT_RECHECK") == "1");
        try
        {
            string? failure = TwoReplicas(seed, strategy);
            Assert.True(failure is null, Replay(seed, strategy, failure));
        }
        finally
        {
            SetRecheckOff(false);
        }
    }

    private static string? TwoReplicas(int seed, ExplorationStrategy strategy)
    {
        var scheduler = new QueueOnlyScheduler();
        Task? loop = null;
        int finished = 0;
        bool early = false;
        loop = ChunkedLoops.ForAsync(scheduler, 0, 2, (from, to) =>
        {
            ScheduleHook.Yield("test.chunk");
            if (Volatile.Read(ref loop)!.IsCompleted)
            {
                early = true; // a controlled thread: the explorer runs one at a time
            }

            Interlocked.Add(ref finished, to - from);
        }, new ChunkedLoopOptions { ChunkSize = 1, MaxDegreeOfParallelism = 2 });
        if (scheduler.Queued != 2)
        {
            return $"expected two replicas queued, found {scheduler.Queued}";
        }

        using var explorer = new ScheduleExplorer(seed, strategy, pctSteps: 16); // a schedule is about a dozen steps
        explorer.Run([("replica 1", () => scheduler.RunOne()), ("replica 2", () => scheduler.RunOne())], ScheduleTimeout);
        if (explorer.Failure is not null)
        {
            return explorer.Failure;
        }

        if (early)
        {
            return "the loop completed while a chunk was running";
        }

        return loop.IsCompletedSuccessfully && finished == 2 ? null : $"the loop ended {loop.Status} with {finished} of 2 indices run";
    }

    private static void SetRecheckOff(bool off) => ChunkedLoops.s_completeWithoutRecheckForTests = off;

    private static string Replay(int seed, ExplorationStrategy strategy, string? failure)
        => ScheduleExplorer.FailureWithReplay(seed, strategy, failure, "Replay_one_loop_completion_schedule");

    // Queues tasks and runs one when a controlled thread asks: the replicas run on the explorer's threads.
    private sealed class QueueOnlyScheduler : TaskScheduler
    {
        private readonly ConcurrentQueue<Task> _tasks = new();

        public int Queued => _tasks.Count;

        public override int MaximumConcurrencyLevel => 2;

        public void RunOne()
        {
            if (_tasks.TryDequeue(out Task? task))
            {
                TryExecuteTask(task);
            }
        }

        protected override void QueueTask(Task task) => _tasks.Enqueue(task);

        protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) => false;

        protected override IEnumerable<Task> GetScheduledTasks() => _tasks;
    }
}
