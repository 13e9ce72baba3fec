using DivCon.Partitioning;
using DivCon.Partitioning.Estimation;

namespace DivCon.Simulation.Engine;

/// <summary>
/// The MultiProgramScheduler's policy in a simulation: the real policy object, and when it is asked (at the start and
/// every interval, as the harness's MultiProgramScheduler does, and on demand when set).
/// </summary>
/// <param name="Policy">The policy, asked through the same <see cref="Repartitioner"/> the real scheduler uses.</param>
/// <param name="OnDemand">Also ask it when a program's demand changes (MultiProgramSchedulerOptions.RepartitionOnDemand).</param>
/// <param name="IdleLending">Lend idle workers with <see cref="IdleLending.ChooseBorrower"/> when the policy has no borrower rule (MultiProgramSchedulerOptions.IdleLending).</param>
/// <param name="Estimation">
/// Online scalability (MultiProgramSchedulerOptions.ScalabilityEstimation): the policy is given each program's online
/// estimate instead of the model's scalability, observed at every tick; null: the model's values.
/// </param>
internal sealed record PartitioningSetup(IPartitioningPolicy Policy, bool OnDemand = false, bool IdleLending = false, ScalabilityEstimatorOptions? Estimation = null)
{
    /// <summary>The policy's borrower rule, when it has one.</summary>
    public IIdleLendingPolicy? LendingRule => Policy as IIdleLendingPolicy;

    /// <summary>Whether idle workers are lent (a borrower rule, or the option).</summary>
    public bool Lending => LendingRule is not null || IdleLending;
}
