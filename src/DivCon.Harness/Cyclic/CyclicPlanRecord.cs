namespace DivCon.Harness.Cyclic;

/// <summary>The configuration of a test as recorded in its results (names and numbers only).</summary>
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
    bool ShuffleSchemes)
{
    /// <summary>The record of <paramref name="plan"/>.</summary>
    public static CyclicPlanRecord From(CyclicPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        CyclicSettings s = plan.Settings;
        return new CyclicPlanRecord(plan.Kind, plan.Programs.Select(p => p.Name).ToArray(), plan.Schemes.Select(x => x.Name).ToArray(),
            plan.SpScheme.Name, plan.Size, s.Duration.TotalSeconds, s.SpRuns, s.WarmupRuns, s.Repeat, s.Processors, s.Seed, s.ShuffleSchemes);
    }
}
