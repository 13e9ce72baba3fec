namespace DivCon.Harness.Cyclic;

/// <summary>The configuration of a test as recorded in its results (names and numbers only).</summary>
/// <param name="Kind"><c>cyclic</c> or <c>symmetric</c>.</param>
/// <param name="Programs">The workload.</param>
/// <param name="Schemes">The schemes compared, in report order.</param>
/// <param name="SpScheme">The scheme that measured C^SP.</param>
/// <param name="Size">The problem size.</param>
/// <param name="DurationSeconds">Each multiprogram phase's time limit.</param>
/// <param name="SpRuns">The C^SP window: runs per program per invocation.</param>
/// <param name="WarmupRuns">Runs per program before the window may start.</param>
/// <param name="Repeat">Independent invocations (processes) in the result.</param>
/// <param name="Processors">The processors the schemes used.</param>
/// <param name="Seed">The inputs' seed (and, with each invocation's number, the scheme order).</param>
/// <param name="ShuffleSchemes">Whether each invocation ran the schemes in its own order.</param>
/// <param name="MaxWarmupRuns">The most warm-up runs beyond <paramref name="WarmupRuns"/> spent waiting for a steady C^SP window.</param>
/// <param name="SteadyCv">The coefficient of variation a C^SP window must not exceed to be steady.</param>
/// <param name="SequentialRuns">Timed runs of each sequential baseline per invocation (when measured).</param>
/// <param name="OneWorkerRuns">Runs on one worker (T_1) per program per invocation (when measured).</param>
/// <param name="Detect">
/// How the invocation count was chosen: null for a fixed <c>--repeat N</c>; the relative difference of
/// <c>--repeat auto --detect</c> otherwise (see <see cref="CyclicResult.Sizing"/>).
/// </param>
/// <param name="Scalability">
/// Where the partitioned schemes' scalabilities came from: <c>measured</c> (T_seq / C^SP) or <c>online</c> (the
/// scheduler's estimator); null in files written before it was recorded.
/// </param>
public sealed record CyclicPlanRecord(
    string Kind,
    IReadOnlyList<string> Programs,
    IReadOnlyList<string> Schemes,
    string SpScheme,
    string Size,
    double DurationSeconds,
    int SpRuns,
    int WarmupRuns,
    int Repeat,
    IReadOnlyList<int> Processors,
    int Seed,
    bool ShuffleSchemes,
    int MaxWarmupRuns,
    double SteadyCv,
    int SequentialRuns,
    int OneWorkerRuns,
    double? Detect,
    string? Scalability)
{
    /// <summary>The record of <paramref name="plan"/> run as <paramref name="repeat"/> invocations.</summary>
    public static CyclicPlanRecord From(CyclicPlan plan, int repeat, double? detect = null)
    {
        ArgumentNullException.ThrowIfNull(plan);
        CyclicSettings s = plan.Settings;
        return new CyclicPlanRecord(plan.Kind, plan.Programs.Select(p => p.Name).ToArray(), plan.Schemes.Select(x => x.Name).ToArray(),
            plan.SpScheme.Name, plan.Size, s.Duration.TotalSeconds, s.SpRuns, s.WarmupRuns, repeat, s.Processors, s.Seed, s.ShuffleSchemes,
            s.MaxWarmupRuns, s.SteadyCv, s.SequentialRuns, s.OneWorkerRuns, detect, s.OnlineScalability ? "online" : "measured");
    }
}
