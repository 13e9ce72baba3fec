using System.Runtime.CompilerServices;
using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Multiprogramming;

/// <summary>
/// Demand-driven repartitioning (RepartitionOnDemand) together with the starved-program trigger (RepartitionWhenStarved),
/// with real threads: more busy programs than workers, so every decision rotates a core and leaves another program
/// starved. The starved trigger's follow-up decision must keep its gap (StarvedRepartitionGap) also when decisions are
/// demand-driven; without it the repartitioner decided back to back, rotating the cores as fast as it could decide
/// (docs/simulation.md, demand-partitioned). Every wait is bounded.
/// </summary>
public sealed class DemandDrivenTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    [ProcessorTheory(2)]
    [InlineData(true)]
    [InlineData(false)]
    public void Starved_decisions_keep_their_gap_also_when_repartitioning_on_demand(bool onDemand)
    {
        TimeSpan gap = TimeSpan.FromMilliseconds(25);
        var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            Processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray(),
            Unpinned = true,
            Policy = new TaskAvailabilityPolicy(),
            RepartitionInterval = System.Threading.Timeout.InfiniteTimeSpan,
            CompensateBlocking = false,
            RepartitionOnDemand = onDemand,
            RepartitionWhenStarved = true,
            StarvedRepartitionGap = gap,
        });
        using var stop = new CancellationTokenSource();
        var loops = new List<Task>();
        try
        {
            var steps = new StrongBox<long>[3];
            for (int p = 0; p < 3; p++)
            {
                ProgramHandle program = mps.AddProgram($"busy {p}");
                var box = steps[p] = new StrongBox<long>();
                loops.Add(program.ParallelForAsync(0, int.MaxValue, i => { Thread.SpinWait(100); Interlocked.Increment(ref box.Value); }, new ChunkedLoopOptions { CancellationToken = stop.Token }));
            }

            // The starved decisions (the gapped ones) within a window of a known length: consecutive ones are at least a
            // gap apart, so at most window / gap + 1 of them. The stopwatch spans both counter reads, so the measured
            // window contains the counted one even when this thread is preempted between the reads; a loaded machine
            // only lowers the count. Changes of demand (RepartitionOnDemand's edges: a program's queue running dry and
            // filling again) are served at once by design and are not bounded here.
            Thread.Sleep(200);
            var window = System.Diagnostics.Stopwatch.StartNew();
            long before = mps.GappedDemandRepartitions;
            Thread.Sleep(500);
            long decisions = mps.GappedDemandRepartitions - before;
            double elapsed = window.Elapsed.TotalMilliseconds;
            double bound = Math.Floor(elapsed / gap.TotalMilliseconds) + 1;
            Assert.True(decisions <= bound, $"{decisions} starved decisions in {elapsed:F0} ms with a {gap.TotalMilliseconds} ms gap (bound {bound:F0}).");

            // And the starved trigger still serves: every program progresses.
            long[] progress = steps.Select(s => Interlocked.Read(ref s.Value)).ToArray();
            Assert.True(
                SpinWait.SpinUntil(() => Enumerable.Range(0, 3).All(p => Interlocked.Read(ref steps[p].Value) > progress[p] + 1000), Timeout),
                $"A program made no progress: steps {string.Join(", ", steps.Select(s => s.Value))}; demand decisions {mps.DemandRepartitions}.");
        }
        finally
        {
            stop.Cancel();
            Assert.True(Task.WhenAll(loops).ContinueWith(_ => { }, TaskScheduler.Default).Wait(Timeout), "The loops did not stop.");
            Assert.True(Task.Run(mps.Dispose).Wait(Timeout), "Dispose did not return in time.");
        }
    }

    [ProcessorFact(2)]
    public void Periodic_ticks_keep_their_pace_while_starved_decisions_rotate_the_cores()
    {
        // Three busy programs on two workers: every moving decision leaves one starved, whose decision follows a gap
        // later (default 2 ms), far more often than the 20 ms interval. Until 2026-11-24 every such wake started a new
        // interval, so the ticks stopped for as long as the rotation went on (0 ticks in 37 s of a 5 ms interval, with
        // 860 starved decisions a second); the online estimator, which counts only ticks, then never estimated.
        var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            Processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray(),
            Unpinned = true,
            Policy = new TaskAvailabilityPolicy(),
            RepartitionInterval = TimeSpan.FromMilliseconds(20),
            CompensateBlocking = false,
            RepartitionWhenStarved = true,
        });
        using var stop = new CancellationTokenSource();
        var loops = new List<Task>();
        try
        {
            for (int p = 0; p < 3; p++)
            {
                ProgramHandle program = mps.AddProgram($"busy {p}");
                loops.Add(program.ParallelForAsync(0, int.MaxValue, _ => Thread.SpinWait(100), new ChunkedLoopOptions { CancellationToken = stop.Token }));
            }

            // Both kinds of decision keep coming: 50 ticks (1 s of ticks on a quiet machine) while starved decisions
            // are taken too (the rotation is on, so the ticks are not merely the only decisions). Bounded: on the old
            // loop the ticks stop, and the wait fails.
            long ticks = mps.IntervalRepartitions, starved = mps.GappedDemandRepartitions;
            Assert.True(
                SpinWait.SpinUntil(() => mps.IntervalRepartitions >= ticks + 50 && mps.GappedDemandRepartitions >= starved + 50, Timeout),
                $"In {Timeout.TotalSeconds} s: {mps.IntervalRepartitions - ticks} ticks of 20 ms and {mps.GappedDemandRepartitions - starved} starved decisions (both should reach 50).");
        }
        finally
        {
            stop.Cancel();
            Assert.True(Task.WhenAll(loops).ContinueWith(_ => { }, TaskScheduler.Default).Wait(Timeout), "The loops did not stop.");
            Assert.True(Task.Run(mps.Dispose).Wait(Timeout), "Dispose did not return in time.");
        }
    }
}
