using System.Collections.Concurrent;
using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Partitioning.Estimation;
using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;
using DivCon.Tests.Scheduling;

namespace DivCon.Tests.Multiprogramming;

/// <summary>Online scalability in the real scheduler (real threads, bounded waits): docs/online-scalability.md, "Wiring".</summary>
public sealed class OnlineScalabilityTests
{
    // A bound, not a claim about convergence time: the first estimate takes under a second here. (It once took 3 to over
    // 60 s: the starved program's decisions postponed the periodic ticks, which the estimator counts. DemandDrivenTests,
    // Periodic_ticks_keep_their_pace_while_starved_decisions_rotate_the_cores.)
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    [ProcessorFact(2)]
    public void ProgramWithoutScalability_EndsWithAnOnlineEstimate_AndThePolicyDecidesFromIt()
    {
        var policy = new RecordingPolicy();
        using var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            Processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray(),
            BestEffortPinning = true,
            Policy = policy,
            RepartitionInterval = TimeSpan.FromMilliseconds(5),
            ScalabilityEstimation = new ScalabilityEstimatorOptions { MinTicks = 4, ProbeFraction = 0.5, ProbeTicks = 2 },
        });
        using var disposal = BoundedDisposal.Of(mps);
        ProgramHandle unknown = mps.AddProgram("unknown");
        ProgramHandle given = mps.AddProgram("given", scalability: 1.5);
        ProgramHandle other = mps.AddProgram("other", scalability: 1.0);
        Assert.Equal(ScalabilitySource.Default, unknown.ScalabilityState.Source);
        Assert.Equal(1.0, unknown.Scalability);

        // Both programs keep their cores busy with small parallel tasks until the unknown one has an estimate that a
        // decision used (bounded: the waits fail the test instead of hanging it).
        using var stop = new CancellationTokenSource();
        Task[] load = [Keep(unknown, stop.Token), Keep(given, stop.Token), Keep(other, stop.Token)];
        try
        {
            Wait.Until(
                () => unknown.ScalabilityState is { Source: ScalabilitySource.Online } s && policy.Saw(unknown.Id, s.Scalability),
                "the unknown program's online estimate reached the policy", Timeout);
        }
        finally
        {
            stop.Cancel();
            Wait.For(Task.WhenAll(load), Timeout);
        }

        ProgramScalability state = unknown.ScalabilityState;
        Assert.True(state.Estimate.HasEstimate);
        // Positive and at most the 2 cores' speedup (self-relative, no inflation assumed). No tighter lower bound: the
        // estimate is measured, and on a loaded machine a worker preempted inside a task counts as work inflation (an
        // estimate of 0.225 was seen under a load average of 30): the estimator cannot tell that from real inflation.
        Assert.True(state.Scalability > 0 && state.Scalability <= 2.0 + 1e-9, $"estimate {state.Scalability} is not in (0, 2]");
        Assert.Equal(state.Scalability, unknown.Scalability);
        Assert.InRange(state.Estimate.Confidence, 0, 1);
        MultiProgramSnapshot snapshot = mps.GetSnapshot();
        Assert.Equal(ScalabilitySource.Online, snapshot.ScalabilityByProgram[unknown.Id].Source);

        // The user's number wins, every time the policy was asked, and it is never probed.
        Assert.Equal(ScalabilitySource.User, given.ScalabilityState.Source);
        Assert.All(policy.SeenFor(given.Id), s => Assert.Equal(1.5, s));
        Assert.DoesNotContain(mps.Timeline.GetMoves(), m => m.Reason == AllocationReason.Probe && m.ToProgramId == given.Id);

        // Three programs on two cores: the unknown one is seen on both only in probes, recorded on the timeline.
        Assert.Contains(mps.Timeline.GetMoves(), m => m.Reason == AllocationReason.Probe && m.ToProgramId == unknown.Id);
    }

    [Fact]
    public void UserScalabilitySetLater_WinsOverTheEstimate()
    {
        using var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions { Unpinned = true, Processors = [0], RepartitionInterval = TimeSpan.FromMilliseconds(5) });
        using var disposal = BoundedDisposal.Of(mps);
        ProgramHandle p = mps.AddProgram("p");
        Assert.Equal(ScalabilitySource.Default, p.ScalabilityState.Source);
        p.Scalability = 3.0;
        mps.Repartition();
        Assert.Equal(3.0, p.Scalability);
        Assert.Equal(new ProgramScalability(3.0, ScalabilitySource.User, p.ScalabilityState.Estimate, false), p.ScalabilityState);
    }

    [Fact]
    public void EstimationOff_ProgramsWithoutScalability_GetOne()
    {
        using var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions { Unpinned = true, Processors = [0], ScalabilityEstimation = null });
        using var disposal = BoundedDisposal.Of(mps);
        ProgramHandle p = mps.AddProgram("p");
        mps.Repartition();
        Assert.Equal(1.0, p.Scalability);
        Assert.Equal(ScalabilitySource.Default, p.ScalabilityState.Source);
        Assert.False(p.ScalabilityState.Estimate.HasEstimate);
    }

    // Small parallel tasks on the program's scheduler until canceled: each round queues a batch and waits for it.
    private static Task Keep(ProgramHandle program, CancellationToken token) => Task.Run(async () =>
    {
        var factory = new TaskFactory(program.Scheduler);
        while (!token.IsCancellationRequested)
        {
            Task[] batch = Enumerable.Range(0, 16).Select(_ => factory.StartNew(() => Thread.SpinWait(20_000))).ToArray();
            await Task.WhenAll(batch);
        }
    });

    private sealed class RecordingPolicy : IPartitioningPolicy
    {
        private readonly EqualSharesPolicy _inner = new();
        private readonly ConcurrentQueue<(int Id, double Scalability)> _seen = new();

        public string Name => "recording";

        public Shares Decide(PartitioningInput input)
        {
            foreach (ProgramLoad load in input.Programs)
            {
                _seen.Enqueue((load.ProgramId, load.Scalability));
            }

            return _inner.Decide(input);
        }

        public bool Saw(int id, double scalability) => _seen.Any(x => x.Id == id && x.Scalability == scalability);

        public IEnumerable<double> SeenFor(int id) => _seen.Where(x => x.Id == id).Select(x => x.Scalability);
    }
}
