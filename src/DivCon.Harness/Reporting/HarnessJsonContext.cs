using System.Text.Json.Serialization;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Experiments;
using DivCon.Harness.Factored;
using DivCon.Metrics.Results;

namespace DivCon.Harness.Reporting;

/// <summary>
/// The source-generated serializer of every result record the harness writes and reads back (the one way a result
/// file is made: no hand-written writer, no untyped reader).
/// </summary>
[JsonSerializable(typeof(CyclicResult))]
[JsonSerializable(typeof(CyclicInvocationFile))]
[JsonSerializable(typeof(FactoredResult))]
[JsonSerializable(typeof(ScalabilityResult))]
[JsonSerializable(typeof(GranularityResult))]
[JsonSerializable(typeof(PhasesResult))]
[JsonSerializable(typeof(CompareStealingResult))]
[JsonSerializable(typeof(Open.OpenResult))]
[JsonSerializable(typeof(Plans.PlanRecord))]
[JsonSerializable(typeof(TopologyRecord))]
[JsonSerializable(typeof(DivCon.Scheduling.CpuBudget))]
public sealed partial class HarnessJsonContext : JsonSerializerContext
{
    /// <summary>The context with the result files' options (<see cref="ResultJson.CreateOptions"/>).</summary>
    public static HarnessJsonContext Files { get; } = new(ResultJson.CreateOptions());
}
