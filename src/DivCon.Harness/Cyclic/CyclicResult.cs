using DivCon.Metrics;
using DivCon.Metrics.Results;

namespace DivCon.Harness.Cyclic;

/// <summary>
/// Everything a cyclic or symmetric test produced: the record <c>cyclic.json</c> / <c>symmetric.json</c> holds, and
/// what the table, the report, the CSV and the figures are made from.
/// </summary>
/// <param name="Configuration">What was run.</param>
/// <param name="Baselines">Per program, what was measured of it alone.</param>
/// <param name="Schemes">Per scheme, in report order.</param>
/// <param name="Comparisons">Welch's test on ANTT and STP for every pair of schemes.</param>
public sealed record CyclicResult(
    CyclicPlanRecord Configuration,
    IReadOnlyList<ProgramBaseline> Baselines,
    IReadOnlyList<SchemeResult> Schemes,
    IReadOnlyList<SchemeComparison> Comparisons) : ExperimentFile
{
    /// <summary>The method notes recorded in every cyclic and symmetric result.</summary>
    public static readonly IReadOnlyDictionary<string, string> MethodNotes = new Dictionary<string, string>
    {
        ["programIntervals"] = "Per program, pooled over repetitions: csp and cmp are samples of runs (mean, Bessel sd, rsd, mean ± t(0.995,n−1)·sd/√n). "
            + "ntt = mean cmp / mean csp; its sd/rsd are of the per-run ratios with csp fixed (run-to-run variability); its ci99 is the delta method for a ratio "
            + "of two independent means, rse² = s_mp²/(k·m_mp²) + s_sp²/(N·m_sp²), se = ntt·rse, Welch–Satterthwaite df. np = 1/ntt with the same relative error.",
        ["schemeIntervals"] = "antt, mntt, stp: mean over repetitions of each repetition's value (computed from that repetition's mean cmp and csp); "
            + "sd and ci99 (Student t, n−1 df) need at least two repetitions (--repeat), otherwise null.",
        ["scalability"] = "Partitioned schemes divide the cores by each program's scalability, measured in the first repetition as "
            + "T_seq (one run of its sequential baseline) / mean C^SP (on the C^SP scheme, all cores): baselines[].scalability.",
        ["schedulers"] = "Per scheme and program, what its scheduler reported at the end of the last repetition's phase: workers (for a "
            + "partitioned pool, the workers its allocation gave the program then; poolWorkers is the whole pool), pinning, idle/busy/core "
            + "seconds, tasks, steals; for a partitioned pool, worker moves in/out (arrivals, repartitionings, loans) and repartitionings.",
        ["comparisons"] = "Welch's unequal-variance t-test on the per-repetition antt and stp of each pair of schemes, two-sided, significant when p < 0.01; "
            + "\"not enough repetitions\" when either has fewer than two.",
        ["factored"] = "Per program, for schemes whose scheduler accounts per-program core-time and idle time (the MultiProgramScheduler's "
            + "partitioned schemes): the statistics window runs from just before the arrangement registers the programs (the pool's counters "
            + "start there) to the first run stopped at the limit (the pool freezes its counters then), summed over repetitions "
            + "(intervalSeconds); coreSecondsHeld and idleSeconds are the pool's counters summed over the same windows. Runs discarded at the "
            + "limit are inside the window (their core-time counts), but only recorded runs make tmp (mean C^MP): the decomposition uses rates, "
            + "coresHeld = core/interval and ip = idle/interval·tmp. ts and t1 are measured alone once per test after the phases, only when "
            + "some scheme has accounting: t1 = mean of 2 runs on a 1-worker work-stealing scheduler, ts = the scalability "
            + "measurement's sequential run when one was made (partitioned schemes need it), else the mean of 2 sequential runs. Then wp = coresHeld·tmp − ip, fp = wp − t1 and the speedups as in factored.json. Other schemes: "
            + "factored null with its reason.",
    };

    /// <summary>
    /// The cgroup throttling read around every timed run alone and every multiprogram phase (raw samples); null where
    /// there is no cgroup to read. The run times include throttled time: a throttled phase's NTT and STP measure the
    /// quota as much as the scheme.
    /// </summary>
    public CyclicThrottling? Throttling { get; init; }

    /// <inheritdoc/>
    protected override string KindOf() => Configuration.Kind;

    /// <summary>How every number was computed (<see cref="MethodNotes"/>), recorded in the file.</summary>
    public IReadOnlyDictionary<string, string> Method => MethodNotes;
}
