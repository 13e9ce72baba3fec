using System.Runtime.InteropServices;

namespace DivCon.Scheduling;

/// <summary>How a pool's workers are placed: one per slot, each pinned to its processor when <see cref="Pinner"/> is set.</summary>
/// <param name="Workers">Worker slots.</param>
/// <param name="Processors">Per slot, the processor asked for (null: none asked for, the workers float).</param>
/// <param name="Pinner">Pins the calling thread to a processor; null when the workers run unpinned.</param>
/// <param name="UnpinnedReason">Why processors were asked for but the workers run unpinned; null otherwise.</param>
internal sealed record PoolPinning(int Workers, int[]? Processors, Action<int>? Pinner, string? UnpinnedReason)
{
    /// <summary>Workers that float (no processor asked for, or unpinned on request with <paramref name="reason"/>).</summary>
    public static PoolPinning Unpinned(int workers, int[]? processors = null, string? reason = null) => new(workers, processors, null, reason);

    /// <summary>
    /// One worker pinned to each of <paramref name="processors"/>; where this platform cannot pin, unpinned with a
    /// reason when <paramref name="bestEffort"/>, else <see cref="PlatformNotSupportedException"/>.
    /// </summary>
    public static PoolPinning Pinned(int[] processors, bool bestEffort)
    {
        if (ThreadAffinity.IsSupported)
        {
            return new PoolPinning(processors.Length, processors, ThreadAffinity.PinCurrentThread, null);
        }

        string reason = $"Pinning threads is not supported on {RuntimeInformation.OSDescription}.";
        if (!bestEffort)
        {
            throw new PlatformNotSupportedException($"{reason} Set BestEffortPinning to run the workers unpinned.");
        }

        return new PoolPinning(processors.Length, processors, null, reason + " The workers run unpinned.");
    }
}

/// <summary>
/// The one construction of a worker pool, for both schedulers (the standalone WorkStealingTaskScheduler and the
/// MultiProgramScheduler): stealing groups and scope, blocking compensation, start-up, and what a failed pin means.
/// </summary>
internal static class PoolConstruction
{
    /// <summary>Validates the options and builds the pool (not started: the caller wires its sets or owner first).</summary>
    /// <exception cref="ArgumentException">An invalid stealing scope, stealing groups or compensation setting; the message says what is allowed.</exception>
    public static WorkerPool Build(
        string threadName,
        PoolPinning pinning,
        StealingScope scope,
        IReadOnlyList<IReadOnlyList<int>>? stealingGroups,
        CpuTopology? stealingTopology,
        bool compensate,
        TimeSpan compensationDelay,
        int maxCompensatingWorkers,
        string paramName)
    {
        if (!Enum.IsDefined(scope))
        {
            throw new ArgumentOutOfRangeException(paramName, scope, "StealingScope must be All or CacheGroupFirst.");
        }

        if (compensate)
        {
            WorkStealingSchedulerOptions.ValidateCompensation(compensationDelay, maxCompensatingWorkers, paramName);
        }

        StealGroups? groups = StealGroups.Resolve(
            pinning.Workers, stealingGroups, stealingTopology, scope == StealingScope.CacheGroupFirst, pinning.Processors, paramName);
        var pool = new WorkerPool(threadName, pinning.Workers, pinning.Pinner is null ? null : pinning.Processors, pinning.Pinner)
        {
            StealGroups = groups,
            StealingScope = scope,
        };
        if (compensate)
        {
            pool.EnableCompensation(maxCompensatingWorkers, compensationDelay);
        }

        return pool;
    }

    /// <summary>
    /// Starts the pool and checks that every worker pinned itself. A failed pin: with <paramref name="bestEffort"/> the
    /// workers run unpinned and the reason is returned; otherwise the pool is shut down and joined and
    /// <see cref="PlatformNotSupportedException"/> says why. Returns why the workers run unpinned (null when pinned, or
    /// when they were never meant to be).
    /// </summary>
    public static string? Start(WorkerPool pool, PoolPinning pinning, bool bestEffort)
    {
        pool.Start();
        Exception? pinError = pool.Workers.Select(w => w.PinError).FirstOrDefault(e => e is not null);
        if (pinError is null)
        {
            return pinning.UnpinnedReason;
        }

        if (!bestEffort)
        {
            pool.BeginShutdown();
            pool.Join();
            throw new PlatformNotSupportedException($"Could not pin the workers: {pinError.Message}", pinError);
        }

        return $"Pinning failed, the workers run unpinned: {pinError.Message}";
    }
}
