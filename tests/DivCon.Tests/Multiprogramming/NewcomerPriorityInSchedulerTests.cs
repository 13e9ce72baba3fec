using System.Runtime.CompilerServices;
using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Multiprogramming;

/// <summary>
/// Short jobs first (MultiProgramSchedulerOptions.NewcomerQuantum) with real threads, on the default policy and with no
/// periodic repartitioning (so no tick can be what serves the newcomer): a program added while two others run endless
/// loops gets both workers within a bounded wait, with the reason Newcomer on the timeline; while it runs a single long
/// task the others still progress (the core it cannot use goes back to them); once it passes the quantum they get their
/// cores back. No timing assertion beyond generous bounds; every wait is bounded.
/// </summary>
public sealed class NewcomerPriorityInSchedulerTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    // Long enough that the newcomer is still one when the second worker arrives on a loaded machine (busy time counts
    // while a worker's thread waits for a processor, so a descheduled worker's move eats into it): the longest quantum
    // allowed, since the test's long programs pass it in about a second anyway.
    private static readonly TimeSpan Quantum = TimeSpan.FromSeconds(1);

    private static long Spin(int i)
    {
        long x = i;
        for (int k = 0; k < 200; k++)
        {
            x = (x * 6364136223846793005L) + 1442695040888963407L;
        }

        return x & 1;
    }

    private static string State(MultiProgramScheduler mps) =>
        "Workers: " + string.Join("; ", mps.Pool.Workers.Select(w => $"w{w.Slot} assigned {w.Assigned?.Name ?? "none"} serving {w.ServingForReaders?.Name ?? "none"}"))
        + ". Programs: " + string.Join("; ", mps.Programs.Select(p => $"{p.Name}: available {p.AvailableTasks} serving {p.ServingWorkers} cores {p.Allocation} busy {p.GetStatistics().BusyTime.TotalMilliseconds:F0} ms"))
        + $". Decisions {mps.Repartitions}, demand {mps.DemandRepartitions}. Last moves: "
        + string.Join(", ", mps.Timeline.GetMoves().TakeLast(12).Select(m => $"w{m.Worker} {m.FromProgramId}->{m.ToProgramId} {m.Reason} {m.Trigger}"));

    [Theory]
    [InlineData(-1)]
    [InlineData(1001)]
    public void A_quantum_outside_0_to_1_s_is_rejected_saying_what_is_allowed(int ms)
    {
        var e = Assert.Throws<ArgumentOutOfRangeException>(() => new MultiProgramScheduler(new MultiProgramSchedulerOptions { NewcomerQuantum = TimeSpan.FromMilliseconds(ms) }));
        Assert.Contains("NewcomerQuantum must be between 0 (off) and 1 s", e.Message);
        Assert.Equal(TimeSpan.FromMilliseconds(8), new MultiProgramSchedulerOptions().NewcomerQuantum);
    }

    [ProcessorFact(2)]
    public void A_program_added_while_two_others_run_gets_both_workers_without_a_tick()
    {
        var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            Processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray(),
            Unpinned = true,
            RepartitionInterval = System.Threading.Timeout.InfiniteTimeSpan,
            CompensateBlocking = false,
            NewcomerQuantum = Quantum,
        });
        using var stop = new CancellationTokenSource();
        using var release = new ManualResetEventSlim(false);
        var loops = new List<Task>();
        Task? single = null;
        try
        {
            var steps = new StrongBox<long>[2];
            var longPrograms = new ProgramHandle[2];
            for (int p = 0; p < 2; p++)
            {
                longPrograms[p] = mps.AddProgram($"long {p}");
                var box = steps[p] = new StrongBox<long>();
                loops.Add(longPrograms[p].ParallelForAsync(0, int.MaxValue, i => Interlocked.Add(ref box.Value, 1 + Spin(i)), new ChunkedLoopOptions { CancellationToken = stop.Token }));
            }

            // Both long programs past the quantum: ordinary programs, one core each.
            Assert.True(
                SpinWait.SpinUntil(() => longPrograms.All(p => p.GetStatistics().BusyTime > Quantum), Timeout),
                "The long programs did not pass the quantum. " + State(mps));

            ProgramHandle newcomer = mps.AddProgram("newcomer");
            Thread[] workers = mps.Pool.Workers.Select(w => w.Thread).ToArray();
            var seen = new bool[workers.Length];
            using var both = new CancellationTokenSource();
            Task loop = newcomer.ParallelForAsync(0, int.MaxValue, i =>
            {
                Spin(i);
                int slot = Array.IndexOf(workers, Thread.CurrentThread);
                if (slot >= 0 && !Volatile.Read(ref seen[slot]))
                {
                    Volatile.Write(ref seen[slot], true);
                    if (seen.All(s => Volatile.Read(ref s)))
                    {
                        both.Cancel();
                    }
                }
            }, new ChunkedLoopOptions { CancellationToken = both.Token });
            Assert.True(((IAsyncResult)loop).AsyncWaitHandle.WaitOne(Timeout), "The newcomer's loop never ran on both workers (seen: " + string.Join(", ", seen) + "). " + State(mps));
            Assert.True(loop.IsCanceled, $"The newcomer's loop ended {loop.Status}.");
            Assert.True(
                mps.Timeline.GetMoves().Any(m => m.Reason == AllocationReason.Newcomer && m.ToProgramId == newcomer.Id),
                "No move to the newcomer says Newcomer. " + State(mps));

            // One long task of the newcomer: the worker it cannot use serves the long programs meanwhile.
            single = newcomer.Run(() => release.Wait(Timeout));
            long[] before = steps.Select(s => Interlocked.Read(ref s.Value)).ToArray();
            Assert.True(
                SpinWait.SpinUntil(() => Enumerable.Range(0, 2).Any(p => Interlocked.Read(ref steps[p].Value) > before[p] + 10_000), Timeout),
                "No long program progressed while the newcomer ran one task. " + State(mps));
            release.Set();
            Assert.True(((IAsyncResult)single).AsyncWaitHandle.WaitOne(Timeout), "The newcomer's task did not end. " + State(mps));

            // Past the quantum (it keeps a loop running until then), the newcomer is an ordinary program: a decision at its
            // deadline gives the long programs cores again, with no tick.
            using var endless = new CancellationTokenSource();
            Task last = newcomer.ParallelForAsync(0, int.MaxValue, i => Spin(i), new ChunkedLoopOptions { CancellationToken = endless.Token });
            try
            {
                Assert.True(SpinWait.SpinUntil(() => newcomer.GetStatistics().BusyTime > Quantum, Timeout), "The newcomer did not pass the quantum.");
                before = steps.Select(s => Interlocked.Read(ref s.Value)).ToArray();
                Assert.True(
                    SpinWait.SpinUntil(() => Enumerable.Range(0, 2).Any(p => longPrograms[p].Allocation > 0 && Interlocked.Read(ref steps[p].Value) > before[p] + 10_000), Timeout),
                    "The long programs got no core back after the newcomer passed the quantum. " + State(mps));
            }
            finally
            {
                endless.Cancel();
                Assert.True(((IAsyncResult)last).AsyncWaitHandle.WaitOne(Timeout), "The newcomer's last loop did not stop. " + State(mps));
            }
        }
        finally
        {
            release.Set();
            stop.Cancel();
            Assert.True(Task.WhenAll(loops).ContinueWith(_ => { }, TaskScheduler.Default).Wait(Timeout), "The loops did not stop.");
            Assert.True(Task.Run(mps.Dispose).Wait(Timeout), "Dispose did not return in time.");
        }
    }
}
