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
/// <param name="FinalScores">Task availability: each program's score (allocation / share) in the final allocation.</param>
/// <param name="StartAntt">Hill climbing: the predicted ANTT of the starting allocation.</param>
/// <param name="FinalAntt">Hill climbing: the predicted ANTT of the final allocation.</param>
public sealed record PlanRecord(
    string Policy,
    int Cores,
    IReadOnlyList<double> Speedups,
    IReadOnlyList<double> Shares,
    IReadOnlyList<int> Base,
    IReadOnlyList<int>? Tasks,
    IReadOnlyList<int>? Capped,
    IReadOnlyList<PlanStep> Steps,
    IReadOnlyList<int> Final,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] IReadOnlyList<double>? FinalScores = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] double? StartAntt = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] double? FinalAntt = null);

/// <summary>One step of a plan; which fields it has depends on <paramref name="Kind"/>.</summary>
/// <param name="Kind"><c>at-least-one</c> (a core given so every program has one), <c>task-bounded</c> / <c>unbounded</c> (task availability), <c>hill-climbing-move</c>.</param>
/// <param name="From">The program giving a core (1-based).</param>
/// <param name="To">The program receiving a core (1-based).</param>
/// <param name="Remaining">Cores still to give before this step.</param>
/// <param name="Allocation">The allocation at this step.</param>
/// <param name="Scores">Each program's score (allocation / share) at this step.</param>
/// <param name="Program">The program receiving the next core (1-based).</param>
/// <param name="PredictedAntt">Hill climbing: the predicted ANTT after the move.</param>
public sealed record PlanStep(
    string Kind,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] int? From = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] int? To = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] int? Remaining = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] IReadOnlyList<int>? Allocation = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] IReadOnlyList<double>? Scores = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] int? Program = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] double? PredictedAntt = null);
