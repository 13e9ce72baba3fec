using System.Runtime.CompilerServices;
using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;
using DivCon.Tests.Scheduling;

namespace DivCon.Tests.Multiprogramming;

/// <summary>
/// Issue 20, item 0, with real threads: a worker asked to move leaves a chunked loop within one chunk (the loop goes on
/// with the rest of the range on the program's other workers and ends exact); a pending move is charged to the program
/// whose task holds the worker and shows on the timeline with its age; a program with queued tasks and no worker gets one
/// without a tick. Periodic repartitioning and blocking compensation are off wherever they could serve the program
/// instead, so each test shows the mechanism it names. Every wait is bounded.
/// </summary>
public sealed class LoopMoveTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    private static MultiProgramScheduler Create(IPartitioningPolicy? policy, bool serveStarved = true, bool shortJobsFirst = true) => new(new MultiProgramSchedulerOptions
    {
        Processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray(),
        Unpinned = true,
        Policy = policy,
        RepartitionInterval = System.Threading.Timeout.InfiniteTimeSpan,
        CompensateBlocking = false,
        RepartitionWhenStarved = serveStarved,

        // Without the starvation trigger nothing else may decide: short jobs first's own trigger (a newcomer getting work)
        // would serve the starved programs while they are newcomers.
        NewcomerQuantum = serveStarved && shortJobsFirst ? MultiProgramSchedulerOptions.DefaultNewcomerQuantum : TimeSpan.Zero,
    });

    private static string State(MultiProgramScheduler mps) =>
        "Workers: " + string.Join("; ", mps.Pool.Workers.Select(w => $"w{w.Slot} assigned {w.Assigned?.Name ?? "none"} serving {w.ServingForReaders?.Name ?? "none"} parked on {w.ParkedOn?.Name ?? "-"}"))
        + ". Programs: " + string.Join("; ", mps.Programs.Select(p => $"{p.Name}: available {p.AvailableTasks} visible {p.Queues.HasVisibleWork()} serving {p.ServingWorkers} cores {p.Allocation} wants {p.Queues.WantsWorkers}"))
        + ". Moves: " + string.Join(", ", mps.Timeline.GetMoves().Select(m => $"w{m.Worker} {m.FromProgramId}->{m.ToProgramId} {m.Reason}"));

    private static void Dispose(MultiProgramScheduler mps)
    {
        if (!Task.Run(mps.Dispose).Wait(Timeout))
        {
            string workers = string.Join("; ", mps.Pool.Workers.Select(w => $"w{w.Slot} assigned {w.Assigned?.Name ?? "none"} serving {w.ServingForReaders?.Name ?? "none"} parked on {w.ParkedOn?.Name ?? "-"} thread {w.Thread.ThreadState}"));
            string programs = string.Join("; ", mps.Programs.Select(p => $"{p.Name}: removing {p.IsRemoving} idle {p.Queues.IsIdle()} available {p.AvailableTasks} visible {p.Queues.HasVisibleWork()} running on slots {string.Join(",", Enumerable.Range(0, p.Queues.UsedSlotCount).Where(p.Queues.IsRunningTask))} serving {p.ServingWorkers} cores {p.Allocation} wants {p.Queues.WantsWorkers} tasks {p.GetStatistics().TasksExecuted}"));
            Assert.Fail($"Dispose did not return in time. Workers: {workers}. Programs: {programs}. Demand decisions {mps.DemandRepartitions}.");
        }
    }

    // About a microsecond of integer work: a loop body whose cost the test does not need to know.
    private static long Step(int i)
    {
        ulong x = (ulong)i;
        for (int k = 0; k < 300; k++)
        {
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        }

        return (long)(x & 1);
    }

    private static bool Ended(Task task, TimeSpan timeout) => ((IAsyncResult)task).AsyncWaitHandle.WaitOne(timeout);

    [ProcessorFact(2)]
    public void A_loop_whose_worker_is_moved_away_lets_it_go_within_a_chunk_and_ends_exact()
    {
        MultiProgramScheduler mps = Create(new EqualSharesPolicy());
        try
        {
            ProgramHandle batch = mps.AddProgram("batch");
            const int N = 3_000_000;
            var counts = new byte[N];
            var threads = new HashSet<int>();
            var served = new StrongBox<bool>();
            long done = 0;
            Task loop = batch.ParallelForAsync(0, N, i =>
            {
                if (!Volatile.Read(ref served.Value))
                {
                    Step(i); // the work, until the request is served; the rest only counts, so the loop ends soon after
                }

                counts[i]++; // each index is claimed by one chunk only
                Interlocked.Increment(ref done);
                if ((i & 1023) == 0)
                {
                    lock (threads)
                    {
                        threads.Add(Environment.CurrentManagedThreadId);
                    }
                }
            });
            Assert.True(SpinWait.SpinUntil(() => { lock (threads) { return threads.Count == 2; } }, Timeout), "The loop never ran on both workers.");

            // The policy gives the request one of the batch's two workers, which is inside the loop's task: only that
            // worker can run the request's task (no lending, no compensation), and the task itself tells how much of the
            // loop was done then (read there, not by this thread later, which a loaded machine may deschedule until the
            // loop has ended). A worker that leaves between chunks gets there after a few milliseconds of the loop's
            // seconds of work; one that stayed would get there only when the range was used up (a replica ends then,
            // while the other still runs its last chunk: so "the loop had not completed" would not tell).
            ProgramHandle request = mps.AddProgram("request");
            Task<bool> answered = Task.Factory.StartNew(
                () =>
                {
                    bool loopRunning = Interlocked.Read(ref done) < N / 2;
                    Volatile.Write(ref served.Value, true);
                    return loopRunning;
                },
                CancellationToken.None,
                TaskCreationOptions.None,
                request.Scheduler);
            Assert.True(Ended(answered, Timeout), "The request's task did not run: the moved worker never reached the request.");
            Assert.True(answered.Result, $"The worker reached the request only when {Interlocked.Read(ref done)} of {N} indexes were done: it did not leave between chunks.");

            Assert.True(Ended(loop, Timeout), "The loop did not end.");
            loop.GetAwaiter().GetResult();
            Assert.DoesNotContain(counts, c => c != 1);
            Assert.Equal(0, request.Compensations + batch.Compensations);
        }
        finally
        {
            Dispose(mps);
        }
    }

    [ProcessorFact(2)]
    public void A_ForEachAsync_loop_lets_a_moved_worker_go_between_two_elements()
    {
        MultiProgramScheduler mps = Create(new EqualSharesPolicy());
        try
        {
            ProgramHandle batch = mps.AddProgram("batch");
            var counts = new int[20_000];
            int started = 0;
            var served = new StrongBox<bool>();
            var threads = new HashSet<int>();
            Task loop = batch.ParallelForEachAsync(Enumerable.Range(0, counts.Length), (i, _) =>
            {
                Interlocked.Increment(ref started);
                lock (threads)
                {
                    threads.Add(Environment.CurrentManagedThreadId);
                }
                for (int k = 0; k < 300 && !Volatile.Read(ref served.Value); k++)
                {
                    Step(k); // ~0.3 ms per element until the request is served; then only counted, so the loop ends soon
                }

                Interlocked.Increment(ref counts[i]);
                return ValueTask.CompletedTask;
            });
            // Both workers inside the loop (not merely serving the batch: an idle one would move to the request at once).
            Assert.True(SpinWait.SpinUntil(() => { lock (threads) { return threads.Count == 2; } }, Timeout), "The loop did not start on both workers.");

            // As above: the request's task (only the moved worker can run it) tells whether elements were left to start
            // then. A replica whose worker stayed ends only when no element is left (exact: one element at a time).
            ProgramHandle request = mps.AddProgram("request");
            Task<bool> answered = Task.Factory.StartNew(
                () =>
                {
                    bool loopRunning = Volatile.Read(ref started) < counts.Length;
                    Volatile.Write(ref served.Value, true);
                    return loopRunning;
                },
                CancellationToken.None,
                TaskCreationOptions.None,
                request.Scheduler);
            Assert.True(Ended(answered, Timeout), "The request's task did not run.");
            Assert.True(answered.Result, "The request was served only once every element had started: its worker did not leave between two elements.");

            Assert.True(Ended(loop, Timeout), "The loop did not end.");
            loop.GetAwaiter().GetResult();
            Assert.All(counts, c => Assert.Equal(1, c));
        }
        finally
        {
            Dispose(mps);
        }
    }

    /// <summary>
    /// Idle lending (the default policy): a worker lent to the batch's loop comes home within a chunk when its own program
    /// gets a task. The loop is endless, so it cannot end before the loan or the recall; it is canceled in every case
    /// before Dispose, which waits for running tasks (an earlier form canceled it only on success, and a failed
    /// assertion then left Dispose waiting on a loop nobody stopped).
    /// </summary>
    [ProcessorFact(2)]
    public void A_lent_worker_inside_a_loop_comes_home_within_a_chunk_when_its_program_gets_work()
    {
        // The recall alone: with short jobs first the request (a newcomer) would also start a decision that gives it both
        // workers, a move instead of the recall this test looks for (NewcomerPriorityInSchedulerTests covers that path).
        MultiProgramScheduler mps = Create(policy: null, shortJobsFirst: false);
        using var stop = new CancellationTokenSource();
        Task? loop = null;
        try
        {
            ProgramHandle batch = mps.AddProgram("batch");
            ProgramHandle request = mps.AddProgram("request");
            Assert.Equal(1, request.Allocation);
            long steps = 0;
            loop = batch.ParallelForAsync(0, int.MaxValue, i => Interlocked.Add(ref steps, 1 + Step(i)), new ChunkedLoopOptions { CancellationToken = stop.Token });

            // The request has nothing to do: its worker lends itself to the batch (reason IdleLending on the timeline).
            // Served counts alone do not tell: a worker moved to the request while parked still counts for the batch
            // until it wakes, and the request's task would then wake it with no loan and no recall.
            Assert.True(
                SpinWait.SpinUntil(() => mps.Timeline.GetMoves().Any(m => m.Reason == AllocationReason.IdleLending && m.FromProgramId == request.Id && m.ToProgramId == batch.Id)
                    && batch.ServedWorkers == 2, Timeout),
                "The request's idle worker was never lent to the batch. " + State(mps));
            Task answered = request.Run(() => Step(1));
            Assert.True(Ended(answered, Timeout), "The request's task did not run: its lent worker stayed in the batch's loop.");
            Assert.False(loop.IsCompleted, "The loop should still run.");
            Assert.Contains(mps.Timeline.GetMoves(), m => m.Reason == AllocationReason.Recall && m.ToProgramId == request.Id);

            long before = Interlocked.Read(ref steps);
            Assert.True(SpinWait.SpinUntil(() => Interlocked.Read(ref steps) > before, Timeout), "The batch's loop made no progress after the recall.");
        }
        finally
        {
            stop.Cancel();
            if (loop is not null)
            {
                Assert.True(Ended(loop, Timeout), "The canceled loop did not stop.");
                Assert.True(loop.IsCanceled, $"The canceled loop ended {loop.Status}.");
            }

            Dispose(mps);
        }
    }

    /// <summary>
    /// Three busy programs on two workers, with no periodic repartitioning and no compensation: a program left with
    /// queued tasks and no worker gets one by a demand decision at once, so every program keeps making progress. Without
    /// RepartitionWhenStarved one of them waits for a tick that never comes.
    /// </summary>
    [ProcessorTheory(2)]
    [InlineData(true)]
    [InlineData(false)]
    public void A_program_with_queued_tasks_and_no_worker_gets_one_without_a_tick(bool serveStarved)
    {
        MultiProgramScheduler mps = Create(policy: null, serveStarved);
        using var stop = new CancellationTokenSource();
        var loops = new List<Task>();
        try
        {
            var steps = new StrongBox<long>[3];
            var programs = new ProgramHandle[3];
            for (int p = 0; p < 3; p++)
            {
                programs[p] = mps.AddProgram($"busy {p}");
                var box = steps[p] = new StrongBox<long>();
                loops.Add(programs[p].ParallelForAsync(0, int.MaxValue, i => Interlocked.Add(ref box.Value, 1 + Step(i)), new ChunkedLoopOptions { CancellationToken = stop.Token }));
            }

            // Each program, from now on, must make progress within a bounded time (a starved one never would).
            if (!serveStarved)
            {
                // The arrivals' moves and loans settle (waited for, not slept for: a loaded machine may delay a move past
                // any fixed time): every worker at home, serving the program it is assigned to, no move pending. From
                // here on nothing decides and no worker runs dry (each is inside its program's loop), so the program
                // left without a worker stays starved.
                Wait.Until(
                    () => mps.GetSnapshot() is var s && s.PendingMoves.Count == 0 && s.WorkerServing.SequenceEqual(s.WorkerPrograms)
                        && s.WorkerPrograms.SequenceEqual(s.WorkerHomes) && programs.Count(p => s.WorkerServing.Contains(p.Id)) == 2,
                    "the arrivals' moves and loans to settle",
                    Timeout);
            }

            long[] before = steps.Select(s => Interlocked.Read(ref s.Value)).ToArray();
            bool allProgress = SpinWait.SpinUntil(
                () => Enumerable.Range(0, 3).All(p => Interlocked.Read(ref steps[p].Value) > before[p] + 1000),
                serveStarved ? Timeout : TimeSpan.FromSeconds(1));
            if (serveStarved)
            {
                Assert.True(allProgress, $"A program made no progress: steps {string.Join(", ", steps.Select(s => s.Value))}; demand decisions {mps.DemandRepartitions}.");
                Assert.True(mps.DemandRepartitions > 0);
            }
            else
            {
                Assert.False(allProgress, "Every program progressed without the starvation trigger (and without ticks): the test shows nothing.");
                Assert.Equal(0, mps.DemandRepartitions);
            }
        }
        finally
        {
            stop.Cancel();
            Assert.True(Task.WhenAll(loops).ContinueWith(_ => { }, TaskScheduler.Default).Wait(Timeout), "The loops did not stop.");
            Dispose(mps);
        }
    }

    /// <summary>
    /// A worker assigned to one program while it still runs another's task: that time is the other's busy time, not the
    /// new owner's core time or idle time; and when the worker finally switches, the timeline records the wait with its age.
    /// </summary>
    [ProcessorFact(2)]
    public void A_pending_move_is_charged_to_the_program_whose_task_holds_the_worker_and_shows_on_the_timeline()
    {
        // The policy's equal share is the move this test needs: with short jobs first, "busy" (its tasks started, under
        // 8 ms of service when "owed" arrives) would be served first and hold both workers (a race on the machine's speed).
        MultiProgramScheduler mps = Create(new EqualSharesPolicy(), shortJobsFirst: false);
        var stop = new StrongBox<bool>();
        Task[] endless = [];
        try
        {
            ProgramHandle busy = mps.AddProgram("busy");
            int running = 0;
            endless = Enumerable.Range(0, 2).Select(_ => busy.Run(() =>
            {
                Interlocked.Increment(ref running);
                while (!Volatile.Read(ref stop.Value))
                {
                    Step(0);
                }
            })).ToArray();
            Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref running) == 2, Timeout), "The busy tasks did not both start.");

            ProgramHandle owed = mps.AddProgram("owed");
            Assert.Equal(1, owed.Allocation);
            Assert.True(SpinWait.SpinUntil(() => mps.GetSnapshot().PendingMoves.Any(m => m.ToProgramId == owed.Id), Timeout), "No pending move to the owed program.");
            busy.ResetStatistics();
            owed.ResetStatistics();
            Thread.Sleep(300);
            ProgramStatistics owedStats = owed.GetStatistics();
            ProgramStatistics busyStats = busy.GetStatistics();
            Assert.Equal(TimeSpan.Zero, owedStats.CoreTime);
            Assert.Equal(TimeSpan.Zero, owedStats.IdleTime);
            Assert.Equal(TimeSpan.Zero, busyStats.IdleTime);
            Assert.True(busyStats.BusyTime >= 1.9 * busyStats.Workers.Elapsed, $"busy {busyStats.BusyTime} over {busyStats.Workers.Elapsed}: the worker owed elsewhere was not charged to the task holding it.");

            Volatile.Write(ref stop.Value, true);
            Assert.True(Task.WaitAll(endless, Timeout), "The busy tasks did not stop.");
            Assert.True(SpinWait.SpinUntil(() => mps.Timeline.GetPendingMoves().Any(m => m.ToProgramId == owed.Id), Timeout), "The switch was not recorded as a pending move that ended.");
            PendingMoveEnded ended = mps.Timeline.GetPendingMoves().First(m => m.ToProgramId == owed.Id);
            Assert.Equal(busy.Id, ended.FromProgramId);
            Assert.True(ended.Age >= TimeSpan.FromMilliseconds(300), $"age {ended.Age}");
            Assert.True(ended.Timestamp > ended.DecidedTimestamp);

            var trace = new StringWriter();
            mps.Timeline.WriteChromeTrace(trace);
            using var json = System.Text.Json.JsonDocument.Parse(trace.ToString());
            System.Text.Json.JsonElement pending = json.RootElement.GetProperty("traceEvents").EnumerateArray()
                .Single(e => e.GetProperty("name").GetString() == "pending: busy -> owed");
            Assert.Equal("X", pending.GetProperty("ph").GetString());
            Assert.True(pending.GetProperty("args").GetProperty("age_ms").GetDouble() >= 300);
            Assert.True(pending.GetProperty("dur").GetInt64() >= 300_000);
        }
        finally
        {
            Volatile.Write(ref stop.Value, true);
            Task.WaitAll(endless, Timeout);
            Dispose(mps);
        }
    }
}
