namespace DivCon.Partitioning;

/// <summary>A <see cref="Repartitioner"/>'s answer: the allocation to apply, and whether (and why) the policy's decision was rejected.</summary>
/// <param name="Allocation">The allocation to apply: every worker slot's program id and reason.</param>
/// <param name="Outcome">What was done with the policy's decision.</param>
/// <param name="Rejection">Why the policy's decision was rejected (it threw, returned null, or broke the contract); null when it was not.</param>
public sealed record RepartitionResult(Allocation Allocation, RepartitionOutcome Outcome, string? Rejection);
