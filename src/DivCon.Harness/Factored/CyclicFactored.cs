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
    /// Returns <paramref name="scheme"/> with each program's decomposition: its scheduler's core-seconds held and idle
    /// seconds over a statistics window of <paramref name="windowSeconds"/> (the arrangement's life: the multiprogram
    /// phase), its mean C^MP, and its isolated times from <paramref name="isolated"/> (null or missing: not measured).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="windowSeconds"/> is not finite and positive.</exception>
    public static SchemeResult Attach(SchemeResult scheme, double windowSeconds, Func<string, IsolatedTimes?> isolated)
    {
        ArgumentNullException.ThrowIfNull(scheme);
        return Attach(scheme, windowSeconds, scheme.Schedulers, isolated);
    }

    /// <summary>
    /// As <see cref="Attach(SchemeResult, double, Func{string, IsolatedTimes?})"/>, reading core and idle seconds from
    /// <paramref name="accounting"/> (one per program, in program order) instead of <see cref="SchemeResult.Schedulers"/>:
    /// for totals over several repetitions, whose windows sum to <paramref name="windowSeconds"/>.
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

        var programs = new ProgramResult[scheme.Programs.Count];
        for (int i = 0; i < programs.Length; i++)
        {
            ProgramResult p = scheme.Programs[i];
            SchedulerStats? stats = i < accounting.Count ? accounting[i] : null;
            MultiprogramFactored factored;
            if (stats?.CoreSeconds is not double coreSeconds)
            {
                factored = MultiprogramFactored.Unavailable(MultiprogramFactored.NoAccountingReason);
            }
            else if (stats.IdleSeconds is not double idleSeconds)
            {
                factored = MultiprogramFactored.Unavailable("the scheme reported the core-time held but not its workers' idle time");
            }
            else
            {
                // Idle and core time are read from the same counters at slightly different instants, so idle can exceed
                // the core-time by a rounding step; clamp rather than reject.
                IsolatedTimes? times = isolated(p.Program);
                factored = MultiprogramFactored.Compute(new ProgramCoreAccounting(p.Program, windowSeconds, coreSeconds,
                    Math.Min(idleSeconds, coreSeconds), p.Cmp?.Mean, times?.Sequential, times?.OneWorker, times?.Elision));
            }

            programs[i] = p with { Factored = factored };
        }

        return scheme with { Programs = programs };
    }
}
