using System.Diagnostics.Metrics;
using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Scheduling;
using DivCon.Tests.Scheduling;

namespace DivCon.Tests.Multiprogramming;

/// <summary>
/// Issue 14's defects of the MultiProgramScheduler, each reproduced: await continuations after RemoveProgram (3),
/// RemoveProgram from another program's task (4), a throwing MeterListener on the mover's and the lender's paths (6).
/// </summary>
public sealed class PoolTrustMultiProgramTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    private static Task Run(ProgramHandle p, Action action)
        => Task.Factory.StartNew(action, CancellationToken.None, TaskCreationOptions.None, p.Scheduler);

    private static void DisposeBounded(MultiProgramScheduler mps)
        => Assert.True(Task.Run(mps.Dispose).Wait(Timeout), "Dispose did not return in time.");

    /// <summary>
    /// Multi-program wake-ups with ticks off (nothing repairs a lost wake-up): producers queue tasks to programs while
    /// a mover adds and removes programs (every add and removal moves workers). Every task runs exactly once (a task
    /// queued to a program whose removal has closed it runs late, on the thread pool), within the time limit.
    /// </summary>
    [Theory]
    [InlineData(false, 1)]
    [InlineData(true, 2)]
    public void With_ticks_off_producers_racing_AddProgram_and_RemoveProgram_lose_no_task(bool lending, int seed)
    {
        var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            RepartitionInterval = System.Threading.Timeout.InfiniteTimeSpan,
            Unpinned = true,
            IdleLending = lending,
            CompensateBlocking = false,
        });
        try
        {
            var live = new System.Collections.Concurrent.ConcurrentDictionary<int, ProgramHandle>();
            ProgramHandle stable = mps.AddProgram("stable");
            live[stable.Id] = stable;
            const int PerProducer = 3000;
            int[] runs = new int[2 * PerProducer];
            bool producing = true;
            Task[] producers = Enumerable.Range(0, 2).Select(p => Task.Factory.StartNew(
                () =>
                {
                    var random = new Random(seed + p);
                    var tasks = new List<Task>(PerProducer);
                    for (int i = 0; i < PerProducer; i++)
                    {
                        ProgramHandle[] now = [.. live.Values];
                        ProgramHandle target = now[random.Next(now.Length)];
                        int id = (p * PerProducer) + i;
                        tasks.Add(Run(target, () => Interlocked.Increment(ref runs[id])));
                        if (random.Next(8) == 0)
                        {
                            Thread.Sleep(random.Next(2)); // let the workers go idle and park now and then
                        }
                    }

                    return tasks;
                },
                TaskCreationOptions.LongRunning).ContinueWith(t => Task.WhenAll(t.Result)).Unwrap()).ToArray();
            Task mover = Task.Factory.StartNew(
                () =>
                {
                    var random = new Random(seed);
                    for (int round = 0; Volatile.Read(ref producing); round++)
                    {
                        ProgramHandle added = mps.AddProgram($"p{round}");
                        live[added.Id] = added;
                        Thread.Sleep(random.Next(3));
                        int[] removable = live.Keys.Where(id => id != stable.Id).ToArray();
                        if (removable.Length > 1 || random.Next(2) == 0)
                        {
                            live.TryRemove(removable[random.Next(removable.Length)], out ProgramHandle? leaving);
                            mps.RemoveProgram(leaving!);
                        }
                    }
                },
                TaskCreationOptions.LongRunning);
            bool finished = Task.WaitAll(producers, Timeout);
            Volatile.Write(ref producing, false);
            Assert.True(mover.Wait(Timeout), "the mover did not finish");
            Assert.True(finished, $"tasks were lost: {runs.Count(r => r == 0)} of {runs.Length} never ran");
            Assert.All(runs, r => Assert.Equal(1, r));
        }
        finally
        {
            DisposeBounded(mps);
        }
    }

    /// <summary>Defect 3: RemoveProgram(WaitForTasks) returns while an await is pending; its continuation still runs.</summary>
    [Fact]
    public void An_await_continuation_after_RemoveProgram_still_runs_and_is_counted()
    {
        var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions { RepartitionInterval = System.Threading.Timeout.InfiniteTimeSpan, Unpinned = true });
        try
        {
            ProgramHandle p = mps.AddProgram("async");
            Task<TaskScheduler> op = LateContinuation.Start(p.Scheduler, out Action resume);
            Assert.True(Task.Run(() => mps.RemoveProgram(p)).Wait(Timeout), "RemoveProgram did not return");
            resume();
            Assert.True(op.Wait(Timeout), $"the continuation after RemoveProgram was lost (status {op.Status})");
            Assert.Same(p.Scheduler, op.Result);
            Assert.Equal(1, p.LateTasks);
        }
        finally
        {
            DisposeBounded(mps);
        }
    }

    /// <summary>
    /// Defect 4: one worker, fixed allocation {A: 1, B: 0}, B has a queued task: a task of A removing B would wait on
    /// the very worker the removal gives B. It is rejected with a clear exception instead.
    /// </summary>
    [Fact]
    public void RemoveProgram_from_a_task_of_another_program_is_rejected()
    {
        var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            Processors = [ThreadAffinity.GetProcessAffinity()[0]],
            Unpinned = true,
            RepartitionInterval = System.Threading.Timeout.InfiniteTimeSpan,
        });
        try
        {
            ProgramHandle a = mps.AddProgram("a");
            ProgramHandle b = mps.AddProgram("b");
            mps.Policy = new FixedAllocationPolicy(new Dictionary<int, int> { [a.Id] = 1, [b.Id] = 0 });
            Task queuedOnB = Run(b, () => { });
            Task removing = Run(a, () => mps.RemoveProgram(b));
            Assert.True(((IAsyncResult)removing).AsyncWaitHandle.WaitOne(Timeout), "RemoveProgram from a task of another program deadlocked");
            var ex = Assert.IsType<InvalidOperationException>(removing.Exception!.InnerException);
            Assert.Contains("worker", ex.Message);
            Assert.True(Task.Run(() => mps.RemoveProgram(b)).Wait(Timeout));
            Wait.For(queuedOnB, Timeout);
        }
        finally
        {
            DisposeBounded(mps);
        }
    }

    /// <summary>
    /// Defect 6: a MeterListener whose callback throws must not leave Apply half done (mover's path) nor kill a
    /// worker (lender's path).
    /// </summary>
    [Fact]
    public void A_throwing_MeterListener_leaves_the_allocation_whole_and_the_workers_alive()
    {
        var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            RepartitionInterval = TimeSpan.FromMilliseconds(20),
            IdleLending = true,
            Unpinned = true,
        });
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == MultiProgramScheduler.MeterName && !instrument.IsObservable)
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((_, _, _, _) => throw new InvalidOperationException("listener failure"));
        listener.Start();
        try
        {
            ProgramHandle a = mps.AddProgram("a");
            ProgramHandle b = mps.AddProgram("b");
            MultiProgramSnapshot s = mps.GetSnapshot();
            Assert.Equal(mps.WorkerCount, s.CoresByProgram.Values.Sum());
            Assert.DoesNotContain(s.WorkerPrograms, p => p is null);
            mps.Policy = new FixedAllocationPolicy(new Dictionary<int, int> { [a.Id] = mps.WorkerCount, [b.Id] = 0 });
            Assert.All(mps.GetSnapshot().WorkerPrograms, p => Assert.Equal(a.Id, p));

            // b has no core: lending moves idle workers of a to it, on the workers' own threads.
            Wait.For(Task.WhenAll(Enumerable.Range(0, 200).Select(_ => Run(b, () => Thread.SpinWait(100)))), Timeout, "the borrower's tasks");
            Assert.Contains(mps.Timeline.GetMoves(), m => m.Reason == AllocationReason.IdleLending);
            Assert.All(mps.Pool.Workers, w => Assert.True(w.Thread.IsAlive, "a worker died of a listener's exception"));
            Assert.True(mps.TelemetryErrors > 0, "the listener's failures were not counted");
        }
        finally
        {
            DisposeBounded(mps);
        }
    }
}
