using System.Text.Json.Serialization;

namespace DivCon.Harness.Plans;

/// <summary>A partitioning policy's decision step by step (programs numbered from 1, as in the thesis).</summary>
/// <param name="Policy">The policy's name.</param>
/// <param name="Cores">The cores divided.</param>
/// <param name="Speedups">Each program's speedup alone on all cores.</param>
/// <param name="Shares">Proportional shares of the cores.</param>
/// <param name="Base">The base allocation (largest remainder, at least one core each when possible).</param>
/// <param name="Tasks">Available tasks per program (task-availability and idle-lending), or null.</param>
/// <param name="Capped">The base allocation capped by the available tasks, or null.</param>
/// <param name="Steps">Each step of the decision.</param>
/// <param name="Final">The final allocation.</param>
public sealed record PlanRecord(
    string Policy,
    int Cores,
    IReadOnlyList<double> Speedups,
    IReadOnlyList<double> Shares,
    IReadOnlyList<int> Base,
    IReadOnlyList<int>? Tasks,
    IReadOnlyList<int>? Capped,
    IReadOnlyList<PlanStep> Steps,
    IReadOnlyList<int> Final)
{
    /// <summary>Task availability: each program's score (allocation / share) in the final allocation.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public IReadOnlyList<double>? FinalScores { get; init; }

    /// <summary>Hill climbing: the predicted ANTT of the starting allocation.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public double? StartAntt { get; init; }

    /// <summary>Hill climbing: the predicted ANTT of the final allocation.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public double? FinalAntt { get; init; }
}

/// <summary>One step of a plan; which fields it has depends on <paramref name="Kind"/>.</summary>
/// <param name="Kind"><c>at-least-one</c> (a core given so every program has one), <c>task-bounded</c> / <c>unbounded</c> (task availability), <c>hill-climbing-move</c>.</param>
public sealed record PlanStep(string Kind)
{
    /// <summary>The program giving a core (1-based).</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public int? From { get; init; }

    /// <summary>The program receiving a core (1-based).</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public int? To { get; init; }

    /// <summary>Cores still to give before this step.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public int? Remaining { get; init; }

    /// <summary>The allocation at this step.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public IReadOnlyList<int>? Allocation { get; init; }

    /// <summary>Each program's score (allocation / share) at this step.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public IReadOnlyList<double>? Scores { get; init; }

    /// <summary>The program receiving the next core (1-based).</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public int? Program { get; init; }

    /// <summary>Hill climbing: the predicted ANTT after the move.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public double? PredictedAntt { get; init; }
}
