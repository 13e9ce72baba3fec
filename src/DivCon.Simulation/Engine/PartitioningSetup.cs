using DivCon.Partitioning;

namespace DivCon.Simulation.Engine;

/// <summary>The MultiProgramScheduler's policy in a simulation: the real policy object, and whether it is asked again every interval.</summary>
/// <param name="Policy">The policy, called through <see cref="IPartitioningPolicy.Decide"/> exactly as the real scheduler calls it.</param>
/// <param name="Ticks">Ask the policy every interval (every built-in scheme, as the harness's MultiProgramScheduler does); false:
/// decide once at the start.</param>
internal sealed record PartitioningSetup(IPartitioningPolicy Policy, bool Ticks)
{
    /// <summary>The policy's idle-lending rule, when it has one.</summary>
    public IIdleLendingPolicy? Lending => Policy as IIdleLendingPolicy;
}
