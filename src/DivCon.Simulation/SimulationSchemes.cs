using DivCon.Simulation.Engine;

namespace DivCon.Simulation;

/// <summary>
/// How the simulator models each scheme of the <see cref="SchemeCatalog"/> that has <see cref="SchemeInfo.Simulated"/>:
/// the same arrangements, and for a partitioned scheme the very policy object the harness gives the
/// <c>MultiProgramScheduler</c>, asked through the same repartitioner every repartitioning interval (the static schemes
/// too: with fewer cores than programs the ticks rotate the cores, so no program is starved for good, as in the
/// harness).
/// </summary>
internal static class SimulationSchemes
{
    /// <summary>Whether <paramref name="name"/> is a simulated scheme; the problem otherwise.</summary>
    public static string? Problem(string name) => SchemeCatalog.Simulated.Any(s => s.Name == name)
        ? null
        : $"Unknown scheme '{name}'; use one of: {string.Join(", ", SchemeCatalog.Simulated)}.";

    /// <summary>The arrangement and policy of the simulated scheme <paramref name="name"/>.</summary>
    /// <exception cref="ArgumentException">No simulated scheme has that name.</exception>
    public static (SchemeArrangement Arrangement, PartitioningSetup? Partitioning) Resolve(string name)
    {
        SchemeInfo scheme = SchemeCatalog.Simulated.FirstOrDefault(s => s.Name == name) ?? throw new ArgumentException(Problem(name), nameof(name));
        return scheme.Arrangement == SchemeArrangement.Partitioned
            ? (scheme.Arrangement, new PartitioningSetup(scheme.CreatePolicy!(), scheme.RepartitionOnDemand, scheme.IdleLending))
            : (scheme.Arrangement, null);
    }
}
