using DivCon.Metrics;
using DivCon.Metrics.Results;

namespace DivCon.Harness.Cyclic;

/// <summary>
/// Everything a cyclic or symmetric test produced: the record <c>cyclic.json</c> / <c>symmetric.json</c> holds, and
/// what the table, the report, the CSV and the figures are made from. <see cref="Invocations"/> holds every raw run
/// time; every other number is computed from them (<see cref="CyclicResults.Build"/>, <c>divcon analyze</c>).
/// </summary>
/// <param name="Configuration">What was run.</param>
/// <param name="Baselines">Per program, what was measured of it alone (summarized over the invocations).</param>
/// <param name="Schemes">Per scheme, in report order.</param>
/// <param name="Comparisons">ANTT and STP compared between schemes, paired by invocation, Holm-corrected.</param>
/// <param name="Invocations">Every invocation's raw times, in order.</param>
/// <param name="Inference">Per compared metric: the blocked ANOVA and what the run could resolve.</param>
/// <param name="Analysis">How the numbers were analysed (baseline, power, bootstrap), so that they can be recomputed.</param>
/// <param name="Sizing">How <c>--repeat auto</c> chose the number of invocations; null for a fixed number.</param>
/// <param name="Throttling">
/// The cgroup throttling read around every timed run alone and every multiprogram phase (raw samples, all invocations:
/// <c>repetition</c> is the invocation); null where there is no cgroup to read. The run times include throttled time: a
/// throttled phase's NTT and STP measure the quota as much as the scheme.
/// </param>
public sealed record CyclicResult(
    CyclicPlanRecord Configuration,
    IReadOnlyList<ProgramBaseline> Baselines,
    IReadOnlyList<SchemeResult> Schemes,
    IReadOnlyList<SchemeComparison> Comparisons,
    IReadOnlyList<CyclicInvocation> Invocations,
    IReadOnlyList<MetricInference> Inference,
    AnalysisOptions Analysis,
    InvocationSizing? Sizing = null,
    CyclicThrottling? Throttling = null) : ExperimentFile(Configuration.Kind)
{
    /// <summary>The method notes recorded in every cyclic and symmetric result.</summary>
    public static readonly IReadOnlyDictionary<string, string> MethodNotes = new Dictionary<string, string>
    {
        ["invocations"] = "The independent unit is the invocation: one process running C^SP and every scheme once (divcon cyclic --repeat N starts N child "
            + "processes of itself, one after another; the scheme order is shuffled per invocation from the seed and the invocation's number and "
            + "recorded in invocations[].schemeOrder). n is always a number of invocations. Runs within one process share its JIT, heap layout and "
            + "machine state and are not independent; they are never pooled as if they were.",
        ["warmup"] = "C^SP per invocation: after warmupRuns runs, each program runs alone until its last spRuns runs have a coefficient of variation "
            + "(sd/mean) ≤ steadyCv, or maxWarmupRuns more runs have passed (then steadyState is false); those last spRuns runs are C^SP "
            + "(invocations[].programs[].spSeconds), every earlier run is warm-up (warmupSeconds).",
        ["programIntervals"] = "Per program: ntt = mean over invocations of the invocation's mean cmp / mean over the same invocations of its mean csp "
            + "(a ratio of means, each invocation weighted once); ci99 is Fieller's interval for a ratio of two correlated means over the invocations "
            + "(n − 1 df; null when g ≥ 1); np = 1/ntt with the interval [1/upper, 1/lower]. With one invocation, Fieller over its runs (basis runs): "
            + "run-to-run noise only. csp and cmp summarize the per-invocation means (n = invocations), or with one invocation its runs.",
        ["schemeIntervals"] = "antt, mntt, stp: mean, max and Σ 1/x of the programs' ratio-of-means NTTs over the invocations in which every program "
            + "recorded a run; ci99 is the 99 % percentile bootstrap interval over those invocations (analysis.bootstrapResamples resamples, seed "
            + "analysis.bootstrapSeed, the same resamples for the three, so MNTT's bounds are never below ANTT's); null with one invocation. "
            + "repetitions[] are each invocation's own values.",
        ["comparisons"] = "For antt and stp, every pair of schemes (or each scheme against analysis.baseline): the paired differences of the log of each "
            + "invocation's value, a one-sample t-test (n − 1 df), ratio = exp(mean) with its 99 % interval (test.ci) and the simultaneous "
            + "Bonferroni interval over the family (familyCi); holmP is Holm's adjusted p over every comparison of the file; resolved when holmP < 0.01.",
        ["inference"] = "Per metric, the blocked ANOVA (randomized complete blocks: scheme × invocation on the log scale, complete invocations only): "
            + "the scheme effect tested against the error left after the invocation effect, and the invocation effect's share of the variation. "
            + "sdLog = √(2·MS_error) is the pooled sd of a paired log difference; minimumDetectable is the relative difference n invocations resolve "
            + "with power at α/m (m = familySize, Holm's strictest step), by (t(1−α/2m, n−1) + t(power, n−1))·sdLog/√n; invocationsToDetect "
            + "the n that resolves detect.",
        ["scalability"] = "Partitioned schemes divide the cores by each program's scalability, measured in each invocation as the mean of its "
            + "sequentialRuns sequential runs (after one warm-up run) / its mean C^SP (on the C^SP scheme, all cores).",
        ["schedulers"] = "Per scheme and program, what its scheduler reported at the end of the last invocation's phase: workers (for a "
            + "partitioned pool, the workers its allocation gave the program then; poolWorkers is the whole pool), pinning, idle/busy/core "
            + "seconds, tasks, steals; for a partitioned pool, worker moves in/out (arrivals, repartitionings, loans) and repartitionings. "
            + "Every invocation's report is in invocations[].schemes[].schedulers.",
        ["factored"] = "Per program, for schemes whose scheduler accounts per-program core-time and idle time (the MultiProgramScheduler's "
            + "partitioned schemes): the statistics window runs from just before the arrangement registers the programs (the pool's counters "
            + "start there) to the first run stopped at the limit (the pool freezes its counters then), summed over invocations "
            + "(intervalSeconds); coreSecondsHeld and idleSeconds are the pool's counters summed over the same windows. Runs discarded at the "
            + "limit are inside the window (their core-time counts), but only recorded runs make tmp (mean C^MP): the decomposition uses rates, "
            + "coresHeld = core/interval and ip = idle/interval·tmp. ts = mean of every invocation's sequential runs, t1 = mean of every "
            + "invocation's oneWorkerSeconds (a 1-worker work-stealing scheduler). Then wp = coresHeld·tmp − ip and fp = wp − t1: F_P is the "
            + "leftover of the identity P·T_P = T_1 + I_P + F_P, not measured by itself, so it carries every error of the other terms (a negative "
            + "fp is a bias in t1 or ip, not less work). Other schemes: factored null with its reason.",
    };

    /// <summary>How every number was computed (<see cref="MethodNotes"/>), recorded in the file.</summary>
    public IReadOnlyDictionary<string, string> Method => MethodNotes;
}
