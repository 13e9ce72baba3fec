using System.Collections.Concurrent;
using DivCon.Scheduling;

using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Scheduling;

public sealed class PinningTests
{
    [Fact]
    public void Each_pinned_workers_own_affinity_mask_is_exactly_its_processor()
    {
        if (!OperatingSystem.IsLinux() && !OperatingSystem.IsWindows())
        {
            return; // nothing to read back where threads cannot be pinned (covered by the best-effort test)
        }

        IReadOnlyList<int> allowed = ThreadAffinity.GetProcessAffinity();
        var s = WorkStealingTaskScheduler.CreatePinned(allowed);
        using var sDisposal = BoundedDisposal.Of(s);
        Assert.True(s.IsPinned);
        Assert.Null(s.UnpinnedReason);
        Assert.Equal(allowed, s.PinnedProcessors);

        // One task per worker, held at a barrier so that each must run on a different worker.
        using var barrier = new Barrier(allowed.Count);
        var masks = new ConcurrentDictionary<int, IReadOnlyList<int>>();
        Task[] tasks = Enumerable.Range(0, allowed.Count).Select(_ => Task.Factory.StartNew(
            () =>
            {
                Assert.True(barrier.SignalAndWait(TimeSpan.FromSeconds(30)), "Workers did not all arrive.");
                masks[Worker.Current!.Slot] = ThreadAffinity.GetCurrentThreadAffinity();
            },
            CancellationToken.None,
            TaskCreationOptions.None,
            s)).ToArray();
        Assert.True(Task.WaitAll(tasks, TimeSpan.FromSeconds(60)));

        Assert.Equal(allowed.Count, masks.Count);
        foreach ((int slot, IReadOnlyList<int> mask) in masks)
        {
            Assert.Equal([s.PinnedProcessors[slot]], mask);
        }

        Assert.Equal(s.PinnedProcessors, s.GetStatistics().Workers.Select(w => w.ProcessorId!.Value));
    }

    [Fact]
    public void An_unusable_duplicate_or_empty_processor_set_is_rejected_naming_the_allowed_processors()
    {
        IReadOnlyList<int> allowed = ThreadAffinity.GetProcessAffinity();
        int notAllowed = allowed.Max() + 1000;
        foreach (int[] ids in new[] { [notAllowed], [allowed[0], allowed[0]], Array.Empty<int>(), [-1] })
        {
            var ex = Assert.Throws<ArgumentException>(() => WorkStealingTaskScheduler.CreatePinned(ids));
            Assert.Contains("llowed", ex.Message);
            var ex2 = Assert.Throws<ArgumentException>(() => new WorkStealingTaskScheduler(new WorkStealingSchedulerOptions { Processors = ids }));
            Assert.Contains("llowed", ex2.Message);
        }
    }

    [Fact]
    public void A_worker_count_that_disagrees_with_the_processors_is_rejected()
    {
        IReadOnlyList<int> allowed = ThreadAffinity.GetProcessAffinity();
        var ex = Assert.Throws<ArgumentException>(() => new WorkStealingTaskScheduler(
            new WorkStealingSchedulerOptions { Processors = allowed, WorkerCount = allowed.Count + 1 }));
        Assert.Contains("one worker per processor", ex.Message);
    }

    [Fact]
    public void Where_pinning_is_impossible_best_effort_runs_unpinned_and_says_so_otherwise_it_throws()
    {
        IReadOnlyList<int> allowed = ThreadAffinity.GetProcessAffinity();
        if (ThreadAffinity.IsSupported)
        {
            var pinned = WorkStealingTaskScheduler.CreatePinned(allowed, bestEffort: true);
            using var pinnedDisposal = BoundedDisposal.Of(pinned);
            Assert.True(pinned.IsPinned);
            return;
        }

        Assert.Throws<PlatformNotSupportedException>(() => WorkStealingTaskScheduler.CreatePinned(allowed));
        var s = WorkStealingTaskScheduler.CreatePinned(allowed, bestEffort: true);
        using var sDisposal = BoundedDisposal.Of(s);
        Assert.False(s.IsPinned);
        Assert.NotNull(s.UnpinnedReason);
        Assert.Equal(1, Task.Factory.StartNew(() => 1, CancellationToken.None, TaskCreationOptions.None, s).Result);
    }
}
