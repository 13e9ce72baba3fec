namespace DivCon.Harness.Cyclic;

/// <summary>Everything a cyclic or symmetric test produced; what the report writers serialize.</summary>
public sealed record CyclicResult(
    MachineInfo Machine,
    CyclicPlanRecord Configuration,
    DateTimeOffset StartedUtc,
    double ElapsedSeconds,
    IReadOnlyList<ProgramBaseline> Baselines,
    IReadOnlyList<SchemeResult> Schemes,
    IReadOnlyList<SchemeComparison> Comparisons);
