using DivCon.Metrics.Schemes;
using DivCon.Partitioning;
using DivCon.Simulation.Engine;

namespace DivCon.Simulation;

/// <summary>
/// How the simulator models each scheme of the <see cref="SchemeCatalog"/> that has <see cref="SchemeInfo.Simulated"/>:
/// the same arrangements, and for a partitioned scheme the very policy object the harness gives the
/// <c>MultiProgramScheduler</c>, asked through the same repartitioner every repartitioning interval (the static schemes
/// too: with fewer cores than programs the ticks rotate the cores, so no program is starved for good, as in the
/// harness). Any registered policy can be simulated as a scheme named <c>policy:NAME</c> (for example
/// <c>policy:fixed:4,6,6</c> or <c>policy:scalability</c>), asked every interval, lending when the policy lends.
/// </summary>
internal static class SimulationSchemes
{
    /// <summary>The prefix of a scheme that simulates a registered policy by name (<see cref="PartitioningPolicies.Create"/>).</summary>
    public const string PolicyPrefix = "policy:";

    /// <summary>Whether <paramref name="name"/> is a simulated scheme or a registered policy's scheme; the problem otherwise.</summary>
    public static string? Problem(string name)
    {
        if (name.StartsWith(PolicyPrefix, StringComparison.Ordinal))
        {
            try
            {
                PartitioningPolicies.Create(name[PolicyPrefix.Length..]);
                return null;
            }
            catch (ArgumentException ex)
            {
                return $"Scheme '{name}': {ex.Message}";
            }
        }

        return SchemeCatalog.Simulated.Any(s => s.Name == name)
            ? null
            : $"Unknown scheme '{name}'; use one of: {string.Join(", ", SchemeCatalog.Simulated)}, or {PolicyPrefix}NAME for a policy ({string.Join(", ", PartitioningPolicies.Names)}, fixed:c1,c2,…).";
    }

    /// <summary>One sentence for the reports.</summary>
    public static string Describe(string name) => name.StartsWith(PolicyPrefix, StringComparison.Ordinal)
        ? $"MultiProgramScheduler with the policy '{name[PolicyPrefix.Length..]}', asked every 100 ms."
        : SchemeCatalog.Find(name)!.Description;

    /// <summary>The arrangement and policy of the simulated scheme <paramref name="name"/>.</summary>
    /// <exception cref="ArgumentException">No simulated scheme has that name.</exception>
    public static (Arrangement Arrangement, PartitioningSetup? Partitioning) Resolve(string name)
    {
        if (Problem(name) is { } problem)
        {
            throw new ArgumentException(problem, nameof(name));
        }

        if (name.StartsWith(PolicyPrefix, StringComparison.Ordinal))
        {
            return (Arrangement.Partitioned, new PartitioningSetup(PartitioningPolicies.Create(name[PolicyPrefix.Length..]), Ticks: true));
        }

        SchemeInfo scheme = SchemeCatalog.Simulated.First(s => s.Name == name);
        return scheme.Arrangement switch
        {
            SchemeArrangement.OversubscribedFree => (Arrangement.OversubscribedFree, null),
            SchemeArrangement.OversubscribedPinned => (Arrangement.OversubscribedPinned, null),
            SchemeArrangement.Shared => (Arrangement.SharedPool, null),
            _ => (Arrangement.Partitioned, new PartitioningSetup(scheme.CreatePolicy!(), Ticks: true, scheme.RepartitionOnDemand, scheme.IdleLending)),
        };
    }
}
