using DivCon.Harness.Cyclic;
using DivCon.Harness.Schemes;

namespace DivCon.Harness.Factored;

/// <summary>
/// Fills <see cref="ProgramResult.Factored"/> for one scheme of a cyclic or symmetric test from what its schedulers
/// reported (<see cref="SchemeResult.Schedulers"/>, one per program in program order) — the call a scheme adapter or
/// the experiment makes before the result is written. A program whose scheduler reports no
/// <see cref="SchedulerStats.CoreSeconds"/> (tpl-default, oversubscribed, shared: no per-program accounting) gets
/// <c>null</c> with <see cref="MultiprogramFactored.NoAccountingReason"/>; numbers are never invented.
/// </summary>
public static class CyclicFactored
{
    /// <summary>
    /// Returns <paramref name="scheme"/> with each program's decomposition: the core-seconds held and idle seconds its
    /// scheduler reported in <paramref name="accounting"/> (one per program, in program order: the scheme's
    /// <see cref="SchemeResult.Schedulers"/>, or totals over several repetitions) over a statistics window of
    /// <paramref name="windowSeconds"/> (the arrangement's life: the multiprogram phase; for totals, the windows' sum),
    /// its mean C^MP, and its isolated times from <paramref name="isolated"/> (null or missing: not measured).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="windowSeconds"/> is not finite and positive.</exception>
    public static SchemeResult Attach(SchemeResult scheme, double windowSeconds, IReadOnlyList<SchedulerStats> accounting, Func<string, IsolatedTimes?> isolated)
    {
        ArgumentNullException.ThrowIfNull(scheme);
        ArgumentNullException.ThrowIfNull(accounting);
        ArgumentNullException.ThrowIfNull(isolated);
        if (!double.IsFinite(windowSeconds) || windowSeconds <= 0)
        {
            throw new ArgumentOutOfRangeException(nameof(windowSeconds), windowSeconds, "The statistics window must be finite and positive.");
        }

        return scheme with
        {
            Programs =
            [
                .. scheme.Programs.Select((p, i) => p with { Factored = Factor(p, i < accounting.Count ? accounting[i] : null, windowSeconds, isolated) }),
            ],
        };
    }

    private static MultiprogramFactored Factor(ProgramResult p, SchedulerStats? stats, double windowSeconds, Func<string, IsolatedTimes?> isolated)
    {
        if (stats?.CoreSeconds is not double coreSeconds)
        {
            return new MultiprogramFactored(null, MultiprogramFactored.NoAccountingReason, null);
        }

        if (stats.IdleSeconds is not double idleSeconds)
        {
            return new MultiprogramFactored(null, "the scheme reported the core-time held but not its workers' idle time", null);
        }

        // Idle and core time are read from the same counters at slightly different instants, so idle can exceed
        // the core-time by a rounding step; clamp rather than reject.
        IsolatedTimes? times = isolated(p.Program);
        return MultiprogramFactored.Compute(new ProgramCoreAccounting(p.Program, windowSeconds, coreSeconds,
            Math.Min(idleSeconds, coreSeconds), p.Cmp?.Mean, times?.Sequential, times?.OneWorker, times?.Elision));
    }
}
