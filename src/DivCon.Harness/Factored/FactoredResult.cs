using DivCon.Metrics.Factored;
using DivCon.Metrics.Results;

namespace DivCon.Harness.Factored;

/// <summary>The outcome of <c>divcon factored</c>, the record <c>factored.json</c> holds: every program's decomposition and how it was measured.</summary>
/// <param name="Size">The problem size name (small, medium, thesis).</param>
/// <param name="Seed">The inputs' seed.</param>
/// <param name="Settings">Worker counts, runs, warm-up runs.</param>
/// <param name="Programs">One result per program, in the order asked for, with every run it was computed from.</param>
/// <param name="Stealing">How the parallel runs' schedulers stole (scope and groups), or null when not recorded.</param>
/// <param name="ProgramSettings">Per program name, a note of its own parameters (a sequence transform's window and grain), or null.</param>
public sealed record FactoredResult(
    string Size,
    int Seed,
    FactoredSettings Settings,
    IReadOnlyList<FactoredProgramResult> Programs,
    StealingRecord? Stealing = null,
    IReadOnlyDictionary<string, string>? ProgramSettings = null) : ExperimentFile(FileKind)
{
    /// <summary>The file kind and base name.</summary>
    public const string FileKind = "factored";

    /// <summary>The method note recorded in the file.</summary>
    public const string MethodNote =
        "Acar, Charguéraud, Rainey: factored speedups. ts, t1, tp, ip, telision are means over the runs in samples; "
        + "t1 is the mean of the P = 1 runs (parallel program on a 1-worker work-stealing scheduler); ip is the workers' idle time during a run "
        + "from the scheduler's counters; wp = p·tp − ip; fp = p·tp − ip − t1; linear = p, maximal = p·ts/t1, idleSpecific = p·ts/(t1 + ip), "
        + "inflationSpecific = p·ts/(p·tp − ip), actual = ts/tp, elision = p·ts/telision (granularity = problem size): ratios of means, not means of ratios. "
        + "fp is the leftover of the identity p·tp = t1 + ip + fp, not measured by itself: it carries every error of tp, ip and t1 (a negative fp is such a bias, not less work). "
        + "ci99: 99 % percentile bootstrap intervals (10 000 resamples, fixed seed) over the rounds, each round measuring ts, telision and one run per p side by side and "
        + "resampled whole; null with fewer than two rounds, or for a value not finite in some resample. With 3 rounds there are only 10 distinct resamples: rough. "
        + "steals are means over the runs; schedulingOverheadSeconds + waitingSeconds = ip (seed 002's split of the idle time). "
        + "Throttling is not inflation: each run's cgroup throttling counters (cpu.stat, read just before and after it) are in samples "
        + "(parallel[].throttling, sequentialThrottling, elisionThrottling; null where there is no cgroup); a point's throttling summarises its runs, "
        + "and its mean throttled core-seconds Θ_P is its own term, subtracted from the leftover: wp = p·tp − ip − Θ_P, fp = wp − (t1 − Θ_1). "
        + "The budget the schedulers were sized by is machine.budget.";

    /// <summary>How every number was computed (<see cref="MethodNote"/>).</summary>
    public string Method => MethodNote;
}
