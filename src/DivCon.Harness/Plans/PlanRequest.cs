using DivCon.Partitioning;

namespace DivCon.Harness.Plans;

/// <summary>A checked <c>divcon plan</c> request.</summary>
/// <param name="Policy">The policy name.</param>
/// <param name="Input">The policy input; program ids are 1, 2, ….</param>
public sealed record PlanRequest(string Policy, PartitioningInput Input);
