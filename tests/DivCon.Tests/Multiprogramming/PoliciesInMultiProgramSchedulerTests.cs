using System.Diagnostics;
using DivCon.Multiprogramming;
using DivCon.Partitioning;
using DivCon.Scheduling;

using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Multiprogramming;

/// <summary>
/// Issue 5 must-show 5: the real dynamic policies inside a real MultiProgramScheduler (two pinned workers, 100 ms
/// interval). A program whose tasks run out loses its cores at the first repartitioning that sees it empty (within one
/// interval: no tick that saw it empty left it a core), and gets a core back at the first tick that sees it with tasks
/// again. "Within one interval" is checked in ticks, not wall-clock time, so a loaded machine that delays the
/// repartitioner thread cannot fail it; every wait is bounded.
/// </summary>
public sealed class PoliciesInMultiProgramSchedulerTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    [ProcessorTheory(2)]
    [InlineData(TaskAvailabilityPolicy.PolicyName, false)]
    [InlineData(IdleLendingPolicy.PolicyName, true)]
    public void ProgramWithoutTasks_LosesItsCoresWithinOneInterval_AndGetsThemBackWithTasks(string policyName, bool idleLending)
    {
        int[] processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray();

        var recorder = new RecordingPolicy(PartitioningPolicies.Create(policyName));
        var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            Processors = processors,
            Policy = recorder,
            RepartitionInterval = TimeSpan.FromMilliseconds(100),
            IdleLending = idleLending,
            BestEffortPinning = true,
        });
        var busy = new Chains();
        var sometimes = new Chains();
        try
        {
            ProgramHandle a = mps.AddProgram("always-busy", 1.0);
            ProgramHandle b = mps.AddProgram("sometimes-busy", 1.0);
            busy.Start(a.Scheduler, 16);
            sometimes.Start(b.Scheduler, 16);

            // Both programs run: equal scalabilities and plenty of tasks give one core each.
            WaitUntil(() => sometimes.Executed > 50 && busy.Executed > 50, "both programs to run");
            WaitUntil(() => a.Allocation == 1 && b.Allocation == 1, "one core each while both have tasks");

            // B's tasks run out.
            sometimes.Stop();
            WaitUntil(() => sometimes.InFlight == 0 && b.AvailableTasks == 0, "B's chains to end");
            int drained = recorder.Count;
            WaitUntil(() => b.Allocation == 0 && recorder.Count > drained, "B to lose its cores");

            // The decisions that saw B empty. A tick may have read its input just before B ran dry and be recorded only
            // after `drained` was read (its thread descheduled in between, on a loaded machine): it saw B's tasks, and is
            // not one of them.
            Decision[] sawEmpty = recorder.Since(drained).Where(d => d.Tasks[b.Id] == 0).ToArray();
            Decision first = sawEmpty.First();
            Assert.Equal(0, first.Cores[b.Id]); // the first tick that saw B empty took its core
            Assert.Equal(2, first.Cores[a.Id]);
            Assert.All(sawEmpty, d => Assert.Equal(0, d.Cores[b.Id]));
            Assert.DoesNotContain(b.Id, mps.GetSnapshot().WorkerPrograms);
            WaitUntil(() => !mps.GetSnapshot().WorkerServing.Contains(b.Id), "B's last worker to move to A");
            long executedWhileEmpty = sometimes.Executed;

            // B has tasks again.
            int refilled = recorder.Count;
            sometimes.Start(b.Scheduler, 16);
            WaitUntil(() => b.Allocation >= 1, "B to get a core back");
            Decision back = recorder.Since(refilled).First(d => d.Tasks[b.Id] > 0);
            Assert.Equal(1, back.Cores[b.Id]); // the first tick that saw B's tasks gave it its share
            Assert.All(recorder.Since(refilled).Where(d => d.Tasks[b.Id] > 0), d => Assert.True(d.Cores[b.Id] >= 1));
            WaitUntil(() => sometimes.Executed > executedWhileEmpty + 50, "B's tasks to run again");
            Assert.Equal(0, mps.RejectedAllocations);
            Assert.True(b.GetStatistics().MovesOut >= 1 && b.GetStatistics().MovesIn >= 2);
        }
        finally
        {
            busy.Stop();
            sometimes.Stop();
            WaitUntil(() => busy.InFlight == 0 && sometimes.InFlight == 0, "every chain to end");
            Assert.True(Task.Run(mps.Dispose).Wait(Timeout), "Dispose did not return in time.");
        }
    }

    /// <summary>
    /// IIdleLendingPolicy's contract (src/DivCon/Partitioning/IIdleLendingPolicy.cs, IdleLending.cs): "The mechanism
    /// checks for this interface and, when present, follows the protocol" — an idle worker asks ChooseBorrower and is
    /// lent to the program it names. With IdleLendingPolicy and MultiProgramSchedulerOptions.IdleLending left off, and
    /// no tick, only a loan can move the idle program's worker to the busy one.
    /// </summary>
    [ProcessorFact(2)]
    public void IdleLendingPolicy_AloneMakesAnIdleWorkerServeAProgramWithTasks()
    {
        int[] processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray();

        var mps = new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            Processors = processors,
            Policy = new IdleLendingPolicy(),
            RepartitionInterval = System.Threading.Timeout.InfiniteTimeSpan, // no tick: only a loan can move a worker
            BestEffortPinning = true,
        });
        var chains = new Chains();
        try
        {
            ProgramHandle idle = mps.AddProgram("idle", 1.0);
            ProgramHandle busy = mps.AddProgram("busy", 1.0);
            Assert.Equal(1, idle.Allocation); // no tasks anywhere at arrival: one core each
            chains.Start(busy.Scheduler, 16);

            WaitUntil(() => busy.GetStatistics().MovesIn > 1, "the idle program's worker to be lent to the busy one");
        }
        finally
        {
            chains.Stop();
            WaitUntil(() => chains.InFlight == 0, "every chain to end");
            Assert.True(Task.Run(mps.Dispose).Wait(Timeout), "Dispose did not return in time.");
        }
    }

    private static void WaitUntil(Func<bool> condition, string what)
    {
        var sw = Stopwatch.StartNew();
        while (!condition())
        {
            Assert.True(sw.Elapsed < Timeout, $"Timed out waiting for {what}.");
            Thread.Sleep(2);
        }
    }

    /// <summary>One decision: per program id, the available tasks the policy saw and the cores it gave.</summary>
    private sealed record Decision(IReadOnlyDictionary<int, int> Tasks, IReadOnlyDictionary<int, int> Cores);

    /// <summary>The real policy, with every decision it made recorded (the mechanism calls it under its lock).</summary>
    private sealed class RecordingPolicy(IPartitioningPolicy inner) : IPartitioningPolicy
    {
        private readonly List<Decision> _decisions = [];

        public string Name => inner.Name;

        public int Count
        {
            get
            {
                lock (_decisions)
                {
                    return _decisions.Count;
                }
            }
        }

        public RotationScope Rotation => inner.Rotation;

        public Shares Decide(PartitioningInput input)
        {
            Shares allocation = inner.Decide(input);
            var tasks = input.Programs.ToDictionary(p => p.ProgramId, p => p.AvailableTasks);
            var cores = input.Programs.ToDictionary(p => p.ProgramId, p => allocation.CoresOf(p.ProgramId));
            lock (_decisions)
            {
                _decisions.Add(new Decision(tasks, cores));
            }

            return allocation;
        }

        public IReadOnlyList<Decision> Since(int index)
        {
            lock (_decisions)
            {
                return _decisions.Skip(index).Where(d => d.Tasks.Count == 2).ToArray();
            }
        }
    }

    /// <summary>
    /// Chains of short tasks, each queuing its successor until stopped: a program that always has tasks available
    /// (chains minus running workers) while it runs, and none once stopped and drained.
    /// </summary>
    private sealed class Chains
    {
        private volatile bool _stop;
        private long _executed;
        private int _inFlight;

        public long Executed => Interlocked.Read(ref _executed);

        public int InFlight => Volatile.Read(ref _inFlight);

        public void Start(TaskScheduler scheduler, int chains)
        {
            _stop = false;
            for (int i = 0; i < chains; i++)
            {
                Interlocked.Increment(ref _inFlight);
                Task.Factory.StartNew(() => Step(scheduler), CancellationToken.None, TaskCreationOptions.None, scheduler);
            }
        }

        public void Stop() => _stop = true;

        private void Step(TaskScheduler scheduler)
        {
            var sw = Stopwatch.StartNew();
            while (sw.Elapsed < TimeSpan.FromMilliseconds(0.5))
            {
                Thread.SpinWait(20);
            }

            Interlocked.Increment(ref _executed);
            if (_stop)
            {
                Interlocked.Decrement(ref _inFlight);
                return;
            }

            Task.Factory.StartNew(() => Step(scheduler), CancellationToken.None, TaskCreationOptions.None, scheduler);
        }
    }
}
